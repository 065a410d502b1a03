//! Access tokens of the daemon: `fenguard token new|list|revoke`, and checking a client's token against
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
//! The tokens file holds only their SHA-256 hashes (hex, one a line, each optionally followed
//! by whitespace and a label; blank lines and lines starting with `#` are ignored), so a leaked
//! file does not let anyone in. A client's token is
//! hashed and compared with every stored hash in constant time.

use std::path::Path;

use sha2::{Digest as _, Sha256};

/// SHA-256 of `token`'s bytes, as 64 lowercase hex digits.
pub fn hash_hex(token: &str) -> String {
    hex(&Sha256::digest(token.as_bytes()))
}

mod cli;

pub use cli::{TokenAction, TokenArgs, run};

pub(crate) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// One line of a tokens file: a token's hash and its label.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// SHA-256 of the token.
    pub hash: [u8; 32],
    /// The label written by `fenguard token new --label L`; `None` on a hash-only line.
    pub label: Option<String>,
}

impl Entry {
    /// The hash as 64 lowercase hex digits.
    pub fn hash_hex(&self) -> String {
        hex(&self.hash)
    }
}

/// The accepted token hashes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tokens {
    entries: Vec<Entry>,
}

impl Tokens {
    /// Reads a tokens file's text: per line a hash (64 hex digits), optionally whitespace and a
    /// label; blank lines, `#` comments and lines without a valid hash are skipped.
    pub fn from_text(text: &str) -> Tokens {
        let entries = text.lines().filter_map(parse_line).collect();
        Tokens { entries }
    }

    /// Loads `path`, which must exist (a configured `serve.tokens_file`).
    ///
    /// # Errors
    /// The I/O error when the file is missing or cannot be read.
    pub fn load(path: &Path) -> std::io::Result<Tokens> {
        std::fs::read_to_string(path).map(|text| Tokens::from_text(&text))
    }

    /// Loads `path` where a missing file is no tokens (the default tokens file).
    ///
    /// # Errors
    /// The I/O error when the file exists but cannot be read.
    pub fn load_or_empty(path: &Path) -> std::io::Result<Tokens> {
        match Tokens::load(path) {
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => Ok(Tokens::default()),
            other => other,
        }
    }

    /// No token is configured.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// How many tokens are configured.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// The entries, in file order.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// Whether `token` hashes to a stored hash; every stored hash is compared, each in constant
    /// time.
    pub fn accepts(&self, token: &str) -> bool {
        self.find(token).is_some()
    }

    /// The stored SHA-256 hash `token` hashes to, or `None`; every stored hash is compared,
    /// each in constant time. The daemon keeps it with the session the token opened, so that
    /// a reload without it ends that session.
    pub fn find(&self, token: &str) -> Option<[u8; 32]> {
        let digest: [u8; 32] = Sha256::digest(token.as_bytes()).into();
        let mut found = 0u8;
        for stored in &self.entries {
            let diff = stored
                .hash
                .iter()
                .zip(digest.iter())
                .fold(0u8, |acc, (a, b)| acc | (a ^ b));
            found |= u8::from(diff == 0);
        }
        (std::hint::black_box(found) == 1).then_some(digest)
    }

    /// Whether `hash` (a SHA-256 hash, as [`Tokens::find`] gives it) is stored.
    pub fn holds(&self, hash: &[u8; 32]) -> bool {
        self.entries.iter().any(|e| &e.hash == hash)
    }

    /// The entry of `hash`, for its label.
    pub fn entry(&self, hash: &[u8; 32]) -> Option<&Entry> {
        self.entries.iter().find(|e| &e.hash == hash)
    }
}

/// What is loose about a tokens file's `mode` (its permission bits): `Some("readable by group
/// or others")`, `Some("writable by group or others")`, or `None` when only its owner may read
/// or write it. A loose file is warned about by the daemon and `token list`, and made 0600 by
/// `token new` and `token revoke`.
pub fn loose_mode(mode: u32) -> Option<&'static str> {
    if mode & 0o044 != 0 {
        Some("readable by group or others")
    } else if mode & 0o022 != 0 {
        Some("writable by group or others")
    } else {
        None
    }
}

/// A warning when the file at `path` is loose ([`loose_mode`]); `None` when it is not, or
/// cannot be looked at, or off Unix.
pub fn loose_permissions(path: &Path) -> Option<String> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        let mode = std::fs::metadata(path).ok()?.permissions().mode() & 0o777;
        loose_mode(mode).map(|what| {
            format!(
                "tokens file {} is {what} (mode {mode:o}): `chmod 600` it",
                path.display()
            )
        })
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        None
    }
}

/// Parses one tokens-file line into an entry; `None` for a blank, comment or malformed line.
pub fn parse_line(line: &str) -> Option<Entry> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return None;
    }
    let (hash, label) = match line.split_once(|c: char| c.is_ascii_whitespace()) {
        Some((hash, label)) => (
            hash,
            Some(label.trim().to_owned()).filter(|l| !l.is_empty()),
        ),
        None => (line, None),
    };
    Some(Entry {
        hash: parse_hash(hash)?,
        label,
    })
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
    fn a_label_may_follow_the_hash_and_hash_only_lines_still_count() {
        let text = format!("{} laptop-alice\n{}\n", hash_hex("a"), hash_hex("b"));
        let tokens = Tokens::from_text(&text);
        assert!(tokens.accepts("a") && tokens.accepts("b"));
        let labels: Vec<_> = tokens.entries().iter().map(|e| e.label.clone()).collect();
        assert_eq!(labels, vec![Some("laptop-alice".to_owned()), None]);
    }

    #[test]
    fn new_tokens_are_64_hex_digits_and_differ() {
        let (a, b) = (new_token().unwrap(), new_token().unwrap());
        assert_eq!(a.len(), 64);
        assert!(a.bytes().all(|c| c.is_ascii_hexdigit()));
        assert_ne!(a, b);
    }
}
