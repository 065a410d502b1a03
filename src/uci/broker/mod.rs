//! The engine-output grammar of lichess's external-engine work broker (lila-engine), which is
//! stricter than UCI: what `fenguard provide` (issue 18) must keep to and `fenguard doctor`
//! (issue 20) reports.
//!
//! A provider streams the engine's output to `POST /api/external-engine/work/{id}` as
//! `text/plain`; the broker reads it line by line and answers **400, ending the analysis, at
//! the first line it cannot read**. Followed here from lila-engine's `src/uci.rs`
//! (`UciOut::from_line`, commit 371eae8) and `src/main.rs` (the body read with tokio's
//! `lines()`), with the same shakmaty 0.30 move parser:
//! - the body must be UTF-8 (tokio's `lines()` fails on anything else: 400);
//! - a line ends at `\n`, one `\r` before it is dropped; any other `\r` in a line is refused;
//! - tokens are separated by spaces and tabs only (`\v`, `\f` are token bytes);
//! - a line whose first token is neither `info` nor `bestmove` (`id`, `option`, `readyok`, a
//!   blank line) is ignored;
//! - `bestmove M [ponder P]`: `M` and `P` are UCI moves or `(none)` (or absent); a second
//!   token other than `ponder` is refused; tokens after `P` are ignored;
//! - `info`: only these fields, each any number of times, in any order: `multipv N` (N ≤ 5),
//!   `depth`, `seldepth`, `currmovenumber`, `hashfull`, `cpuload` (u32), `time`, `nodes`,
//!   `nps`, `tbhits`, `sbhits` (u64), `score cp|mate N [lowerbound] [upperbound]` (cp i64,
//!   mate i32), `currmove M`, `refutation M M...`, `currline N M...`, `pv M...` (moves while
//!   they parse), `string` (the rest of the line). Numbers are read by Rust's `str::parse`
//!   (a leading `+` is allowed). Any other token (`wdl`, `ebf`, a word after a pv) is refused.

use std::ops::Range;
use std::str::FromStr;

use shakmaty::uci::UciMove;

mod rewrite;

pub use rewrite::broker_info;

/// What the broker makes of a line it accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BrokerLine {
    /// Not `info` nor `bestmove`: read and ignored.
    Ignored,
    /// An `info` line in the broker's grammar.
    Info,
    /// A `bestmove` line: the broker ends the analysis there.
    Bestmove,
}

/// Why the broker would answer 400 to a line, with the byte range of the culprit in the line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BrokerRefusal {
    /// The line is not UTF-8.
    #[error("not UTF-8 (byte {})", .0.start)]
    NotUtf8(Range<usize>),
    /// A `\r` or `\n` inside the line.
    #[error("a line break inside the line (byte {})", .0.start)]
    LineBreak(Range<usize>),
    /// A token outside the grammar (`wdl`, a word after `score`, `bestmove M junk`).
    #[error("unexpected token at byte {}", .0.start)]
    UnexpectedToken(Range<usize>),
    /// The line ends where a value is due (`depth` at its end).
    #[error("the line ends where a value is due")]
    UnexpectedEndOfLine,
    /// A value that is not a UCI move.
    #[error("not a UCI move at byte {}", .0.start)]
    InvalidMove(Range<usize>),
    /// A value that is not a number of its field's type.
    #[error("not a valid integer at byte {}", .0.start)]
    InvalidInteger(Range<usize>),
    /// `multipv` above 5.
    #[error("multipv above 5 at byte {}", .0.start)]
    InvalidMultipv(Range<usize>),
}

/// Reads `line` as the broker does. `line` is one line without its `\n`; one trailing `\r` is
/// dropped first, as tokio's `lines()` drops it.
///
/// ```
/// use fenguard::uci::broker::{BrokerLine, BrokerRefusal, check_line};
///
/// assert_eq!(check_line(b"info depth 12 score cp 31 pv e2e4 e7e5"), Ok(BrokerLine::Info));
/// assert_eq!(check_line(b"id name Stockfish 17"), Ok(BrokerLine::Ignored));
/// let refused = check_line(b"info depth 12 wdl 500 400 100");
/// assert_eq!(refused, Err(BrokerRefusal::UnexpectedToken(14..17)));
/// ```
///
/// # Errors
/// The [`BrokerRefusal`] for a line the broker answers 400 to.
pub fn check_line(line: &[u8]) -> Result<BrokerLine, BrokerRefusal> {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let text = std::str::from_utf8(line).map_err(|e| {
        let at = e.valid_up_to();
        BrokerRefusal::NotUtf8(at..at + e.error_len().unwrap_or(line.len() - at))
    })?;
    if let Some(at) = text.bytes().position(|b| b == b'\r' || b == b'\n') {
        return Err(BrokerRefusal::LineBreak(at..at + 1));
    }
    let mut tokens = Tokens { text, at: 0 };
    match tokens.next().map(|(t, _)| t) {
        Some("info") => info(&mut tokens).map(|()| BrokerLine::Info),
        Some("bestmove") => bestmove(&mut tokens).map(|()| BrokerLine::Bestmove),
        _ => Ok(BrokerLine::Ignored),
    }
}

