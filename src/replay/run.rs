//! Sending a session's steps to an engine as a GUI would, waiting where a GUI waits, and
//! finding where it crashed, hung, or answered an illegal `bestmove`.
//!
//! The rules (the same for a whole log and for each candidate of `--minimize`):
//! `uci` first (its `uciok` awaited); after a `go` (or `ponderhit`, `stop`) its `bestmove` is
//! awaited, unless the next step is the GUI's `stop` / `ponderhit` (sent after the GUI's pause,
//! up to [`MAX_PAUSE`]) or the search waits for one (`go infinite`, `go ponder`); after any
//! other step `isready`, and its `readyok` awaited; at the end, `stop` for a search still open,
//! then `quit`, and the engine must exit. A wait longer than its bound is a hang; the engine's
//! end before `quit` (or a failing exit status after it) is a crash, at the step last sent.

use std::collections::VecDeque;
use std::ffi::OsString;
use std::path::PathBuf;
use std::time::Duration;

use super::engine::{Engine, Exit, Waited};
use super::plan::{Step, StepKind};
use crate::rules::{Game, Rules, check_bestmove};
use crate::uci::Notation;
use crate::variant::Variant;

/// The longest pause kept between a `go` and the GUI's `stop` / `ponderhit` after it.
pub const MAX_PAUSE: Duration = Duration::from_secs(2);

/// The engine to run and how long to wait.
#[derive(Debug, Clone)]
pub struct Target {
    /// The program.
    pub program: PathBuf,
    /// Its arguments.
    pub args: Vec<OsString>,
    /// The least time a `readyok` or `bestmove` gets before the engine is called hung; a
    /// search gets 3 times its logged time when that is longer.
    pub hang: Duration,
    /// Check each `bestmove` in the logged position (the engine got the GUI's lines itself).
    pub check_moves: bool,
}

/// Where in the run something happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum At {
    /// During the `uci` handshake.
    Handshake,
    /// At the step of this index.
    Step(usize),
    /// At `quit`.
    Quit,
}

/// A failure found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// The engine ended on its own (or failed at `quit`).
    Crash {
        /// Where.
        at: At,
        /// How it ended (`None`: its output ended but it did not exit).
        exit: Option<Exit>,
    },
    /// No answer within the bound.
    Hang {
        /// Where.
        at: At,
        /// What was awaited: `uciok`, `readyok`, `bestmove`, or `exit after quit`.
        awaited: &'static str,
        /// The bound.
        bound: Duration,
    },
    /// A `bestmove` that is not legal in the searched position.
    IllegalBestmove {
        /// The `go` step.
        at: usize,
        /// The engine's line.
        line: String,
        /// Why.
        message: String,
    },
    /// Under `--guarded`: fenguard judged a position otherwise than the log says.
    Verdict {
        /// The `position` step.
        at: usize,
        /// The logged verdict.
        logged: String,
        /// The verdict now.
        now: String,
    },
}

impl Failure {
    /// Whether it ends the run (a crash or a hang).
    pub fn is_fatal(&self) -> bool {
        matches!(self, Failure::Crash { .. } | Failure::Hang { .. })
    }

    /// Whether `other` is a failure of the same kind (a crash with the same signal or exit
    /// code, or a hang), as `--minimize` keeps it.
    pub fn same_kind(&self, other: &Failure) -> bool {
        match (self, other) {
            (Failure::Crash { exit: a, .. }, Failure::Crash { exit: b, .. }) => a == b,
            (Failure::Hang { .. }, Failure::Hang { .. }) => true,
            _ => false,
        }
    }
}

/// What a run found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Outcome {
    /// The engine's `bestmove` line of each `go` step answered: (step index, the move).
    pub bestmoves: Vec<(usize, String)>,
    /// The failures, in order; a crash or hang is the last.
    pub failures: Vec<Failure>,
}

impl Outcome {
    /// The crash or hang that ended the run, if any.
    pub fn fatal(&self) -> Option<&Failure> {
        self.failures.iter().find(|f| f.is_fatal())
    }
}

/// An open search: its `go` step, whether it waits for `stop` / `ponderhit`, its bound.
struct Open {
    step: usize,
    waits: bool,
    bound: Duration,
}

