//! A worker: one engine, a poll thread that long-polls the broker for jobs while the worker
//! is free, and a job loop that runs them one at a time (lichess's example provider, one
//! engine per worker).
//!
//! A busy worker does not poll: a job goes to a free worker of this process or of another
//! sharing the secret ([`board`](super::board)). A job of the session a busy worker runs,
//! acquired by a free worker, is handed to the busy one and supersedes its job there. An idle
//! engine is stopped after `keep_alive_s` and started again for the next job.

use std::sync::atomic::Ordering;
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::{Arc, PoisonError};
use std::time::{Duration, Instant};

use super::board::{Board, Event, EventHandle, Shared};
use super::engine_link::{EngineLink, EngineMaker};
use super::job::{self, JobContext, Outcome};
use super::lichess::Lichess;
use super::work::{Caps, EngineState, Job};
use crate::metrics::names::{
    JOB_FIRST_INFO_SECONDS, JOB_OUTCOMES, JOB_SECONDS, JOBS_ACTIVE, JOBS_TOTAL,
};
use crate::metrics::{Health, record::Active};

/// The longest wait between polls after errors (lichess's example provider: ×1.5 up to 10 s).
const MAX_BACKOFF: Duration = Duration::from_secs(10);

/// How long the broker may keep failing before `/health` says so (503).
const UNHEALTHY_AFTER: Duration = Duration::from_secs(5);

/// One worker's making.
#[derive(Debug, Clone)]
pub struct Worker {
    /// Its engines.
    pub maker: EngineMaker,
    /// lila and the broker.
    pub lichess: Lichess,
    /// The provider secret.
    pub secret: Arc<String>,
    /// Every job is clamped to these.
    pub caps: Caps,
    /// The `UCI_Variant` values offered.
    pub variants: Arc<Vec<String>>,
    /// Stop an engine idle this long (`None`: never).
    pub keep_alive: Option<Duration>,
    /// Its index on the board.
    pub index: usize,
    /// Every worker of the process (where an acquired job goes).
    pub board: Arc<Board>,
    /// The process's health, for the metrics listener.
    pub health: Health,
}

impl Worker {
    /// Runs the worker on this thread until [`Shared::shut_down`]; `engine` is an engine
    /// already started (the first worker's, whose handshake gave the variants).
    pub fn run(
        self,
        engine: Option<EngineLink>,
        shared: &Arc<Shared>,
        receiver: &Receiver<EventHandle>,
    ) {
        let poller = {
            let (worker, shared) = (self.clone(), Arc::clone(shared));
            std::thread::Builder::new()
                .name(format!("poll {}", self.maker.sid))
                .spawn(move || worker.poll(&shared))
        };
        if let Err(e) = poller {
            tracing::error!("worker {}: no poll thread: {e}", self.maker.sid);
            return;
        }
        self.jobs(engine, shared, receiver);
    }

    /// The job loop.
    fn jobs(
        &self,
        mut engine: Option<EngineLink>,
        shared: &Shared,
        events: &Receiver<EventHandle>,
    ) {
        let mut state = EngineState::default();
        let mut idle_since = Instant::now();
        let wait = self.keep_alive.unwrap_or(Duration::from_secs(3600));
        loop {
            let event = match events.recv_timeout(wait.min(Duration::from_secs(1))) {
                Ok(EventHandle(event)) => event,
                Err(RecvTimeoutError::Timeout) => Event::Idle,
                Err(RecvTimeoutError::Disconnected) => Event::Shutdown,
            };
            match event {
                Event::Shutdown => break,
                Event::Idle => {
                    if let Some(keep) = self.keep_alive
                        && engine.is_some()
                        && idle_since.elapsed() >= keep
                    {
                        tracing::info!("worker {}: stopping the idle engine", self.maker.sid);
                        if let Some(link) = engine.take() {
                            link.quit();
                        }
                        state = EngineState::default();
                    }
                }
                Event::Job(job, acquired, seq) => {
                    if engine.is_none() {
                        state = EngineState::default();
                        engine = self
                            .maker
                            .start()
                            .inspect_err(|e| tracing::error!("worker {}: {e}", self.maker.sid))
                            .ok();
                    }
                    self.run_job(&mut engine, &mut state, &job, acquired, (shared, seq));
                    idle_since = Instant::now();
                }
            }
        }
        if let Some(link) = engine {
            link.quit();
        }
        tracing::info!("worker {}: ended", self.maker.sid);
    }

