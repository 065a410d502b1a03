//! An output pipe shared by the threads that produce its bytes (the engine's stdin, or
//! fenguard's stdout), written with blocking writes by whichever producer gets there first.
//!
//! Producers [`push`](Outbox::push) bytes while they hold the session's lock, so the bytes are
//! queued in the session's order; then, without that lock, they [`flush`](Outbox::flush). One
//! flusher at a time takes everything queued and writes it; a producer that finds a write in
//! progress returns at once, and the writer picks its bytes up before it stops. So the thread
//! that read a line writes it out itself (no hand-over to another thread on the hot path), a
//! reader that stops reading stalls only the thread writing to it, and nothing queued is lost.
//! While more than [`BACKLOG`] bytes wait behind a stalled write, `flush` waits too, which stops
//! the producing side from reading more: memory stays bounded.

use std::io::Write;
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};

/// Queued bytes above which [`Outbox::flush`] waits for the current write.
pub const BACKLOG: usize = 1 << 20;

/// A pipe with its queued bytes.
#[derive(Debug)]
pub struct Outbox<W> {
    state: Mutex<State<W>>,
    written: Condvar,
    /// For log messages: `engine` or `GUI`.
    name: &'static str,
    /// Bytes written between two progress notes ([`Outbox::noting_progress`],
    /// [`Outbox::in_pieces`]).
    piece: usize,
    /// A piece's progress also restarts [`Outbox::stalled_for`]'s clock.
    stall_by_piece: bool,
}

#[derive(Debug)]
struct State<W> {
    /// `None` while a flusher writes to it, and once it is closed or broken.
    pipe: Option<W>,
    queued: Vec<u8>,
    /// A flusher holds the pipe.
    writing: bool,
    /// When the current write began.
    writing_since: Option<std::time::Instant>,
    /// When a write that was held up (its reader not reading) last ended.
    stall_ended: Option<std::time::Instant>,
    /// Close the pipe once everything queued is written.
    close_when_written: bool,
    /// The pipe is closed or broken: bytes pushed now are dropped.
    closed: bool,
    /// Counts [`Outbox::replace`]s, so a write to a replaced pipe changes nothing.
    generation: u64,
    /// Flushers waiting for the backlog to shrink, and [`Outbox::wait_until_written`] callers.
    waiting: usize,
    /// Write rounds ended (each takes everything queued when it began) and pieces written
    /// within rounds: progress, for [`Outbox::progress`].
    rounds: u64,
    pieces: u64,
}

impl<W: Write> Outbox<W> {
    /// Wraps a pipe; `name` appears in log messages.
    pub fn new(pipe: W, name: &'static str) -> Outbox<W> {
        Outbox {
            state: Mutex::new(State {
                pipe: Some(pipe),
                queued: Vec::new(),
                writing: false,
                writing_since: None,
                stall_ended: None,
                close_when_written: false,
                closed: false,
                generation: 0,
                waiting: 0,
                rounds: 0,
                pieces: 0,
            }),
            written: Condvar::new(),
            name,
            piece: usize::MAX,
            stall_by_piece: false,
        }
    }

    /// Writes in pieces of `PIECE` bytes and notes each one's progress, so that
    /// [`Outbox::stalled_for`] tells a reader that stopped from one that reads slowly.
    pub fn noting_progress(mut self) -> Outbox<W> {
        self.piece = PIECE;
        self.stall_by_piece = true;
        self
    }

    /// Writes in pieces of `piece` bytes and counts them for [`Outbox::progress`] only (not for
    /// [`Outbox::stalled_for`]): a write larger than a pipe then shows a reader that reads,
    /// before it ends.
    pub fn in_pieces(mut self, piece: usize) -> Outbox<W> {
        self.piece = piece;
        self
    }

    fn lock(&self) -> MutexGuard<'_, State<W>> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Queues bytes; they are dropped when the pipe is closed or broken.
    pub fn push(&self, bytes: &[u8]) {
        let mut state = self.lock();
        if !state.closed && !state.close_when_written {
            state.queued.extend_from_slice(bytes);
        }
    }

