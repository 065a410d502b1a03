//! Configuration (SPEC section 5): the TOML file, its defaults and where it is looked up.
//!
//! ```
//! let config = fenguard::config::Config::from_toml("[engine]\nquit_grace_ms = 250\n", "x.toml").unwrap();
//! assert_eq!(config.engine.quit_grace_ms, 250);
//! assert_eq!(config.engine.command, "stockfish");
//! ```
//!
//! Every section and key has a default, so an empty file (or no file) is a valid configuration.
//! An unknown key or a bad value is a [`ConfigError`] that names the file, the place and the
//! dotted key path (`engine.quit_grace_ms`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

pub mod adapter;
pub use adapter::{BookConfig, OptionPresets, OptionsMode, SearchConfig, TimeConfig, Variation};

/// The whole configuration file: `[engine]`, `[positions]`, `[guard]`, `[log]`, `[serve]`, `[provider]`
/// and `[metrics]`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Config {
    /// How to start the engine and when to give up on it.
    pub engine: EngineConfig,
    /// What to do with `position` commands (used by the position interception).
    pub positions: PositionsConfig,
    /// What reaches the engine (SPEC section 12).
    pub guard: GuardConfig,
    /// Where and what to log.
    pub log: LogConfig,
    /// The daemon (`fenguard serve`, SPEC section 11).
    pub serve: crate::serve::config::ServeConfig,
    /// lichess's external-engine provider (`fenguard provide`, SPEC section 13).
    pub provider: crate::provide::config::ProviderConfig,
    /// The metrics listener of `serve` and `provide` (SPEC section 13).
    pub metrics: crate::metrics::config::MetricsConfig,
    /// A safety margin on the clock (SPEC section 15).
    pub time: TimeConfig,
    /// Searches the engine ends too early (SPEC section 15).
    pub search: SearchConfig,
    /// An opening book fenguard answers from (SPEC section 15).
    pub book: BookConfig,
    /// `[profiles.NAME]`: the sections a `fenguard-NAME` executable uses over the others
    /// (SPEC section 15; [`crate::profile`]). A profile holds no profiles.
    pub profiles: BTreeMap<String, Config>,
}

/// The `[engine]` section.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct EngineConfig {
    /// Path, or a name looked up on `PATH`; never run through a shell. Default `stockfish`.
    pub command: String,
    /// Arguments passed to the engine. Default none.
    pub args: Vec<String>,
    /// Working directory of the engine; empty: inherit fenguard's. Default empty.
    pub working_dir: String,
    /// Extra environment variables for the engine. Default none.
    pub env: BTreeMap<String, String>,
    /// Milliseconds the engine gets to exit after `quit` or the GUI's end of input, then it is
    /// killed. Default 1000.
    pub quit_grace_ms: u64,
    /// Restart a crashed or hung engine and restore the GUI's options and position. Default
    /// true.
    pub restart: bool,
    /// Restarts per minute before fenguard gives up. Default 5.
    pub max_restarts: u32,
    /// No `uciok` this many milliseconds after `uci`: the engine is hung. Default 30000.
    pub startup_timeout_ms: u64,
    /// No `readyok` this many milliseconds after `isready`: the engine is hung. Default 10000.
    pub ping_timeout_ms: u64,
    /// `[engine.options]`: options set at start and after every restart. Default none.
    pub options: OptionPresets,
    /// Whether the GUI may change a preset option (`default`) or not (`force`). Default
    /// `default`.
    pub options_mode: OptionsMode,
    /// Engine options not shown to the GUI (names, ASCII case-insensitive). Default none.
    pub hide_options: Vec<String>,
    /// `{OLD = "NEW"}`: engine options shown to the GUI as NEW; the GUI's `setoption name NEW`
    /// reaches the engine as OLD. Default none.
    pub rename_options: BTreeMap<String, String>,
    /// Shown to the GUI instead of the engine's `id name`; empty: the engine's. Default empty.
    pub id_name: String,
    /// Shown to the GUI instead of the engine's `id author`; empty: the engine's. Default empty.
    pub id_author: String,
}

