//! The relay loop: starts the [reader threads](super::core) that carry the conversation, and
//! waits for what they cannot: the engine's exit, signals, the session's deadlines, the quit
//! grace and the restart backoff. It restarts the engine (new pipes and reader threads, the
//! same GUI side) and kills a hung one.
//!
//! Lines never pass through this loop: a GUI line is read, handled and written to the engine by
//! the GUI's reader thread, and an engine line by the engine's. Output that this loop produces
//! itself (a tick's `bestmove 0000`, a restart's replay) is written by tokio's blocking pool,
//! so a side that is not read never stalls signals or timers. The loop itself wakes only for
//! those rare events (an earlier deadline is one of them), so its timers cost the hot path
//! nothing.

use std::io::{Read, Write};
use std::pin::Pin;
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::mpsc;

use super::core::{self, Control, EnginePipe, GuiIn, GuiOut, Notice, Shared};
use super::engine::{Engine, EngineError};
use super::respawn::EngineCommand;
use super::signals::Signals;
use super::watch::{Event, Watch};
use crate::poslog::PositionLog;
use crate::session::{Action, EngineExit, Input, OUTPUT_GRACE, Session};
use tracing_appender::non_blocking::NonBlocking;

/// How long the engine's output is still read after it exited.
const DRAIN: Duration = Duration::from_secs(1);

/// How often a hang deadline that passed while the GUI was not reading is checked again.
const STALLED_RECHECK: Duration = Duration::from_millis(500);

/// How often the relay looks for an engine that does not read its input.
const INPUT_CHECK: Duration = Duration::from_secs(1);

type Timer = Option<Pin<Box<tokio::time::Sleep>>>;

/// How a relay ended.
#[derive(Debug)]
pub struct Ended {
    /// fenguard's exit status (see [`crate::proxy`]).
    pub status: u8,
    /// The last engine's exit, when it was seen.
    pub engine_exit: Option<EngineExit>,
    /// `position` commands judged (counted from the positions records).
    pub judged: u64,
    /// Of those, rejected.
    pub rejected: u64,
    /// The positions log, handed back to be closed by the caller.
    pub positions: Option<PositionLog>,
}

/// One relay: a started engine, the session guarding it, where its logs go (the engine's
/// stderr, `positions.jsonl` or a daemon session's own file), and how it ends (the quit grace,
/// the signals that stop it). [`run`](Relay::run) carries it out with any
/// blocking stream as the GUI side.
#[derive(Debug)]
pub struct Relay<'a> {
    command: &'a EngineCommand,
    engine: Engine,
    session: Session,
    start: Vec<Action>,
    stderr: NonBlocking,
    positions: Option<PositionLog>,
    quit_grace: Duration,
    signals: Signals,
}

impl<'a> Relay<'a> {
    /// Starts the engine from `command` and tells `session` so; the engine's stderr is copied
    /// to `stderr` (fenguard's). No positions log ([`with_positions`](Self::with_positions))
    /// and no signals ([`with_signals`](Self::with_signals)). `quit_grace` is how long the
    /// engine gets after `quit` (or the end of its input) before it is killed.
    ///
    /// # Errors
    /// The engine did not start.
    pub fn start(
        command: &'a EngineCommand,
        mut session: Session,
        stderr: NonBlocking,
        quit_grace: Duration,
    ) -> Result<Relay<'a>, EngineError> {
        let engine = command.spawn()?;
        let start = command.started(&mut session, engine.child.id());
        Ok(Relay {
            command,
            engine,
            session,
            start,
            stderr,
            positions: None,
            quit_grace,
            signals: Signals::none(),
        })
    }

    /// The session's records go to this positions log.
    #[must_use]
    pub fn with_positions(mut self, positions: Option<PositionLog>) -> Relay<'a> {
        self.positions = positions;
        self
    }

    /// These signals end the relay (the engine killed, the status 128 + n).
    #[must_use]
    pub fn with_signals(mut self, signals: Signals) -> Relay<'a> {
        self.signals = signals;
        self
    }

    /// The engine's process id.
    pub fn engine_pid(&self) -> Option<u32> {
        self.engine.child.id()
    }

    /// Relays between the GUI side (`gui_in` read and `gui_out` written with blocking calls,
    /// each on a thread of its own: fenguard's stdin and stdout, a socket, a TLS stream) and
    /// the engine until the engine is gone for good; returns its exit status and counts. The
    /// engine is started again when the session asks for it.
    pub async fn run<R, W>(self, gui_in: R, gui_out: W) -> Ended
    where
        R: Read + Send + 'static,
        W: Write + Send + 'static,
    {
        run(self, GuiIn(Box::new(gui_in)), GuiOut(Box::new(gui_out))).await
    }
}