    /// Closes the pipe (its reader sees the end of input) once everything queued is written.
    pub fn close_when_written(&self) {
        let mut state = self.lock();
        state.close_when_written = true;
        if !state.writing && state.queued.is_empty() {
            state.pipe = None;
            state.closed = true;
        }
    }

    /// Puts a new pipe in place of the old one (a restarted engine); what was queued for the
    /// old one is dropped.
    pub fn replace(&self, pipe: W) {
        let mut state = self.lock();
        state.generation += 1;
        state.pipe = Some(pipe);
        state.queued.clear();
        (state.writing, state.close_when_written, state.closed) = (false, false, false);
        state.writing_since = None;
        self.written.notify_all();
    }

    /// A write is in progress, or one that was held up (for [`HELD_UP`] or more) ended within
    /// `grace`: the side feeding this pipe may still be catching up.
    pub fn held_up_within(&self, grace: std::time::Duration) -> bool {
        let state = self.lock();
        state.writing || state.stall_ended.is_some_and(|at| at.elapsed() < grace)
    }

    /// How long the current write has been blocked (made no progress, with
    /// [`Outbox::noting_progress`]), if one is in progress.
    pub fn stalled_for(&self) -> Option<std::time::Duration> {
        self.lock().writing_since.map(|since| since.elapsed())
    }

    /// Write rounds ended so far, pieces written and bytes queued now: a change between two
    /// looks is progress.
    pub fn progress(&self) -> (u64, u64, usize) {
        let state = self.lock();
        (state.rounds, state.pieces, state.queued.len())
    }

    /// Waits while `limit` bytes or more are queued (a writer is at work or was asked for),
    /// unless the pipe is closed: the producer that calls it reads no more meanwhile, so
    /// memory stays bounded even for output nobody else waits on.
    pub fn wait_while_queued(&self, limit: usize) {
        let mut state = self.lock();
        while state.queued.len() >= limit && !state.closed {
            state = self.wait_for_a_write(state, Some(std::time::Duration::from_millis(100)));
        }
    }

    /// Waits until nothing is queued and nobody is writing (or the pipe is closed), for at most
    /// `limit`: whether it got there. Someone must be writing, or [`Outbox::flush`] be called,
    /// for queued bytes to go out meanwhile.
    pub fn wait_until_written(&self, limit: std::time::Duration) -> bool {
        let deadline = std::time::Instant::now() + limit;
        let mut state = self.lock();
        loop {
            if state.closed || (!state.writing && state.queued.is_empty()) {
                return true;
            }
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            if left.is_zero() {
                return false;
            }
            state = self.wait_for_a_write(state, Some(left));
        }
    }

