//! Small helpers to quote input bytes in messages, and the one escaping of control
//! characters for text that reaches a terminal or a log ([`escape_controls`]).

use std::borrow::Cow;
use std::fmt::Write as _;

/// `text` with every control character (C0 `U+0000`-`U+001F`, DEL `U+007F`, C1
/// `U+0080`-`U+009F`: [`char::is_control`]) written as Rust writes it escaped (`\u{1b}`,
/// `\t`, `\n`, `\u{9b}`), everything else as it is: what `fenguard.log` holds of an engine's
/// stderr, and what `fenguard log`, `fenguard check` and `fenguard doctor` print of a GUI's or
/// an engine's text, so that no escape sequence (a window title, a cleared screen, OSC 52
/// clipboard writes) reaches the terminal. Raw bytes 0x80-0x9F never reach it: text is
/// decoded lossily before (U+FFFD).
///
/// ```
/// use fenguard::fen::escape_controls;
///
/// assert_eq!(escape_controls("e2e4"), "e2e4");
/// assert_eq!(escape_controls("a\x1b]52;c;eA==\x07b\x1b[2J\u{9b}"), "a\\u{1b}]52;c;eA==\\u{7}b\\u{1b}[2J\\u{9b}");
/// ```
pub fn escape_controls(text: &str) -> Cow<'_, str> {
    if !text.chars().any(char::is_control) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        match c.is_control() {
            true => {
                let _ = write!(out, "{}", c.escape_default());
            }
            false => out.push(c),
        }
    }
    Cow::Owned(out)
}

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
    let shown = match text.char_indices().nth(MAX) {
        Some((at, _)) => &text[..at],
        None => &text,
    };
    out.push_str(&escape_controls(shown));
    if shown.len() < text.len() {
        out.push('…');
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
