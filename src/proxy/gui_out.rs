//! The GUI's output: fenguard's stdout, written in batches and flushed whenever the relay has
//! nothing more ready, so a lone `bestmove` goes out at once while a burst of `info` lines
//! costs few system calls.
//!
//! On Unix, when stdout is a pipe or a socket, it is written asynchronously through a
//! [non-blocking pipe writer](super::pipe_out::PipeOut), so a GUI that stops reading never
//! stalls the relay (signals and timers stay live). Otherwise (a terminal, a file, Windows) it
//! is written with blocking writes.

use std::io::Write as _;

#[cfg(unix)]
use super::pipe_out::PipeOut;

/// fenguard's stdout.
#[derive(Debug)]
pub struct GuiOut {
    sink: Sink,
}

#[derive(Debug)]
enum Sink {
    #[cfg(unix)]
    Pipe {
        /// Fields drop in order: the duplicated descriptor closes before the flags are restored.
        out: PipeOut<tokio::process::ChildStdin>,
        _restore: super::stdio_pipe::RestoreFlags,
    },
    Blocking {
        buf: Vec<u8>,
        broken: bool,
    },
}

/// Above this many buffered bytes, a blocking [`GuiOut::push`] writes them out.
const FLUSH_AT: usize = 64 * 1024;

impl GuiOut {
    /// Opens stdout; call inside the tokio runtime.
    pub fn open() -> GuiOut {
        #[cfg(unix)]
        if let Some((fd, restore)) = super::stdio_pipe::nonblocking_pipe(&std::io::stdout())
            && let Ok(pipe) =
                tokio::process::ChildStdin::from_std(std::process::ChildStdin::from(fd))
        {
            return GuiOut {
                sink: Sink::Pipe {
                    out: PipeOut::new(pipe),
                    _restore: restore,
                },
            };
        }
        GuiOut {
            sink: Sink::Blocking {
                buf: Vec::new(),
                broken: false,
            },
        }
    }

    /// Queues bytes for the GUI.
    pub fn push(&mut self, bytes: &[u8]) {
        match &mut self.sink {
            #[cfg(unix)]
            Sink::Pipe { out, .. } => out.push(bytes),
            Sink::Blocking { buf, broken } => {
                if !*broken {
                    buf.extend_from_slice(bytes);
                    if buf.len() >= FLUSH_AT {
                        self.flush();
                    }
                }
            }
        }
    }

    /// Writes what is queued: as far as the pipe takes it now, or all of it (blocking).
    pub fn flush(&mut self) {
        match &mut self.sink {
            #[cfg(unix)]
            Sink::Pipe { out, .. } => out.pump(),
            Sink::Blocking { buf, broken } => {
                if buf.is_empty() || *broken {
                    return;
                }
                let mut stdout = std::io::stdout().lock();
                if let Err(err) = stdout.write_all(buf).and_then(|()| stdout.flush()) {
                    tracing::warn!("writing to the GUI failed: {err}; discarding further output");
                    *broken = true;
                }
                buf.clear();
                if buf.capacity() > 4 * FLUSH_AT {
                    buf.shrink_to(FLUSH_AT);
                }
            }
        }
    }

    /// Bytes wait for a pipe that did not take them: [`GuiOut::write_some`] has work.
    pub fn has_pending(&self) -> bool {
        match &self.sink {
            #[cfg(unix)]
            Sink::Pipe { out, .. } => out.has_pending(),
            Sink::Blocking { .. } => false,
        }
    }

    /// So much is pending that the engine's output should not be read for now.
    pub fn is_backlogged(&self) -> bool {
        match &self.sink {
            #[cfg(unix)]
            Sink::Pipe { out, .. } => out.is_backlogged(),
            Sink::Blocking { .. } => false,
        }
    }

    /// Waits until the pipe takes some pending bytes (never completes for blocking output).
    pub async fn write_some(&mut self) {
        match &mut self.sink {
            #[cfg(unix)]
            Sink::Pipe { out, .. } => out.write_some().await,
            Sink::Blocking { .. } => std::future::pending().await,
        }
    }

    /// Writes everything still queued, waiting at most `limit` for a GUI that does not read.
    pub async fn finish(&mut self, limit: std::time::Duration) {
        self.flush();
        let drain = async {
            while self.has_pending() {
                self.write_some().await;
            }
        };
        if tokio::time::timeout(limit, drain).await.is_err() {
            tracing::warn!("the GUI did not read fenguard's last output");
        }
    }
}
