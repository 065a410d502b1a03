//! The state the relay's threads share: the session, the two output pipes, `positions.jsonl`
//! and the deadline the relay loop waits for, and the threads that feed it.
//!
//! The GUI's stdin and the engine's stdout each have a [reader thread](super::reader) that, per
//! read, takes the session's lock, hands the session every line read, carries out its actions
//! (queueing output on the [outboxes](super::outbox), logging, asking for an earlier deadline)
//! and, after releasing the lock, writes the queued output itself, except that a reader never
//! writes to the pipe of the side it reads: that side may be blocked writing to it, waiting to
//! be read (`Shared::flush_from_engine_reader`). What needs waiting (the engine's exit,
//! signals, timers, restarts, those hand-overs) is sent as a [`Notice`] to the relay loop.

use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use tokio::sync::mpsc::UnboundedSender;

use super::outbox::Outbox;
use crate::logging::TRANSCRIPT;
use crate::metrics::record;
use crate::metrics::round_trip::{self, RoundTrips};
use crate::poslog::PositionLog;
use crate::session::{Action, Event, Session, Verdict};

/// Bytes of engine output in one read that show a backlog in its pipe (a line or two is far
/// less; a pipe holds 64 KiB on Linux, 4 KiB at least elsewhere).
const BACKLOG_READ: usize = 4096;

/// Bytes of a write to the GUI between two progress counts: a pipe's worth, so that a read
/// of engine output (at most that) is still one write, and fenguard's exit can tell a GUI
/// that reads a large backlog slowly from one that reads nothing.
const GUI_PIECE: usize = 64 * 1024;

/// fenguard's own output for the GUI (answers to GUI lines) above which the GUI's reader
/// waits before it reads on; above the engine reader's bound (`outbox::BACKLOG`), so that
/// an engine flood alone never holds up the GUI's `stop` or `quit`.
const GUI_READER_BACKLOG: usize = 2 * super::outbox::BACKLOG;

/// Longest a batch of GUI lines is handled without writing out what it queued.
const FLUSH_EVERY: Duration = Duration::from_millis(1);

/// The engine's stdin.
pub type EngineIn = std::io::PipeWriter;
/// The GUI's side, written: fenguard's stdout (a duplicate of the descriptor or handle), or a
/// daemon connection (a socket, blocking).
pub struct GuiOut(pub Box<dyn std::io::Write + Send>);
/// The GUI's side, read: fenguard's stdin, or a daemon connection (blocking reads).
pub struct GuiIn(pub Box<dyn std::io::Read + Send>);

impl std::fmt::Debug for GuiOut {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("GuiOut")
    }
}

impl std::fmt::Debug for GuiIn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("GuiIn")
    }
}

impl std::io::Write for GuiOut {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush()
    }
}

impl std::io::Read for GuiIn {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.0.read(buf)
    }
}

/// What the threads tell the relay loop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Notice {
    /// An output pipe of engine number `generation` reached its end.
    Closed {
        /// Which pipe.
        pipe: EnginePipe,
        /// The engine it belongs to (counts restarts).
        generation: u64,
    },
    /// The session asked for something that takes waiting.
    Control(Control),
    /// The session has a deadline at this instant, earlier than the one the loop waits for.
    Deadline(Instant),
    /// Bytes for the engine are queued and nobody is writing them: the engine's reader
    /// queued them, and it never writes to the engine itself.
    EngineInputQueued,
    /// Bytes for the GUI are queued and nobody is writing them: the GUI's reader queued them,
    /// and it never writes to the GUI itself.
    GuiOutputQueued,
}

/// The engine's output pipes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EnginePipe {
    /// Its stdout.
    Stdout,
    /// Its stderr.
    Stderr,
}

/// The session's actions that the relay loop carries out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Control {
    /// [`Action::StartQuitGrace`].
    StartQuitGrace,
    /// [`Action::KillEngine`].
    KillEngine,
    /// [`Action::RestartEngine`].
    RestartEngine(Duration),
    /// [`Action::Finish`].
    Finish(u8),
}

