//! The reader threads of [`super`]: the GUI's stdin, the engine's stdout and stderr. Each
//! reads with blocking reads and hands the session what it read under the lock; see the
//! parent module for who writes what.

use std::io::Write as _;
use std::sync::Arc;
use std::time::Instant;

use tracing_appender::non_blocking::NonBlocking;

use super::{BACKLOG_READ, EnginePipe, FLUSH_EVERY, GuiIn, Notice, Shared, trim_newline};
use crate::framing::{Frame, MAX_LINE};
use crate::logging::ENGINE_STDERR;
use crate::proxy::reader::{self, read_frames};
use crate::session::Input;

/// Starts the thread that reads the GUI's stdin until its end.
pub fn spawn_gui_reader(shared: Arc<Shared>, stdin: GuiIn) -> bool {
    reader::spawn("gui-stdin", move || {
        read_frames(stdin, MAX_LINE, "GUI's input", |batch| {
            // The lock is taken per line: a `position` with a long move list takes a while,
            // and the engine's reader (and the deadline check) should not wait for a batch.
            // For the same reason what is queued goes out at least every millisecond: an
            // `isready` is timed from when the session saw it.
            let mut flushed = Instant::now();
            for frame in batch.drain(..) {
                let mut core = shared.wait_for_gui_lines(shared.lock());
                let now = Instant::now();
                let actions = match frame {
                    Frame::Line(line) => {
                        shared.gui_line(&line, now);
                        core.session.handle(Input::GuiLine(line), now)
                    }
                    Frame::Overlong { chunk, first } => {
                        core.session.handle(Input::GuiPiece { chunk, first }, now)
                    }
                };
                shared.apply(&mut core, actions);
                let due = now.duration_since(flushed) >= FLUSH_EVERY;
                shared.flush_from_gui_reader(core, due);
                if due {
                    flushed = Instant::now();
                }
            }
            shared.engine_in.flush();
            true
        });
        let mut core = shared.wait_for_gui_lines(shared.lock());
        let actions = core.session.handle(Input::GuiEof, Instant::now());
        shared.apply(&mut core, actions);
        shared.flush_from_gui_reader(core, true);
    })
}

/// Starts the threads that read engine number `generation`'s stdout (into the session) and
/// stderr (into the log and fenguard's stderr); each sends [`Notice::Closed`] at its pipe's end.
pub fn spawn_engine_readers(
    shared: &Arc<Shared>,
    generation: u64,
    stdout: std::io::PipeReader,
    stderr: std::io::PipeReader,
    mut stderr_out: NonBlocking,
) {
    let notices = shared.lock().notices.clone();
    let closed = move |pipe| {
        let _ = notices.send(Notice::Closed { pipe, generation });
    };
    let (shared, on_stdout_end) = (Arc::clone(shared), closed.clone());
    reader::spawn("engine-stdout", move || {
        read_frames(stdout, MAX_LINE, "engine's output", |batch| {
            let mut core = shared.lock();
            if core.generation != generation {
                return false;
            }
            let now = Instant::now();
            let bytes: usize = batch
                .iter()
                .map(|frame| match frame {
                    Frame::Line(line) | Frame::Overlong { chunk: line, .. } => line.len(),
                })
                .sum();
            if bytes >= BACKLOG_READ {
                core.session.handle(Input::EngineBacklog, now);
            }
            for frame in batch.drain(..) {
                let actions = match frame {
                    Frame::Line(line) => core.session.handle(Input::EngineLine(line), now),
                    Frame::Overlong { chunk, first } => core
                        .session
                        .handle(Input::EnginePiece { chunk, first }, now),
                };
                shared.apply(&mut core, actions);
            }
            shared.flush_from_engine_reader(core);
            true
        });
        on_stdout_end(EnginePipe::Stdout);
    });
    reader::spawn("engine-stderr", move || {
        read_frames(stderr, MAX_LINE, "engine's stderr", |batch| {
            for frame in batch.drain(..) {
                let (Frame::Line(line) | Frame::Overlong { chunk: line, .. }) = frame;
                tracing::info!(target: ENGINE_STDERR, "stderr> {}", crate::fen::escape_controls(&String::from_utf8_lossy(trim_newline(&line))));
                let _ = stderr_out.write_all(&line);
            }
            true
        });
        closed(EnginePipe::Stderr);
    });
}
