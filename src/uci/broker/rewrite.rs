//! An engine's `info` line rewritten into the broker's grammar: what a provider streams so that
//! one unknown field (Stockfish's `wdl W D L` under `UCI_ShowWDL`, Lc0's `movesleft N`) does
//! not end the analysis with a 400.

use std::borrow::Cow;
use std::str::FromStr;

use shakmaty::uci::UciMove;

use super::{BrokerLine, FIELDS, Tokens, check_line};

/// `line` (one engine line without its `\n`; one trailing `\r` dropped) as an `info` line the
/// broker reads ([`check_line`] accepts it):
/// - unchanged (borrowed) when the broker reads it already;
/// - otherwise rebuilt, single-spaced, from the fields the broker knows, in their order: a
///   token outside the grammar and the tokens after it up to the next known field are left
///   out (`wdl 500 400 100`, `movesleft 40`), so is a field whose value the broker cannot read
///   (`depth -1`, `score wdl`, `currmove` of a 10x8 move), and a move list ends at its first
///   token that is not a UCI move; `string` keeps the rest of the line.
///
/// `None` for a line that is not an `info` line, is not UTF-8 or holds a line break, and for
/// one whose `multipv` is above 5 or unreadable (its pv would be taken for another one's).
///
/// ```
/// use fenguard::uci::broker::broker_info;
///
/// let line = b"info depth 12 score cp 31 wdl 500 400 100 nodes 9 pv e2e4 e7e5";
/// assert_eq!(broker_info(line).as_deref(), Some("info depth 12 score cp 31 nodes 9 pv e2e4 e7e5"));
/// assert_eq!(broker_info(b"info multipv 7 pv e2e4"), None);
/// ```
pub fn broker_info(line: &[u8]) -> Option<Cow<'_, str>> {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let text = std::str::from_utf8(line).ok()?;
    match check_line(line) {
        Ok(BrokerLine::Info) => return Some(Cow::Borrowed(text)),
        Ok(_) => return None,
        Err(_) if text.contains(['\r', '\n']) => return None,
        Err(_) => {}
    }
    let mut tokens = Tokens { text, at: 0 };
    if tokens.next()?.0 != "info" {
        return None;
    }
    let mut out = Out(String::with_capacity(text.len()));
    out.0.push_str("info");
    while let Some((field, span)) = tokens.next() {
        match field {
            "string" => {
                out.0.push(' ');
                out.0
                    .push_str(text[span.start..].trim_end_matches([' ', '\t']));
                break;
            }
            "multipv" => {
                let n = value(&mut tokens)?;
                match n.parse::<u32>() {
                    Ok(v) if v <= 5 => out.push(&[field, n]),
                    _ => return None,
                }
            }
            "depth" | "seldepth" | "currmovenumber" | "hashfull" | "cpuload" => {
                out.one::<u32>(&mut tokens, field);
            }
            "time" | "nodes" | "nps" | "tbhits" | "sbhits" => out.one::<u64>(&mut tokens, field),
            "currmove" => out.one::<UciMove>(&mut tokens, field),
            "score" => out.score(&mut tokens),
            "refutation" => {
                if let Some(first) = readable::<UciMove>(&mut tokens) {
                    out.push(&[field, first]);
                    out.moves(&mut tokens);
                }
            }
            "currline" => {
                if let Some(cpu) = readable::<u32>(&mut tokens) {
                    out.push(&[field, cpu]);
                    out.moves(&mut tokens);
                }
            }
            "pv" => {
                out.push(&[field]);
                out.moves(&mut tokens);
            }
            _ => {} // outside the grammar: left out with what follows, up to a known field
        }
    }
    debug_assert_eq!(check_line(out.0.as_bytes()), Ok(BrokerLine::Info));
    Some(Cow::Owned(out.0))
}

/// The next token, unless the line ends or it is a field name (then it is not consumed).
fn value<'a>(tokens: &mut Tokens<'a>) -> Option<&'a str> {
    let (token, _) = tokens.peek()?;
    if FIELDS.contains(&token) {
        return None;
    }
    tokens.next();
    Some(token)
}