impl Default for EngineConfig {
    fn default() -> Self {
        EngineConfig {
            command: "stockfish".to_owned(),
            args: Vec::new(),
            working_dir: String::new(),
            env: BTreeMap::new(),
            quit_grace_ms: 1000,
            restart: true,
            max_restarts: 5,
            startup_timeout_ms: 30_000,
            ping_timeout_ms: 10_000,
            options: OptionPresets::default(),
            options_mode: OptionsMode::Default,
            hide_options: Vec::new(),
            rename_options: BTreeMap::new(),
            id_name: String::new(),
            id_author: String::new(),
        }
    }
}

/// The `[positions]` section (SPEC sections 5 to 7).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct PositionsConfig {
    /// What to do with an invalid position. Default `repair`.
    pub on_invalid: OnInvalid,
    /// Castling field sent to the engine. Default `auto`.
    pub castling: CastlingOut,
    /// En passant field sent to the engine. Default `legal`.
    pub en_passant: EnPassantOut,
    /// Who decides Chess960 rules. Default `gui`.
    pub chess960: Chess960Mode,
    /// Validate `moves`. Default true. Castling-move notation is translated whenever the
    /// GUI's and the engine's differ, even when false.
    pub check_moves: bool,
    /// Diagnostics go to the GUI as `info string fenguard: ...`. Default true.
    pub report_to_gui: bool,
}

impl Default for PositionsConfig {
    fn default() -> Self {
        PositionsConfig {
            on_invalid: OnInvalid::Repair,
            castling: CastlingOut::Auto,
            en_passant: EnPassantOut::Legal,
            chess960: Chess960Mode::Gui,
            check_moves: true,
            report_to_gui: true,
        }
    }
}

/// The `[guard]` section (SPEC section 12).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct GuardConfig {
    /// `any` (default: a line that is not a UCI command is relayed byte for byte) or `uci`
    /// (only UCI commands reach the engine; others are answered `info string fenguard: command
    /// not allowed: WORD`). `fenguard serve` always uses `uci`.
    pub commands: crate::session::Commands,
}

/// `positions.on_invalid`: `repair | reject | forward` (SPEC section 6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OnInvalid {
    /// Repair errors with one safe reading, reject the rest.
    Repair,
    /// Reject every invalid position.
    Reject,
    /// Forward the GUI's line unchanged; only log and report.
    Forward,
}

/// `positions.castling`: `auto | xfen | shredder`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CastlingOut {
    /// Shredder-FEN while the engine is in Chess960 mode, else `KQkq`.
    Auto,
    /// X-FEN castling letters.
    Xfen,
    /// Shredder-FEN file letters.
    Shredder,
}

/// `positions.en_passant`: `legal | xfen | fen`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EnPassantOut {
    /// Only when a legal en passant capture exists.
    Legal,
    /// When a capture is pseudo-legal (X-FEN).
    Xfen,
    /// Every valid en passant square as given.
    Fen,
}

/// `positions.chess960`: `gui | detect`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Chess960Mode {
    /// The GUI's `UCI_Chess960` decides the rules.
    Gui,
    /// A position that needs Chess960 switches the engine to Chess960.
    Detect,
}

/// The `[log]` section.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct LogConfig {
    /// Log directory; empty: `$XDG_STATE_HOME/fenguard`, else `~/.local/state/fenguard`.
    pub dir: String,
    /// Write `positions.jsonl`. Default true.
    pub positions: bool,
    /// Every line both ways, timestamped, in `fenguard.log`. Default false.
    pub transcript: bool,
    /// Level of `fenguard.log`; `RUST_LOG` overrides. Default `info`.
    pub level: LogLevel,
    /// `fenguard.log` and `positions.jsonl` each rotate before passing this many bytes; 0:
    /// never. Default 16 MiB; otherwise at least 4096.
    #[serde(deserialize_with = "max_bytes")]
    pub max_bytes: u64,
    /// Rotated files kept (`positions.jsonl.1` newest ... `.<keep>`), at most 1000. Default 5.
    #[serde(deserialize_with = "keep")]
    pub keep: u32,
}

