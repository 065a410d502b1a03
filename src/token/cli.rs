//! `fenguard token new [--label L] | list | revoke LABEL|PREFIX`: editing the tokens file.
//!
//! `new` prints a new token alone on stdout and appends `HASH LABEL` (or `HASH`) to the file;
//! `list` prints one line a token, `LABEL PREFIX` (the label, `-` when none, and the first 12
//! hex digits of its hash), never a secret; `revoke` removes the one token whose label is
//! LABEL, else the one whose hash starts with PREFIX (at least 4 hex digits), and refuses a
//! prefix that matches more than one. The file is rewritten whole (a temporary file renamed
//! over it, mode 0600); a running daemon picks the change up at SIGHUP.
//!
//! Modes (Unix): the file is created 0600. `new` on an existing file that group or others may
//! read or write tightens it to 0600 first (noted on stderr), and refuses (exit 2, naming the
//! file and its mode) when it cannot: not its owner, a read-only file system. `revoke`
//! rewrites the file 0600 with its owner and group kept where the system lets it (a loose mode
//! is noted on stderr as dropped). `list` only reads: it
//! warns on stderr about a loose mode and lists as usual.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use super::{hash_hex, new_token, parse_line};

/// Digits of a hash `token list` shows.
const PREFIX_LEN: usize = 12;

/// Fewest hex digits `token revoke` takes as a prefix.
const MIN_PREFIX: usize = 4;

/// `fenguard token [--tokens-file F] [--config FILE] ACTION`.
#[derive(Debug, Clone, clap::Args)]
pub struct TokenArgs {
    /// What to do.
    #[command(subcommand)]
    pub action: TokenAction,
    /// The tokens file (default: `serve.tokens_file` of `--config` / `$FENGUARD_CONFIG`, else
    /// `$XDG_CONFIG_HOME/fenguard/tokens`, else `~/.config/fenguard/tokens`).
    #[arg(long, value_name = "F", global = true)]
    pub tokens_file: Option<PathBuf>,
    /// Configuration file (for `serve.tokens_file`).
    #[arg(long, value_name = "FILE", global = true)]
    pub config: Option<PathBuf>,
}

/// The token subcommands.
#[derive(Debug, Clone, clap::Subcommand)]
pub enum TokenAction {
    /// Print a new random token alone on stdout and append its hash (and label).
    New {
        /// A name for the token (no whitespace, unique in the file), shown by `token list`.
        #[arg(long, value_name = "L")]
        label: Option<String>,
    },
    /// List the tokens: label and hash prefix, one a line (never a token).
    List,
    /// Remove the token with this label, else the one whose hash starts with this prefix.
    Revoke {
        /// A label, or at least 4 hex digits of a hash.
        which: String,
    },
}

/// Runs a token subcommand: exit 0, or 2 with a message on stderr.
pub fn run(args: &TokenArgs) -> ExitCode {
    let result = tokens_path(args).and_then(|path| match &args.action {
        TokenAction::New { label } => new_into(&path, label.as_deref()).map(|t| println!("{t}")),
        TokenAction::List => list(&path),
        TokenAction::Revoke { which } => revoke(&path, which),
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("fenguard: {message}");
            ExitCode::from(2)
        }
    }
}

fn tokens_path(args: &TokenArgs) -> Result<PathBuf, String> {
    if let Some(path) = &args.tokens_file {
        return Ok(path.clone());
    }
    let from_env = std::env::var_os("FENGUARD_CONFIG")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from);
    let config = crate::config::Config::load(args.config.as_deref(), from_env)
        .map_err(|e| format!("config error: {e}"))?;
    config
        .serve
        .tokens_path(|name| std::env::var(name).ok())
        .ok_or_else(|| "no tokens file: pass --tokens-file F (no XDG_CONFIG_HOME nor HOME)".into())
}

fn read(path: &Path) -> Result<String, String> {
    std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read tokens file {}: {e}", path.display()))
}

fn new_into(path: &Path, label: Option<&str>) -> Result<String, String> {
    if let Some(label) = label {
        if label.is_empty()
            || label.starts_with('#')
            || label.chars().any(|c| c.is_whitespace() || c.is_control())
        {
            return Err(format!(
                "bad label `{label}`: expected a word without whitespace, not starting with `#`"
            ));
        }
        if path.exists() {
            let text = read(path)?;
            if text
                .lines()
                .filter_map(parse_line)
                .any(|e| e.label.as_deref() == Some(label))
            {
                return Err(format!(
                    "a token labelled `{label}` exists already in {}",
                    path.display()
                ));
            }
        }
    }
    tighten(path)?;
    let token = new_token().map_err(|e| format!("no random source: {e}"))?;
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    let mut options = std::fs::OpenOptions::new();
    options.create(true).append(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut file = options
        .open(path)
        .map_err(|e| format!("cannot open tokens file {}: {e}", path.display()))?;
    let line = match label {
        Some(label) => format!("{} {label}", hash_hex(&token)),
        None => hash_hex(&token),
    };
    writeln!(file, "{line}")
        .map_err(|e| format!("cannot write tokens file {}: {e}", path.display()))?;
    Ok(token)
}

/// Makes an existing tokens file that group or others may read or write 0600 (saying so on
/// stderr); nothing for a missing or tight one.
///
/// # Errors
/// When it is loose and its mode cannot be changed, naming the file, its mode and why.
fn tighten(path: &Path) -> Result<(), String> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        let Ok(meta) = std::fs::metadata(path) else {
            return Ok(());
        };
        let mode = meta.permissions().mode() & 0o777;
        let Some(what) = super::loose_mode(mode) else {
            return Ok(());
        };
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600)).map_err(|e| {
            format!(
                "tokens file {} is {what} (mode {mode:o}) and cannot be made 0600: {e}; `chmod 600` it or pass another --tokens-file",
                path.display()
            )
        })?;
        eprintln!(
            "fenguard: tokens file {} was {what} (mode {mode:o}): made 0600",
            path.display()
        );
    }
    #[cfg(not(unix))]
    let _ = path;
    Ok(())
}

