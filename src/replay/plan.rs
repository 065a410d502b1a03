//! What a logged session sent: the `option`, `command` and `position` records of one session
//! of `positions.jsonl`, in order, as the GUI lines to send again ([`Step`]), each with what
//! the log says came of it (the verdict of a position, the `bestmove` of a search).
//!
//! ```
//! use fenguard::replay::plan::{Plan, StepKind};
//!
//! let log = r#"{"ts":"2026-12-02T07:00:00.000000Z","session":"s","seq":1,"kind":"option","raw":"setoption name Threads value 1"}
//! {"ts":"2026-12-02T07:00:00.100000Z","session":"s","seq":2,"kind":"position","raw":"position startpos","verdict":"valid","diagnostics":[],"fen_in":"startpos","fen_out":"startpos","moves_in":[],"moves_out":[],"chess960":false,"final_fen":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1","sent":"position startpos"}
//! {"ts":"2026-12-02T07:00:00.200000Z","session":"s","seq":3,"kind":"command","raw":"go nodes 1000"}
//! {"ts":"2026-12-02T07:00:00.300000Z","session":"s","seq":4,"kind":"search","position_seq":2,"go":"go nodes 1000","bestmove":"e2e4","ponder":null,"elapsed_ms":100,"diagnostics":[]}"#;
//! let plan = Plan::read(log, None, None, false).unwrap();
//! assert_eq!(plan.steps.len(), 3);
//! assert_eq!(plan.steps[2].kind, StepKind::Go);
//! assert_eq!(plan.steps[2].search.as_ref().unwrap().bestmove.as_deref(), Some("e2e4"));
//! ```

use std::collections::VecDeque;

use serde_json::Value;

use crate::logview::Expander;
use crate::uci::parse_go;

/// What a step's line is, as far as waiting for the engine goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StepKind {
    /// `setoption`.
    Option,
    /// `position`.
    Position,
    /// `go` that searches (not `go perft`).
    Go,
    /// `stop`.
    Stop,
    /// `ponderhit`.
    PonderHit,
    /// Any other command (`ucinewgame`, `go perft`, `debug`, `register`).
    Other,
}

impl StepKind {
    /// The kind of the GUI line `line`.
    pub fn of(line: &str) -> StepKind {
        match line.split_ascii_whitespace().next().unwrap_or("") {
            "setoption" => StepKind::Option,
            "position" => StepKind::Position,
            "go" if parse_go(line.as_bytes()).is_some_and(|g| !g.perft) => StepKind::Go,
            "stop" => StepKind::Stop,
            "ponderhit" => StepKind::PonderHit,
            _ => StepKind::Other,
        }
    }
}

/// The logged search a `go` step started.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoggedSearch {
    /// The best move relayed to the GUI (`0000` when fenguard answered).
    pub bestmove: Option<String>,
    /// Milliseconds from `go` to `bestmove`.
    pub elapsed_ms: Option<u64>,
    /// fenguard answered it because the engine was gone (`fenguard_answer: "engine-gone"`:
    /// it crashed or hung during the search), not the GUI's `stop`.
    pub engine_gone: bool,
}

/// What the log says of a `position` step.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoggedPosition {
    /// `valid`, `repaired`, `rejected`, `forwarded-invalid` or `unchecked`.
    pub verdict: String,
    /// The position after the moves (valid and repaired positions only).
    pub final_fen: Option<String>,
    /// The engine was in Chess960 mode.
    pub chess960: bool,
    /// The `UCI_Variant` in force when not chess.
    pub variant: Option<String>,
}

/// One GUI line to send again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    /// `seq` of its record.
    pub seq: u64,
    /// The kind of line.
    pub kind: StepKind,
    /// The GUI's line, without terminator.
    pub line: String,
    /// Milliseconds of the day its record was written (from `ts`), to keep the GUI's pause
    /// before a `stop` / `ponderhit`.
    pub at_ms: Option<u64>,
    /// For a `go`: its logged search.
    pub search: Option<LoggedSearch>,
    /// For a `position`: its logged verdict and final position.
    pub position: Option<LoggedPosition>,
}

/// The steps of one logged session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    /// The session id replayed.
    pub session: String,
    /// Every session id in the file, in order of first appearance.
    pub sessions: Vec<String>,
    /// The GUI lines, in the order read.
    pub steps: Vec<Step>,
    /// Notes on records left out (a `position` line cut at the line cap, fenguard's own
    /// options for a bare engine).
    pub notes: Vec<String>,
    /// The log's last line, when it could not be read and was left out: a write torn by a
    /// crash or a kill (its line number, from 1, and why).
    pub torn: Option<(usize, crate::logview::ExpandError)>,
    /// The session's `gap` records (records the writer lost: a full disk; SPEC section 8)
    /// up to `until`: the replay cannot send what they held.
    pub gaps: Vec<crate::logview::Gap>,
}

