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

/// Length in bytes of the field separator starting at `input[i]`, 0 when there is none:
/// the whitespace Python's `str.split()` splits on (ASCII whitespace, `\x1c`-`\x1f`, and in
/// UTF-8 NEL, NO-BREAK SPACE and the other Unicode spaces).
pub(crate) fn space_len(input: &[u8], i: usize) -> usize {
    match input[i] {
        b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c | 0x1c..=0x1f => 1,
        0xc2 | 0xe1 | 0xe2 | 0xe3 => {
            let len = char_len(input, i);
            let is_space = len > 1
                && std::str::from_utf8(&input[i..i + len])
                    .ok()
                    .and_then(|s| s.chars().next())
                    .is_some_and(char::is_whitespace);
            if is_space { len } else { 0 }
        }
        _ => 0,
    }
}

/// English plural suffix.
pub(crate) const fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}
