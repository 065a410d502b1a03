//! One job on a worker's engine: the broker's stream is opened at once, then the job's GUI
//! lines go through the session (each `isready` answered before the next line), then the
//! session's answers are streamed in the broker's grammar, up to `bestmove`.
//!
//! The stream opens before the engine is set up because lila-engine gives the requester only
//! 15 s between its analysis request and the provider's submission (`ProviderTimeout`, 503;
//! lila-engine `src/main.rs`, `analyse`): an engine slow to answer `isready` (a large `Hash`)
//! must not cost the job. An engine that does not answer within the session's own patience
//! for `readyok` (`engine.startup_timeout_ms`) gets the job answered with a notice and
//! `bestmove (none)`, and the `readyok` it owes is read off before the next job's.
//!
//! What is streamed (lila-engine reads the body line by line and refuses, with 400, any line
//! outside its grammar: [`crate::uci::broker`]): `info` lines with a `score` (as lichess's
//! example provider, rewritten by [`broker_info`] so that a `wdl` or other unknown field is
//! left out instead of ending the analysis), fenguard's own `info string fenguard: ...`
//! notices (a rejected position, a clamped option), and the `bestmove` line, where the broker
//! ends the analysis. When nothing was sent for [`PROBE`], an empty line (which the broker
//! ignores) finds out whether the broker still listens: a requester who left closes the
//! stream, and the search is stopped.
//!
//! A search that hangs while the requester stays is stopped: a `movetime` search still running
//! [`overrun`] after its time, and any search whose engine has been silent for
//! [`JobContext::silence`]. The session then times the `bestmove` the engine owes and answers
//! it itself for a hung engine (killing it). `stop`, not `isready`: some engines (Glaurung 2.2)
//! never answer `isready` during a search, and the session would kill them as hung.

use std::collections::VecDeque;
use std::io::Read;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use super::engine_link::{EngineLink, Gone};
use super::lichess::{HttpError, Lichess, Submitted};
use super::work::{Caps, EngineState, Job, Search, WorkError};
use crate::uci::broker::{BrokerLine, broker_info, check_line};

/// How long the stream may stay silent before an empty line probes the connection.
pub const PROBE: Duration = Duration::from_millis(500);

/// How long a stopped search may take to answer `bestmove` (the session answers one itself
/// when the engine hangs, within `engine.ping_timeout_ms`).
const STOPPED: Duration = Duration::from_secs(60);

/// How long a superseded search may run without a scored `info` before it is stopped anyway
/// (an engine that writes none: its `bestmove` still ends the stream).
pub const SUPERSEDED_GRACE: Duration = Duration::from_secs(2);

/// How long after a `go movetime MS` search should have ended it is stopped: half its time,
/// at least 1 s (a loaded machine, an engine's own overhead).
pub fn overrun(movetime: Duration) -> Duration {
    (movetime / 2).max(Duration::from_secs(1))
}

/// How a job ended, as `fenguard_jobs_total`'s `outcome` label names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Streamed up to `bestmove`.
    Done,
    /// Answered without the engine (a job the engine must not see).
    Refused,
    /// The requester left (or the provider stopped): the search was stopped.
    Aborted,
    /// The engine's session ended during the job.
    EngineDied,
    /// The broker no longer knew the job (404).
    Late,
    /// The engine did not answer `isready` in time while the job was set up: answered with a
    /// notice and `bestmove (none)`.
    EngineHung,
    /// The broker refused a line of the stream (400).
    BrokerRefused,
}

impl Outcome {
    /// The label value.
    pub fn label(self) -> &'static str {
        match self {
            Outcome::Done => "done",
            Outcome::Refused => "refused",
            Outcome::Aborted => "aborted",
            Outcome::EngineDied => "engine-died",
            Outcome::Late => "late",
            Outcome::EngineHung => "engine-hung",
            Outcome::BrokerRefused => "broker-refused",
        }
    }
}

/// When the job's answers came, for the latency histograms.
#[derive(Debug, Clone, Copy)]
pub struct Timing {
    /// The job was acquired.
    pub acquired: Instant,
    /// The first `info` line was streamed.
    pub first_info: Option<Instant>,
    /// `bestmove` was streamed.
    pub bestmove: Option<Instant>,
}

