//! `info` lines judged by UCI 2006's grammar (the fields and their value types; fastchess's
//! compliance check only looks for a `.` after `time`, `nps` and `score`) and by the stricter
//! grammar of lichess's broker ([`crate::uci::broker`]).

use crate::uci::broker::{BrokerRefusal, check_line};
use crate::uci::engine_line::{info_arity, move_field};
use crate::uci::tokens;

/// One thing wrong with an `info` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InfoProblem {
    /// Whether UCI's grammar is broken (a GUI misreads the line); `false` for what GUIs
    /// ignore (an unknown token, a leading space).
    pub error: bool,
    /// What it is, naming the token.
    pub what: String,
}

/// A field followed by one non-negative integer (`depth`, `nodes`, ...: the UCI reader's own
/// table, [`crate::uci::engine_line`], without `score`'s `cp` / `mate`).
fn is_unsigned(word: &str) -> bool {
    !matches!(word, "cp" | "mate") && info_arity(word.as_bytes()) == Some(1)
}

/// A field followed by moves.
fn is_move_field(word: &str) -> bool {
    move_field(word.as_bytes()).is_some()
}

/// Extensions GUIs know (Stockfish's `wdl W D L`): not errors; their value count.
fn extension(word: &str) -> Option<usize> {
    (word == "wdl").then(|| info_arity(b"wdl")).flatten()
}

fn is_field(word: &str) -> bool {
    is_unsigned(word)
        || is_move_field(word)
        || word == "score"
        || word == "string"
        || extension(word).is_some()
}

/// The problems of `line` (an `info` line) under UCI's grammar; empty when it is fine.
///
/// ```
/// use fenguard::doctor::judge::info_problems;
/// assert!(info_problems(b"info depth 3 score cp 20 nodes 100 pv e2e4 e7e5").is_empty());
/// let p = info_problems(b"info depth 3 time 1.5");
/// assert!(p[0].error && p[0].what.contains("`1.5`"));
/// ```
pub fn info_problems(line: &[u8]) -> Vec<InfoProblem> {
    let mut out = Vec::new();
    if line.first().is_some_and(|b| crate::uci::is_uci_space(*b)) {
        out.push(InfoProblem {
            error: false,
            what: "leading whitespace before `info` (Arena misread such lines, Devre#76)"
                .to_owned(),
        });
    }
    let text = String::from_utf8_lossy(line);
    let words: Vec<&str> = tokens(text.as_bytes())
        .map(|t| std::str::from_utf8(t.text).unwrap_or("\u{fffd}"))
        .collect();
    let mut i = 1;
    let err = |what: String| InfoProblem { error: true, what };
    while i < words.len() {
        let w = words[i];
        i += 1;
        if is_unsigned(w) {
            match words.get(i) {
                Some(v) if v.parse::<u64>().is_ok() => i += 1,
                Some(v) => {
                    out.push(err(format!("`{w}` `{v}` is not a non-negative integer")));
                    i += 1;
                }
                None => out.push(err(format!("`{w}` without a value at the end"))),
            }
        } else if w == "score" {
            match words.get(i).copied() {
                Some(kind @ ("cp" | "mate")) => {
                    match words.get(i + 1) {
                        Some(v) if v.parse::<i64>().is_ok() => {}
                        Some(v) => out.push(err(format!("`score {kind}` `{v}` is not an integer"))),
                        None => out.push(err(format!("`score {kind}` without a value"))),
                    }
                    i += 2;
                    while matches!(words.get(i), Some(&("lowerbound" | "upperbound"))) {
                        i += 1;
                    }
                }
                other => {
                    out.push(err(format!(
                        "`score` followed by `{}`, not `cp` or `mate`",
                        other.unwrap_or("(end of line)")
                    )));
                    i += 1;
                }
            }
        } else if w == "string" {
            break;
        } else if is_move_field(w) {
            while i < words.len() && !is_field(words[i]) {
                i += 1;
            }
        } else if let Some(n) = extension(w) {
            i += n;
        } else {
            out.push(InfoProblem {
                error: false,
                what: format!("unknown token `{w}` (GUIs skip it)"),
            });
        }
    }
    out
}

/// The token of `line` lichess's broker would refuse (the whole analysis ends with a 400
/// there), with why; `None` when it accepts the line.
///
/// ```
/// use fenguard::doctor::judge::broker_refusal;
/// assert_eq!(broker_refusal(b"info depth 1 score cp 3 pv e2e4"), None);
/// let r = broker_refusal(b"info depth 12 wdl 500 400 100").unwrap();
/// assert!(r.starts_with("`wdl`"), "{r}");
/// ```
pub fn broker_refusal(line: &[u8]) -> Option<String> {
    let refusal = check_line(line).err()?;
    let token = |span: &std::ops::Range<usize>| {
        let end = line.len().min(span.end);
        let start = span.start.min(end);
        String::from_utf8_lossy(&line[start..end]).into_owned()
    };
    Some(match &refusal {
        BrokerRefusal::UnexpectedToken(s)
        | BrokerRefusal::InvalidMove(s)
        | BrokerRefusal::InvalidInteger(s)
        | BrokerRefusal::InvalidMultipv(s) => format!("`{}`: {refusal}", token(s)),
        other => other.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stockfish_lines_are_fine() {
        let line = b"info depth 20 seldepth 28 multipv 1 score cp 31 wdl 80 890 30 nodes 2065623 nps 1021564 hashfull 849 tbhits 0 time 2022 pv e2e4 e7e5 g1f3";
        assert!(info_problems(line).is_empty());
        assert!(info_problems(b"info string NNUE evaluation using nn.nnue enabled").is_empty());
        let bounded = b"info depth 5 score cp 12 lowerbound nodes 10 pv d2d4";
        assert!(info_problems(bounded).is_empty());
    }

    #[test]
    fn decimal_time_and_bad_score_are_errors() {
        let p = info_problems(b"info depth 3 score 0.25 time 12");
        assert_eq!(p.len(), 1);
        assert!(p[0].error);
        assert!(p[0].what.contains("`score` followed by `0.25`"));
        let p = info_problems(b"info nps -5");
        assert!(p[0].error);
    }

    #[test]
    fn unknown_tokens_and_leading_space_are_warnings() {
        let p = info_problems(b" info depth 3 ebf 1.9");
        assert_eq!(p.len(), 3, "{p:?}");
        assert!(p.iter().all(|p| !p.error), "{p:?}");
    }

    #[test]
    fn broker_refuses_wdl_and_accepts_plain_lines() {
        assert!(broker_refusal(b"bestmove e2e4 ponder e7e5").is_none());
        let r = broker_refusal(b"info depth 3 multipv 9 pv e2e4").unwrap();
        assert!(r.starts_with("`9`"), "{r}");
    }
}