/// The bound of a search: 3 times its logged time (or its `movetime`), at least `hang`. The
/// time of a search fenguard answered itself (`bestmove 0000`: the engine was gone or hung) is
/// not the engine's and does not count.
fn search_bound(step: &Step, hang: Duration) -> Duration {
    let logged = step
        .search
        .as_ref()
        .filter(|s| s.bestmove.as_deref().is_some_and(|b| b != "0000"))
        .and_then(|s| s.elapsed_ms);
    let movetime = step
        .line
        .split_ascii_whitespace()
        .skip_while(|w| *w != "movetime")
        .nth(1)
        .and_then(|v| v.parse::<u64>().ok());
    let ms = logged.or(movetime).unwrap_or(0).saturating_mul(3);
    hang.max(Duration::from_millis(ms))
}

/// Whether the `go` of step `i` was answered by fenguard for a lost engine (`engine-gone`)
/// before any `stop` / `ponderhit` of the GUI came for it.
fn lost_search_unstopped(steps: &[Step], i: usize) -> bool {
    let lost = steps[i].search.as_ref().is_some_and(|s| s.engine_gone);
    let stopped = steps
        .get(i + 1)
        .is_some_and(|n| matches!(n.kind, StepKind::Stop | StepKind::PonderHit));
    lost && !stopped
}

/// The position a `bestmove` is checked in: the logged final position of a valid position.
fn root_of(step: &Step) -> Option<(Game, Notation)> {
    let p = step.position.as_ref()?;
    if p.verdict != "valid" {
        return None;
    }
    let rules = match &p.variant {
        Some(v) => Rules::for_variant(&Variant::from_uci_name(v)),
        None => Rules::Chess,
    };
    let fen = p.final_fen.as_ref()?;
    let game = Game::analyze(&rules, fen.as_bytes(), p.chess960, false).game?;
    Some((game, Notation::from_chess960(p.chess960)))
}

struct Runner<'a> {
    engine: Engine,
    target: &'a Target,
    steps: &'a [Step],
    open: VecDeque<Open>,
    root: Option<(Game, Notation)>,
    /// The root of each open search, by its step.
    roots: Vec<(usize, Option<(Game, Notation)>)>,
    outcome: Outcome,
}

/// Runs `steps` against `target` (see the module's rules).
///
/// # Errors
/// The I/O error of starting the engine.
pub fn run(target: &Target, steps: &[Step]) -> std::io::Result<Outcome> {
    let engine = Engine::start(&target.program, &target.args)?;
    let mut runner = Runner {
        engine,
        target,
        steps,
        open: VecDeque::new(),
        root: None,
        roots: Vec::new(),
        outcome: Outcome::default(),
    };
    // `Err(())`: the run ended with a crash or hang, already in the outcome.
    let _ = runner.all();
    Ok(runner.outcome)
}