async fn run(relay: Relay<'_>, gui_in: GuiIn, gui_out: GuiOut) -> Ended {
    let Relay {
        command,
        engine,
        session,
        start,
        stderr: stderr_log,
        positions,
        quit_grace,
        signals,
    } = relay;
    let (child, stdin, stdout, stderr, guard) = engine.into_parts();
    let mut _guard = guard;
    let (notices_tx, mut notices) = mpsc::unbounded_channel();
    let mut watch = Watch::start(child, signals);
    let shared = Shared::new(session, positions, notices_tx, stdin, gui_out);
    let mut last_exit: Option<EngineExit> = None;
    act(&shared, |_| start);
    core::spawn_engine_readers(&shared, 0, stdout, stderr, stderr_log.clone());
    if !core::spawn_gui_reader(Arc::clone(&shared), gui_in) {
        act(&shared, |core| {
            core.session.handle(Input::GuiEof, Instant::now())
        });
    }

    let mut w = Waits {
        generation: 0,
        out_open: true,
        err_open: true,
        finish: None,
        grace: None,
        respawn: None,
        deadline: None,
    };
    let mut running = true;
    let mut exited: Option<EngineExit> = None;
    let mut signal_status: Option<u8> = None;
    let mut drain: Timer = None;
    // An engine that stops reading blocks the thread writing to it (the GUI's reader): its
    // `isready` and `quit` are then never read, so the session's deadlines cannot fire.
    let ping_timeout = shared.lock().session.ping_timeout();
    let mut input_check = tokio::time::interval(INPUT_CHECK);
    input_check.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut excused_at: Option<Instant> = None;

    loop {
        // What the threads sent meanwhile (pipes closed, controls) counts before the engine's
        // exit is handled and before deciding to stop.
        while let Ok(notice) = notices.try_recv() {
            w.notice(notice, &watch, quit_grace, &shared);
        }
        if let Some(exit) = exited.filter(|_| !w.out_open && !w.err_open) {
            (exited, drain, running) = (None, None, false);
            act(&shared, |core| {
                core.session
                    .handle(Input::EngineExited(exit), Instant::now())
            });
        }
        if !running && (w.finish.is_some() || signal_status.is_some()) {
            break;
        }
        tokio::select! {
            Some(notice) = notices.recv() => w.notice(notice, &watch, quit_grace, &shared),
            event = watch.next() => match event {
                Event::Exited(exit) => {
                    exited = Some(exit);
                    last_exit = Some(exit);
                    drain = Some(Box::pin(tokio::time::sleep(DRAIN)));
                }
                Event::Signal(signal) => {
                    tracing::warn!("received {}: killing the engine and exiting", signal.name);
                    signal_status = Some(signal.exit_status);
                    // The watcher killed the engine it had when the signal came; an engine
                    // started meanwhile (its Adopt still queued) is killed by this, and no
                    // new one is started (see the respawn branch).
                    watch.kill();
                }
            },
            () = wait(&mut w.deadline), if w.deadline.is_some() => {
                w.deadline = None;
                act(&shared, |core| {
                    core.deadline_passed();
                    let now = Instant::now();
                    // While the GUI does not read, the engine's reader thread is blocked
                    // writing to it and cannot read the engine's readyok / uciok: not the
                    // engine's fault.
                    if shared.gui.held_up_within(OUTPUT_GRACE) {
                        let until = now + STALLED_RECHECK;
                        core.session.handle(Input::DeferDeadlines { until }, now)
                    } else {
                        core.session.handle(Input::Tick, now)
                    }
                });
            }
            _ = input_check.tick() => {
                let now = Instant::now();
                // An engine blocked writing output that fenguard cannot take (the GUI is not
                // reading) or has not taken yet (a backlog) stops reading too: not its fault.
                // Its input stall counts only from the last such moment.
                if shared.gui.held_up_within(OUTPUT_GRACE) || shared.lock().session.engine_output_backlogged(now) {
                    excused_at = Some(now);
                }
                if let Some(stalled) = shared.engine_in.stalled_for()
                    .map(|s| excused_at.map_or(s, |at| s.min(now.saturating_duration_since(at))))
                    && stalled >= ping_timeout
                    && running
                    && exited.is_none()
                {
                    act(&shared, |core| core.session.handle(Input::EngineInputStalled(stalled), now));
                }
            }
            () = wait(&mut drain), if drain.is_some() => {
                tracing::warn!("engine output still open {} ms after it exited: not waiting", DRAIN.as_millis());
                (w.out_open, w.err_open, drain) = (false, false, None);
            }
            () = wait(&mut w.respawn), if w.respawn.is_some() => {
                w.respawn = None;
                // A finish the session asked for meanwhile (the GUI quit while the engine was
                // away) wins over the restart.
                while let Ok(notice) = notices.try_recv() {
                    w.notice(notice, &watch, quit_grace, &shared);
                }
                if signal_status.is_some() || w.finish.is_some() {
                    continue;
                }
                match command.spawn() {
                    Ok(engine) => {
                        crate::metrics::record::engine_restarted();
                        w.generation += 1;
                        let generation = w.generation;
                        let pid = engine.child.id();
                        let (child, stdin, stdout, stderr, guard) = engine.into_parts();
                        _guard = guard;
                        shared.engine_in.replace(stdin);
                        act(&shared, |core| {
                            core.generation = generation;
                            command.started(&mut core.session, pid)
                        });
                        core::spawn_engine_readers(&shared, generation, stdout, stderr, stderr_log.clone());
                        watch.adopt(child);
                        (w.out_open, w.err_open, running) = (true, true, true);
                    }
                    Err(err) => {
                        crate::metrics::record::engine_start_failed();
                        tracing::error!("restarting the engine failed: {err}");
                        act(&shared, |core| {
                            core.session.handle(Input::EngineExited(EngineExit::default()), Instant::now())
                        });
                    }
                }
            }
            () = wait(&mut w.grace), if w.grace.is_some() => {
                w.grace = None;
                if running && exited.is_none() {
                    tracing::warn!("engine still running {} ms after quit: killing it", quit_grace.as_millis());
                    watch.kill();
                }
            }
        }
    }
    finish_gui(&shared).await;
    let mut core = shared.lock();
    Ended {
        status: signal_status.or(w.finish).unwrap_or(0),
        engine_exit: last_exit,
        judged: core.judged,
        rejected: core.rejected,
        positions: core.positions.take(),
    }
}

