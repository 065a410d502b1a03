//! The server's first bytes must be text: a plain `connect` to a TLS port gets a TLS alert
//! record (`15 03 03 00 02 ...`, NULs included) that must never reach the GUI.
//!
//! [`TextGate`] passes a reader's bytes through; before the first line end, a byte that is
//! neither printable, `\t`, `\r`, `\n` nor part of UTF-8 ends the input and marks the gate.
//! (Any byte already read of that chunk is dropped with it.)

use std::io::Read;

/// What the gate saw before the first line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Blocked {
    /// A TLS record header (content type 20-23, version 3.x).
    Tls,
    /// Another byte that is not text.
    Binary,
}

/// A reader whose first line must be text.
#[derive(Debug)]
pub struct TextGate<R> {
    inner: R,
    line_seen: bool,
    /// Set when the input was ended for non-text bytes.
    pub blocked: Option<Blocked>,
}

impl<R> TextGate<R> {
    /// Guards `inner`.
    pub fn new(inner: R) -> TextGate<R> {
        TextGate {
            inner,
            line_seen: false,
            blocked: None,
        }
    }
}

fn is_text(byte: u8) -> bool {
    matches!(byte, b'\t' | b'\r' | b'\n' | 0x20..=0x7e) || byte >= 0x80
}

impl<R: Read> Read for TextGate<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.blocked.is_some() {
            return Ok(0);
        }
        let n = self.inner.read(buf)?;
        if self.line_seen {
            return Ok(n);
        }
        let head = &buf[..n];
        let end = head.iter().position(|&b| b == b'\n').unwrap_or(n);
        if head[..end].iter().all(|&b| is_text(b)) {
            self.line_seen = end < n;
            return Ok(n);
        }
        let tls = matches!(head, [20..=23, 3, ..]);
        self.blocked = Some(if tls { Blocked::Tls } else { Blocked::Binary });
        Ok(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn through(input: &[u8]) -> (Vec<u8>, Option<Blocked>) {
        let mut gate = TextGate::new(input);
        let mut out = Vec::new();
        gate.read_to_end(&mut out).unwrap();
        (out, gate.blocked)
    }

    #[test]
    fn a_tls_alert_is_blocked_whole() {
        assert_eq!(
            through(b"\x15\x03\x03\x00\x02\x02\x32"),
            (Vec::new(), Some(Blocked::Tls))
        );
    }

    #[test]
    fn text_and_later_binary_pass() {
        let input = b"info string caf\xc3\xa9\nbinary \x00 later\n";
        assert_eq!(through(input), (input.to_vec(), None));
    }

    #[test]
    fn nul_before_the_first_line_is_blocked() {
        assert_eq!(
            through(b"id\x00name\n"),
            (Vec::new(), Some(Blocked::Binary))
        );
    }
}
