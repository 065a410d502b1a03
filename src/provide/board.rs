//! The process's workers as the poll threads see them, and where a job one of them acquired
//! goes (issue 30: several processes share one queue at the broker).
//!
//! A worker polls only while it is free (no job running, none handed to it), and one at a
//! time ([`Board::turn`]), so a process with every worker busy takes no job: the broker keeps it for a free worker of any process
//! sharing the secret, and no job waits behind a search that may run for ever (`infinite`).
//! A job is placed by [`Board::place`]:
//! - on the busy worker whose newest job is of the same analysis session (`sessionId`): the
//!   user moved on, so the job *supersedes* that worker's job. The running search is stopped
//!   (at once when it has streamed a scored `info`, else as soon as it has one), its remaining
//!   `info` lines and the engine's `bestmove` end its stream, and the new job runs next on the
//!   same engine (the session's jobs stay in order, its hash stays warm);
//! - else on the worker that acquired it (free, by the rule above).
//!
//! A job of one session never stops a job of another.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::Sender;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::Instant;

use super::engine_link::{self, Input};
use super::work::Job;

/// What the poll threads hand a job loop.
#[derive(Debug)]
pub(super) enum Event {
    /// A job, when it was acquired, and its number among the jobs handed to this worker.
    Job(Box<Job>, Instant, u64),
    /// Nothing came for a while (the keep-alive check).
    Idle,
    /// The process is ending.
    Shutdown,
}

/// An event for a worker's job loop (opaque outside this module and the worker's).
#[derive(Debug)]
pub struct EventHandle(pub(super) Event);

/// What a worker shares with the poll threads and with the process's shutdown.
#[derive(Debug, Default)]
pub struct Shared {
    pub(super) state: Mutex<Busy>,
    pub(super) changed: Condvar,
    pub(super) shutdown: AtomicBool,
    /// How many jobs were handed to this worker: a running job whose number is lower was
    /// superseded (by a job of its own session: [`Board::place`]).
    pub(super) acquired: AtomicU64,
    /// The running job has streamed a scored `info` (a `stop` then ends it with analysis).
    pub(super) informed: AtomicBool,
}

/// A worker's jobs, under [`Shared::state`].
#[derive(Debug, Default)]
pub(super) struct Busy {
    /// Jobs handed over and not yet started.
    pub(super) queued: usize,
    /// The running job's engine input (to stop it).
    pub(super) running: Option<Input>,
    /// The analysis session of the newest job handed to this worker.
    pub(super) session: Option<String>,
}

impl Busy {
    /// A job runs or waits on this worker.
    pub(super) fn is_busy(&self) -> bool {
        self.queued > 0 || self.running.is_some()
    }
}

impl Shared {
    /// The worker's state, locked.
    pub(super) fn lock(&self) -> MutexGuard<'_, Busy> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Asks the worker to end: its running search is stopped (streamed up to its
    /// `bestmove`), then its engine quits.
    pub fn shut_down(&self, events: &Sender<EventHandle>) {
        // Under the lock: a poll thread that hands a job over checks the flag under it too,
        // so a job handed over is queued before `Shutdown`, or refused by the poll thread.
        let busy = self.lock();
        self.shutdown.store(true, Ordering::SeqCst);
        if let Some(input) = &busy.running {
            let _ = engine_link::send(input, "stop");
        }
        drop(busy);
        self.changed.notify_all();
        let _ = events.send(EventHandle(Event::Shutdown));
    }
}

/// One worker of the board: its shared state and its job loop's events.
#[derive(Debug)]
pub struct Slot {
    /// Its state.
    pub shared: Arc<Shared>,
    /// Its job loop's events.
    pub events: Sender<EventHandle>,
}

/// Where a job went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Placed {
    /// The worker it is queued on (an index into the board).
    pub worker: usize,
    /// It supersedes the job that worker runs or holds (of the same session).
    pub superseding: bool,
}

/// Every worker of the process.
#[derive(Debug)]
pub struct Board {
    slots: Vec<Slot>,
    /// Held by the one poll thread whose long poll is out: jobs are placed in the order the
    /// broker handed them out (a session's older job is never queued behind its newer one).
    turn: Mutex<()>,
}

impl Board {
    /// The board of `slots` (worker `i` is `slots[i]`).
    pub fn new(slots: Vec<Slot>) -> Board {
        Board {
            slots,
            turn: Mutex::new(()),
        }
    }

    /// The process's turn to poll, held through a long poll and the placing of its job (one
    /// long poll out at a time, as lichess's example provider).
    pub fn turn(&self) -> MutexGuard<'_, ()> {
        self.turn.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The workers.
    pub fn slots(&self) -> &[Slot] {
        &self.slots
    }

    /// Places `job`, acquired at `acquired` by worker `me` (free: it polls only then): on
    /// the busy worker running or holding a job of the same session, else on `me`.
    ///
    /// # Errors
    /// The job's id when the process is ending (the caller answers the job).
    pub fn place(&self, me: usize, job: Box<Job>, acquired: Instant) -> Result<Placed, String> {
        let session = job.work.session_id.clone();
        for (worker, slot) in self.slots.iter().enumerate() {
            if worker == me {
                continue;
            }
            let mut busy = slot.shared.lock();
            if busy.is_busy()
                && busy.session.as_deref() == Some(session.as_str())
                && !slot.shared.shutdown.load(Ordering::SeqCst)
            {
                hand(slot, &mut busy, job, acquired)?;
                if let Some(input) = &busy.running
                    && slot.shared.informed.load(Ordering::SeqCst)
                {
                    // The running search has analysis to show: stop it now (after the count
                    // that tells its job why, before the new job's lines, which its job loop
                    // sends only after it has set `running` again under this lock).
                    let _ = engine_link::send(input, "stop");
                }
                return Ok(Placed {
                    worker,
                    superseding: true,
                });
            }
        }
        let Some(slot) = self.slots.get(me) else {
            return Err(job.id);
        };
        let mut busy = slot.shared.lock();
        if slot.shared.shutdown.load(Ordering::SeqCst) {
            return Err(job.id);
        }
        let superseding = busy.is_busy();
        hand(slot, &mut busy, job, acquired).map(|()| Placed {
            worker: me,
            superseding,
        })
    }
}

/// Queues `job` on `slot` (whose state `busy` is locked); the job's id when its job loop is
/// gone.
fn hand(slot: &Slot, busy: &mut Busy, job: Box<Job>, acquired: Instant) -> Result<(), String> {
    let seq = slot.shared.acquired.fetch_add(1, Ordering::SeqCst) + 1;
    let (id, session) = (job.id.clone(), job.work.session_id.clone());
    slot.events
        .send(EventHandle(Event::Job(job, acquired, seq)))
        .map_err(|_| id)?;
    busy.queued += 1;
    busy.session = Some(session);
    slot.shared.changed.notify_all();
    Ok(())
}
