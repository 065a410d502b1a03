//! What both shells build a session from: the four options they share ([`ShellArgs`]), and the
//! [`SessionSpec`] made of them and the configuration (the engine to start, the log directory,
//! the transcript, the session's settings). The stdio proxy runs one session from it, the
//! daemon one per connection.

use std::ffi::OsString;
use std::path::PathBuf;

use super::engine;
use super::respawn::EngineCommand;
use crate::config::{Config, default_log_dir};
use crate::logging::{LogSettings, session_id};
use crate::poslog::Rotation;
use crate::session::{Adapter, Guard, RestartPolicy, Session, Settings};

/// `[--config FILE] [--log-dir DIR] [-v...] [-- ENGINE [ARGS...]]`: the options of the proxy
/// and of `fenguard serve` alike.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct ShellArgs {
    /// Configuration file (TOML). Default: `$FENGUARD_CONFIG`, else built-in defaults.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Directory for `fenguard.log` and the positions logs (overrides `log.dir`).
    #[arg(long, value_name = "DIR")]
    pub log_dir: Option<PathBuf>,
    /// More logging: `-v` turns on the transcript, `-vv` debug, `-vvv` trace.
    #[arg(short, long, action = clap::ArgAction::Count)]
    pub verbose: u8,
    /// The engine and its arguments (overrides `engine.command` and `engine.args`).
    #[arg(last = true, value_name = "ENGINE [ARGS...]")]
    pub engine: Vec<OsString>,
}

/// A session's making, resolved once at start: the configuration, the engine command, where
/// logs go and how much is logged.
#[derive(Debug, Clone)]
pub struct SessionSpec {
    /// The loaded configuration.
    pub config: Config,
    /// The engine (resolved program, arguments, `[engine]` settings), started again on restarts.
    pub command: EngineCommand,
    /// `--log-dir`, else `log.dir`, else the default ([`default_log_dir`]); `None`: no file logs.
    pub log_dir: Option<PathBuf>,
    /// Every line both ways in `fenguard.log`: `log.transcript` or `-v`.
    pub transcript: bool,
    /// Count of `-v` flags.
    pub verbose: u8,
    /// `book.file`, read at start (relative to the configuration file's directory).
    pub book: Option<std::sync::Arc<crate::book::Book>>,
}

impl SessionSpec {
    /// The configuration (`--config`, else `$FENGUARD_CONFIG`, else the defaults:
    /// [`Config::load`]) and the engine: the command line's `-- ENGINE ARGS...` when given, else
    /// `engine.command` / `engine.args`, its program resolved on `PATH` (and the games
    /// directories, [`engine::resolve`]).
    ///
    /// # Errors
    /// The message for a configuration that cannot be read or an engine that cannot be found.
    pub fn load(args: &ShellArgs) -> Result<SessionSpec, String> {
        let from_env = std::env::var_os("FENGUARD_CONFIG")
            .filter(|v| !v.is_empty())
            .map(PathBuf::from);
        let argv0 = std::env::args_os().next().unwrap_or_default();
        let var = |name: &str| std::env::var(name).ok();
        let (config, file) = match crate::profile::name_of(&argv0) {
            Some(name) => {
                let path = std::env::var_os("PATH");
                let loaded = crate::profile::load(
                    &name,
                    args.config.clone().or(from_env),
                    crate::profile::exe_dir(&argv0, path.as_deref()),
                    crate::profile::config_dir(&var),
                )?;
                (loaded.config, loaded.file)
            }
            None => {
                let file = args.config.clone().or_else(|| from_env.clone());
                let config = Config::load(args.config.as_deref(), from_env)
                    .map_err(|e| format!("config error: {e}"))?;
                (config, file)
            }
        };
        let book = load_book(&config.book.file, file.as_deref())?;
        let (command, engine_args) = match args.engine.split_first() {
            Some((command, rest)) => (command.clone(), rest.to_vec()),
            None => (
                OsString::from(&config.engine.command),
                config.engine.args.iter().map(OsString::from).collect(),
            ),
        };
        let program = engine::resolve(&command, std::env::var_os("PATH").as_deref())
            .map_err(|e| e.to_string())?;
        let log_dir = args.log_dir.clone().or_else(|| {
            if config.log.dir.is_empty() {
                default_log_dir(|name| std::env::var(name).ok())
            } else {
                Some(PathBuf::from(&config.log.dir))
            }
        });
        Ok(SessionSpec {
            command: EngineCommand {
                program,
                args: engine_args,
                config: config.engine.clone(),
            },
            transcript: config.log.transcript || args.verbose >= 1,
            book,
            verbose: args.verbose,
            log_dir,
            config,
        })
    }

    /// The logging of this process; `positions` opens `positions.jsonl` (the proxy's one
    /// session; the daemon's sessions open their own).
    pub fn log_settings(&self, positions: bool) -> LogSettings {
        LogSettings {
            dir: self.log_dir.clone(),
            level: self.config.log.level,
            verbose: self.verbose,
            positions,
            transcript: self.transcript,
            session_id: session_id(),
            rotation: self.rotation(),
        }
    }

    /// `log.max_bytes` and `log.keep`.
    pub fn rotation(&self) -> Rotation {
        Rotation::of(&self.config.log)
    }

    /// A new session: the position settings, the restart policy and `guard.commands`; with a
    /// `guard` (the daemon's option guard), only UCI commands reach the engine.
    pub fn session(&self, guard: Option<Guard>) -> Session {
        let config = &self.config;
        let settings = Settings {
            positions: config.positions.clone(),
            log_positions: config.log.positions,
        };
        let seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64)
            ^ u64::from(std::process::id());
        let adapter = Adapter::from_config(config, self.book.clone(), seed);
        let session = Session::with_settings(self.transcript, settings)
            .with_restart(RestartPolicy::from(&config.engine))
            .with_adapter(adapter)
            .with_commands(config.guard.commands);
        match guard {
            Some(guard) => session.with_guard(guard),
            None => session,
        }
    }
}

/// Reads `book.file` (empty: no book), a relative path from the directory of `config_file`.
///
/// # Errors
/// The message for a book that cannot be read.
fn load_book(
    file: &str,
    config_file: Option<&std::path::Path>,
) -> Result<Option<std::sync::Arc<crate::book::Book>>, String> {
    if file.is_empty() {
        return Ok(None);
    }
    let mut path = PathBuf::from(file);
    if path.is_relative()
        && let Some(dir) = config_file.and_then(std::path::Path::parent)
    {
        path = dir.join(path);
    }
    let bytes = std::fs::read(&path)
        .map_err(|e| format!("config error: book.file {}: {e}", path.display()))?;
    let book = crate::book::Book::from_bytes(&bytes)
        .map_err(|e| format!("config error: book.file {}: {e}", path.display()))?;
    tracing::debug!("book {}: {} entries", path.display(), book.len());
    Ok(Some(std::sync::Arc::new(book)))
}