/// What a worker knows when it runs a job.
#[derive(Debug)]
pub struct JobContext<'a> {
    /// The broker.
    pub lichess: &'a Lichess,
    /// The registered caps every job is clamped to.
    pub caps: Caps,
    /// The `UCI_Variant` values offered (empty: chess only).
    pub variants: &'a [String],
    /// How many jobs were handed to this worker, and this job's number: a higher count means
    /// a newer job of the same session came, and this one's search is stopped once it has
    /// streamed a scored `info` (or [`SUPERSEDED_GRACE`] after its `go` without one).
    pub acquired: (&'a AtomicU64, u64),
    /// Set when this job streams its first scored `info` (the board then stops it at once
    /// when it is superseded).
    pub informed: &'a AtomicBool,
    /// Set when the process is ending: a job not yet searching is answered at once.
    pub shutdown: &'a AtomicBool,
    /// How long the engine may take to answer an `isready` while the job is set up (the
    /// session's `engine.startup_timeout_ms`, its patience after a `setoption`).
    pub setup: Duration,
    /// How long a searching engine may stay silent before its search is stopped (six times
    /// the session's `engine.ping_timeout_ms`: a minute by default).
    pub silence: Duration,
}

/// Runs `job` on `link` (whose options `state` remembers) and streams its answers. `link` is
/// `None` afterwards when the engine's session ended.
///
/// # Errors
/// [`HttpError`] when the broker could not be reached or answered an unexpected status.
pub fn run(
    ctx: &JobContext<'_>,
    link: &mut Option<EngineLink>,
    state: &mut EngineState,
    job: &Job,
    acquired: Instant,
) -> Result<(Outcome, Timing), HttpError> {
    let mut timing = Timing {
        acquired,
        first_info: None,
        bestmove: None,
    };
    let Some(engine) = link.as_mut() else {
        let refusal = refusal("the engine is not running");
        ctx.lichess.submit(&job.id, &mut refusal.as_bytes())?;
        return Ok((Outcome::Refused, timing));
    };
    let lines = match state.commands(&job.work, ctx.caps, ctx.variants) {
        Ok(lines) => lines,
        Err(e) => return refuse(ctx, job, &e, timing),
    };
    let mut stream = JobStream {
        engine,
        stage: Stage::Setup {
            lines: lines.into(),
            deadline: Instant::now() + ctx.setup,
        },
        pending: Vec::new(),
        at: 0,
        ended: None,
        timing: &mut timing,
        last_sent: Instant::now(),
        last_heard: Instant::now(),
        ctx,
        movetime: match job.work.search {
            Search::Movetime(ms) => Some(Duration::from_millis(ms.max(1).into())),
            _ => None,
        },
        stop_sent: false,
        superseded: false,
    };
    let submitted = ctx.lichess.submit(&job.id, &mut stream);
    let (ended, searching) = (stream.ended, matches!(stream.stage, Stage::Search { .. }));
    if !searching {
        // Set up only in part: the next job tells the engine everything again.
        *state = EngineState::default();
    }
    let outcome = match (ended, &submitted) {
        (Some(Ended::Refused(outcome)), _) => outcome,
        (Some(Ended::Bestmove), Ok(Submitted::Done)) => Outcome::Done,
        (Some(Ended::Gone), _) => Outcome::EngineDied,
        (_, Ok(Submitted::Late)) => Outcome::Late,
        (_, Ok(Submitted::Refused)) => Outcome::BrokerRefused,
        _ => Outcome::Aborted,
    };
    if ended.is_none() && searching && stream.stop().is_err() {
        *link = None;
        return Ok((Outcome::EngineDied, timing));
    }
    if outcome == Outcome::EngineDied {
        *link = None;
    }
    submitted.map(|_| (outcome, timing))
}

