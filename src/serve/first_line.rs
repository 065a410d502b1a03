//! The verdict on a connection's first line (SPEC sections 11 and 12): `auth <token>` when
//! tokens are configured; with none, an `auth` line (dropped) or a UCI command (the first line
//! of the session). Anything else, an HTTP request line for one, is refused and nothing of it
//! reaches an engine.
//!
//! ```
//! use fenguard::serve::first_line::{judge, NOT_UCI};
//! use fenguard::token::Tokens;
//!
//! let none = Tokens::default();
//! assert_eq!(judge(b"uci", b"isready\n".to_vec(), false, &none), Ok(b"uci\nisready\n".to_vec()));
//! assert_eq!(judge(b"POST / HTTP/1.1", Vec::new(), false, &none), Err(NOT_UCI));
//! ```
//!
//! Words are separated by the bytes C's `isspace` accepts in the C locale: space, `\t`, `\n`,
//! `\v`, `\f`, `\r`.

use crate::token::Tokens;

/// The UCI commands a GUI may start with (SPEC section 12).
pub const UCI_COMMANDS: [&[u8]; 11] = [
    b"uci",
    b"debug",
    b"isready",
    b"setoption",
    b"register",
    b"ucinewgame",
    b"position",
    b"go",
    b"stop",
    b"ponderhit",
    b"quit",
];

/// Refusal: a first line that is not `auth <token>` when tokens are configured.
pub const MISSING_TOKEN: &str = "missing token: the first line must be `auth <token>`";
/// Refusal: `auth` with a token that is not configured.
pub const WRONG_TOKEN: &str = "wrong token";
/// Refusal: with no tokens, a first line that is neither `auth` nor a UCI command.
pub const NOT_UCI: &str = "first line is not a UCI command";

/// Whether `byte` is a separator (C `isspace`).
pub fn is_c_space(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

/// The words of `line`, split at C `isspace` bytes.
pub fn words(line: &[u8]) -> impl Iterator<Item = &[u8]> {
    line.split(|&b| is_c_space(b)).filter(|w| !w.is_empty())
}

/// An admitted first line: what the session starts with and the token that opened it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Admitted {
    /// The bytes the session starts with (what followed the `auth` line, or the UCI line and
    /// what followed it).
    pub prefix: Vec<u8>,
    /// The SHA-256 hash of the token the client sent; `None` when no tokens are required.
    pub token: Option<[u8; 32]>,
}

/// The bytes the session starts with (what followed the `auth` line, or the UCI line and what
/// followed it), or the refusal reason. `auth_required`: tokens are configured (then `tokens`
/// may be empty after a reload that removed them all: every token is wrong).
///
/// # Errors
/// [`MISSING_TOKEN`], [`WRONG_TOKEN`] or [`NOT_UCI`].
pub fn judge(
    line: &[u8],
    rest: Vec<u8>,
    auth_required: bool,
    tokens: &Tokens,
) -> Result<Vec<u8>, &'static str> {
    admit(line, rest, auth_required, tokens).map(|admitted| admitted.prefix)
}

/// [`judge`], with the hash of the token that was accepted (the daemon ends the session when a
/// reload drops that token).
///
/// # Errors
/// [`MISSING_TOKEN`], [`WRONG_TOKEN`] or [`NOT_UCI`].
pub fn admit(
    line: &[u8],
    rest: Vec<u8>,
    auth_required: bool,
    tokens: &Tokens,
) -> Result<Admitted, &'static str> {
    let tokenless = |prefix| Admitted {
        prefix,
        token: None,
    };
    let mut words = words(line);
    let first = words.next();
    let is_auth = first == Some(b"auth".as_slice());
    if !auth_required {
        if is_auth {
            return Ok(tokenless(rest));
        }
        if !first.is_some_and(|w| UCI_COMMANDS.contains(&w)) {
            return Err(NOT_UCI);
        }
        let mut prefix = line.to_vec();
        prefix.push(b'\n');
        prefix.extend_from_slice(&rest);
        return Ok(tokenless(prefix));
    }
    if !is_auth {
        return Err(MISSING_TOKEN);
    }
    let token = words.next().and_then(|t| std::str::from_utf8(t).ok());
    let last = words.next().is_none();
    match token.map(|token| tokens.find(token).filter(|_| last)) {
        Some(Some(hash)) => Ok(Admitted {
            prefix: rest,
            token: Some(hash),
        }),
        Some(None) => Err(WRONG_TOKEN),
        None => Err(MISSING_TOKEN),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::token::hash_hex;

    #[test]
    fn every_c_space_separates_words() {
        let words: Vec<&[u8]> = words(b"\x0bauth\x0cabc\t\r").collect();
        assert_eq!(words, vec![b"auth".as_slice(), b"abc"]);
    }

    #[test]
    fn auth_with_a_vertical_tab_is_still_auth() {
        let tokens = Tokens::from_text(&hash_hex("abc"));
        assert_eq!(
            judge(b"auth\x0babc", b"uci\n".to_vec(), true, &tokens),
            Ok(b"uci\n".to_vec())
        );
        assert_eq!(
            judge(b"auth abc extra", Vec::new(), true, &tokens),
            Err(WRONG_TOKEN)
        );
        assert_eq!(judge(b"uci", Vec::new(), true, &tokens), Err(MISSING_TOKEN));
    }

    #[test]
    fn without_tokens_only_uci_commands_or_auth_start_a_session() {
        let none = Tokens::default();
        for line in [
            b"GET / HTTP/1.1".as_slice(),
            b"",
            b"Uci",
            b"\x16\x03\x01",
            b"ucinewgamex",
        ] {
            assert_eq!(
                judge(line, Vec::new(), false, &none),
                Err(NOT_UCI),
                "{line:?}"
            );
        }
        assert_eq!(
            judge(b"auth x", b"uci\n".to_vec(), false, &none),
            Ok(b"uci\n".to_vec())
        );
        assert_eq!(
            judge(b"\tposition startpos", Vec::new(), false, &none),
            Ok(b"\tposition startpos\n".to_vec())
        );
    }

    #[test]
    fn an_admitted_session_knows_the_hash_of_its_token() {
        let tokens = Tokens::from_text(&format!("{}\n{}\n", hash_hex("a"), hash_hex("b")));
        let admitted = admit(b"auth b", Vec::new(), true, &tokens).unwrap();
        assert_eq!(
            admitted.token.map(|h| crate::token::hex(&h)),
            Some(hash_hex("b"))
        );
        let tokenless = admit(b"uci", Vec::new(), false, &Tokens::default()).unwrap();
        assert_eq!(tokenless.token, None);
    }

    #[test]
    fn with_tokens_but_none_left_every_token_is_wrong() {
        assert_eq!(
            judge(b"auth abc", Vec::new(), true, &Tokens::default()),
            Err(WRONG_TOKEN)
        );
    }
}
