//! The GUI's input: fenguard's stdin, framed into lines.
//!
//! On Unix, when stdin is a pipe or a socket (as under every GUI), it is read asynchronously on
//! the relay's own thread, like the engine's output, so a GUI line costs no thread hop.
//! Otherwise (a terminal, a file, Windows) a dedicated thread reads it with blocking reads and
//! passes the lines on through a bounded channel.

use std::io::Read as _;

use bytes::BytesMut;
#[cfg(unix)]
use futures_util::StreamExt as _;
use tokio::sync::mpsc;
use tokio_util::codec::Decoder as _;

use super::codec::{Frame, LineCodec};

/// What the GUI's input delivers.
#[derive(Debug)]
pub enum GuiInput {
    /// The next frame.
    Frame(Frame),
    /// End of input (or a read error, which is treated as the end).
    Eof,
}

/// Size of one read from stdin.
const READ_SIZE: usize = 64 * 1024;

/// fenguard's stdin as a source of frames.
#[derive(Debug)]
pub struct GuiIn {
    source: Source,
}

#[derive(Debug)]
enum Source {
    #[cfg(unix)]
    /// Fields drop in order: the duplicated descriptor closes before the flags are restored.
    Pipe {
        framed: super::gate::Gated<
            tokio_util::codec::FramedRead<tokio::process::ChildStdout, LineCodec>,
        >,
        _restore: super::stdio_pipe::RestoreFlags,
    },
    Thread(mpsc::Receiver<GuiInput>),
}

impl GuiIn {
    /// Opens stdin with lines capped at `max_line` bytes; call inside the tokio runtime.
    pub fn open(max_line: usize) -> GuiIn {
        #[cfg(unix)]
        if let Some((fd, restore)) = super::stdio_pipe::nonblocking_pipe(&std::io::stdin())
            && let Ok(stdin) =
                tokio::process::ChildStdout::from_std(std::process::ChildStdout::from(fd))
        {
            let framed = tokio_util::codec::FramedRead::with_capacity(
                stdin,
                LineCodec::new(max_line),
                READ_SIZE,
            );
            return GuiIn {
                source: Source::Pipe {
                    framed: super::gate::Gated::new(framed),
                    _restore: restore,
                },
            };
        }
        GuiIn {
            source: Source::Thread(spawn_reader(max_line)),
        }
    }

    /// Waits for the next frame or the end of input.
    pub async fn next(&mut self) -> GuiInput {
        match &mut self.source {
            #[cfg(unix)]
            Source::Pipe { framed, .. } => from_stream(framed.next().await),
            Source::Thread(rx) => rx.recv().await.unwrap_or(GuiInput::Eof),
        }
    }

    /// The next frame if one is ready now.
    pub fn try_next(&mut self) -> Option<GuiInput> {
        match &mut self.source {
            #[cfg(unix)]
            Source::Pipe { framed, .. } => framed.next_now().map(from_stream),
            Source::Thread(rx) => match rx.try_recv() {
                Ok(input) => Some(input),
                Err(mpsc::error::TryRecvError::Empty) => None,
                Err(mpsc::error::TryRecvError::Disconnected) => Some(GuiInput::Eof),
            },
        }
    }
}

#[cfg(unix)]
fn from_stream(item: Option<std::io::Result<Frame>>) -> GuiInput {
    match item {
        Some(Ok(frame)) => GuiInput::Frame(frame),
        Some(Err(err)) => {
            tracing::warn!("reading the GUI's input failed: {err}");
            GuiInput::Eof
        }
        None => GuiInput::Eof,
    }
}

/// Starts the stdin reader thread; frames are capped at `max_line` bytes.
fn spawn_reader(max_line: usize) -> mpsc::Receiver<GuiInput> {
    let (tx, rx) = mpsc::channel(64);
    let spawned = std::thread::Builder::new()
        .name("gui-stdin".to_owned())
        .spawn(move || read_loop(&tx, max_line));
    if let Err(err) = spawned {
        tracing::error!("cannot start the stdin reader: {err}");
    }
    rx
}

fn read_loop(tx: &mpsc::Sender<GuiInput>, max_line: usize) {
    let mut codec = LineCodec::new(max_line);
    let mut buf = BytesMut::new();
    let mut chunk = vec![0u8; READ_SIZE];
    let mut stdin = std::io::stdin().lock();
    loop {
        let n = match stdin.read(&mut chunk) {
            Ok(n) => n,
            Err(err) if err.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(err) => {
                tracing::warn!("reading the GUI's input failed: {err}");
                0
            }
        };
        buf.extend_from_slice(&chunk[..n]);
        loop {
            let next = if n == 0 {
                codec.decode_eof(&mut buf)
            } else {
                codec.decode(&mut buf)
            };
            match next {
                Ok(Some(frame)) => {
                    if tx.blocking_send(GuiInput::Frame(frame)).is_err() {
                        return;
                    }
                }
                Ok(None) | Err(_) => break,
            }
        }
        if n == 0 {
            let _ = tx.blocking_send(GuiInput::Eof);
            return;
        }
    }
}