/// Answers a job the engine must not see: a notice and `bestmove (none)`.
fn refuse(
    ctx: &JobContext<'_>,
    job: &Job,
    why: &WorkError,
    timing: Timing,
) -> Result<(Outcome, Timing), HttpError> {
    tracing::warn!("job {}: refused: {why}", job.id);
    let answer = refusal(&why.to_string());
    ctx.lichess.submit(&job.id, &mut answer.as_bytes())?;
    Ok((Outcome::Refused, timing))
}

pub(crate) fn refusal(why: &str) -> String {
    format!("info string fenguard: job refused: {why}\nbestmove (none)\n")
}

/// Why the stream ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ended {
    /// At `bestmove`.
    Bestmove,
    /// The engine's session ended.
    Gone,
    /// Answered by fenguard before the search (a notice and `bestmove (none)`).
    Refused(Outcome),
}

/// Where the job is.
#[derive(Debug)]
enum Stage {
    /// Lines still to send; an `isready` sent waits for its `readyok` until `deadline`.
    Setup {
        lines: VecDeque<String>,
        deadline: Instant,
    },
    /// `go` was sent at `since`.
    Search { since: Instant },
}

/// The body of the job's submission: read by ureq, one line per read.
struct JobStream<'a> {
    engine: &'a mut EngineLink,
    stage: Stage,
    pending: Vec<u8>,
    at: usize,
    ended: Option<Ended>,
    timing: &'a mut Timing,
    /// The stream's last bytes went out (for the empty-line probe).
    last_sent: Instant,
    /// The session's last line came (for the `isready` liveness probe).
    last_heard: Instant,
    ctx: &'a JobContext<'a>,
    /// The job's `movetime`, when it has one.
    movetime: Option<Duration>,
    stop_sent: bool,
    /// The stream said that a newer job of the session supersedes this one.
    superseded: bool,
}

