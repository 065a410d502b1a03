//! One job on a worker's engine: the job's GUI lines through the session (waiting for each
//! `isready`), then the session's answers streamed to the broker as they come, in the broker's
//! grammar, up to `bestmove`.
//!
//! What is streamed (lila-engine reads the body line by line and refuses, with 400, any line
//! outside its grammar: [`crate::uci::broker`]): `info` lines with a `score` (as lichess's
//! example provider, rewritten by [`broker_info`] so that a `wdl` or other unknown field is
//! left out instead of ending the analysis), fenguard's own `info string fenguard: ...`
//! notices (a rejected position, a clamped option), and the `bestmove` line, where the broker
//! ends the analysis. When nothing was sent for [`PROBE`], an empty line (which the broker
//! ignores) finds out whether the broker still listens: a requester who left closes the
//! stream, and the search is stopped.

use std::io::Read;
use std::time::{Duration, Instant};

use super::engine_link::{EngineLink, Gone};
use super::lichess::{HttpError, Lichess, Submitted};
use super::work::{Caps, EngineState, Job, WorkError};
use crate::uci::broker::{BrokerLine, broker_info, check_line};

/// How long the stream may stay silent before an empty line probes the connection.
pub const PROBE: Duration = Duration::from_millis(500);

/// How long a stopped search may take to answer `bestmove` (the session answers one itself
/// when the engine hangs, within `engine.ping_timeout_ms`).
const STOPPED: Duration = Duration::from_secs(60);

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
    /// How many jobs this worker's poll thread has acquired, and this job's number: a
    /// higher count means a newer job came, and this one is stopped.
    pub acquired: (&'a std::sync::atomic::AtomicU64, u64),
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
        pending: Vec::new(),
        at: 0,
        ended: None,
        timing: &mut timing,
        last_sent: Instant::now(),
        acquired: ctx.acquired,
        stop_sent: false,
    };
    if let Err(Gone) = stream.send_job(&lines) {
        *link = None;
        // Acquired: answered all the same, or the requester waits for its pickup timeout.
        let answer = refusal("the engine's session ended");
        ctx.lichess.submit(&job.id, &mut answer.as_bytes())?;
        return Ok((Outcome::EngineDied, timing));
    }
    let submitted = ctx.lichess.submit(&job.id, &mut stream);
    let ended = stream.ended;
    let outcome = match (ended, &submitted) {
        (Some(Ended::Bestmove), Ok(Submitted::Done)) => Outcome::Done,
        (Some(Ended::Gone), _) => Outcome::EngineDied,
        (_, Ok(Submitted::Late)) => Outcome::Late,
        _ => Outcome::Aborted,
    };
    if ended.is_none() && stream.stop().is_err() {
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
}

/// The body of the job's submission: read by ureq, one line per read.
struct JobStream<'a> {
    engine: &'a mut EngineLink,
    pending: Vec<u8>,
    at: usize,
    ended: Option<Ended>,
    timing: &'a mut Timing,
    last_sent: Instant,
    acquired: (&'a std::sync::atomic::AtomicU64, u64),
    stop_sent: bool,
}

impl JobStream<'_> {
    /// Sends the job's lines; each `isready` is answered before the next line goes (as
    /// lichess's example provider waits). fenguard's notices meanwhile are kept for the
    /// stream.
    fn send_job(&mut self, lines: &[String]) -> Result<(), Gone> {
        for line in lines {
            self.engine.send(line)?;
            if line == "isready" {
                loop {
                    let answer = self.engine.line()?;
                    if answer == "readyok" {
                        break;
                    }
                    self.keep(&answer);
                }
            }
        }
        Ok(())
    }

    /// Queues `line` for the broker when it is one to stream; notes `bestmove`.
    fn keep(&mut self, line: &str) {
        let bytes = line.as_bytes();
        let streamed = match check_line(bytes) {
            Ok(BrokerLine::Bestmove) => {
                self.ended = Some(Ended::Bestmove);
                self.timing.bestmove = Some(Instant::now());
                Some(std::borrow::Cow::Borrowed(line))
            }
            _ if line.starts_with("info string fenguard:") => broker_info(bytes),
            _ if line.starts_with("info") && line.contains(" score ") => broker_info(bytes)
                .inspect(|_| {
                    self.timing.first_info.get_or_insert_with(Instant::now);
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
            if !self.stop_sent
                && self.acquired.0.load(std::sync::atomic::Ordering::SeqCst) > self.acquired.1
            {
                // A newer job came (its `stop` may have reached the engine before this `go`).
                self.stop_sent = true;
                if self.engine.send("stop").is_err() {
                    self.ended = Some(Ended::Gone);
                    return Ok(0);
                }
            }
            match self.engine.line_within(PROBE) {
                Ok(Some(line)) => self.keep(&line),
                Ok(None) if self.last_sent.elapsed() >= PROBE => self.pending.push(b'\n'),
                Ok(None) => {}
                Err(Gone) => {
                    self.ended = Some(Ended::Gone);
                    return Ok(0);
                }
            }
        }
        let n = buf.len().min(self.pending.len() - self.at);
        buf[..n].copy_from_slice(&self.pending[self.at..self.at + n]);
        self.at += n;
        self.last_sent = Instant::now();
        Ok(n)
    }
}
