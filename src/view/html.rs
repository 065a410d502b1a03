//! The self-contained HTML page of `fenguard log --html` and `fenguard check --html` (SPEC
//! section 14): inline CSS, the SVG definitions once ([`super::svg::defs`]), one `<section>`
//! per entry, and a few lines of plain JavaScript that filter the entries by verdict, code and
//! kind. No network, no framework; every text put in the page goes through [`escape`].
//!
//! ```
//! use fenguard::view::html::{Entry, escape, page};
//!
//! assert_eq!(escape("<a href=\"x\">&'"), "&lt;a href=&quot;x&quot;&gt;&amp;&#39;");
//! let entry = Entry {
//!     kind: "position".into(),
//!     verdict: Some("rejected".into()),
//!     codes: vec!["missing-king".into()],
//!     head: "seq 1".into(),
//!     body: String::new(),
//! };
//! let page = page("report", "1 record", &[entry]);
//! assert!(page.starts_with("<!DOCTYPE html>"));
//! assert!(page.contains("data-codes=\" missing-king \""));
//! ```

use std::borrow::Cow;
use std::fmt::Write as _;

use super::board::Board;
use super::marks::{Finding, Marks};
use super::svg;

/// `text` with `&`, `<`, `>`, `"` and `'` written as character references (safe in element
/// content and in quoted attribute values).
pub fn escape(text: &str) -> Cow<'_, str> {
    if !text.contains(['&', '<', '>', '"', '\'']) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// One entry of the page: a record of the log, or a checked FEN.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Entry {
    /// The kind filter's value (`position`, `search`, `engine-start`, `fen`, ...).
    pub kind: String,
    /// The verdict filter's value, when the entry has one.
    pub verdict: Option<String>,
    /// The codes of its diagnostics (the code filter).
    pub codes: Vec<String>,
    /// The heading, HTML (escaped by the caller).
    pub head: String,
    /// The body, HTML (escaped by the caller).
    pub body: String,
}

const CSS: &str = "body{font:14px/1.4 system-ui,sans-serif;margin:0;background:#fafafa;color:#222}\
header{position:sticky;top:0;background:#fff;border-bottom:1px solid #ccc;padding:6px 12px;z-index:1}\
h1{font-size:18px;margin:0 0 4px}main{padding:8px 12px}\
.rec{background:#fff;border:1px solid #ddd;border-left:6px solid #bbb;margin:6px 0;padding:6px 10px;content-visibility:auto;contain-intrinsic-size:auto 120px}\
.rec h2{font-size:14px;margin:0 0 4px;font-weight:600}.rec h2 .kind{color:#555}\
.v-valid{border-left-color:#3a3}.v-repaired{border-left-color:#e90}.v-rejected{border-left-color:#d22}\
.v-forwarded-invalid{border-left-color:#a0a}.v-unchecked{border-left-color:#58c}\
.verdict{font-weight:700;padding:0 4px;border-radius:3px;background:#eee}\
code,pre{font:12px ui-monospace,DejaVu Sans Mono,monospace}pre{white-space:pre-wrap;word-break:break-all;margin:2px 0}\
.boards{display:flex;flex-wrap:wrap;gap:16px;margin:4px 0}figure{margin:0}figcaption{font-size:12px;color:#444;max-width:380px}\
.board{display:block;font-family:DejaVu Sans,Noto Sans Symbols2,Segoe UI Symbol,sans-serif}\
.co text{font-size:.22px;fill:#333;opacity:.7}\
.k-error{fill:#e22;opacity:.55}.k-warning{fill:#f90;opacity:.55}.k-note{fill:#39f;opacity:.45}\
.k-changed{fill:#0bc;opacity:.5}.k-move{fill:#9c3;opacity:.55}\
.ar{stroke:#15781b;stroke-width:.16;fill:none;opacity:.85}circle.ar{fill:#15781b;opacity:.5;stroke:none}\
mark.k-error,mark.s-error{background:#fbb}mark.k-warning,mark.s-warning{background:#fd9}\
mark.k-note,mark.s-note{background:#bdf}mark.k-changed{background:#9ee}\
.diags{margin:4px 0;padding-left:18px}.s-error b{color:#c00}.s-warning b{color:#b60}.s-note b{color:#26a}\
.moves{font:12px ui-monospace,monospace;color:#333}.kv{color:#333}.kv b{font-weight:600}";

const JS: &str = "(function(){var sel=[].slice.call(document.querySelectorAll('#filters select'));\
var recs=[].slice.call(document.querySelectorAll('.rec'));var shown=document.getElementById('shown');\
function ok(r,s){var v=s.value;if(!v)return true;var f=s.getAttribute('data-f');\
if(f==='codes')return (r.getAttribute('data-codes')||'').indexOf(' '+v+' ')>=0;\
return r.getAttribute('data-'+f)===v;}\
function apply(){var n=0;recs.forEach(function(r){var k=sel.every(function(s){return ok(r,s);});\
r.hidden=!k;if(k)n++;});shown.textContent=n+' of '+recs.length+' shown';}\
sel.forEach(function(s){s.addEventListener('change',apply);});apply();})();";

fn select(out: &mut String, label: &str, field: &str, values: &[&str]) {
    let _ = write!(
        out,
        "<label>{label} <select data-f=\"{field}\"><option value=\"\">all</option>"
    );
    for v in values {
        let v = escape(v);
        let _ = write!(out, "<option>{v}</option>");
    }
    out.push_str("</select></label> ");
}

