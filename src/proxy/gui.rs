//! The GUI's side: fenguard's stdin, read by a dedicated thread, and its stdout, written in
//! batches.
//!
//! Stdin is read with plain blocking reads on its own thread (tokio's stdin would hop through
//! the blocking pool for every read); each read's complete lines go to the relay as one batch
//! through a bounded channel. Stdout is written with one `write` per batch of lines and flushed
//! whenever the relay has nothing more ready, so a lone `bestmove` goes out at once while a
//! burst of `info` lines costs few system calls.

use std::io::{Read as _, Write as _};

use bytes::BytesMut;
use tokio::sync::mpsc;
use tokio_util::codec::Decoder as _;

use super::codec::{Frame, LineCodec};

/// What the stdin thread delivers.
#[derive(Debug)]
pub enum GuiInput {
    /// Frames from one read, in order.
    Frames(Vec<Frame>),
    /// End of input (or a read error, which is treated as the end).
    Eof,
}

/// Size of one read from stdin.
const READ_SIZE: usize = 64 * 1024;

/// Starts the stdin reader thread; frames are capped at `max_line` bytes.
pub fn spawn_reader(max_line: usize) -> mpsc::Receiver<GuiInput> {
    let (tx, rx) = mpsc::channel(16);
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
        let mut frames = Vec::new();
        loop {
            let next = if n == 0 {
                codec.decode_eof(&mut buf)
            } else {
                codec.decode(&mut buf)
            };
            match next {
                Ok(Some(frame)) => frames.push(frame),
                Ok(None) | Err(_) => break,
            }
        }
        if !frames.is_empty() && tx.blocking_send(GuiInput::Frames(frames)).is_err() {
            return;
        }
        if n == 0 {
            let _ = tx.blocking_send(GuiInput::Eof);
            return;
        }
    }
}

/// fenguard's stdout: bytes collect in a buffer and go out on [`GuiOut::flush`].
#[derive(Debug, Default)]
pub struct GuiOut {
    buf: Vec<u8>,
    broken: bool,
}

/// Above this many buffered bytes, [`GuiOut::push`] writes them out.
const FLUSH_AT: usize = 64 * 1024;

impl GuiOut {
    /// Queues bytes for the GUI.
    pub fn push(&mut self, bytes: &[u8]) {
        if self.broken {
            return;
        }
        self.buf.extend_from_slice(bytes);
        if self.buf.len() >= FLUSH_AT {
            self.flush();
        }
    }

    /// Writes and flushes what is queued. After a failed write (the GUI closed its end) output
    /// is discarded and [`GuiOut::is_broken`] is true.
    pub fn flush(&mut self) {
        if self.buf.is_empty() || self.broken {
            return;
        }
        let mut out = std::io::stdout().lock();
        if let Err(err) = out.write_all(&self.buf).and_then(|()| out.flush()) {
            tracing::warn!("writing to the GUI failed: {err}; discarding further output");
            self.broken = true;
        }
        self.buf.clear();
        if self.buf.capacity() > 4 * FLUSH_AT {
            self.buf.shrink_to(FLUSH_AT);
        }
    }

    /// The GUI's end of the pipe is gone.
    pub fn is_broken(&self) -> bool {
        self.broken
    }
}
