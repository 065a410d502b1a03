//! The engine's stdin, written without ever stalling the relay loop.
//!
//! Lines are appended to a pending buffer and written at once as far as the pipe takes them;
//! what the pipe does not take (an engine that stopped reading) is written by a `select!`
//! branch while signals, timers and the engine's exit keep being handled. The relay stops
//! reading the GUI while more than [`BACKLOG`] bytes are pending, so memory stays bounded.

use bytes::{Buf as _, BytesMut};
use futures_util::FutureExt as _;
use tokio::io::AsyncWriteExt as _;
use tokio::process::ChildStdin;

/// Pending bytes above which the GUI's input is no longer read.
pub const BACKLOG: usize = 1 << 20;

/// The engine's stdin with its pending bytes.
#[derive(Debug)]
pub struct EngineIn {
    pipe: Option<ChildStdin>,
    pending: BytesMut,
    close_when_written: bool,
}

impl EngineIn {
    /// Wraps the engine's stdin.
    pub fn new(pipe: ChildStdin) -> EngineIn {
        EngineIn {
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

    /// Closes the pipe (the engine sees end of input) once everything queued is written.
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

    /// Bytes are waiting and the pipe is open: [`EngineIn::write_some`] has work.
    pub fn has_pending(&self) -> bool {
        self.pipe.is_some() && !self.pending.is_empty()
    }

    /// So much is pending that the GUI should not be read for now.
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
                tracing::debug!("engine input closed; dropping {} bytes", self.pending.len());
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
