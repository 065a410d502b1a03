//! Moves judged against fenguard's rules: `bestmove` / `ponder` and `pv` legality, `go perft`
//! output and its divide compared with [`crate::rules::perft`], the verdict on one hostile
//! line, and the movetime overshoot.

use std::collections::BTreeMap;

use crate::doctor::report::Status;
use crate::rules::{Game, GameRules, check_bestmove, play_moves};
use crate::uci::{MoveField, Notation, engine_move_sequences, tokens};

/// Whether `text` is a legal move in `game`, read in `notation`.
pub fn is_legal(game: &Game, text: &str, notation: Notation) -> bool {
    game.read(text.as_bytes(), notation).is_ok()
}

/// Why a `bestmove` line is wrong in `root`: the messages of
/// [`crate::rules::check_bestmove`] (the best move illegal, the ponder move illegal after it,
/// `0000` with legal moves left). Empty when fine.
pub fn bestmove_errors(line: &[u8], root: &Game, notation: Notation) -> Vec<String> {
    let mut errors: Vec<String> = check_bestmove(line, root, notation)
        .into_iter()
        .map(|d| d.diagnostic.message)
        .collect();
    if errors.is_empty()
        && let Some((best, _)) = bestmove_of(line)
        && let Ok(r) = root.read(best.as_bytes(), notation)
    {
        let written = root.write(r.mv, notation).0.to_string();
        if written != best {
            let mode = match notation {
                Notation::Chess960 => "with UCI_Chess960 (king takes rook)",
                Notation::Standard => "without UCI_Chess960 (king to its target square)",
            };
            errors.push(format!("`bestmove {best}` is written `{written}` {mode}"));
        }
    }
    errors
}

/// Why the `pv` of an `info` line is not a line of legal moves from `root`; `None` when it is
/// (or the line has no pv).
pub fn pv_error(line: &[u8], root: &Game, notation: Notation) -> Option<String> {
    let pv = engine_move_sequences(line)
        .into_iter()
        .find(|s| s.field == MoveField::Pv)?;
    let out = play_moves(root.clone(), &pv.moves, notation, notation, false);
    let at = out.stopped_at?;
    let message = out
        .diagnostics
        .last()
        .map(|d| d.diagnostic.message.clone())
        .unwrap_or_default();
    Some(format!("pv move {at}: {message}"))
}

/// The first two tokens after `bestmove`: the move and the ponder move.
pub fn bestmove_of(line: &[u8]) -> Option<(String, Option<String>)> {
    let mut toks = tokens(line);
    if toks.next()?.text != b"bestmove" {
        return None;
    }
    let best = String::from_utf8_lossy(toks.next()?.text).into_owned();
    let ponder = match (toks.next(), toks.next()) {
        (Some(k), Some(p)) if k.text == b"ponder" => {
            Some(String::from_utf8_lossy(p.text).into_owned())
        }
        _ => None,
    };
    Some((best, ponder))
}

/// `go perft N` output in Stockfish's shape: `move: count` lines, then `Nodes searched: N`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PerftOutput {
    /// The divide: each root move's count, as written.
    pub divide: Vec<(String, u64)>,
    /// The total (`Nodes searched`).
    pub total: Option<u64>,
}

/// Reads the lines of a `go perft` answer (any others are skipped).
pub fn parse_perft(lines: &[String]) -> PerftOutput {
    let mut out = PerftOutput::default();
    for line in lines {
        let line = line.trim();
        if let Some(n) = line.strip_prefix("Nodes searched:") {
            out.total = n.trim().parse().ok();
        } else if let Some((mv, n)) = line.split_once(':')
            && !mv.contains(' ')
            && let Ok(n) = n.trim().parse()
        {
            out.divide.push((mv.to_owned(), n));
        }
    }
    out
}

/// fenguard's divide of `game` at `depth` (≥ 1): each legal move written in `notation`, with
/// its perft count at `depth - 1`.
pub fn divide(game: &Game, depth: u32, notation: Notation) -> Vec<(String, u64)> {
    game.legal_moves()
        .into_iter()
        .map(|m| {
            let mut after = game.clone();
            after.play(m);
            let text = game.write(m, notation).0.to_string();
            (text, crate::rules::perft(&after, depth.saturating_sub(1)))
        })
        .collect()
}

/// Where an engine's divide and fenguard's differ.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DivideDiff {
    /// Legal moves the engine did not list.
    pub missing: Vec<String>,
    /// Moves the engine listed that are not legal (or not readable), as written.
    pub extra: Vec<String>,
    /// Moves in both with different counts: `(move, fenguard's, the engine's)`.
    pub wrong: Vec<(String, u64, u64)>,
    /// Legal moves written otherwise than the notation asks: `(as written, as expected)`
    /// (a castle written `e1g1` with `UCI_Chess960`, where it is `e1h1`).
    pub notation: Vec<(String, String)>,
}