/// Why a log cannot be replayed.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum PlanError {
    /// A line could not be rebuilt into a record.
    #[error("line {line}: {source}")]
    Line {
        /// The line number, from 1.
        line: usize,
        /// Why.
        source: crate::logview::ExpandError,
    },
    /// The session asked for is not in the log.
    #[error("no session `{0}` in the log (sessions: {1})")]
    NoSession(String, String),
    /// The log holds no record at all.
    #[error("the log holds no record")]
    Empty,
}

/// Milliseconds of the day of a `ts` (`2026-11-29T13:00:00.123456Z`), `None` when it has
/// another form.
fn ms_of_day(ts: &str) -> Option<u64> {
    let time = ts.split('T').nth(1)?.trim_end_matches('Z');
    let mut parts = time.split(':');
    let h: u64 = parts.next()?.parse().ok()?;
    let m: u64 = parts.next()?.parse().ok()?;
    let s: f64 = parts.next()?.parse().ok()?;
    Some((h * 3600 + m * 60) * 1000 + (s * 1000.0) as u64)
}

impl Plan {
    /// The steps of session `session` (default: the first in the file) of the log `text`, up
    /// to record `until` (its `seq`, included). `bare`: the lines go to the engine itself, so
    /// fenguard's own options (`setoption name fenguard ...`) are left out.
    ///
    /// A last line that is not a record (a torn write) is left out and named in
    /// [`Plan::torn`].
    ///
    /// # Errors
    /// [`PlanError`] for a line before the last that is not a record (unless a `gap` record
    /// follows it: a write cut short by the loss it counts, left out with a note), an unknown
    /// session, or an empty log.
    pub fn read(
        text: &str,
        session: Option<&str>,
        until: Option<u64>,
        bare: bool,
    ) -> Result<Plan, PlanError> {
        let mut expander = Expander::default();
        let mut records = Vec::new();
        let mut sessions: Vec<String> = Vec::new();
        let mut torn = None;
        let mut cut = Vec::new();
        let last = text
            .lines()
            .enumerate()
            .filter(|(_, line)| !line.trim().is_empty())
            .last()
            .map(|(n, _)| n);
        let lines: Vec<&str> = text.lines().collect();
        for (n, line) in lines.iter().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let record = match expander.expand_line(line) {
                Ok(record) => record,
                Err(source) if Some(n) == last => {
                    torn = Some((n + 1, source));
                    break;
                }
                Err(_) if before_gap(&lines[n + 1..]) => {
                    // A write cut short by the failure the gap record after it counts.
                    cut.push(n + 1);
                    continue;
                }
                Err(source) => {
                    return Err(PlanError::Line {
                        line: n + 1,
                        source,
                    });
                }
            };
            let id = record["session"].as_str().unwrap_or_default().to_owned();
            if !sessions.contains(&id) {
                sessions.push(id);
            }
            records.push(record);
        }
        let chosen = match session {
            Some(id) if sessions.iter().any(|s| s == id) => id.to_owned(),
            Some(id) => return Err(PlanError::NoSession(id.to_owned(), sessions.join(", "))),
            None => sessions.first().cloned().ok_or(PlanError::Empty)?,
        };
        let mut plan = Plan {
            session: chosen,
            sessions,
            steps: Vec::new(),
            notes: Vec::new(),
            torn,
            gaps: Vec::new(),
        };
        for n in cut {
            plan.notes.push(format!(
                "line {n} is not a whole record, cut short where a gap record starts: left out"
            ));
        }
        let mut open: VecDeque<usize> = VecDeque::new();
        for record in records {
            if record["session"].as_str() != Some(plan.session.as_str()) {
                continue;
            }
            if let Some(gap) = crate::logview::Gap::of(&record) {
                if until.is_none_or(|u| gap.first_seq <= u) {
                    plan.gaps.push(gap);
                }
                continue;
            }
            let seq = record["seq"].as_u64().unwrap_or(0);
            if until.is_some_and(|u| seq > u) {
                break;
            }
            plan.add(&record, seq, bare, &mut open);
        }
        let commands = plan.steps.iter().any(|s| s.kind != StepKind::Position);
        if !commands && !plan.steps.is_empty() {
            plan.notes.push(
                "the session has no option or command records (a log of fenguard before replay): only its positions are sent"
                    .to_owned(),
            );
        }
        Ok(plan)
    }

    fn add(&mut self, record: &Value, seq: u64, bare: bool, open: &mut VecDeque<usize>) {
        let kind = record["kind"].as_str().unwrap_or_default();
        let raw = record["raw"].as_str().unwrap_or_default();
        let at_ms = record["ts"].as_str().and_then(ms_of_day);
        let mut step = Step {
            seq,
            kind: StepKind::of(raw),
            line: raw.to_owned(),
            at_ms,
            search: None,
            position: None,
        };
        match kind {
            "search" => {
                if let Some(i) = open.pop_front() {
                    self.steps[i].search = Some(LoggedSearch {
                        bestmove: record["bestmove"].as_str().map(str::to_owned),
                        elapsed_ms: record["elapsed_ms"].as_u64(),
                        engine_gone: record["fenguard_answer"] == "engine-gone",
                    });
                }
                return;
            }
            "option" if bare && is_own_option(raw) => {
                self.notes.push(format!(
                    "seq {seq}: `{raw}` is fenguard's own option: not sent to the bare engine"
                ));
                return;
            }
            "option" | "command" => {}
            "position" => {
                let cut = record["diagnostics"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .any(|d| d["code"] == "line-too-long");
                if cut {
                    self.notes.push(format!(
                        "seq {seq}: a position line over the line cap was logged cut short: left out"
                    ));
                    return;
                }
                step.kind = StepKind::Position;
                step.position = Some(LoggedPosition {
                    verdict: record["verdict"].as_str().unwrap_or_default().to_owned(),
                    final_fen: record["final_fen"].as_str().map(str::to_owned),
                    chess960: record["chess960"].as_bool().unwrap_or(false),
                    variant: record["variant"].as_str().map(str::to_owned),
                });
            }
            _ => return,
        }
        if step.kind == StepKind::Go {
            open.push_back(self.steps.len());
        }
        self.steps.push(step);
    }
}

