//! An output pipe (the engine's stdin, or fenguard's stdout when it is a pipe) written without
//! ever stalling the relay loop.
//!
//! Lines are appended to a pending buffer and written at once as far as the pipe takes them;
//! what the pipe does not take (a reader that stopped reading) is written by a `select!`
//! branch while signals, timers and the engine's exit keep being handled. The relay stops
//! reading the side that feeds a pipe while more than [`BACKLOG`] bytes are pending for it, so
//! memory stays bounded.

use bytes::{Buf as _, BytesMut};
use futures_util::FutureExt as _;
use tokio::io::{AsyncWrite, AsyncWriteExt as _};

/// Pending bytes above which the feeding side is no longer read.
pub const BACKLOG: usize = 1 << 20;

/// A pipe with its pending bytes.
#[derive(Debug)]
pub struct PipeOut<W> {
    pipe: Option<W>,
    pending: BytesMut,
    close_when_written: bool,
}

impl<W: AsyncWrite + Unpin> PipeOut<W> {
    /// Wraps a pipe.
    pub fn new(pipe: W) -> PipeOut<W> {
        PipeOut {
            pipe: Some(pipe),
            pending: BytesMut::new(),
            close_when_written: false,
        }
    }

    /// Queues bytes; dropped when the pipe is closed.
    pub fn push(&mut self, bytes: &[u8]) {
        if self.pipe.is_some() && !self.close_when_written {
            self.pending.extend_from_slice(bytes);
        }
    }

    /// Closes the pipe (the reader sees end of input) once everything queued is written.
    pub fn close_when_written(&mut self) {
        self.close_when_written = true;
        self.close_if_done();
    }

    /// Writes what the pipe takes right now, without waiting.
    pub fn pump(&mut self) {
        while !self.pending.is_empty() {
            let Some(pipe) = &mut self.pipe else { break };
            match pipe.write(&self.pending).now_or_never() {
                Some(result) => self.written(result),
                None => break,
            }
        }
        self.close_if_done();
    }

    /// Bytes are waiting and the pipe is open: [`PipeOut::write_some`] has work.
    pub fn has_pending(&self) -> bool {
        self.pipe.is_some() && !self.pending.is_empty()
    }

    /// So much is pending that the feeding side should not be read for now.
    pub fn is_backlogged(&self) -> bool {
        self.pending.len() >= BACKLOG
    }

    /// Waits until the pipe takes some pending bytes (cancel-safe: a write either happened
    /// and is accounted for, or did not happen).
    pub async fn write_some(&mut self) {
        if let Some(pipe) = &mut self.pipe
            && !self.pending.is_empty()
        {
            let result = pipe.write(&self.pending).await;
            self.written(result);
        }
        self.close_if_done();
    }

    fn written(&mut self, result: std::io::Result<usize>) {
        match result {
            Ok(n) if n > 0 => self.pending.advance(n),
            Ok(_) | Err(_) => {
                tracing::debug!("output pipe closed; dropping {} bytes", self.pending.len());
                self.pipe = None;
                self.pending.clear();
            }
        }
    }

    fn close_if_done(&mut self) {
        if self.close_when_written && self.pending.is_empty() {
            // Dropping the handle closes the pipe.
            self.pipe = None;
        }
    }
}
