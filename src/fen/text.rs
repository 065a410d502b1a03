//! Small helpers to quote input bytes in messages.

/// Length in bytes of the character starting at `bytes[i]` (a whole UTF-8 sequence when
/// well-formed, else one byte), so a span never splits a character.
pub(crate) fn char_len(bytes: &[u8], i: usize) -> usize {
    let want = match bytes[i] {
        0x00..=0x7f => 1,
        0xc0..=0xdf => 2,
        0xe0..=0xef => 3,
        0xf0..=0xf7 => 4,
        _ => 1,
    };
    if i + want <= bytes.len() && std::str::from_utf8(&bytes[i..i + want]).is_ok() {
        want
    } else {
        1
    }
}

/// Quotes a short piece of input for a message: `` `abc` ``, control and invalid bytes escaped.
pub(crate) fn quote(bytes: &[u8]) -> String {
    const MAX: usize = 24;
    let mut out = String::from("`");
    let text = String::from_utf8_lossy(bytes);
    for (n, c) in text.chars().enumerate() {
        if n == MAX {
            out.push('…');
            break;
        }
        if c.is_control() {
            out.push_str(&c.escape_default().to_string());
        } else {
            out.push(c);
        }
    }
    out.push('`');
    out
}

/// Whether `b` separates fields (ASCII whitespace, as Python's `str.split()` on ASCII input).
pub(crate) const fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c | 0x1c..=0x1f)
}

/// English plural suffix.
pub(crate) const fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}