/// What the loop learns from the threads' [`Notice`]s: the current engine's pipes, and the
/// session's controls that take waiting.
struct Waits {
    /// The current engine (counts restarts); closed pipes of earlier ones do not count.
    generation: u64,
    out_open: bool,
    err_open: bool,
    finish: Option<u8>,
    grace: Timer,
    respawn: Timer,
    /// The session's next deadline, as the threads armed it.
    deadline: Timer,
}

impl Waits {
    fn notice(
        &mut self,
        notice: Notice,
        watch: &Watch,
        quit_grace: Duration,
        shared: &Arc<Shared>,
    ) {
        match notice {
            Notice::Closed { pipe, generation } if generation == self.generation => match pipe {
                EnginePipe::Stdout => self.out_open = false,
                EnginePipe::Stderr => self.err_open = false,
            },
            Notice::Closed { .. } => {}
            Notice::Control(Control::StartQuitGrace) => {
                self.grace = Some(Box::pin(tokio::time::sleep(quit_grace)));
            }
            Notice::Control(Control::KillEngine) => watch.kill(),
            Notice::Control(Control::RestartEngine(after)) => {
                self.respawn = Some(Box::pin(tokio::time::sleep(after)));
            }
            Notice::Control(Control::Finish(status)) => self.finish = Some(status),
            Notice::EngineInputQueued => write_engine_input_in_background(shared),
            Notice::GuiOutputQueued => write_gui_output_in_background(shared),
            Notice::Deadline(at) => {
                let at = tokio::time::Instant::from_std(at);
                match &mut self.deadline {
                    Some(sleep) if sleep.deadline() <= at => {}
                    Some(sleep) => sleep.as_mut().reset(at),
                    None => self.deadline = Some(Box::pin(tokio::time::sleep_until(at))),
                }
            }
        }
    }
}

/// Asks the session under the lock (`ask` gives its actions), carries the actions out and
/// writes what they queued in the background.
fn act(shared: &Arc<Shared>, ask: impl FnOnce(&mut core::Core) -> Vec<Action>) {
    let mut core = shared.lock();
    let actions = ask(&mut core);
    shared.apply(&mut core, actions);
    drop(core);
    flush_in_background(shared);
}

/// Writes queued output on tokio's blocking pool, so this loop never waits for a pipe; each
/// pipe on its own task, so a GUI that does not read holds up no bytes for the engine.
fn flush_in_background(shared: &Arc<Shared>) {
    write_gui_output_in_background(shared);
    write_engine_input_in_background(shared);
}

/// Writes what is queued for the GUI on the blocking pool, unless nothing is or a writer is
/// at work (it takes the bytes along).
fn write_gui_output_in_background(shared: &Arc<Shared>) {
    if shared.gui.needs_flush() {
        let shared = Arc::clone(shared);
        tokio::task::spawn_blocking(move || shared.flush_gui());
    }
}

/// The same for the engine's input.
fn write_engine_input_in_background(shared: &Arc<Shared>) {
    if shared.engine_in.needs_flush() {
        let shared = Arc::clone(shared);
        tokio::task::spawn_blocking(move || shared.engine_in.flush());
    }
}

/// Writes what is still queued for the GUI, and waits until every write to it has ended,
/// whichever thread is writing, so that fenguard's last lines (an engine's last output, the
/// bestmove fenguard answered for it) are not cut off by its exit. A GUI that makes no
/// progress reading for [`DRAIN`] is given up on, with a warning: it may never read again.
async fn finish_gui(shared: &Arc<Shared>) {
    write_gui_output_in_background(shared);
    loop {
        let seen = shared.gui.progress();
        let waiter = {
            let shared = Arc::clone(shared);
            tokio::task::spawn_blocking(move || shared.gui.wait_until_written(DRAIN))
        };
        match waiter.await {
            Ok(true) => return,
            Ok(false) if shared.gui.progress() != seen => continue,
            _ => break,
        }
    }
    tracing::warn!("the GUI did not read fenguard's last output");
}

/// Waits for an armed timer (the `select!` guard keeps an unarmed one from being polled).
async fn wait(timer: &mut Timer) {
    match timer {
        Some(sleep) => sleep.as_mut().await,
        None => std::future::pending().await,
    }
}
