//! `position` records written as JSON by hand: byte for byte what serde_json writes for them
//! (the tests in `json_tests.rs` compare the two on every field shape and on arbitrary
//! strings), at a fraction of the cost. The writer thread renders one record per GUI
//! `position` line and shares the machine with the relay; serde's flattened struct and the
//! move lists (one `split(' ')` and one serializer call per move) cost most of it.
//!
//! ```text
//! {"ts":"…","session":"…","seq":2,"kind":"position","raw":"…","verdict":"valid",…}
//! ```
//!
//! Other records, and diagnostics (empty on a valid line), go through serde_json.

use time::OffsetDateTime;

use crate::fen::Diagnostic;
use crate::session::{PositionRecord, Verdict};

/// Whether JSON escapes `b` (a C0 control, `"` or `\`).
const fn escaped(b: u8) -> bool {
    b < 0x20 || b == b'"' || b == b'\\'
}

/// Whether any byte of `bytes` is [`escaped`]: eight bytes at a time (a byte below 0x20, or
/// equal to `"` or `\`, sets its high bit in one of the three masks; the tests compare it with
/// the byte-wise answer).
fn needs_escape(bytes: &[u8]) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let zero_byte = |v: u64| v.wrapping_sub(ONES) & !v & HIGH;
    let mut chunks = bytes.chunks_exact(8);
    for chunk in chunks.by_ref() {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let w = u64::from_le_bytes(word);
        let below_space = w.wrapping_sub(ONES * 0x20) & !w & HIGH;
        if below_space | zero_byte(w ^ (ONES * 0x22)) | zero_byte(w ^ (ONES * 0x5c)) != 0 {
            return true;
        }
    }
    chunks.remainder().iter().any(|&b| escaped(b))
}

/// Appends `text` as a JSON string: quoted, `"` and `\` escaped with a backslash, the C0
/// controls as `\b`, `\t`, `\n`, `\f`, `\r` or `\u00xx` (lower-case hex), everything else
/// (DEL and non-ASCII included) as is: serde_json's escaping.
pub(super) fn string(out: &mut Vec<u8>, text: &str) {
    out.push(b'"');
    if needs_escape(text.as_bytes()) {
        escape(out, text);
    } else {
        out.extend_from_slice(text.as_bytes());
    }
    out.push(b'"');
}

/// The inside of [`string`] for a text with something to escape.
fn escape(out: &mut Vec<u8>, text: &str) {
    let bytes = text.as_bytes();
    let mut run = 0;
    for (i, &b) in bytes.iter().enumerate() {
        if !escaped(b) {
            continue;
        }
        out.extend_from_slice(&bytes[run..i]);
        run = i + 1;
        match b {
            b'"' => out.extend_from_slice(b"\\\""),
            b'\\' => out.extend_from_slice(b"\\\\"),
            0x08 => out.extend_from_slice(b"\\b"),
            b'\t' => out.extend_from_slice(b"\\t"),
            b'\n' => out.extend_from_slice(b"\\n"),
            0x0c => out.extend_from_slice(b"\\f"),
            b'\r' => out.extend_from_slice(b"\\r"),
            _ => {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                out.extend_from_slice(b"\\u00");
                out.push(HEX[usize::from(b >> 4)]);
                out.push(HEX[usize::from(b & 0xf)]);
            }
        }
    }
    out.extend_from_slice(&bytes[run..]);
}

/// Appends `text` as [`string`] does, or `null`.
fn option(out: &mut Vec<u8>, text: Option<&str>) {
    match text {
        Some(text) => string(out, text),
        None => out.extend_from_slice(b"null"),
    }
}

/// Appends `n` in decimal.
pub(super) fn uint(out: &mut Vec<u8>, mut n: u64) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    for &d in &digits[at..] {
        out.push(d);
    }
}

/// Appends the space-separated moves `text` as a JSON array of strings, empty words skipped
/// (as [`crate::session::Moves::words`] reads them).
fn moves(out: &mut Vec<u8>, text: &str) {
    out.push(b'[');
    if needs_escape(text.as_bytes()) {
        let mut first = true;
        for word in text.split(' ').filter(|m| !m.is_empty()) {
            if !first {
                out.push(b',');
            }
            first = false;
            string(out, word);
        }
    } else {
        plain_words(out, text.as_bytes());
    }
    out.push(b']');
}