/// The whole page: `title`, a `summary` line (text), the filters built from the entries'
/// values, the SVG definitions, the entries in order, the script.
pub fn page(title: &str, summary: &str, entries: &[Entry]) -> String {
    let mut verdicts: Vec<&str> = Vec::new();
    let mut codes: Vec<&str> = Vec::new();
    let mut kinds: Vec<&str> = Vec::new();
    for e in entries {
        if let Some(v) = &e.verdict
            && !verdicts.contains(&v.as_str())
        {
            verdicts.push(v);
        }
        for c in &e.codes {
            if !codes.contains(&c.as_str()) {
                codes.push(c);
            }
        }
        if !kinds.contains(&e.kind.as_str()) {
            kinds.push(&e.kind);
        }
    }
    codes.sort_unstable();
    let body_len: usize = entries.iter().map(|e| e.head.len() + e.body.len() + 160).sum();
    let mut out = String::with_capacity(body_len + 8192);
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width\"><title>{}</title><style>{CSS}</style></head>\n\
         <body><header><h1>{}</h1><p id=\"summary\">{}</p><form id=\"filters\">",
        escape(title),
        escape(title),
        escape(summary)
    );
    select(&mut out, "verdict", "verdict", &verdicts);
    select(&mut out, "code", "codes", &codes);
    select(&mut out, "kind", "kind", &kinds);
    out.push_str("<span id=\"shown\"></span></form></header>\n");
    out.push_str(&svg::defs());
    out.push_str("\n<main id=\"timeline\">\n");
    for e in entries {
        let verdict = e.verdict.as_deref().unwrap_or("");
        let codes: String = e.codes.iter().fold(String::from(" "), |mut s, c| {
            s.push_str(&escape(c));
            s.push(' ');
            s
        });
        let _ = write!(
            out,
            "<section class=\"rec v-{v}\" data-kind=\"{k}\" data-verdict=\"{v}\" data-codes=\"{codes}\"><h2>{}</h2>{}</section>\n",
            e.head,
            e.body,
            v = escape(verdict),
            k = escape(&e.kind),
        );
    }
    let _ = write!(out, "</main>\n<script>{JS}</script>\n</body></html>\n");
    out
}

/// A board as a `<figure>`: the SVG, the pockets, the fields (marked ones highlighted), and
/// the caption (text).
pub fn figure(board: &Board, marks: &Marks, caption: &str) -> String {
    let mut s = String::from("<figure>");
    s.push_str(&svg::board(board, marks));
    s.push_str("<figcaption>");
    s.push_str(&escape(caption));
    if let Some(p) = svg::pockets_text(board) {
        let p = escape(&p);
        match marks.field_kind("pocket") {
            Some(k) => {
                let _ = write!(s, "<br><mark class=\"k-{}\">{p}</mark>", k.as_str());
            }
            None => {
                let _ = write!(s, "<br>{p}");
            }
        }
    }
    s.push_str("<br>");
    for (i, f) in board.fields().iter().enumerate() {
        if i > 0 {
            s.push_str(" · ");
        }
        let label = match f.name.as_str() {
            "side" => format!("{} to move", f.text),
            name => format!("{name} {}", f.text),
        };
        let label = escape(&label);
        match marks.field_kind(&f.name) {
            Some(k) => {
                let _ = write!(s, "<mark class=\"k-{}\">{label}</mark>", k.as_str());
            }
            None => s.push_str(&label),
        }
    }
    for (text, kind) in &marks.legend {
        let _ = write!(
            s,
            "<br><mark class=\"k-{}\">{}</mark>",
            kind.as_str(),
            escape(text)
        );
    }
    s.push_str("</figcaption></figure>");
    s
}

/// The diagnostics as a list: `severity[code]: message`, then `text` with the span
/// underlined (marked), rustc-style.
pub fn diagnostics(findings: &[Finding], text: &str) -> String {
    if findings.is_empty() {
        return String::new();
    }
    let mut s = String::from("<ul class=\"diags\">");
    for f in findings {
        let sev = escape(&f.severity);
        let _ = write!(
            s,
            "<li class=\"diag s-{sev}\"><b>{sev}[{}]</b>: {}",
            escape(&f.code),
            escape(&f.message)
        );
        if let Some(span) = &f.span
            && let Some(shown) = spanned(text, span.clone())
        {
            s.push_str(&shown.replace("<mark>", &format!("<mark class=\"s-{sev}\">")));
        }
        s.push_str("</li>");
    }
    s.push_str("</ul>");
    s
}

/// `<pre>` of `text` with bytes `span` in a `<mark>` (an empty span marks one blank), `None`
/// when the span is not on `text`'s character boundaries.
fn spanned(text: &str, span: std::ops::Range<usize>) -> Option<String> {
    let start = span.start.min(text.len());
    let end = span.end.clamp(start, text.len());
    let (a, b, c) = (text.get(..start)?, text.get(start..end)?, text.get(end..)?);
    let b = if b.is_empty() { " " } else { b };
    Some(format!(
        "<pre>{}<mark>{}</mark>{}</pre>",
        escape(a),
        escape(b),
        escape(c)
    ))
}
