//! Terminal output without a client's control bytes (issue 30): what `fenguard log`,
//! `fenguard check` and `fenguard doctor` print holds no control character but `\n` and
//! fenguard's own colours.

/// Control text a GUI, an engine or a FEN may carry: an OSC 52 clipboard write, a clear
/// screen, a bell, a window title, DEL, a C1 CSI (U+009B) and a colour that is not fenguard's.
pub const HOSTILE: &str =
    "\u{1b}]52;c;ZWNobyBwd25lZA==\u{7}\u{1b}[2J\u{7}\u{1b}]0;title\u{7}\u{7f}\u{9b}\u{1b}[31m";

/// The SGR sequences fenguard writes itself (`--color always`: `view::term`, `check`).
const OURS: &[&str] = &[
    "\x1b[0m",
    "\x1b[1;31m",
    "\x1b[1;33m",
    "\x1b[1;36m",
    "\x1b[1;38;5;16m",
    "\x1b[1;38;5;231m",
    "\x1b[48;5;196m",
    "\x1b[48;5;214m",
    "\x1b[48;5;75m",
    "\x1b[48;5;44m",
    "\x1b[48;5;114m",
    "\x1b[48;5;223m",
    "\x1b[48;5;137m",
];

/// Panics when `out` holds a control character (C0 but `\n`, DEL, C1 U+0080-U+009F, or a
/// raw byte 0x80-0x9F that is not inside a UTF-8 sequence) other than one of fenguard's own
/// colour sequences; returns `out` without them.
pub fn assert_no_raw_controls(out: &[u8], what: &str) -> String {
    let mut rest = out;
    let mut clean = Vec::with_capacity(out.len());
    while let Some(&b) = rest.first() {
        if b == 0x1b
            && let Some(ours) = OURS.iter().find(|o| rest.starts_with(o.as_bytes()))
        {
            rest = &rest[ours.len()..];
            continue;
        }
        clean.push(b);
        rest = &rest[1..];
    }
    let text = String::from_utf8(clean).unwrap_or_else(|e| panic!("{what}: not UTF-8: {e}"));
    if let Some((at, c)) = text
        .char_indices()
        .find(|(_, c)| c.is_control() && *c != '\n')
    {
        panic!(
            "{what}: raw control character {c:?} at {at}: {:?}",
            &text[text[..at]
                .char_indices()
                .rev()
                .nth(60)
                .map_or(0, |(i, _)| i)..]
                .chars()
                .take(140)
                .collect::<String>()
        );
    }
    text
}
