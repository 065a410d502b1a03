//! Reader threads: blocking reads from one input pipe (the GUI's stdin, the engine's stdout or
//! stderr), framed into lines by [`LineCodec`], handed over a batch per read.
//!
//! A thread blocked in `read` is woken by the kernel straight into the data, on the CPU next to
//! the process that wrote it: that is how the two-thread byte relay sets the floor for a
//! proxy's round trip (SPEC section 9), and how fenguard's hot path runs. The same code serves
//! pipes, terminals and files, on Unix and Windows.

use std::io::{ErrorKind, Read};

use bytes::BytesMut;

use crate::framing::{Frame, LineCodec};

/// Size of one read.
const READ_SIZE: usize = 64 * 1024;

/// Why [`read_frames`] returned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ended {
    /// End of input (or a read error, logged, which is treated as the end).
    Eof,
    /// The batch handler asked to stop.
    Stopped,
}

/// Reads `input` until its end, calling `on_batch` with the frames of each read (lines capped at
/// `max_line` bytes; at the end, an unterminated last line comes as a frame of its own). The
/// handler drains the batch and returns `false` to stop reading. Runs on the calling thread.
pub fn read_frames<R: Read>(
    mut input: R,
    max_line: usize,
    what: &str,
    mut on_batch: impl FnMut(&mut Vec<Frame>) -> bool,
) -> Ended {
    let mut codec = LineCodec::new(max_line);
    let mut buf = BytesMut::new();
    let mut chunk = vec![0u8; READ_SIZE];
    let mut batch = Vec::new();
    loop {
        let n = match input.read(&mut chunk) {
            Ok(n) => n,
            Err(err) if err.kind() == ErrorKind::Interrupted => continue,
            Err(err) => {
                tracing::warn!("reading the {what} failed: {err}");
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
                Some(frame) => batch.push(frame),
                None => break,
            }
        }
        if !batch.is_empty() && !on_batch(&mut batch) {
            return Ended::Stopped;
        }
        batch.clear();
        if n == 0 {
            return Ended::Eof;
        }
    }
}

/// Starts a named thread running `body` inside the caller's tracing span (a daemon session's,
/// so its log lines name the session); logs when the thread cannot start.
pub fn spawn(name: &str, body: impl FnOnce() + Send + 'static) -> bool {
    let span = tracing::Span::current();
    match std::thread::Builder::new()
        .name(name.to_owned())
        .spawn(move || span.in_scope(body))
    {
        Ok(_) => true,
        Err(err) => {
            tracing::error!("cannot start the {name} thread: {err}");
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frames(input: &[u8], max_line: usize) -> Vec<Frame> {
        let mut all = Vec::new();
        let ended = read_frames(input, max_line, "test", |batch| {
            all.append(batch);
            true
        });
        assert_eq!(ended, Ended::Eof);
        all
    }

    #[test]
    fn lines_keep_their_bytes_and_an_unterminated_last_line_comes_at_the_end() {
        let got = frames(b"uci\r\nisready\nbestmove e2", 1024);
        let want = [&b"uci\r\n"[..], b"isready\n", b"bestmove e2"];
        let want: Vec<Frame> = want
            .iter()
            .map(|l| Frame::Line(l.to_vec().into()))
            .collect();
        assert_eq!(got, want);
    }

    #[test]
    fn overlong_line_comes_in_pieces() {
        let got = frames(b"abcdefgh\n", 4);
        assert!(matches!(&got[0], Frame::Overlong { first: true, .. }));
        assert_eq!(got.len(), 3);
    }

    #[test]
    fn handler_can_stop_the_reading() {
        let mut calls = 0;
        let ended = read_frames(&b"a\n"[..], 16, "test", |_| {
            calls += 1;
            false
        });
        assert_eq!((ended, calls), (Ended::Stopped, 1));
    }
}