    /// Releases the lock until a write round ends (or `at_most` passes), counted among the
    /// waiters so that the writer wakes it.
    fn wait_for_a_write<'a>(
        &self,
        mut state: MutexGuard<'a, State<W>>,
        at_most: Option<std::time::Duration>,
    ) -> MutexGuard<'a, State<W>> {
        state.waiting += 1;
        let mut state = match at_most {
            Some(limit) => {
                self.written
                    .wait_timeout(state, limit)
                    .unwrap_or_else(PoisonError::into_inner)
                    .0
            }
            None => self
                .written
                .wait(state)
                .unwrap_or_else(PoisonError::into_inner),
        };
        state.waiting -= 1;
        state
    }

    /// Bytes are queued and nobody is writing them.
    pub fn needs_flush(&self) -> bool {
        let state = self.lock();
        !state.writing && !state.queued.is_empty() && state.pipe.is_some()
    }

    /// Writes everything queued, blocking, unless another thread is writing (then it returns
    /// at once, or waits while more than [`BACKLOG`] bytes are queued behind that write).
    pub fn flush(&self) {
        let mut state = self.lock();
        loop {
            if state.writing {
                if state.queued.len() < BACKLOG {
                    return;
                }
                state = self.wait_for_a_write(state, None);
                continue;
            }
            if state.queued.is_empty() {
                if state.close_when_written && state.pipe.take().is_some() {
                    state.closed = true;
                }
                return;
            }
            let Some(mut pipe) = state.pipe.take() else {
                state.queued.clear();
                return;
            };
            state.writing = true;
            state.writing_since = Some(std::time::Instant::now());
            let generation = state.generation;
            let mut bytes = std::mem::take(&mut state.queued);
            drop(state);

            // In pieces, each one's progress noted: a reader that reads slowly but steadily
            // is not stalled ([`Outbox::stalled_for`] counts from the last progress).
            let result = write_in_pieces(&mut pipe, &bytes, self.piece, || {
                let mut state = self.lock();
                state.pieces += 1;
                if self.stall_by_piece && state.generation == generation && state.writing {
                    state.writing_since = Some(std::time::Instant::now());
                }
            });

            state = self.lock();
            state.rounds += 1;
            if state.generation == generation {
                state.writing = false;
                let now = std::time::Instant::now();
                if state
                    .writing_since
                    .is_some_and(|since| now.duration_since(since) >= HELD_UP)
                {
                    state.stall_ended = Some(now);
                }
                state.writing_since = None;
                match result {
                    Ok(()) => state.pipe = Some(pipe),
                    Err(err) => {
                        tracing::debug!(
                            "writing to the {} failed ({err}); dropping {} queued bytes",
                            self.name,
                            state.queued.len()
                        );
                        state.queued.clear();
                        state.closed = true;
                    }
                }
            }
            // Keep the allocation for the next bytes, unless a long line made it large.
            if state.queued.is_empty() && bytes.capacity() <= BACKLOG {
                bytes.clear();
                state.queued = bytes;
            }
            if state.waiting > 0 {
                self.written.notify_all();
            }
        }
    }
}

/// A write that takes this long was held up by its reader.
pub const HELD_UP: std::time::Duration = std::time::Duration::from_millis(50);

/// Bytes written to the pipe between two progress notes.
const PIECE: usize = 4096;

/// Writes `bytes` in pieces of `piece` bytes, calling `progressed` after each but the last.
fn write_in_pieces<W: Write>(
    pipe: &mut W,
    bytes: &[u8],
    piece: usize,
    mut progressed: impl FnMut(),
) -> std::io::Result<()> {
    let mut pieces = bytes.chunks(piece).peekable();
    while let Some(piece) = pieces.next() {
        pipe.write_all(piece)?;
        if pieces.peek().is_some() {
            progressed();
        }
    }
    pipe.flush()
}

#[cfg(test)]
mod tests {
    use std::io::Read as _;
    use std::sync::Arc;

    use super::*;

    #[test]
    fn pushed_bytes_are_written_in_order_by_flush() {
        let outbox = Outbox::new(Vec::new(), "test");
        outbox.push(b"uci\n");
        outbox.push(b"isready\n");
        outbox.flush();
        assert_eq!(outbox.lock().pipe.as_deref(), Some(&b"uci\nisready\n"[..]));
    }

    #[test]
    fn close_when_written_closes_after_the_queued_bytes() {
        let (mut reader, writer) = std::io::pipe().unwrap();
        let outbox = Outbox::new(writer, "test");
        outbox.push(b"quit\n");
        outbox.close_when_written();
        outbox.push(b"dropped\n");
        outbox.flush();
        let mut got = Vec::new();
        reader.read_to_end(&mut got).unwrap();
        assert_eq!(got, b"quit\n");
    }

    #[test]
    fn broken_pipe_drops_bytes_instead_of_failing() {
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let outbox = Outbox::new(writer, "test");
        outbox.push(b"go\n");
        outbox.flush();
        outbox.push(b"stop\n");
        assert!(!outbox.needs_flush());
        assert!(outbox.lock().queued.is_empty());
    }