/// Whether the next line that is not blank is a `gap` record.
fn before_gap(rest: &[&str]) -> bool {
    rest.iter()
        .find(|l| !l.trim().is_empty())
        .and_then(|l| serde_json::from_str::<Value>(l).ok())
        .is_some_and(|r| crate::logview::Gap::of(&r).is_some())
}

/// Whether a `setoption` line sets one of fenguard's own options (`name fenguard ...`).
fn is_own_option(line: &str) -> bool {
    let mut words = line.split_ascii_whitespace();
    words.next() == Some("setoption")
        && words.next() == Some("name")
        && words
            .next()
            .is_some_and(|w| w.eq_ignore_ascii_case("fenguard"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ms_of_day_reads_the_time_of_a_ts() {
        assert_eq!(ms_of_day("2026-11-29T13:00:01.123456Z"), Some(46_801_123));
        assert_eq!(ms_of_day("yesterday"), None);
    }

    #[test]
    fn kinds_follow_the_command_word() {
        assert_eq!(StepKind::of("go perft 3"), StepKind::Other);
        assert_eq!(StepKind::of("go  infinite"), StepKind::Go);
        assert_eq!(StepKind::of("ucinewgame"), StepKind::Other);
        assert_eq!(StepKind::of("ponderhit"), StepKind::PonderHit);
    }

    const OPTION: &str =
        r#"{"session":"s","seq":1,"kind":"option","raw":"setoption name Hash value 16"}"#;

    #[test]
    fn a_torn_last_line_is_left_out_and_named() {
        let log = format!("{OPTION}\n{}\n\n", &OPTION[..30]);
        let plan = Plan::read(&log, None, None, true).unwrap();
        assert_eq!(plan.steps.len(), 1);
        let (line, err) = plan.torn.unwrap();
        assert_eq!(line, 2);
        assert!(
            matches!(err, crate::logview::ExpandError::NotJson(_)),
            "{err}"
        );
    }

    #[test]
    fn a_bad_line_before_the_last_is_an_error_with_its_number() {
        let log = format!("{OPTION}\n{}\n{OPTION}\n", &OPTION[..30]);
        let err = Plan::read(&log, None, None, true).unwrap_err();
        assert!(matches!(err, PlanError::Line { line: 2, .. }), "{err}");
    }

    #[test]
    fn own_options_are_told_apart() {
        assert!(is_own_option(
            "setoption name fenguard OnBadPosition value forward"
        ));
        assert!(!is_own_option("setoption name Threads value 1"));
    }
}
