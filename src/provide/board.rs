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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::provide::work::{Search, Work};
    use std::sync::mpsc::{Receiver, channel};

    fn job(id: &str, session: &str) -> Box<Job> {
        Box::new(Job {
            id: id.to_owned(),
            work: Work {
                session_id: session.to_owned(),
                threads: 1,
                hash: 16,
                search: Search::Depth(10),
                multi_pv: 1,
                variant: "chess".to_owned(),
                initial_fen: "8/8/8/8/8/8/8/K6k w - - 0 1".to_owned(),
                moves: Vec::new(),
            },
        })
    }

    fn board(n: usize) -> (Board, Vec<Receiver<EventHandle>>) {
        let (slots, receivers) = (0..n)
            .map(|_| {
                let (events, receiver) = channel();
                let shared = Arc::new(Shared::default());
                (Slot { shared, events }, receiver)
            })
            .unzip();
        (Board::new(slots), receivers)
    }

    /// The ids of the jobs queued on a worker, in order.
    fn queued(receiver: &Receiver<EventHandle>) -> Vec<String> {
        receiver
            .try_iter()
            .filter_map(|EventHandle(e)| match e {
                Event::Job(job, _, _) => Some(job.id),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn a_job_goes_to_the_busy_worker_of_its_session_else_to_the_free_one_that_took_it() {
        let (board, receivers) = board(3);
        let now = Instant::now();
        let first = board.place(0, job("a1", "A"), now).unwrap();
        assert_eq!(
            first,
            Placed {
                worker: 0,
                superseding: false
            }
        );
        // Worker 0 is busy with A: B's job stays with worker 1, A's next goes to worker 0.
        let other = board.place(1, job("b1", "B"), now).unwrap();
        assert_eq!(
            other,
            Placed {
                worker: 1,
                superseding: false
            }
        );
        let next = board.place(2, job("a2", "A"), now).unwrap();
        assert_eq!(
            next,
            Placed {
                worker: 0,
                superseding: true
            }
        );
        assert_eq!(board.slots()[0].shared.acquired.load(Ordering::SeqCst), 2);
        assert_eq!(board.slots()[1].shared.acquired.load(Ordering::SeqCst), 1);
        assert_eq!(queued(&receivers[0]), ["a1", "a2"]);
        assert_eq!(queued(&receivers[1]), ["b1"]);
        assert!(queued(&receivers[2]).is_empty());
    }

    #[test]
    fn a_free_worker_of_the_same_session_is_not_handed_jobs() {
        let (board, receivers) = board(2);
        let now = Instant::now();
        board.place(0, job("a1", "A"), now).unwrap();
        // Worker 0 started and finished a1: free, its session no longer counts.
        {
            let mut busy = board.slots()[0].shared.lock();
            busy.queued = 0;
        }
        let next = board.place(1, job("a2", "A"), now).unwrap();
        assert_eq!(
            next,
            Placed {
                worker: 1,
                superseding: false
            }
        );
        assert_eq!(queued(&receivers[1]), ["a2"]);
    }

    #[test]
    fn a_running_job_with_analysis_is_stopped_when_superseded() {
        let (board, _receivers) = board(2);
        let (reader, writer) = std::io::pipe().unwrap();
        board.place(0, job("a1", "A"), Instant::now()).unwrap();
        {
            let mut busy = board.slots()[0].shared.lock();
            busy.queued = 0;
            busy.running = Some(Arc::new(Mutex::new(Some(writer))));
        }
        // No scored info yet: not stopped by the board (the job stops itself after one).
        board.place(1, job("a2", "A"), Instant::now()).unwrap();
        board.slots()[0]
            .shared
            .informed
            .store(true, Ordering::SeqCst);
        board.place(1, job("a3", "A"), Instant::now()).unwrap();
        board.slots()[0].shared.lock().running = None;
        let mut text = String::new();
        std::io::Read::read_to_string(&mut { reader }, &mut text).unwrap();
        assert_eq!(text, "stop\n");
    }

    #[test]
    fn a_job_taken_while_the_process_ends_comes_back_to_be_answered() {
        let (board, _receivers) = board(1);
        let (events, _receiver) = channel();
        board.slots()[0].shared.shut_down(&events);
        assert_eq!(
            board.place(0, job("x", "A"), Instant::now()),
            Err("x".to_owned())
        );
    }
}
