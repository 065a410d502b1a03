//! Writing roff text for the hand-made parts of the man pages (the rest is clap_mangen's).

/// `text` escaped for roff: backslashes as `\e`, a leading `.` or `'` guarded by `\&`, and
/// `` `code` `` spans in bold.
pub fn text(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    let mut bold = false;
    for c in text.replace('\\', "\\e").chars() {
        match c {
            '`' => {
                out.push_str(if bold { "\\fR" } else { "\\fB" });
                bold = !bold;
            }
            '-' => out.push_str("\\-"),
            _ => out.push(c),
        }
    }
    if bold {
        out.push_str("\\fR");
    }
    guard_line_start(out)
}

/// `text` with a leading `.` or `'` (a roff request) guarded by `\&`.
fn guard_line_start(text: String) -> String {
    if text.starts_with(['.', '\'']) {
        format!("\\&{text}")
    } else {
        text
    }
}

/// A section heading (`.SH`).
pub fn section(out: &mut String, name: &str) {
    out.push_str(".SH ");
    out.push_str(name);
    out.push('\n');
}

/// A paragraph (`.PP`) of escaped `body`.
pub fn paragraph(out: &mut String, body: &str) {
    out.push_str(".PP\n");
    out.push_str(&text(body));
    out.push('\n');
}

/// A tagged paragraph (`.TP`): `tag` in bold, then escaped `body`.
pub fn tagged(out: &mut String, tag: &str, body: &str) {
    out.push_str(".TP\n\\fB");
    out.push_str(&text(tag).replace("\\fB", "").replace("\\fR", ""));
    out.push_str("\\fR\n");
    out.push_str(&text(body));
    out.push('\n');
}

/// Lines kept as they are (`.nf` ... `.fi`), escaped.
pub fn preformatted(out: &mut String, lines: &[&str]) {
    out.push_str(".nf\n");
    for line in lines {
        out.push_str(&guard_line_start(
            line.replace('\\', "\\e").replace('-', "\\-"),
        ));
        out.push('\n');
    }
    out.push_str(".fi\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_backslashes_dots_and_code() {
        assert_eq!(
            text(r"%LOCALAPPDATA%\fenguard"),
            r"%LOCALAPPDATA%\efenguard"
        );
        assert_eq!(text(".hidden"), r"\&.hidden");
        assert_eq!(text("run `fenguard -v`"), r"run \fBfenguard \-v\fR");
    }
}