impl DivideDiff {
    /// Whether the divides agree.
    pub fn is_empty(&self) -> bool {
        self.missing.is_empty()
            && self.extra.is_empty()
            && self.wrong.is_empty()
            && self.notation.is_empty()
    }
}

/// Compares the engine's divide with fenguard's `ours` (moves written in `notation`); a text
/// that is not one of `ours` but reads as a legal move in `notation` counts for that move and
/// is listed in [`DivideDiff::notation`].
pub fn compare_divide(
    game: &Game,
    notation: Notation,
    ours: &[(String, u64)],
    theirs: &[(String, u64)],
) -> DivideDiff {
    let mut engine: BTreeMap<String, u64> = BTreeMap::new();
    let mut diff = DivideDiff::default();
    for (text, n) in theirs {
        if ours.iter().any(|(m, _)| m == text) {
            *engine.entry(text.clone()).or_default() += n;
            continue;
        }
        match game.read(text.as_bytes(), notation) {
            Ok(r) => {
                let key = game.write(r.mv, notation).0.to_string();
                diff.notation.push((text.clone(), key.clone()));
                *engine.entry(key).or_default() += n;
            }
            Err(_) => diff.extra.push(text.clone()),
        }
    }
    for (mv, n) in ours {
        match engine.remove(mv) {
            None => diff.missing.push(mv.clone()),
            Some(e) if e != *n => diff.wrong.push((mv.clone(), *n, e)),
            Some(_) => {}
        }
    }
    diff.extra.extend(engine.into_keys());
    diff
}

/// What a hostile line should get.
#[derive(Clone, Debug)]
pub enum Expect {
    /// An invalid position: only a refusal (`bestmove 0000`, a complaint) is right. `cut` is
    /// the position before an illegal move of the list, where a bestmove shows the engine cut
    /// the list silently.
    Refuse {
        /// The position before the illegal move, for `moves` with an illegal move.
        cut: Option<Game>,
    },
    /// A valid (or safely repaired) position: the bestmove must be legal here; `refusal_ok`
    /// when refusing it is fine too (a FEN fenguard repairs).
    Legal {
        /// The position meant.
        position: Game,
        /// Whether `bestmove 0000` or ignoring the line is acceptable.
        refusal_ok: bool,
    },
    /// `0000` in a `moves` list: a null move (UCI 2006) or a refusal are right.
    NullMove {
        /// The position with the null move played.
        applied: Game,
        /// The position with the null move (and what follows) dropped.
        ignored: Game,
    },
    /// Not a position: surviving (and answering `isready`) is all.
    Survive,
}

/// What the engine did with a hostile line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Observed {
    /// It died: how (`signal 11 (SIGSEGV)`).
    Crashed(String),
    /// No answer within the limit (seconds).
    Hung(u64),
    /// It answered: its bestmove (if a `go` was sent) and any complaint it printed.
    Answered {
        /// The bestmove token.
        bestmove: Option<String>,
        /// A line that names the fault (`info string ... invalid ...`), if any.
        complaint: Option<String>,
    },
}

/// Whether an engine line complains about its input.
pub fn is_complaint(line: &str) -> bool {
    let lower = line.to_ascii_lowercase();
    let informative = !lower.starts_with("info") || lower.starts_with("info string");
    informative
        && [
            "error",
            "invalid",
            "illegal",
            "unknown",
            "unsupported",
            "cannot",
            "can't",
            "bad ",
        ]
        .iter()
        .any(|w| lower.contains(w))
}