    #[test]
    fn replaced_pipe_gets_the_new_bytes_only() {
        let (mut old_reader, old) = std::io::pipe().unwrap();
        let (mut new_reader, new) = std::io::pipe().unwrap();
        let outbox = Outbox::new(old, "test");
        outbox.push(b"lost\n");
        outbox.replace(new);
        outbox.push(b"uci\n");
        outbox.flush();
        drop(outbox);
        let (mut old_got, mut new_got) = (Vec::new(), Vec::new());
        old_reader.read_to_end(&mut old_got).unwrap();
        new_reader.read_to_end(&mut new_got).unwrap();
        assert_eq!((old_got, new_got), (Vec::new(), b"uci\n".to_vec()));
    }

    /// An outbox whose flusher (the thread returned) is writing more than a pipe holds (the
    /// bytes returned) to a pipe nobody reads yet (the reader returned).
    fn stalled_write() -> (
        std::io::PipeReader,
        Arc<Outbox<std::io::PipeWriter>>,
        Vec<u8>,
        std::thread::JoinHandle<()>,
    ) {
        let (reader, writer) = std::io::pipe().unwrap();
        let outbox = Arc::new(Outbox::new(writer, "test"));
        let big = vec![b'x'; 256 * 1024];
        outbox.push(&big);
        let flusher = {
            let outbox = Arc::clone(&outbox);
            std::thread::spawn(move || outbox.flush())
        };
        while !outbox.lock().writing {
            std::thread::yield_now();
        }
        (reader, outbox, big, flusher)
    }

    #[test]
    fn bytes_pushed_during_a_stalled_write_are_written_by_that_writer() {
        let (mut reader, outbox, big, flusher) = stalled_write();
        outbox.push(b"bestmove e2e4\n");
        // Another producer's flush returns at once: the stalled writer owns the pipe.
        outbox.flush();
        let mut got = vec![0; big.len() + 14];
        reader.read_exact(&mut got).unwrap();
        flusher.join().unwrap();
        assert_eq!(&got[big.len()..], b"bestmove e2e4\n");
    }

    #[test]
    fn a_slow_but_steady_reader_is_not_stalled() {
        let (mut reader, writer) = std::io::pipe().unwrap();
        let outbox = Arc::new(Outbox::new(writer, "test").noting_progress());
        let total = 512 * 1024;
        outbox.push(&vec![b'x'; total]);
        let flusher = {
            let outbox = Arc::clone(&outbox);
            std::thread::spawn(move || outbox.flush())
        };
        let mut got = 0;
        let mut piece = vec![0; 16 * 1024];
        let mut worst = std::time::Duration::ZERO;
        while got < total {
            std::thread::sleep(std::time::Duration::from_millis(20));
            got += reader.read(&mut piece).unwrap();
            worst = worst.max(outbox.stalled_for().unwrap_or_default());
        }
        flusher.join().unwrap();
        // 32 reads 20 ms apart: the write took over 600 ms, but it never stalled that long.
        assert!(worst < std::time::Duration::from_millis(200), "{worst:?}");
    }

    /// fenguard's exit waits for a write another thread is doing (the reader then reads it
    /// all), and gives up on a reader that reads nothing.
    #[test]
    fn waiting_until_written_waits_for_another_threads_write() {
        let (mut reader, outbox, big, flusher) = stalled_write();
        let ms = std::time::Duration::from_millis;
        assert!(!outbox.wait_until_written(ms(50)), "nobody reads yet");
        let before = outbox.progress();
        let drain = std::thread::spawn(move || {
            let mut got = Vec::new();
            reader.read_to_end(&mut got).unwrap();
            got.len()
        });
        assert!(outbox.wait_until_written(ms(10_000)));
        assert_ne!(outbox.progress(), before);
        flusher.join().unwrap();
        drop(outbox);
        assert_eq!(drain.join().unwrap(), big.len());
    }
}