    fn run_job(
        &self,
        engine: &mut Option<EngineLink>,
        state: &mut EngineState,
        job: &Job,
        acquired: Instant,
        (shared, seq): (&Shared, u64),
    ) {
        {
            let mut busy = shared.lock();
            busy.queued = busy.queued.saturating_sub(1);
            busy.running = engine.as_ref().map(EngineLink::input);
            shared.informed.store(false, Ordering::SeqCst);
        }
        shared.changed.notify_all();
        *self
            .maker
            .label
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = Some(job.id.clone());
        let active = Active::new(JOBS_ACTIVE);
        tracing::info!("worker {}: job {}", self.maker.sid, job.id);
        let limits = &self.maker.spec.config.engine;
        let ctx = JobContext {
            lichess: &self.lichess,
            caps: self.caps,
            variants: &self.variants,
            acquired: (&shared.acquired, seq),
            informed: &shared.informed,
            shutdown: &shared.shutdown,
            setup: Duration::from_millis(limits.startup_timeout_ms.max(limits.ping_timeout_ms)),
            silence: Duration::from_millis(limits.ping_timeout_ms.saturating_mul(6)),
        };
        let result = job::run(&ctx, engine, state, job, acquired);
        drop(active);
        *self
            .maker
            .label
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = None;
        shared.lock().running = None;
        shared.changed.notify_all();
        let (outcome, timing) = match result {
            Ok(done) => done,
            Err(e) => {
                tracing::warn!("worker {}: job {}: {e}", self.maker.sid, job.id);
                return;
            }
        };
        if let Some(first) = timing.first_info {
            metrics::histogram!(JOB_FIRST_INFO_SECONDS)
                .record((first - timing.acquired).as_secs_f64());
        }
        if let Some(end) = timing.bestmove {
            metrics::histogram!(JOB_SECONDS).record((end - timing.acquired).as_secs_f64());
        }
        // Counted last: a scrape that sees the job counted sees its latencies too.
        metrics::counter!(JOBS_TOTAL, "outcome" => outcome.label()).increment(1);
        let level_info = matches!(outcome, Outcome::Done | Outcome::Aborted);
        debug_assert!(JOB_OUTCOMES.contains(&outcome.label()));
        let message = format!(
            "worker {}: job {} {} after {} ms",
            self.maker.sid,
            job.id,
            outcome.label(),
            timing.acquired.elapsed().as_millis()
        );
        if level_info {
            tracing::info!("{message}");
        } else {
            tracing::warn!("{message}");
        }
    }

    /// The poll thread: long-polls for work while the worker is free, and places each job
    /// acquired on the board.
    fn poll(&self, shared: &Shared) {
        let mut backoff = Duration::from_secs(1);
        let mut failing_since: Option<Instant> = None;
        loop {
            {
                // Only a free worker polls: a busy process leaves the queue to free workers.
                let mut busy = shared.lock();
                while !shared.shutdown.load(Ordering::SeqCst) && busy.is_busy() {
                    busy = shared
                        .changed
                        .wait(busy)
                        .unwrap_or_else(PoisonError::into_inner);
                }
            }
            // One long poll out at a time: the free workers take turns (none can become busy
            // while it waits: jobs are handed over only to busy workers).
            let mut turn = Some(self.board.turn());
            if shared.shutdown.load(Ordering::SeqCst) {
                return;
            }
            let attempt = Instant::now();
            let acquired = self.lichess.acquire(&self.secret);
            if !matches!(acquired, Ok(Some(_))) {
                turn = None;
            }
            match acquired {
                Ok(found) => {
                    backoff = Duration::from_secs(1);
                    if failing_since.take().is_some() {
                        tracing::info!("worker {}: the broker answers again", self.maker.sid);
                        self.health.set_healthy();
                    }
                    let Some(job) = found else { continue };
                    let acquired = Instant::now();
                    let (id, session) = (job.id.clone(), job.work.session_id.clone());
                    let placed = self.board.place(self.index, Box::new(job), acquired);
                    drop(turn.take());
                    match placed {
                        Ok(placed) if placed.superseding => tracing::info!(
                            "worker {}: job {id} of session {session:?} supersedes worker {}'s job",
                            self.maker.sid,
                            placed.worker + 1
                        ),
                        Ok(_) => {}
                        Err(id) => {
                            // Acquired while the process is ending: the job loops are gone or
                            // going; answer the job rather than leave the requester waiting.
                            let answer = job::refusal("the provider is shutting down");
                            if let Err(e) = self.lichess.submit(&id, &mut answer.as_bytes()) {
                                tracing::warn!("worker {}: job {id}: {e}", self.maker.sid);
                            }
                            return;
                        }
                    }
                }
                Err(super::lichess::HttpError::BadJob { id, error }) => {
                    // The broker answers: a job it handed out that fenguard cannot read.
                    tracing::warn!("worker {}: job {id} refused: {error}", self.maker.sid);
                    let answer = job::refusal(&format!("unreadable work: {error}"));
                    if let Err(e) = self.lichess.submit(&id, &mut answer.as_bytes()) {
                        tracing::warn!("worker {}: job {id}: {e}", self.maker.sid);
                    }
                    metrics::counter!(JOBS_TOTAL, "outcome" => Outcome::Refused.label())
                        .increment(1);
                }
                Err(e) => {
                    // Failing since the first failed attempt began (a broker that does not
                    // answer at all fails only at the end of the poll's 12 s).
                    let since = *failing_since.get_or_insert(attempt);
                    tracing::warn!(
                        "worker {}: cannot acquire work ({e}); next try in {} ms",
                        self.maker.sid,
                        backoff.as_millis()
                    );
                    if since.elapsed() >= UNHEALTHY_AFTER {
                        self.health
                            .set_unhealthy("lichess's work broker does not answer");
                    }
                    sleep_unless(shared, backoff);
                    backoff = backoff.mul_f64(1.5).min(MAX_BACKOFF);
                }
            }
        }
    }
}

/// Sleeps `wait`, or less when the worker is shut down.
fn sleep_unless(shared: &Shared, wait: Duration) {
    let busy = shared.lock();
    let _ = shared
        .changed
        .wait_timeout_while(busy, wait, |_| !shared.shutdown.load(Ordering::SeqCst));
}
