//! The relay loop: one task that owns the session, the engine's pipes and the GUI's output,
//! and carries out the session's actions, among them restarting the engine (new pipes, the
//! same GUI pipes) and killing a hung one.
//!
//! It waits (`tokio::select!`) on GUI input, engine output, engine stderr, the
//! [watcher](super::watch) (the engine's exit, signals, and the [ticker](super::ticker)'s
//! report of a passed deadline: a hung engine), the quit grace timer and the restart backoff;
//! each pipe is [gated](super::gate), so a pass of the loop polls only what was woken. Lines that
//! are already available are handled together and the output flushed once after them, so a
//! lone `bestmove` is flushed at once and a burst of `info` lines costs few system calls.

use std::pin::Pin;
use std::time::{Duration, Instant};

use futures_util::StreamExt as _;
use tokio::process::{ChildStderr, ChildStdin, ChildStdout};
use tokio_util::codec::FramedRead;

use super::codec::{Frame, LineCodec, MAX_LINE};
use super::engine::{Engine, EngineGuard};
use super::gate::Gated;
use super::gui::{GuiIn, GuiInput};
use super::gui_out::GuiOut;
use super::pipe_out::PipeOut;
use super::respawn::EngineCommand;
use super::signals::Signals;
use super::ticker::Ticker;
use super::watch::{Event, Watch};
use crate::logging::{ENGINE_STDERR, Logs, TRANSCRIPT};
use crate::session::{Action, EngineExit, Session};

/// Most lines handled before output is flushed.
const BATCH: usize = 512;
/// Initial read buffer for the engine's output.
const READ_CAPACITY: usize = 64 * 1024;
/// How long the engine's output is still read after it exited.
const DRAIN: Duration = Duration::from_secs(1);

type EngineOut = Gated<FramedRead<ChildStdout, LineCodec>>;
type EngineErr = Gated<FramedRead<ChildStderr, LineCodec>>;

/// The state the actions act on.
struct Shell<'a> {
    engine_in: PipeOut<ChildStdin>,
    gui: GuiOut,
    logs: &'a mut Logs,
    watch: Watch,
    quit_grace: Duration,
    grace: Option<Pin<Box<tokio::time::Sleep>>>,
    /// Times the session's deadlines.
    ticker: Ticker,
    /// A restart is due when this fires.
    respawn: Option<Pin<Box<tokio::time::Sleep>>>,
    /// Keeps the current engine tied to fenguard (Windows Job Object).
    _guard: EngineGuard,
    finish: Option<u8>,
}

/// The engine's two output pipes, framed.
fn engine_pipes(stdout: ChildStdout, stderr: ChildStderr) -> (EngineOut, EngineErr) {
    (
        Gated::new(FramedRead::with_capacity(
            stdout,
            LineCodec::new(MAX_LINE),
            READ_CAPACITY,
        )),
        Gated::new(FramedRead::new(stderr, LineCodec::new(MAX_LINE))),
    )
}

