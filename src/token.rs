//! Access tokens of the daemon: `fenguard token new`, and checking a client's token against
//! the stored hashes (SPEC section 11).
//!
//! ```
//! use fenguard::token::{Tokens, hash_hex};
//!
//! let tokens = Tokens::from_text(&format!("{}\n", hash_hex("s3cret")));
//! assert!(tokens.accepts("s3cret"));
//! assert!(!tokens.accepts("s3cret "));
//! ```
//!
//! A token is 32 random bytes from the operating system, written as 64 lowercase hex digits.
//! The tokens file holds only their SHA-256 hashes (hex, one a line; blank lines and lines
//! starting with `#` are ignored), so a leaked file does not let anyone in. A client's token is
//! hashed and compared with every stored hash in constant time.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use sha2::{Digest as _, Sha256};

/// SHA-256 of `token`'s bytes, as 64 lowercase hex digits.
pub fn hash_hex(token: &str) -> String {
    hex(&Sha256::digest(token.as_bytes()))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The accepted token hashes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tokens {
    hashes: Vec<[u8; 32]>,
}

impl Tokens {
    /// Reads the hashes of a tokens file's text; lines that are not 64 hex digits are skipped.
    pub fn from_text(text: &str) -> Tokens {
        let hashes = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .filter_map(parse_hash)
            .collect();
        Tokens { hashes }
    }

    /// Loads `path`; a missing file is no tokens.
    ///
    /// # Errors
    /// The I/O error when the file exists but cannot be read.
    pub fn load(path: &Path) -> std::io::Result<Tokens> {
        match std::fs::read_to_string(path) {
            Ok(text) => Ok(Tokens::from_text(&text)),
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => Ok(Tokens::default()),
            Err(err) => Err(err),
        }
    }

    /// No token is configured.
    pub fn is_empty(&self) -> bool {
        self.hashes.is_empty()
    }

    /// Whether `token` hashes to a stored hash; every stored hash is compared, each in constant
    /// time.
    pub fn accepts(&self, token: &str) -> bool {
        let digest: [u8; 32] = Sha256::digest(token.as_bytes()).into();
        let mut found = 0u8;
        for stored in &self.hashes {
            let diff = stored
                .iter()
                .zip(digest.iter())
                .fold(0u8, |acc, (a, b)| acc | (a ^ b));
            found |= u8::from(diff == 0);
        }
        std::hint::black_box(found) == 1
    }
}

fn parse_hash(line: &str) -> Option<[u8; 32]> {
    if line.len() != 64 || !line.is_ascii() {
        return None;
    }
    let mut out = [0u8; 32];
    for (i, byte) in out.iter_mut().enumerate() {
        *byte = u8::from_str_radix(&line[2 * i..2 * i + 2], 16).ok()?;
    }
    Some(out)
}

/// A new random token (64 hex digits).
///
/// # Errors
/// When the operating system's random source fails.
pub fn new_token() -> Result<String, getrandom::Error> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes)?;
    Ok(hex(&bytes))
}

/// `fenguard token new [--tokens-file F]`.
#[derive(Debug, Clone, clap::Args)]
pub struct TokenArgs {
    /// What to do: `new` prints a new token alone on stdout and appends its hash.
    #[arg(value_parser = ["new"])]
    pub action: String,
    /// The tokens file (default: `serve.tokens_file` of `--config` / `$FENGUARD_CONFIG`, else
    /// `$XDG_CONFIG_HOME/fenguard/tokens`, else `~/.config/fenguard/tokens`).
    #[arg(long, value_name = "F")]
    pub tokens_file: Option<PathBuf>,
    /// Configuration file (for `serve.tokens_file`).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
}

/// Runs `fenguard token new`: exit 0, or 2 with a message on stderr.
pub fn run(args: &TokenArgs) -> ExitCode {
    match new_into(args) {
        Ok(token) => {
            println!("{token}");
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("fenguard: {message}");
            ExitCode::from(2)
        }
    }
}

fn new_into(args: &TokenArgs) -> Result<String, String> {
    let path = match &args.tokens_file {
        Some(path) => path.clone(),
        None => {
            let from_env = std::env::var_os("FENGUARD_CONFIG")
                .filter(|v| !v.is_empty())
                .map(PathBuf::from);
            let config = crate::config::Config::load(args.config.as_deref(), from_env)
                .map_err(|e| format!("config error: {e}"))?;
            config
                .serve
                .tokens_path(|name| std::env::var(name).ok())
                .ok_or("no tokens file: pass --tokens-file F (no XDG_CONFIG_HOME nor HOME)")?
        }
    };
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
        .open(&path)
        .map_err(|e| format!("cannot open tokens file {}: {e}", path.display()))?;
    writeln!(file, "{}", hash_hex(&token))
        .map_err(|e| format!("cannot write tokens file {}: {e}", path.display()))?;
    Ok(token)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hash_is_sha256_hex() {
        assert_eq!(
            hash_hex("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn wrong_token_is_refused_and_comments_are_skipped() {
        let tokens = Tokens::from_text(&format!("# mine\n\n{}\nnot-a-hash\n", hash_hex("a")));
        assert!(tokens.accepts("a"));
        assert!(!tokens.accepts("b"));
        assert!(!tokens.accepts(""));
    }

    #[test]
    fn new_tokens_are_64_hex_digits_and_differ() {
        let (a, b) = (new_token().unwrap(), new_token().unwrap());
        assert_eq!(a.len(), 64);
        assert!(a.bytes().all(|c| c.is_ascii_hexdigit()));
        assert_ne!(a, b);
    }
}