fn list(path: &Path) -> Result<(), String> {
    if let Some(warning) = super::loose_permissions(path) {
        eprintln!("fenguard: warning: {warning} (`fenguard token new` makes it 0600)");
    }
    let text = read(path)?;
    let mut out = String::new();
    for entry in text.lines().filter_map(parse_line) {
        let label = entry.label.as_deref().unwrap_or("-");
        out.push_str(&format!("{label} {}\n", &entry.hash_hex()[..PREFIX_LEN]));
    }
    print!("{out}");
    Ok(())
}

fn revoke(path: &Path, which: &str) -> Result<(), String> {
    let text = read(path)?;
    let lines: Vec<&str> = text.lines().collect();
    let by_label: Vec<usize> = matching(&lines, |e| e.label.as_deref() == Some(which));
    let chosen = if by_label.is_empty() {
        let prefix = which.to_ascii_lowercase();
        if prefix.len() < MIN_PREFIX || !prefix.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(format!(
                "no token labelled `{which}` (a hash prefix needs at least {MIN_PREFIX} hex digits)"
            ));
        }
        matching(&lines, |e| e.hash_hex().starts_with(&prefix))
    } else {
        by_label
    };
    let index = match chosen.as_slice() {
        [] => {
            return Err(format!(
                "no token labelled or with a hash starting `{which}`"
            ));
        }
        [one] => *one,
        many => {
            let shown: Vec<String> = many
                .iter()
                .filter_map(|&i| parse_line(lines[i]))
                .map(|e| e.hash_hex()[..PREFIX_LEN].to_owned())
                .collect();
            return Err(format!(
                "`{which}` matches {} tokens ({}): give more digits",
                many.len(),
                shown.join(", ")
            ));
        }
    };
    let mut kept = String::new();
    for (i, line) in lines.iter().enumerate() {
        if i != index {
            kept.push_str(line);
            kept.push('\n');
        }
    }
    let loose = super::loose_permissions(path);
    rewrite(path, &kept)?;
    if loose.is_some() {
        eprintln!(
            "fenguard: tokens file {} was readable or writable by group or others: rewritten 0600",
            path.display()
        );
    }
    if let Some(entry) = parse_line(lines[index]) {
        let prefix = &entry.hash_hex()[..PREFIX_LEN];
        let label = entry.label.as_deref().unwrap_or("-");
        eprintln!("fenguard: revoked {label} {prefix}; a running daemon refuses it after SIGHUP");
    }
    Ok(())
}

/// Indexes of the lines whose entry satisfies `want`.
fn matching(lines: &[&str], want: impl Fn(&super::Entry) -> bool) -> Vec<usize> {
    lines
        .iter()
        .enumerate()
        .filter(|(_, l)| parse_line(l).is_some_and(|e| want(&e)))
        .map(|(i, _)| i)
        .collect()
}

/// Replaces `path` with `text` through a temporary file in the same directory.
fn rewrite(path: &Path, text: &str) -> Result<(), String> {
    let tmp = path.with_extension("fenguard-tmp");
    let mut options = std::fs::OpenOptions::new();
    options.create(true).write(true).truncate(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let fail = |e: std::io::Error| format!("cannot rewrite tokens file {}: {e}", path.display());
    // A leftover temporary file would keep its own mode.
    let _ = std::fs::remove_file(&tmp);
    let mut file = options.open(&tmp).map_err(fail)?;
    keep_owner(path, &file);
    file.write_all(text.as_bytes())
        .and_then(|()| file.sync_all())
        .map_err(fail)?;
    std::fs::rename(&tmp, path).map_err(fail)
}

/// Gives `file` (the new tokens file) the owner and group of the one at `path`, where the
/// system lets it (root running `token revoke` on a file the daemon's user owns): the daemon
/// must still read the file at its next SIGHUP, or it keeps the revoked token.
fn keep_owner(path: &Path, file: &std::fs::File) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt as _;
        if let Ok(old) = std::fs::metadata(path) {
            let _ = std::os::unix::fs::fchown(file, Some(old.uid()), Some(old.gid()));
        }
    }
    #[cfg(not(unix))]
    let _ = (path, file);
}