impl JobStream<'_> {
    /// One step of the setup: sends lines up to an `isready` that waits for its `readyok`
    /// (and any left behind by an earlier job), or up to `go`; else waits [`PROBE`] for a
    /// line. A process ending before `go` has the job answered here; a job superseded before
    /// its `go` is still searched, up to its first scored `info` (never a bare
    /// `bestmove (none)` for a position with moves).
    fn setup(&mut self) {
        let Stage::Setup { lines, deadline } = &mut self.stage else {
            return;
        };
        if self.ctx.shutdown.load(Ordering::SeqCst) {
            return self.answer("the provider is shutting down", Outcome::Aborted);
        }
        if Instant::now() >= *deadline {
            let why = format!(
                "the engine did not answer isready within {} ms",
                self.ctx.setup.as_millis()
            );
            tracing::warn!("{why}");
            return self.answer(&why, Outcome::EngineHung);
        }
        while self.engine.owed_readyok() == 0 {
            let Some(line) = lines.pop_front() else {
                self.stage = Stage::Search {
                    since: Instant::now(),
                };
                return;
            };
            if self.engine.send(&line).is_err() {
                return self.answer("the engine's session ended", Outcome::EngineDied);
            }
            if line.starts_with("go") {
                self.stage = Stage::Search {
                    since: Instant::now(),
                };
                self.last_heard = Instant::now();
                return;
            }
        }
        match self.engine.line_within(PROBE) {
            Ok(Some(line)) => self.keep(&line),
            Ok(None) => self.probe(),
            Err(Gone) => self.answer("the engine's session ended", Outcome::EngineDied),
        }
    }

    /// Ends the stream with fenguard's own answer: a notice and `bestmove (none)`.
    fn answer(&mut self, why: &str, outcome: Outcome) {
        self.pending.extend_from_slice(refusal(why).as_bytes());
        self.ended = Some(if outcome == Outcome::EngineDied {
            Ended::Gone
        } else {
            Ended::Refused(outcome)
        });
    }

    /// An empty line when the stream was silent for [`PROBE`].
    fn probe(&mut self) {
        if self.last_sent.elapsed() >= PROBE {
            self.pending.push(b'\n');
        }
    }

    /// One step of the search: stops it when a newer job of its session came and it has
    /// analysis to show, its movetime is long past or the engine has been silent too long,
    /// and waits [`PROBE`] for a line.
    fn search(&mut self, since: Instant) {
        let superseded = self.ctx.acquired.0.load(Ordering::SeqCst) > self.ctx.acquired.1
            && (self.timing.first_info.is_some() || since.elapsed() >= SUPERSEDED_GRACE);
        let overdue = self
            .movetime
            .is_some_and(|t| since.elapsed() >= t + overrun(t));
        let silent = self.last_heard.elapsed() >= self.ctx.silence;
        if !self.stop_sent && (superseded || overdue || silent) {
            // A newer job of this session came (the board may have sent `stop` already), the
            // search outlived its movetime, or the engine fell silent.
            if superseded {
                tracing::info!("superseded by a newer job of its session: stop");
                self.note_superseded();
            } else if overdue {
                tracing::warn!("the search outlived its movetime: stop");
            } else if silent {
                tracing::warn!(
                    "the engine was silent for {} ms in a search: stop",
                    self.ctx.silence.as_millis()
                );
            }
            self.stop_sent = true;
            if self.engine.send("stop").is_err() {
                self.ended = Some(Ended::Gone);
                return;
            }
        }
        match self.engine.line_within(PROBE) {
            Ok(Some(line)) => {
                self.last_heard = Instant::now();
                self.keep(&line);
            }
            Ok(None) => self.probe(),
            Err(Gone) => self.ended = Some(Ended::Gone),
        }
    }

    /// Queues `line` for the broker when it is one to stream; notes `bestmove`.
    fn keep(&mut self, line: &str) {
        let bytes = line.as_bytes();
        let streamed = match check_line(bytes) {
            Ok(BrokerLine::Bestmove) => {
                if self.ctx.acquired.0.load(Ordering::SeqCst) > self.ctx.acquired.1 {
                    // Stopped by the board before this job looked.
                    self.note_superseded();
                }
                self.ended = Some(Ended::Bestmove);
                self.timing.bestmove = Some(Instant::now());
                Some(std::borrow::Cow::Borrowed(line))
            }
            _ if line.starts_with("info string fenguard:") => broker_info(bytes),
            _ if line.starts_with("info") && line.contains(" score ") => broker_info(bytes)
                .inspect(|_| {
                    if self.timing.first_info.is_none() {
                        self.timing.first_info = Some(Instant::now());
                        self.ctx.informed.store(true, Ordering::SeqCst);
                    }
                }),
            _ if line.starts_with("bestmove") => {
                // A bestmove the broker cannot read (not UCI): end the analysis anyway.
                self.ended = Some(Ended::Bestmove);
                self.timing.bestmove = Some(Instant::now());
                Some(std::borrow::Cow::Borrowed("bestmove (none)"))
            }
            _ => None,
        };
        if let Some(text) = streamed {
            self.pending.extend_from_slice(text.as_bytes());
            self.pending.push(b'\n');
        }
    }

    /// Tells the requester, once, that a newer job of its session ends this search.
    fn note_superseded(&mut self) {
        if !self.superseded {
            self.superseded = true;
            self.pending.extend_from_slice(
                b"info string fenguard: superseded by a newer job of this session\n",
            );
        }
    }

    /// Stops the search and reads the session's answers up to `bestmove` (not streamed).
    fn stop(&mut self) -> Result<(), Gone> {
        self.engine.send("stop")?;
        let deadline = Instant::now() + STOPPED;
        while Instant::now() < deadline {
            if let Some(line) = self.engine.line_within(PROBE)?
                && line.starts_with("bestmove")
            {
                return Ok(());
            }
        }
        Err(Gone)
    }
}

impl Read for JobStream<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        while self.at == self.pending.len() {
            self.pending.clear();
            self.at = 0;
            if self.ended.is_some() {
                return Ok(0);
            }
            match self.stage {
                Stage::Setup { .. } => self.setup(),
                Stage::Search { since } => self.search(since),
            }
        }
        let n = buf.len().min(self.pending.len() - self.at);
        buf[..n].copy_from_slice(&self.pending[self.at..self.at + n]);
        self.at += n;
        self.last_sent = Instant::now();
        Ok(n)
    }
}