/// The session and what its actions act on; behind [`Shared`]'s lock.
#[derive(Debug)]
pub struct Core {
    /// The state machine.
    pub session: Session,
    /// `positions.jsonl`, when enabled.
    pub positions: Option<PositionLog>,
    /// The deadline the relay loop was asked to wait for (sent as [`Notice::Deadline`]).
    armed: Option<Instant>,
    /// The engine whose output is read now; output of an earlier one is ignored.
    pub generation: u64,
    notices: UnboundedSender<Notice>,
    /// The GUI thread waits for the session to take GUI lines again.
    gui_waiting: bool,
    /// `position` records seen (positions judged), for the daemon's connection log line.
    pub judged: u64,
    /// Of those, rejected ones.
    pub rejected: u64,
}

/// What the relay's threads share.
#[derive(Debug)]
pub struct Shared {
    core: Mutex<Core>,
    /// Signalled when the session may take GUI lines again.
    resume: Condvar,
    /// The engine's stdin.
    pub engine_in: Outbox<EngineIn>,
    /// fenguard's stdout.
    pub gui: Outbox<GuiOut>,
    /// The `isready` round trips, when metrics are recorded.
    round_trips: Option<RoundTrips>,
}

impl Shared {
    /// Shares `session` and the outputs; `notices` reaches the relay loop.
    pub fn new(
        session: Session,
        positions: Option<PositionLog>,
        notices: UnboundedSender<Notice>,
        engine_in: EngineIn,
        gui: GuiOut,
    ) -> Arc<Shared> {
        Arc::new(Shared {
            core: Mutex::new(Core {
                session,
                positions,
                armed: None,
                generation: 0,
                notices,
                gui_waiting: false,
                judged: 0,
                rejected: 0,
            }),
            resume: Condvar::new(),
            engine_in: Outbox::new(engine_in, "engine").noting_progress(),
            gui: Outbox::new(gui, "GUI").in_pieces(GUI_PIECE),
            round_trips: record::enabled().then(RoundTrips::default),
        })
    }

    /// Locks the core.
    pub fn lock(&self) -> MutexGuard<'_, Core> {
        self.core.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Carries out `actions` under the lock, then arms the deadline and wakes a waiting GUI
    /// thread if the session takes GUI lines again; output is queued, not written.
    pub fn apply(&self, core: &mut Core, actions: Vec<Action>) {
        for action in actions {
            core.apply(self, action);
        }
        self.settle(core);
    }

    /// After the session changed: arm its next deadline, resume the GUI thread if it may go on.
    fn settle(&self, core: &mut Core) {
        core.arm(core.session.next_deadline());
        if core.gui_waiting && !core.session.gui_paused() {
            core.gui_waiting = false;
            self.resume.notify_all();
        }
    }

    /// Waits (releasing the lock) while the session holds so many GUI lines for a restarting
    /// engine that it wants no more for now.
    fn wait_for_gui_lines<'a>(&self, mut core: MutexGuard<'a, Core>) -> MutexGuard<'a, Core> {
        while core.session.gui_paused() {
            core.gui_waiting = true;
            core = self
                .resume
                .wait(core)
                .unwrap_or_else(PoisonError::into_inner);
        }
        core
    }

    /// Writes what is queued for the GUI on this thread (blocking); never from the GUI's
    /// reader (`Shared::flush_from_gui_reader`).
    pub fn flush_gui(&self) {
        let answered = self.round_trips.as_ref().map(RoundTrips::take_written);
        self.gui.flush();
        if let Some(answered) = answered {
            RoundTrips::observe(&answered);
        }
    }

    /// The engine's reader after a batch (`core` still locked, so nothing is pushed between
    /// the look and the notice): writes what is queued for the GUI itself, and leaves what is
    /// queued for the engine to the relay loop ([`Notice::EngineInputQueued`], written on its
    /// blocking pool).
    ///
    /// The thread that reads the engine never writes to it. An engine blocked writing its
    /// output (a burst longer than the pipe) reads no input, so such a write would wait for
    /// the engine, and the engine for this thread to read: a deadlock that ends only in
    /// "engine hung" (seen under load with the GUI's lines queued for the engine when the
    /// burst filled its pipe, and every time when lines held over a restart were released
    /// into a bursting engine; the bare engine has no such cycle).
    fn flush_from_engine_reader(&self, core: MutexGuard<'_, Core>) {
        Self::hand_over(&core, &self.engine_in, Notice::EngineInputQueued);
        drop(core);
        self.flush_gui();
    }

    /// The GUI's reader after a line or a batch, the mirror of
    /// [`Shared::flush_from_engine_reader`]: writes what is queued for the engine itself, and
    /// leaves what is queued for the GUI to the relay loop ([`Notice::GuiOutputQueued`]). A
    /// GUI that reads slowly while the engine floods it would otherwise keep this thread
    /// writing for as long as the flood lasts, and the GUI's `stop` or `quit` unread. While
    /// [`GUI_READER_BACKLOG`] bytes or more wait for the GUI (fenguard's own answers to a GUI
    /// that writes and does not read), it waits before reading on: memory stays bounded.
    fn flush_from_gui_reader(&self, core: MutexGuard<'_, Core>, write_engine_input: bool) {
        Self::hand_over(&core, &self.gui, Notice::GuiOutputQueued);
        drop(core);
        if write_engine_input {
            self.engine_in.flush();
            // At the same points only: a batch of GUI lines adds a bounded amount.
            self.gui.wait_while_queued(GUI_READER_BACKLOG);
        }
    }

    /// Asks the relay loop to write `outbox` when bytes wait there and nobody writes them
    /// (a writer at work takes them along).
    fn hand_over<W: std::io::Write>(core: &Core, outbox: &Outbox<W>, notice: Notice) {
        if outbox.needs_flush() {
            core.notify(notice);
        }
    }

    /// The session is about to take `line` from the GUI at `now`: an `isready` starts a round
    /// trip (when metrics are recorded).
    fn gui_line(&self, line: &[u8], now: Instant) {
        if let Some(clock) = &self.round_trips
            && round_trip::is_isready(line)
        {
            clock.asked(now);
        }
    }
}