/// The `info` fields the broker reads, in lila-engine's order (every other token of an `info`
/// line is refused).
pub const FIELDS: [&str; 17] = [
    "multipv",
    "depth",
    "seldepth",
    "time",
    "nodes",
    "score",
    "currmove",
    "currmovenumber",
    "hashfull",
    "nps",
    "tbhits",
    "sbhits",
    "cpuload",
    "refutation",
    "currline",
    "pv",
    "string",
];

/// Space- and tab-separated tokens with their byte ranges.
struct Tokens<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Tokens<'a> {
    fn peek(&self) -> Option<(&'a str, Range<usize>)> {
        let rest = &self.text[self.at..];
        let start = self.at + rest.find(|c| c != ' ' && c != '\t')?;
        let len = self.text[start..]
            .find([' ', '\t'])
            .unwrap_or(self.text.len() - start);
        Some((&self.text[start..start + len], start..start + len))
    }

    /// The next token, or [`BrokerRefusal::UnexpectedEndOfLine`].
    fn value(&mut self) -> Result<(&'a str, Range<usize>), BrokerRefusal> {
        self.next().ok_or(BrokerRefusal::UnexpectedEndOfLine)
    }

    /// The next token read as a `T` (a number or a move), refused as `invalid`.
    fn parse<T: FromStr>(
        &mut self,
        invalid: fn(Range<usize>) -> BrokerRefusal,
    ) -> Result<T, BrokerRefusal> {
        let (token, span) = self.value()?;
        token.parse().map_err(|_| invalid(span))
    }

    /// Moves while the next token parses as one (lila-engine's `parse_moves`).
    fn moves(&mut self) {
        while self
            .peek()
            .is_some_and(|(t, _)| UciMove::from_str(t).is_ok())
        {
            self.next();
        }
    }
}

impl<'a> Iterator for Tokens<'a> {
    type Item = (&'a str, Range<usize>);

    fn next(&mut self) -> Option<Self::Item> {
        let (token, span) = self.peek()?;
        self.at = span.end;
        Some((token, span))
    }
}

fn bestmove(tokens: &mut Tokens<'_>) -> Result<(), BrokerRefusal> {
    let best_or_none = |tokens: &mut Tokens<'_>| match tokens.next() {
        Some(("(none)", _)) | None => Ok(()),
        Some((m, span)) => UciMove::from_str(m)
            .map(|_| ())
            .map_err(|_| BrokerRefusal::InvalidMove(span)),
    };
    best_or_none(tokens)?;
    match tokens.next() {
        Some(("ponder", _)) => best_or_none(tokens),
        Some((_, span)) => Err(BrokerRefusal::UnexpectedToken(span)),
        None => Ok(()),
    }
}

fn info(tokens: &mut Tokens<'_>) -> Result<(), BrokerRefusal> {
    use BrokerRefusal::{InvalidInteger as Int, InvalidMove as Move};
    while let Some((field, span)) = tokens.next() {
        match field {
            "multipv" => {
                let (token, span) = tokens.value()?;
                let n: u32 = token.parse().map_err(|_| Int(span.clone()))?;
                if n > 5 {
                    return Err(BrokerRefusal::InvalidMultipv(span));
                }
            }
            "depth" | "seldepth" | "currmovenumber" | "hashfull" | "cpuload" => {
                tokens.parse::<u32>(Int)?;
            }
            "time" | "nodes" | "nps" | "tbhits" | "sbhits" => {
                tokens.parse::<u64>(Int)?;
            }
            "score" => score(tokens)?,
            "currmove" => {
                tokens.parse::<UciMove>(Move)?;
            }
            "refutation" => {
                tokens.parse::<UciMove>(Move)?;
                tokens.moves();
            }
            "currline" => {
                tokens.parse::<u32>(Int)?;
                tokens.moves();
            }
            "pv" => tokens.moves(),
            "string" => return Ok(()),
            _ => return Err(BrokerRefusal::UnexpectedToken(span)),
        }
    }
    Ok(())
}