/// The words of `bytes` (nothing to escape in them; runs of spaces between them) as the
/// strings of a JSON array, written into room made once: at most `2 * len + 1` bytes, as a
/// word of `k` bytes takes `k + 3` (quotes and a comma) and all but the first follow a space.
/// A four-byte word followed by a space (most UCI moves) is copied whole.
fn plain_words(out: &mut Vec<u8>, bytes: &[u8]) {
    let at = out.len();
    out.resize(at + 2 * bytes.len() + 1, 0);
    let room = &mut out[at..];
    let mut n = 0;
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b' ' {
            i += 1;
            continue;
        }
        if n > 0 {
            room[n] = b',';
            n += 1;
        }
        room[n] = b'"';
        n += 1;
        match bytes.get(i..i + 5) {
            Some(&[a, b, c, d, b' ']) if ![a, b, c, d].contains(&b' ') => {
                room[n..n + 4].copy_from_slice(&[a, b, c, d]);
                n += 4;
                i += 4;
            }
            _ => {
                while i < bytes.len() && bytes[i] != b' ' {
                    room[n] = bytes[i];
                    n += 1;
                    i += 1;
                }
            }
        }
        room[n] = b'"';
        n += 1;
    }
    out.truncate(at + n);
}

/// The kebab-case name serde gives `verdict`.
fn verdict(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::Valid => "valid",
        Verdict::Repaired => "repaired",
        Verdict::Rejected => "rejected",
        Verdict::ForwardedInvalid => "forwarded-invalid",
        Verdict::Unchecked => "unchecked",
    }
}

/// Appends the diagnostics as a JSON array (serde_json's own rendering when not empty).
fn diagnostics(out: &mut Vec<u8>, diagnostics: &[Diagnostic]) {
    if diagnostics.is_empty() {
        out.extend_from_slice(b"[]");
    } else {
        out.extend_from_slice(
            serde_json::to_string(diagnostics)
                .unwrap_or_default()
                .as_bytes(),
        );
    }
}

/// A capacity that holds a record's line (its strings, moves twice, and the field names).
fn capacity(p: &PositionRecord) -> usize {
    let text = |s: &Option<String>| s.as_ref().map_or(4, String::len);
    384 + p.raw.len()
        + text(&p.fen_in)
        + text(&p.fen_out)
        + 2 * (p.moves_in.0.len() + p.moves_out.0.len())
        + text(&p.final_fen)
        + text(&p.sent)
        + 128 * p.diagnostics.len()
}

/// `{"ts":…,"session":…,"seq":…,"kind":"position",` (the head of both kinds of line).
fn head(out: &mut Vec<u8>, ts: OffsetDateTime, session: &str, seq: u64) {
    out.extend_from_slice(b"{\"ts\":\"");
    super::push_timestamp(out, ts);
    out.push(b'"');
    out.extend_from_slice(b",\"session\":");
    string(out, session);
    out.extend_from_slice(b",\"seq\":");
    uint(out, seq);
    out.extend_from_slice(b",\"kind\":\"position\"");
}

/// The fields between `raw` and the moves: `"verdict":…,"diagnostics":…,"fen_in":…,"fen_out":…`.
fn judged(out: &mut Vec<u8>, p: &PositionRecord) {
    out.extend_from_slice(b",\"verdict\":\"");
    out.extend_from_slice(verdict(p.verdict).as_bytes());
    out.extend_from_slice(b"\",\"diagnostics\":");
    diagnostics(out, &p.diagnostics);
    out.extend_from_slice(b",\"fen_in\":");
    option(out, p.fen_in.as_deref());
    out.extend_from_slice(b",\"fen_out\":");
    option(out, p.fen_out.as_deref());
}

/// `"chess960":…,"final_fen":…`.
fn after_moves(out: &mut Vec<u8>, p: &PositionRecord) {
    out.extend_from_slice(b",\"chess960\":");
    out.extend_from_slice(if p.chess960 { b"true" } else { b"false" });
    out.extend_from_slice(b",\"final_fen\":");
    option(out, p.final_fen.as_deref());
}

/// `"variant":…}` when there is one, then the end of the object and the line.
fn tail(out: &mut Vec<u8>, p: &PositionRecord) {
    if let Some(variant) = &p.variant {
        out.extend_from_slice(b",\"variant\":");
        string(out, variant);
    }
    out.extend_from_slice(b"}\n");
}