/// [`value`] when it reads as a `T` (consumed either way).
fn readable<'a, T: FromStr>(tokens: &mut Tokens<'a>) -> Option<&'a str> {
    value(tokens).filter(|t| t.parse::<T>().is_ok())
}

/// The rebuilt line.
struct Out(String);

impl Out {
    fn push(&mut self, words: &[&str]) {
        for word in words {
            self.0.push(' ');
            self.0.push_str(word);
        }
    }

    /// `field` and its value, when the value reads as a `T`; else neither.
    fn one<T: FromStr>(&mut self, tokens: &mut Tokens<'_>, field: &str) {
        if let Some(v) = readable::<T>(tokens) {
            self.push(&[field, v]);
        }
    }

    /// Moves while the next token is one.
    fn moves(&mut self, tokens: &mut Tokens<'_>) {
        while let Some((m, _)) = tokens.peek().filter(|(t, _)| UciMove::from_str(t).is_ok()) {
            tokens.next();
            self.push(&[m]);
        }
    }

    /// `score cp N` or `score mate N` and its bounds; left out when unreadable.
    fn score(&mut self, tokens: &mut Tokens<'_>) {
        let read = match value(tokens) {
            Some(kind @ "cp") => readable::<i64>(tokens).map(|v| (kind, v)),
            Some(kind @ "mate") => readable::<i32>(tokens).map(|v| (kind, v)),
            _ => None,
        };
        let Some((kind, v)) = read else {
            return;
        };
        self.push(&["score", kind, v]);
        while let Some((bound, _)) = tokens
            .peek()
            .filter(|(t, _)| *t == "lowerbound" || *t == "upperbound")
        {
            tokens.next();
            self.push(&[bound]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_fields_and_unreadable_values_are_left_out() {
        for (line, out) in [
            (
                "info depth 12 seldepth 15 multipv 1 score cp 31 wdl 500 400 100 nodes 5 nps 9 pv e2e4 e7e5",
                "info depth 12 seldepth 15 multipv 1 score cp 31 nodes 5 nps 9 pv e2e4 e7e5",
            ),
            (
                "info depth 5 time 200 nodes 300 score cp 20 movesleft 40 pv d2d4 g8f6",
                "info depth 5 time 200 nodes 300 score cp 20 pv d2d4 g8f6",
            ),
            ("info depth -1 score mate x pv e2e4", "info pv e2e4"),
            (
                "info depth 3 pv e2e4 e7e5 junk d2d4",
                "info depth 3 pv e2e4 e7e5",
            ),
            ("info depth pv e2e4", "info pv e2e4"),
            ("info score wdl 1 2 3 depth 4", "info depth 4"),
            (
                "info score cp 3 lowerbound ebf 1.5",
                "info score cp 3 lowerbound",
            ),
            (
                "info currmove a1j1 currline 1 e2e4 x",
                "info currline 1 e2e4",
            ),
            ("info pv e2e4 i7i8 e7e5", "info pv e2e4"),
            (
                "info ebf 1.5 string keeps wdl 1 2 3  ",
                "info string keeps wdl 1 2 3",
            ),
            ("info depth\u{b}2 nodes 5\r", "info nodes 5"),
        ] {
            assert_eq!(
                broker_info(line.as_bytes()).as_deref(),
                Some(out),
                "{line:?}"
            );
        }
    }

    #[test]
    fn a_line_the_broker_reads_is_kept_as_it_is() {
        for line in ["info depth 3\tscore  cp 5", "info", "info string a \u{e9}"] {
            let kept = broker_info(line.as_bytes());
            assert!(
                matches!(kept, Some(Cow::Borrowed(l)) if l == line),
                "{line:?}"
            );
        }
    }

    #[test]
    fn lines_that_cannot_be_made_readable_are_dropped() {
        for line in [
            &b"info multipv 7 pv e2e4"[..],
            b"info multipv x pv e2e4",
            b"info depth 1 wdl 1 2 3 \xff",
            b"info depth 1 wdl\r2",
            b"bestmove e2e4 junk",
            b"id name x",
        ] {
            assert_eq!(broker_info(line), None, "{line:?}");
        }
    }
}