/// The verdict on one hostile line: `marker` is the valid position set just before it (a
/// bestmove legal there means the line was ignored).
pub fn hostile_verdict(
    expect: &Expect,
    observed: &Observed,
    marker: &Game,
    notation: Notation,
) -> (Status, String) {
    let (best, complaint) = match observed {
        Observed::Crashed(how) if how.starts_with("signal") => {
            return (Status::Fail, format!("crashed ({how})"));
        }
        Observed::Crashed(how) => return (Status::Fail, format!("ended ({how})")),
        Observed::Hung(s) => return (Status::Fail, format!("hung: no answer within {s} s")),
        Observed::Answered {
            bestmove,
            complaint,
        } => (bestmove.as_deref(), complaint.as_deref()),
    };
    let refused = best.is_none_or(|b| b == "0000" || b == "(none)");
    let ignored = best.is_some_and(|b| is_legal(marker, b, notation));
    let said = complaint.map_or(String::new(), |c| format!(" (it said `{c}`)"));
    match expect {
        Expect::Survive => (Status::Pass, "survived".to_owned()),
        Expect::Refuse { .. } if refused => (Status::Pass, format!("refused{said}")),
        Expect::Refuse { cut: Some(cut) } if best.is_some_and(|b| is_legal(cut, b, notation)) => (
            Status::Fail,
            format!(
                "silently cut the moves list at the illegal move: bestmove {} is legal only before it{said}",
                best.unwrap_or_default()
            ),
        ),
        Expect::Refuse { .. } if ignored => (
            Status::Warn,
            format!(
                "ignored the line{}: searched the previous position (bestmove {})",
                if complaint.is_some() { "" } else { " silently" },
                best.unwrap_or_default()
            ),
        ),
        Expect::Refuse { .. } if complaint.is_some() => (
            Status::Warn,
            format!(
                "complained{said} but still answered bestmove {}",
                best.unwrap_or_default()
            ),
        ),
        Expect::Refuse { cut: Some(_) } => (
            Status::Fail,
            format!(
                "silent nonsense: bestmove {} is legal neither before the illegal move nor in the previous position (it played the illegal move?)",
                best.unwrap_or_default()
            ),
        ),
        Expect::Refuse { cut: None } => (
            Status::Fail,
            format!(
                "silent nonsense: bestmove {} for a position it cannot have read",
                best.unwrap_or_default()
            ),
        ),
        Expect::Legal { position, .. } if best.is_some_and(|b| is_legal(position, b, notation)) => {
            (Status::Pass, "read as meant".to_owned())
        }
        Expect::Legal { refusal_ok, .. } if refused || ignored => {
            let what = if refused {
                "refused it"
            } else {
                "ignored the line"
            };
            if *refusal_ok {
                (Status::Pass, format!("{what}{said}"))
            } else {
                (Status::Fail, format!("{what}, a line UCI allows{said}"))
            }
        }
        Expect::Legal { position, .. } => (
            Status::Fail,
            format!(
                "misread: bestmove {} is illegal in {}",
                best.unwrap_or_default(),
                position.message_fen()
            ),
        ),
        Expect::NullMove { .. } if refused => (Status::Pass, format!("refused{said}")),
        Expect::NullMove { applied, .. }
            if best.is_some_and(|b| is_legal(applied, b, notation)) =>
        {
            (Status::Pass, "read `0000` as a null move".to_owned())
        }
        Expect::NullMove { ignored, .. }
            if best.is_some_and(|b| is_legal(ignored, b, notation)) =>
        {
            (
                Status::Warn,
                format!(
                    "dropped `0000` and the rest of the list silently (bestmove {})",
                    best.unwrap_or_default()
                ),
            )
        }
        Expect::NullMove { .. } => (
            Status::Fail,
            format!(
                "bestmove {} is illegal either way",
                best.unwrap_or_default()
            ),
        ),
    }
}

/// The overshoot a `go movetime T` may have: max(50 ms, 10% of T).
pub fn movetime_tolerance(movetime: u64) -> i64 {
    (movetime as i64 / 10).max(50)
}

/// The movetime verdict from the overshoots measured (ms past the asked time until
/// `bestmove`; negative: early), the same on every run of a healthy or a broken engine:
/// judged on the 90th percentile (the lower nearest rank: the worst run of 8 and the two
/// worst of 20 are left out, a loaded machine's stalls) and on the maximum. Fail when the
/// p90 is above [`movetime_tolerance`], or when one run overshoots by more than
/// max(1 s, T) (a GUI loses on time with any usual move overhead); pass otherwise. The
/// detail gives the spread (min, median, p90, max) and the move overhead a GUI needs (the
/// maximum).
pub fn movetime_verdict(movetime: u64, overshoots: &[i64]) -> (Status, String) {
    if overshoots.is_empty() {
        return (Status::Fail, "no bestmove for `go movetime`".to_owned());
    }
    let mut sorted = overshoots.to_vec();
    sorted.sort_unstable();
    let n = sorted.len();
    let p90 = sorted[(n - 1) * 9 / 10];
    let (min, median, max) = (sorted[0], sorted[n / 2], sorted[n - 1]);
    let tolerance = movetime_tolerance(movetime);
    let ceiling = (movetime as i64).max(1000);
    let status = if p90 > tolerance || max > ceiling {
        Status::Fail
    } else {
        Status::Pass
    };
    let why = if p90 > tolerance {
        format!("; fail: p90 above {tolerance} ms")
    } else if max > ceiling {
        format!("; fail: one run over {ceiling} ms")
    } else {
        String::new()
    };
    (
        status,
        format!(
            "movetime {movetime} ×{n}: overshoot p90 {p90} ms, max {max} ms (spread {min:+}..{max:+} ms, median {median:+}){why}; a GUI needs a move overhead of at least {} ms (tolerance: p90 ≤ max(50 ms, 10% of movetime) = {tolerance} ms, every run ≤ {ceiling} ms)",
            max.max(0)
        ),
    )
}