impl Core {
    fn apply(&mut self, shared: &Shared, action: Action) {
        let control = |control| Notice::Control(control);
        match action {
            Action::ToEngine(line) => shared.engine_in.push(&line),
            Action::ToGui(line) => {
                shared.gui.push(&line);
                if let Some(clock) = &shared.round_trips
                    && round_trip::is_readyok(&line)
                {
                    clock.answered();
                }
            }
            Action::CloseEngineInput => shared.engine_in.close_when_written(),
            Action::Record(entry) => {
                match &entry.event {
                    Event::Position(position) => {
                        self.judged += 1;
                        self.rejected += u64::from(position.verdict == Verdict::Rejected);
                        record::position(position.verdict);
                    }
                    Event::Search(_) => record::search(),
                    _ => {}
                }
                if let Some(positions) = &mut self.positions {
                    positions.write(entry);
                }
            }
            Action::Transcript(direction, line) => {
                tracing::info!(target: TRANSCRIPT, "{} {}", direction.tag(), trim_newline(&line).escape_ascii());
            }
            Action::Log(level, message) => log(level, &message),
            Action::StartQuitGrace => self.notify(control(Control::StartQuitGrace)),
            Action::KillEngine => {
                // The session asks for a kill only for a hung engine (`session/hang.rs`).
                record::engine_hung();
                self.notify(control(Control::KillEngine));
            }
            Action::RestartEngine { after } => self.notify(control(Control::RestartEngine(after))),
            Action::Finish(status) => self.notify(control(Control::Finish(status))),
        }
    }

    /// Makes sure the relay loop wakes at `at` or earlier: tells it only when nothing earlier
    /// is armed (a later deadline waits until the armed one has passed).
    fn arm(&mut self, at: Option<Instant>) {
        if let Some(at) = at
            && self.armed.is_none_or(|armed| at < armed)
        {
            self.armed = Some(at);
            self.notify(Notice::Deadline(at));
        }
    }

    /// The armed deadline passed (the relay loop woke for it): the next one is armed anew.
    pub fn deadline_passed(&mut self) {
        self.armed = None;
    }

    fn notify(&self, notice: Notice) {
        // The relay loop is gone only when fenguard is exiting.
        let _ = self.notices.send(notice);
    }
}

fn log(level: tracing::Level, message: &str) {
    match level {
        tracing::Level::ERROR => tracing::error!("{message}"),
        tracing::Level::WARN => tracing::warn!("{message}"),
        tracing::Level::INFO => tracing::info!("{message}"),
        tracing::Level::DEBUG => tracing::debug!("{message}"),
        _ => tracing::trace!("{message}"),
    }
}

fn trim_newline(line: &[u8]) -> &[u8] {
    line.strip_suffix(b"\n").unwrap_or(line)
}

#[path = "core_readers.rs"]
mod readers;
pub use readers::{spawn_engine_readers, spawn_gui_reader};

#[cfg(test)]
#[path = "core_tests.rs"]
mod tests;
