//! Line framing that keeps every byte (pure: no I/O, no runtime): [`LineCodec`] yields lines
//! with their terminator, and pieces of lines longer than a fixed cap instead of buffering them.
//! The shells' reader threads frame their input with it; `fenguard check` caps its lines at
//! the same [`MAX_LINE`].
//!
//! ```
//! use bytes::BytesMut;
//! use fenguard::framing::{Frame, LineCodec};
//!
//! let mut codec = LineCodec::new(1024);
//! let mut buf = BytesMut::from(&b"uci\r\nisr"[..]);
//! assert_eq!(codec.decode(&mut buf), Some(Frame::Line(b"uci\r\n"[..].into())));
//! assert_eq!(codec.decode(&mut buf), None);
//! assert_eq!(codec.decode_eof(&mut buf), Some(Frame::Line(b"isr"[..].into())));
//! ```

use bytes::{Bytes, BytesMut};

/// The default line cap: 1 MiB. Longer lines are relayed in pieces of at most this size.
pub const MAX_LINE: usize = 1 << 20;

/// One unit of input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Frame {
    /// A whole line: its bytes up to and including `\n`, or without terminator at end of input.
    Line(Bytes),
    /// A piece of a line longer than the cap; `first` marks the first piece. The last piece
    /// ends with the line's `\n` (or the end of input).
    Overlong {
        /// The bytes, unchanged.
        chunk: Bytes,
        /// This is the line's first piece.
        first: bool,
    },
}

/// Splits input after each `\n`, keeping the terminator; memory per stream is bounded by the cap
/// (plus what one read adds).
#[derive(Debug, Clone)]
pub struct LineCodec {
    max: usize,
    /// Bytes of the buffer already searched for `\n`.
    scanned: usize,
    /// Inside an overlong line: the next piece continues it.
    in_overlong: bool,
}

impl LineCodec {
    /// A codec with line cap `max` bytes (at least 1).
    pub fn new(max: usize) -> LineCodec {
        LineCodec {
            max: max.max(1),
            scanned: 0,
            in_overlong: false,
        }
    }

    fn frame(&mut self, bytes: Bytes, ends_line: bool) -> Frame {
        self.scanned = 0;
        if self.in_overlong {
            self.in_overlong = !ends_line;
            Frame::Overlong {
                chunk: bytes,
                first: false,
            }
        } else {
            Frame::Line(bytes)
        }
    }
}

impl LineCodec {
    /// The next frame at the front of `buf` (taken off it), or `None` until more input comes:
    /// a whole line, or a piece of [`MAX_LINE`]-capped size of a longer one.
    pub fn decode(&mut self, buf: &mut BytesMut) -> Option<Frame> {
        let limit = buf.len().min(self.max);
        let from = self.scanned.min(limit);
        if let Some(pos) = find_newline(&buf[from..limit]) {
            let end = from + pos + 1;
            let line = buf.split_to(end).freeze();
            return Some(self.frame(line, true));
        }
        if buf.len() >= self.max {
            let chunk = buf.split_to(self.max).freeze();
            self.scanned = 0;
            let first = !self.in_overlong;
            self.in_overlong = true;
            return Some(Frame::Overlong { chunk, first });
        }
        self.scanned = buf.len();
        None
    }

    /// As [`decode`](Self::decode) at the end of input: what is left, without a line end,
    /// comes as the last frame.
    pub fn decode_eof(&mut self, buf: &mut BytesMut) -> Option<Frame> {
        match self.decode(buf) {
            Some(frame) => Some(frame),
            None if buf.is_empty() => None,
            None => {
                let rest = buf.split().freeze();
                Some(self.frame(rest, true))
            }
        }
    }
}

/// Bytes compared at once by [`find_newline`]: a block without `\n` costs a few vector
/// instructions instead of a branch per byte.
const BLOCK: usize = 32;

/// The position of the first `\n` in `bytes`.
fn find_newline(bytes: &[u8]) -> Option<usize> {
    let mut blocks = bytes.chunks_exact(BLOCK);
    let mut offset = 0;
    for block in &mut blocks {
        // No early exit inside the block, so the compiler can vectorize the comparison.
        if block.iter().fold(false, |found, &b| found | (b == b'\n')) {
            return block
                .iter()
                .position(|&b| b == b'\n')
                .map(|pos| offset + pos);
        }
        offset += BLOCK;
    }
    blocks
        .remainder()
        .iter()
        .position(|&b| b == b'\n')
        .map(|pos| offset + pos)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode_all(max: usize, input: &[u8]) -> Vec<Frame> {
        let mut codec = LineCodec::new(max);
        let mut buf = BytesMut::from(input);
        let mut frames = Vec::new();
        while let Some(frame) = codec.decode_eof(&mut buf) {
            frames.push(frame);
        }
        frames
    }

    fn line(s: &'static [u8]) -> Frame {
        Frame::Line(Bytes::from_static(s))
    }

    #[test]
    fn newline_is_found_in_every_place_of_a_block_and_the_remainder() {
        for len in [1, BLOCK - 1, BLOCK, BLOCK + 1, 3 * BLOCK + 5] {
            for at in 0..len {
                let mut bytes = vec![b'x'; len];
                bytes[at] = b'\n';
                assert_eq!(find_newline(&bytes), Some(at), "len {len}, at {at}");
            }
            assert_eq!(find_newline(&vec![b'x'; len]), None, "len {len}");
        }
    }

    #[test]
    fn first_of_several_newlines_is_found() {
        let mut bytes = vec![b'x'; 2 * BLOCK];
        bytes[BLOCK + 3] = b'\n';
        bytes[BLOCK + 9] = b'\n';
        assert_eq!(find_newline(&bytes), Some(BLOCK + 3));
    }

    #[test]
    fn keeps_crlf_lf_and_missing_terminator() {
        assert_eq!(
            decode_all(64, b"a\r\nb \t\nc"),
            vec![line(b"a\r\n"), line(b"b \t\n"), line(b"c")]
        );
    }

    #[test]
    fn empty_lines_are_lines() {
        assert_eq!(decode_all(64, b"\n\r\n"), vec![line(b"\n"), line(b"\r\n")]);
    }

    #[test]
    fn line_of_exactly_the_cap_is_whole() {
        assert_eq!(decode_all(4, b"abc\n"), vec![line(b"abc\n")]);
    }

    #[test]
    fn overlong_line_comes_in_capped_pieces() {
        let chunk = |s: &'static [u8], first| Frame::Overlong {
            chunk: Bytes::from_static(s),
            first,
        };
        assert_eq!(
            decode_all(4, b"abcdefghij\nok\n"),
            vec![
                chunk(b"abcd", true),
                chunk(b"efgh", false),
                chunk(b"ij\n", false),
                line(b"ok\n")
            ]
        );
    }

    #[test]
    fn incremental_input_finds_the_line_end() {
        let mut codec = LineCodec::new(64);
        let mut buf = BytesMut::from(&b"posi"[..]);
        assert_eq!(codec.decode(&mut buf), None);
        buf.extend_from_slice(b"tion\nx");
        assert_eq!(codec.decode(&mut buf), Some(line(b"position\n")));
        assert_eq!(&buf[..], b"x");
    }

    #[test]
    fn buffer_never_holds_more_than_the_cap_of_one_line() {
        let mut codec = LineCodec::new(8);
        let mut buf = BytesMut::new();
        for _ in 0..100 {
            buf.extend_from_slice(b"xxxxx");
            while codec.decode(&mut buf).is_some() {}
            assert!(buf.len() < 8);
        }
    }
}
