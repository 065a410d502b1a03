//! Parse and rewrite UCI protocol lines (no I/O). The rules of chess (reading a move, castling
//! notation, move lists, the pv rewrite) are the [`crate::rules`] layer's.
//!
//! Lines are byte slices as read from a pipe: they may end in `\n` or `\r\n`, hold runs of
//! whitespace, and need not be UTF-8. Every parser here works on `&[u8]` and reports
//! [`Token`]s with byte spans into the original line, so that a rewrite can keep every other
//! byte identical and a diagnostic can point at its place. Whitespace is what the engines'
//! own readers skip: C's `isspace` in the C locale ([`is_uci_space`]), so that fenguard reads
//! a line exactly as the engine behind it will (SPEC section 12).
//!
//! ```
//! use fenguard::uci::{command_word, parse_position, PositionStart};
//!
//! let line = b"position startpos moves e2e4 e7e5\r\n";
//! assert_eq!(command_word(line), b"position");
//! let cmd = parse_position(line).unwrap();
//! assert_eq!(cmd.start, PositionStart::Startpos);
//! assert_eq!(cmd.moves[1].text, b"e7e5");
//! assert_eq!(cmd.moves[1].span, 29..33);
//! ```
//!
//! Modules: [`gui_command`] (the UCI command words and the canonical form fenguard forwards),
//! [`command`] (GUI commands `position`, `go`, `setoption`; engine `option` lines),
//! [`engine_line`] (move fields of `bestmove` and `info`), [`castling`] (the two UCI castling
//! notations), [`diag`] (move diagnostics), [`broker`] (the stricter grammar lichess's
//! external-engine broker reads engine output in).
//! Source: the UCI protocol description (Stefan Meyer-Kahlen, April 2006), SPEC sections 3, 6, 7.

pub mod broker;
pub mod castling;
pub mod command;
pub mod diag;
pub mod engine_line;
pub mod gui_command;

use std::ops::Range;

pub use castling::Notation;
pub use command::{
    CommandError, EngineOption, GoCommand, PositionCommand, PositionStart, SetOption,
    parse_check_value, parse_go, parse_option, parse_position, parse_setoption,
};
pub use diag::{Code, MoveDiagnostic, Severity, move_severity};
pub use engine_line::{EngineLine, MoveField, MoveSequence, engine_move_sequences, splice};
pub use gui_command::{
    UciCommand, canonical_line, hidden_command, holds_nul, is_canonical, map_canonical_offset,
    overlong_command,
};

/// Whether `byte` separates UCI tokens: the bytes C's `isspace` accepts in the C locale
/// (space, `\t`, `\n`, `\v`, `\f`, `\r`).
///
/// Engines read their input with C++ `std::istringstream >> token` (Stockfish, Fairy-Stockfish)
/// or C `isspace` / `strtok` loops, all of which skip exactly these bytes; Rust's
/// `u8::is_ascii_whitespace` lacks `\v` (0x0B), which let `\x0bsetoption ...` pass a reader
/// that did not see a `setoption` to an engine that did. Bytes `>= 0x80` are never
/// whitespace in the C locale, so non-ASCII bytes belong to tokens here too.
///
/// ```
/// use fenguard::uci::is_uci_space;
/// assert!(is_uci_space(0x0b));
/// assert!(!is_uci_space(0xa0));
/// assert!(!is_uci_space(0));
/// ```
pub const fn is_uci_space(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

/// One whitespace-separated token of a line: its bytes and its half-open byte range in the line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token<'a> {
    /// The token's bytes (never empty, never holding a [`is_uci_space`] byte).
    pub text: &'a [u8],
    /// Half-open byte range of `text` in the line it came from.
    pub span: Range<usize>,
}

/// Iterator over the [`Token`]s of a line; see [`tokens`].
#[derive(Clone, Debug)]
pub struct Tokens<'a> {
    line: &'a [u8],
    pos: usize,
}

impl<'a> Tokens<'a> {
    /// The bytes of the line not read yet (from the end of the last token given).
    pub fn rest(&self) -> &'a [u8] {
        &self.line[self.pos.min(self.line.len())..]
    }
}

impl<'a> Iterator for Tokens<'a> {
    type Item = Token<'a>;

    fn next(&mut self) -> Option<Token<'a>> {
        let line = self.line;
        let mut start = self.pos;
        while start < line.len() && is_uci_space(line[start]) {
            start += 1;
        }
        if start >= line.len() {
            self.pos = line.len();
            return None;
        }
        let mut end = start;
        while end < line.len() && !is_uci_space(line[end]) {
            end += 1;
        }
        self.pos = end;
        Some(Token {
            text: &line[start..end],
            span: start..end,
        })
    }
}

/// Splits a line into tokens on runs of UCI whitespace ([`is_uci_space`]), as UCI engines do.
/// Every other byte belongs to a token: non-UTF-8 bytes, and NUL, as in the C++ engines'
/// `std::string` (C engines end a line at a NUL: see [`gui_command`] for how fenguard keeps
/// both kinds reading the same). This is the one tokenizer of every GUI and engine line
/// fenguard reads.
pub fn tokens(line: &[u8]) -> Tokens<'_> {
    Tokens { line, pos: 0 }
}

/// The first token of a line (the UCI command word), or an empty slice for a blank line.
/// Cheap: no allocation, stops at the end of the first token.
pub fn command_word(line: &[u8]) -> &[u8] {
    tokens(line).next().map_or(&[], |t| t.text)
}

/// `text` without leading and trailing UCI whitespace ([`is_uci_space`]).
pub fn trim_uci(text: &[u8]) -> &[u8] {
    let start = text
        .iter()
        .position(|&b| !is_uci_space(b))
        .unwrap_or(text.len());
    let end = text
        .iter()
        .rposition(|&b| !is_uci_space(b))
        .map_or(start, |at| at + 1);
    &text[start..end.max(start)]
}