/// The full line (with `\n`) of the `position` record `p`, number `seq`: what
/// [`super::render`] writes for it through serde.
pub(super) fn full(session: &str, seq: u64, p: &PositionRecord, ts: OffsetDateTime) -> String {
    let mut out = Vec::with_capacity(capacity(p));
    head(&mut out, ts, session, seq);
    out.extend_from_slice(b",\"raw\":");
    string(&mut out, &p.raw);
    judged(&mut out, p);
    out.extend_from_slice(b",\"moves_in\":");
    moves(&mut out, &p.moves_in.0);
    out.extend_from_slice(b",\"moves_out\":");
    moves(&mut out, &p.moves_out.0);
    after_moves(&mut out, p);
    out.extend_from_slice(b",\"sent\":");
    option(&mut out, p.sent.as_deref());
    tail(&mut out, p);
    line(out)
}

/// Where a compact record's strings and move lists start to differ from those of the record it
/// extends (see [`super::compact`]).
#[derive(Debug, Clone, Copy)]
pub(super) struct Cuts {
    /// `seq` of the record extended.
    pub extends: u64,
    /// Bytes of `raw` in common.
    pub raw: usize,
    /// Byte offsets in `moves_in` and `moves_out` where the new moves start.
    pub moves_in_at: usize,
    pub moves_out_at: usize,
    /// Bytes of `sent` in common, when both records sent a line.
    pub sent: Option<usize>,
}

/// The compact line (with `\n`) of the `position` record `p`, number `seq`, cut at `c`.
pub(super) fn compact(
    session: &str,
    seq: u64,
    p: &PositionRecord,
    ts: OffsetDateTime,
    c: Cuts,
) -> String {
    let mut out = Vec::with_capacity(capacity(p));
    head(&mut out, ts, session, seq);
    out.extend_from_slice(b",\"extends\":");
    uint(&mut out, c.extends);
    out.extend_from_slice(b",\"raw_prefix\":");
    uint(&mut out, c.raw as u64);
    out.extend_from_slice(b",\"raw_tail\":");
    string(&mut out, &p.raw[c.raw..]);
    judged(&mut out, p);
    out.extend_from_slice(b",\"moves_in_tail\":");
    moves(&mut out, &p.moves_in.0[c.moves_in_at..]);
    out.extend_from_slice(b",\"moves_out_tail\":");
    moves(&mut out, &p.moves_out.0[c.moves_out_at..]);
    after_moves(&mut out, p);
    match (c.sent, &p.sent) {
        (Some(n), Some(sent)) => {
            out.extend_from_slice(b",\"sent_prefix\":");
            uint(&mut out, n as u64);
            out.extend_from_slice(b",\"sent_tail\":");
            string(&mut out, &sent[n..]);
        }
        _ => {
            out.extend_from_slice(b",\"sent\":");
            option(&mut out, p.sent.as_deref());
        }
    }
    tail(&mut out, p);
    line(out)
}

/// The line (with `\n`) of an `option` or `command` record (`kind`), number `seq`, the GUI's
/// line `raw`: what [`super::render`] writes for it through serde
/// (`{"ts":…,"session":…,"seq":…,"kind":"command","raw":"…"}`). A flood of such lines
/// (`debug off` a million times) costs the writer no more than the relay.
pub(super) fn command(
    session: &str,
    seq: u64,
    kind: &str,
    raw: &str,
    ts: OffsetDateTime,
) -> String {
    let mut out = Vec::with_capacity(96 + session.len() + raw.len());
    out.extend_from_slice(b"{\"ts\":\"");
    super::push_timestamp(&mut out, ts);
    out.extend_from_slice(b"\",\"session\":");
    string(&mut out, session);
    out.extend_from_slice(b",\"seq\":");
    uint(&mut out, seq);
    out.extend_from_slice(b",\"kind\":\"");
    out.extend_from_slice(kind.as_bytes());
    out.extend_from_slice(b"\",\"raw\":");
    string(&mut out, raw);
    out.extend_from_slice(b"}\n");
    line(out)
}

/// The line written as text: every piece appended is a whole `&str` or ASCII, so it is UTF-8
/// (checked once, on the ASCII fast path of `from_utf8`).
fn line(bytes: Vec<u8>) -> String {
    String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

#[cfg(test)]
#[path = "json_tests.rs"]
mod tests;