impl Runner<'_> {
    fn all(&mut self) -> Result<(), ()> {
        let startup = self.target.hang.max(Duration::from_secs(30));
        if !self.engine.send("uci") {
            return self.crashed(At::Handshake);
        }
        self.await_line(At::Handshake, "uciok", startup, |l| l == "uciok")?;
        for (i, step) in self.steps.iter().enumerate() {
            if !self.engine.send(&step.line) {
                return self.crashed(At::Step(i));
            }
            match step.kind {
                StepKind::Go => {
                    let waits = crate::uci::parse_go(step.line.as_bytes())
                        .is_some_and(|g| g.waits_for_stop);
                    let bound = search_bound(step, self.target.hang);
                    self.open.push_back(Open {
                        step: i,
                        waits,
                        bound,
                    });
                    self.roots.push((i, self.root.clone()));
                    if waits && lost_search_unstopped(self.steps, i) {
                        // The logged `go infinite` / `go ponder` ended with its engine, not at a
                        // `stop` of the GUI's: given as long as it ran then, it is stopped, or
                        // the next `go` would wait behind it forever (a hang that never was).
                        let ran = step.search.as_ref().and_then(|s| s.elapsed_ms).unwrap_or(0);
                        std::thread::sleep(Duration::from_millis(ran).min(MAX_PAUSE));
                        if !self.engine.send("stop") {
                            return self.crashed(At::Step(i));
                        }
                        self.stopped();
                    }
                }
                StepKind::PonderHit => {
                    if let Some(open) = self.open.iter_mut().find(|o| o.waits) {
                        open.waits = false;
                    }
                }
                StepKind::Stop => self.stopped(),
                StepKind::Position => self.root = root_of(step),
                StepKind::Option | StepKind::Other => {}
            }
            match step.kind {
                StepKind::Go | StepKind::Stop | StepKind::PonderHit => {
                    let next = self.steps.get(i + 1);
                    if let Some(next) =
                        next.filter(|n| matches!(n.kind, StepKind::Stop | StepKind::PonderHit))
                    {
                        let pause = match (step.at_ms, next.at_ms) {
                            (Some(a), Some(b)) => b.saturating_sub(a),
                            _ => 0,
                        };
                        std::thread::sleep(Duration::from_millis(pause).min(MAX_PAUSE));
                        continue;
                    }
                    self.await_searches(At::Step(i))?;
                }
                _ => {
                    if !self.engine.send("isready") {
                        return self.crashed(At::Step(i));
                    }
                    let bound = self.target.hang;
                    self.await_line(At::Step(i), "readyok", bound, |l| l == "readyok")?;
                }
            }
        }
        if !self.open.is_empty() {
            let at = At::Step(self.steps.len().saturating_sub(1));
            if !self.engine.send("stop") {
                return self.crashed(at);
            }
            self.stopped();
            self.await_searches(at)?;
        }
        self.engine.send("quit");
        match self.engine.exit_within(self.target.hang) {
            Some(exit) if exit.failed() => self.fail(Failure::Crash {
                at: At::Quit,
                exit: Some(exit),
            }),
            Some(_) => Ok(()),
            None => self.fail(Failure::Hang {
                at: At::Quit,
                awaited: "exit after quit",
                bound: self.target.hang,
            }),
        }
    }

    /// `stop` was sent: every open search owes its `bestmove` within the hang bound.
    fn stopped(&mut self) {
        for open in &mut self.open {
            open.waits = false;
            open.bound = self.target.hang;
        }
    }

    /// Waits for the `bestmove` of every open search that does not wait for `stop`.
    fn await_searches(&mut self, at: At) -> Result<(), ()> {
        while let Some(bound) = self.open.iter().find(|o| !o.waits).map(|o| o.bound) {
            self.await_line(at, "bestmove", bound, |l| l.starts_with("bestmove"))?;
        }
        Ok(())
    }

    /// Waits for a line `wanted` (the `bestmove` of an open search closes it on the way).
    fn await_line(
        &mut self,
        at: At,
        awaited: &'static str,
        bound: Duration,
        wanted: impl Fn(&str) -> bool,
    ) -> Result<(), ()> {
        let mut bestmoves = Vec::new();
        let waited = self.engine.wait_for(
            bound,
            |l| {
                if l.starts_with("bestmove") {
                    bestmoves.push(l.to_owned());
                }
            },
            wanted,
        );
        for line in bestmoves {
            self.on_bestmove(&line);
        }
        match waited {
            Waited::Line(_) => Ok(()),
            Waited::Ended => self.crashed(at),
            Waited::Timeout => self.fail(Failure::Hang { at, awaited, bound }),
        }
    }

    fn on_bestmove(&mut self, line: &str) {
        let Some(open) = self.open.pop_front() else {
            return;
        };
        let best = line
            .split_ascii_whitespace()
            .nth(1)
            .unwrap_or("")
            .to_owned();
        self.outcome.bestmoves.push((open.step, best));
        let root = self
            .roots
            .iter()
            .position(|(s, _)| *s == open.step)
            .map(|i| self.roots.remove(i).1);
        if let (true, Some(Some((game, notation)))) = (self.target.check_moves, root) {
            for d in check_bestmove(line.as_bytes(), &game, notation) {
                self.outcome.failures.push(Failure::IllegalBestmove {
                    at: open.step,
                    line: line.to_owned(),
                    message: d.diagnostic.message.clone(),
                });
            }
        }
    }

    /// The engine's output ended at `at`: a crash, with its exit status when it exits soon.
    fn crashed(&mut self, at: At) -> Result<(), ()> {
        let exit = self.engine.exit_within(Duration::from_secs(2));
        self.fail(Failure::Crash { at, exit })
    }

    fn fail(&mut self, failure: Failure) -> Result<(), ()> {
        self.outcome.failures.push(failure);
        Err(())
    }
}