fn score(tokens: &mut Tokens<'_>) -> Result<(), BrokerRefusal> {
    match tokens.value()? {
        ("cp", _) => tokens.parse::<i64>(BrokerRefusal::InvalidInteger)?,
        ("mate", _) => i64::from(tokens.parse::<i32>(BrokerRefusal::InvalidInteger)?),
        (_, span) => return Err(BrokerRefusal::UnexpectedToken(span)),
    };
    while tokens
        .peek()
        .is_some_and(|(t, _)| t == "lowerbound" || t == "upperbound")
    {
        tokens.next();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::BrokerLine::{Bestmove, Ignored, Info};
    use super::BrokerRefusal::*;
    use super::*;

    #[test]
    fn lines_stockfish_writes_are_accepted() {
        for (line, kind) in [
            (
                "info string NNUE evaluation using nn-ad9b42354671.nnue enabled",
                Info,
            ),
            (
                "info depth 1 seldepth 1 multipv 1 score cp 48 nodes 20 nps 20000 hashfull 0 tbhits 0 time 1 pv e2e4",
                Info,
            ),
            ("info depth 24 currmove g1f3 currmovenumber 2", Info),
            ("info depth 10 score mate -3 upperbound nodes 5 pv", Info),
            (
                "info depth 10 score cp 12 lowerbound upperbound lowerbound",
                Info,
            ),
            (
                "info refutation d1h5 g6h5 currline 1 e2e4 e7e5 sbhits 0 cpuload 500",
                Info,
            ),
            ("info pv e1h1 0000 e7e8q", Info),
            ("info multipv 0 depth +3", Info),
            ("info\tdepth\t3  ", Info),
            ("info", Info),
            ("bestmove e2e4 ponder e7e5", Bestmove),
            ("bestmove (none)", Bestmove),
            ("bestmove e2e4 ponder (none) whatever follows", Bestmove),
            ("bestmove", Bestmove),
            ("bestmove e2e4\r", Bestmove),
            ("id name Stockfish 17", Ignored),
            ("readyok", Ignored),
            ("", Ignored),
            ("Info depth x", Ignored),
            ("info string anything at all: wdl 1 2 3 \u{e9}", Info),
        ] {
            assert_eq!(check_line(line.as_bytes()), Ok(kind), "{line:?}");
        }
    }

    #[test]
    fn refusals_name_the_culprit() {
        for (line, refusal) in [
            ("info depth 12 wdl 500 400 100", UnexpectedToken(14..17)),
            ("info depth 3 pv e2e4 e7e5 bogus", UnexpectedToken(26..31)),
            ("info score wdl 1 2 3", UnexpectedToken(11..14)),
            ("info depth", UnexpectedEndOfLine),
            ("info score cp", UnexpectedEndOfLine),
            ("info score", UnexpectedEndOfLine),
            ("info depth -1", InvalidInteger(11..13)),
            ("info time 1.5", InvalidInteger(10..13)),
            ("info score cp 2.5", InvalidInteger(14..17)),
            ("info score mate 3000000000", InvalidInteger(16..26)),
            ("info nodes 18446744073709551616", InvalidInteger(11..31)),
            ("info multipv 6", InvalidMultipv(13..14)),
            ("info currmove e2e9", InvalidMove(14..18)),
            ("info refutation junk", InvalidMove(16..20)),
            ("info depth\u{b}3", UnexpectedToken(5..12)),
            ("bestmove e2e4 e7e5", UnexpectedToken(14..18)),
            ("bestmove junk", InvalidMove(9..13)),
            ("bestmove e2e4 ponder junk", InvalidMove(21..25)),
            ("info string a\rb", LineBreak(13..14)),
            ("info depth 1\r\r", LineBreak(12..13)),
        ] {
            assert_eq!(check_line(line.as_bytes()), Err(refusal), "{line:?}");
        }
        assert_eq!(check_line(b"info string \xff"), Err(NotUtf8(12..13)));
        assert_eq!(check_line(b"readyok \xe2\x82"), Err(NotUtf8(8..10)));
    }
}