impl Default for LogConfig {
    fn default() -> Self {
        LogConfig {
            dir: String::new(),
            positions: true,
            transcript: false,
            level: LogLevel::Info,
            max_bytes: 16 << 20,
            keep: 5,
        }
    }
}

/// `log.max_bytes`: 0, or at least 4096.
fn max_bytes<'de, D: serde::Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
    let n = u64::deserialize(d)?;
    if n != 0 && n < 4096 {
        return Err(serde::de::Error::custom(format!(
            "expected 0 (never rotate) or at least 4096 bytes, got {n}"
        )));
    }
    Ok(n)
}

/// `log.keep`: at most 1000.
fn keep<'de, D: serde::Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    let n = u32::deserialize(d)?;
    if n > 1000 {
        return Err(serde::de::Error::custom(format!(
            "expected at most 1000 rotated files, got {n}"
        )));
    }
    Ok(n)
}

/// `log.level`: `error | warn | info | debug | trace`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LogLevel {
    /// Errors only.
    Error,
    /// Warnings and errors.
    Warn,
    /// The default.
    Info,
    /// Debugging detail.
    Debug,
    /// Everything.
    Trace,
}

impl LogLevel {
    /// The name as written in the file and understood by `RUST_LOG`.
    pub fn as_str(self) -> &'static str {
        match self {
            LogLevel::Error => "error",
            LogLevel::Warn => "warn",
            LogLevel::Info => "info",
            LogLevel::Debug => "debug",
            LogLevel::Trace => "trace",
        }
    }
}

/// A configuration that cannot be used; fenguard exits with status 2.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The file could not be read.
    #[error("cannot read config file {}: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The file is not valid TOML or has an unknown key or a bad value.
    #[error("{}:{line}:{column}: {}{message}", path.display(), key.as_ref().map(|k| format!("key `{k}`: ")).unwrap_or_default())]
    Invalid {
        /// The file.
        path: PathBuf,
        /// 1-based line of the fault.
        line: usize,
        /// 1-based column of the fault.
        column: usize,
        /// Dotted key path (`engine.quit_grace_ms`), when the fault is at a key or its value.
        key: Option<String>,
        /// What is wrong (from the TOML parser, one line).
        message: String,
    },
}

impl Config {
    /// Parses a configuration from TOML text; `path` only names the file in errors.
    ///
    /// # Errors
    /// [`ConfigError::Invalid`] for bad TOML, an unknown key or a bad value.
    pub fn from_toml(text: &str, path: impl AsRef<Path>) -> Result<Config, ConfigError> {
        let config: Config = Config::parse(text, path.as_ref())?;
        if let Some((key, message)) = config.fault() {
            let at = text
                .find(key.rsplit('.').next().unwrap_or(&key))
                .unwrap_or(0);
            let (line, column) = line_column(text, at);
            return Err(ConfigError::Invalid {
                path: path.as_ref().to_path_buf(),
                line,
                column,
                key: Some(key),
                message,
            });
        }
        Ok(config)
    }

    /// A value serde accepts that fenguard cannot use: its dotted key and what is wrong.
    fn fault(&self) -> Option<(String, String)> {
        let e = &self.engine;
        let line_break = |v: &str| v.contains(['\n', '\r']);
        if line_break(&e.id_name) {
            return Some(("engine.id_name".into(), "a line break in it".into()));
        }
        if line_break(&e.id_author) {
            return Some(("engine.id_author".into(), "a line break in it".into()));
        }
        for (old, new) in &e.rename_options {
            if new.trim().is_empty() || line_break(new) || line_break(old) {
                return Some((
                    format!("engine.rename_options.{old}"),
                    "expected a one-line, non-empty option name".into(),
                ));
            }
        }
        if let Some(message) = self.serve.client_options_fault() {
            return Some(("serve.client_options".into(), message));
        }
        for (name, profile) in &self.profiles {
            if !profile.profiles.is_empty() {
                return Some((
                    format!("profiles.{name}.profiles"),
                    "a profile cannot hold profiles".into(),
                ));
            }
            if let Some((key, message)) = profile.fault() {
                return Some((format!("profiles.{name}.{key}"), message));
            }
        }
        None
    }