/// Relays until the engine is gone for good; returns fenguard's exit status. The engine is
/// started again from `command` when the session asks for it.
pub async fn run(
    engine: Engine,
    mut session: Session,
    logs: &mut Logs,
    quit_grace: Duration,
    start: Vec<Action>,
    command: &EngineCommand,
) -> u8 {
    let (child, stdin, stdout, stderr, guard) = engine.into_parts();
    let mut gui_in = GuiIn::open(MAX_LINE);
    let (mut engine_out, mut engine_err) = engine_pipes(stdout, stderr);
    let watch = Watch::start(child, Signals::install());
    let ticker = Ticker::start(watch.sender());
    let mut shell = Shell {
        engine_in: PipeOut::new(stdin),
        gui: GuiOut::open(),
        logs,
        watch,
        quit_grace,
        grace: None,
        ticker,
        respawn: None,
        _guard: guard,
        finish: None,
    };
    shell.apply(start);

    let (mut gui_open, mut out_open, mut err_open) = (true, true, true);
    let mut running = true;
    let mut exited: Option<EngineExit> = None;
    let mut signal_status: Option<u8> = None;
    let mut drain: Option<Pin<Box<tokio::time::Sleep>>> = None;

    loop {
        if let Some(exit) = exited.filter(|_| !out_open && !err_open) {
            (exited, drain, running) = (None, None, false);
            shell.apply(session.on_engine_exit_at(exit, Some(Instant::now())));
            shell.gui.flush();
        }
        if !running && (shell.finish.is_some() || signal_status.is_some()) {
            break;
        }
        shell.ticker.arm(session.next_deadline());
        tokio::select! {
            input = gui_in.next(), if gui_open && !shell.engine_in.is_backlogged() && !session.gui_paused() => {
                let mut next = input;
                let now = Instant::now();
                for handled in 1.. {
                    let actions = match next {
                        GuiInput::Frame(Frame::Line(line)) => session.on_gui_line_at(line, now),
                        GuiInput::Frame(Frame::Overlong { chunk, first }) => session.on_gui_overlong(chunk, first),
                        GuiInput::Eof => {
                            gui_open = false;
                            shell.apply(session.on_gui_eof());
                            break;
                        }
                    };
                    shell.apply(actions);
                    // Fetch more only when it will be handled: nothing read is ever dropped.
                    if handled == BATCH || session.gui_paused() {
                        break;
                    }
                    match gui_in.try_next() {
                        Some(input) => next = input,
                        None => break,
                    }
                }
                shell.engine_in.pump();
                shell.gui.flush();
            }
            frame = engine_out.next(), if out_open && !shell.gui.is_backlogged() => {
                let mut next = frame;
                let now = Instant::now();
                for handled in 1.. {
                    match next {
                        Some(Ok(Frame::Line(line))) => shell.apply(session.on_engine_line_at(line, now)),
                        Some(Ok(Frame::Overlong { chunk, first })) => shell.apply(session.on_engine_overlong(chunk, first)),
                        Some(Err(_)) | None => {
                            out_open = false;
                            break;
                        }
                    }
                    if handled == BATCH {
                        break;
                    }
                    match engine_out.next_now() {
                        Some(more) => next = more,
                        None => break,
                    }
                }
                shell.gui.flush();
                shell.engine_in.pump();
            }
            () = shell.engine_in.write_some(), if shell.engine_in.has_pending() => {}
            () = shell.gui.write_some(), if shell.gui.has_pending() => {}
            line = engine_err.next(), if err_open => match line {
                Some(Ok(Frame::Line(line) | Frame::Overlong { chunk: line, .. })) => shell.engine_stderr(&line),
                Some(Err(_)) | None => err_open = false,
            },
            event = shell.watch.next() => match event {
                Event::Exited(exit) => {
                    exited = Some(exit);
                    drain = Some(Box::pin(tokio::time::sleep(DRAIN)));
                }
                Event::Signal(signal) => {
                    tracing::warn!("received {}: killing the engine and exiting", signal.name);
                    signal_status = Some(signal.exit_status);
                }
                Event::Tick => {
                    shell.ticker.fired();
                    let actions = session.on_tick(Instant::now());
                    shell.apply(actions);
                    shell.gui.flush();
                }
            },
            () = wait(&mut drain), if drain.is_some() => {
                tracing::warn!("engine output still open {} ms after it exited: not waiting", DRAIN.as_millis());
                (out_open, err_open, drain) = (false, false, None);
            }
            () = wait(&mut shell.respawn), if shell.respawn.is_some() => {
                shell.respawn = None;
                match command.spawn() {
                    Ok(engine) => {
                        let actions = command.started(&mut session, &engine);
                        let (child, stdin, stdout, stderr, guard) = engine.into_parts();
                        shell._guard = guard;
                        (engine_out, engine_err) = engine_pipes(stdout, stderr);
                        shell.engine_in = PipeOut::new(stdin);
                        shell.watch.adopt(child);
                        (out_open, err_open, running) = (true, true, true);
                        shell.apply(actions);
                        shell.engine_in.pump();
                    }
                    Err(err) => {
                        tracing::error!("restarting the engine failed: {err}");
                        shell.apply(session.on_engine_exit_at(EngineExit::default(), Some(Instant::now())));
                    }
                }
                shell.gui.flush();
            }
            () = wait(&mut shell.grace), if shell.grace.is_some() => {
                shell.grace = None;
                if running && exited.is_none() {
                    tracing::warn!("engine still running {} ms after quit: killing it", shell.quit_grace.as_millis());
                    shell.watch.kill();
                }
            }
        }
    }
    shell.gui.finish(DRAIN).await;
    signal_status.or(shell.finish).unwrap_or(0)
}

impl Shell<'_> {
    fn apply(&mut self, actions: Vec<Action>) {
        for action in actions {
            match action {
                Action::ToEngine(line) => self.engine_in.push(&line),
                Action::ToGui(line) => self.gui.push(&line),
                Action::CloseEngineInput => self.engine_in.close_when_written(),
                Action::StartQuitGrace => {
                    self.grace = Some(Box::pin(tokio::time::sleep(self.quit_grace)))
                }
                Action::Record(record) => {
                    if let Some(positions) = &mut self.logs.positions {
                        positions.write(record);
                    }
                }
                Action::Transcript(direction, line) => {
                    tracing::info!(target: TRANSCRIPT, "{} {}", direction.tag(), trim_newline(&line).escape_ascii());
                }
                Action::Log(level, message) => log(level, &message),
                Action::Finish(status) => self.finish = Some(status),
                Action::KillEngine => self.watch.kill(),
                Action::RestartEngine { after } => {
                    self.respawn = Some(Box::pin(tokio::time::sleep(after)));
                }
            }
        }
    }

    fn engine_stderr(&mut self, line: &[u8]) {
        use std::io::Write as _;
        tracing::info!(target: ENGINE_STDERR, "stderr> {}", trim_newline(line).escape_ascii());
        let _ = self.logs.stderr.write_all(line);
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

/// Waits for an armed timer (the `select!` guard keeps an unarmed one from being polled).
async fn wait(timer: &mut Option<Pin<Box<tokio::time::Sleep>>>) {
    match timer {
        Some(sleep) => sleep.as_mut().await,
        None => std::future::pending().await,
    }
}

fn trim_newline(line: &[u8]) -> &[u8] {
    line.strip_suffix(b"\n").unwrap_or(line)
}