    /// Deserializes `text` (errors placed and named as in [`Config::from_toml`]).
    pub(crate) fn parse<T: serde::de::DeserializeOwned>(
        text: &str,
        path: &Path,
    ) -> Result<T, ConfigError> {
        toml::from_str(text).map_err(|err| {
            let start = err.span().map_or(0, |span| span.start).min(text.len());
            let (line, column) = line_column(text, start);
            ConfigError::Invalid {
                path: path.to_path_buf(),
                line,
                column,
                key: key_path_at(text, start),
                message: err.message().trim().replace('\n', "; "),
            }
        })
    }

    /// Loads the configuration: `explicit` (`--config`), else `$FENGUARD_CONFIG` (given as
    /// `from_env`), else the built-in defaults.
    ///
    /// # Errors
    /// [`ConfigError`] when the chosen file cannot be read or is invalid.
    pub fn load(explicit: Option<&Path>, from_env: Option<PathBuf>) -> Result<Config, ConfigError> {
        let Some(path) = explicit.map(Path::to_path_buf).or(from_env) else {
            return Ok(Config::default());
        };
        let text = std::fs::read_to_string(&path).map_err(|source| ConfigError::Read {
            path: path.clone(),
            source,
        })?;
        Config::from_toml(&text, &path)
    }
}

/// The default log directory: `$XDG_STATE_HOME/fenguard`, else `$HOME/.local/state/fenguard`
/// (on Windows `%LOCALAPPDATA%\fenguard`); `None` when none of these variables is set.
pub fn default_log_dir(var: impl Fn(&str) -> Option<String>) -> Option<PathBuf> {
    let non_empty = |name: &str| var(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    if let Some(state) = non_empty("XDG_STATE_HOME") {
        return Some(state.join("fenguard"));
    }
    if cfg!(windows)
        && let Some(local) = non_empty("LOCALAPPDATA")
    {
        return Some(local.join("fenguard"));
    }
    non_empty("HOME").map(|home| home.join(".local").join("state").join("fenguard"))
}

/// 1-based line and column (in bytes) of byte offset `at` in `text`.
fn line_column(text: &str, at: usize) -> (usize, usize) {
    let before = &text.as_bytes()[..at];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |p| p + 1);
    (line, at - line_start + 1)
}

/// The dotted key path of the `key = value` line holding byte `at`, prefixed by the last
/// `[table]` header before it; `None` when that line has no key.
fn key_path_at(text: &str, at: usize) -> Option<String> {
    let line_start = text[..at].rfind('\n').map_or(0, |p| p + 1);
    let line = text[line_start..].lines().next().unwrap_or("");
    let key = line.split_once('=')?.0.trim().trim_matches('"');
    if key.is_empty() || key.starts_with('[') || key.starts_with('#') {
        return None;
    }
    let table = text[..line_start]
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with('[') && !l.starts_with("[["))
        .filter_map(|l| l.strip_prefix('[')?.split(']').next())
        .next_back();
    Some(match table {
        Some(table) => format!("{}.{key}", table.trim()),
        None => key.to_owned(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn invalid(text: &str) -> (Option<String>, usize, String) {
        match Config::from_toml(text, "f.toml") {
            Err(ConfigError::Invalid {
                key, line, message, ..
            }) => (key, line, message),
            other => panic!("expected an invalid config, got {other:?}"),
        }
    }

    #[test]
    fn empty_file_gives_spec_defaults() {
        let config = Config::from_toml("", "f.toml").unwrap();
        assert_eq!(config, Config::default());
        assert_eq!(config.engine.quit_grace_ms, 1000);
        assert_eq!(config.engine.max_restarts, 5);
        assert_eq!(config.positions.on_invalid, OnInvalid::Repair);
        assert!(config.log.positions);
        assert!(!config.log.transcript);
        assert_eq!(config.log.level, LogLevel::Info);
    }

    #[test]
    fn repo_config_file_equals_defaults() {
        let text = include_str!("../config/fenguard.toml");
        assert_eq!(
            Config::from_toml(text, "config/fenguard.toml").unwrap(),
            Config::default()
        );
    }

    #[test]
    fn unknown_key_is_named_with_its_table() {
        let (key, line, message) = invalid("[engine]\ncommand = \"sf\"\nquit_grace = 5\n");
        assert_eq!(key.as_deref(), Some("engine.quit_grace"));
        assert_eq!(line, 3);
        assert!(message.contains("unknown field `quit_grace`"), "{message}");
    }

    #[test]
    fn bad_value_names_the_key() {
        let (key, line, _) = invalid("[log]\nlevel = \"loud\"\n");
        assert_eq!(key.as_deref(), Some("log.level"));
        let (key, _, _) = invalid("[log]\nmax_bytes = 100\n");
        assert_eq!(key.as_deref(), Some("log.max_bytes"));
        let (key, _, _) = invalid("[log]\nkeep = 1001\n");
        assert_eq!(key.as_deref(), Some("log.keep"));
        assert_eq!(line, 2);
    }

    #[test]
    fn wrong_type_names_the_key() {
        let (key, _, _) = invalid("[engine]\nquit_grace_ms = \"soon\"\n");
        assert_eq!(key.as_deref(), Some("engine.quit_grace_ms"));
    }

    #[test]
    fn unknown_table_is_an_error() {
        let (_, line, message) = invalid("[engines]\ncommand = \"sf\"\n");
        assert_eq!(line, 1);
        assert!(message.contains("unknown field `engines`"), "{message}");
    }

    #[test]
    fn error_message_is_one_line_naming_file_and_key() {
        let err =
            Config::from_toml("[positions]\non_invalid = \"fix\"\n", "dir/f.toml").unwrap_err();
        let text = err.to_string();
        assert!(text.starts_with("dir/f.toml:2:"), "{text}");
        assert!(text.contains("key `positions.on_invalid`"), "{text}");
        assert!(!text.contains('\n'), "{text}");
    }

    #[test]
    fn engine_section_is_read() {
        let text = "[engine]\ncommand = \"/opt/sf\"\nargs = [\"-x\"]\nenv = { A = \"1\" }\n";
        let config = Config::from_toml(text, "f.toml").unwrap();
        assert_eq!(config.engine.command, "/opt/sf");
        assert_eq!(config.engine.args, vec!["-x".to_owned()]);
        assert_eq!(config.engine.env.get("A").map(String::as_str), Some("1"));
    }

    #[test]
    fn no_file_gives_defaults() {
        assert_eq!(Config::load(None, None).unwrap(), Config::default());
    }

    #[test]
    fn explicit_file_wins_over_environment() {
        let err = Config::load(
            Some(Path::new("/nonexistent/a.toml")),
            Some("/b.toml".into()),
        );
        match err {
            Err(ConfigError::Read { path, .. }) => {
                assert_eq!(path, Path::new("/nonexistent/a.toml"))
            }
            other => panic!("expected a read error, got {other:?}"),
        }
    }

    #[test]
    fn log_dir_prefers_xdg_state_home() {
        let var = |name: &str| match name {
            "XDG_STATE_HOME" => Some("/s".to_owned()),
            "HOME" => Some("/h".to_owned()),
            _ => None,
        };
        assert_eq!(default_log_dir(var), Some(PathBuf::from("/s/fenguard")));
    }

    #[test]
    fn log_dir_falls_back_to_home() {
        let var = |name: &str| (name == "HOME").then(|| "/h".to_owned());
        assert_eq!(
            default_log_dir(var),
            Some(PathBuf::from("/h/.local/state/fenguard"))
        );
    }
}
