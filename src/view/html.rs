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

/// The report's style sheet (boards, marks, layout), for other pages that show boards
/// (`fenguard doctor --format html`).
pub const CSS: &str = "body{font:14px/1.4 system-ui,sans-serif;margin:0;background:#fafafa;color:#222}\
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
.lazy{width:288px;height:288px;background:#eee}.lazy.w10{width:360px}\
.pw,.pb{font-size:.9px;text-anchor:middle;stroke:#000;stroke-width:.025px}.pw{fill:#fff}.pb{fill:#000}\
.k-error{fill:#e22;opacity:.55}.k-warning{fill:#f90;opacity:.55}.k-note{fill:#39f;opacity:.45}\
.k-changed{fill:#0bc;opacity:.5}.k-move{fill:#9c3;opacity:.55}\
.ar{stroke:#15781b;stroke-width:.16;fill:none;opacity:.85}circle.ar{fill:#15781b;opacity:.5;stroke:none}\
mark.k-error,mark.s-error{background:#fbb}mark.k-warning,mark.s-warning{background:#fd9}\
mark.k-note,mark.s-note{background:#bdf}mark.k-changed{background:#9ee}\
.diags{margin:4px 0;padding-left:18px}.s-error b{color:#c00}.s-warning b{color:#b60}.s-note b{color:#26a}\
.moves{font:12px ui-monospace,monospace;color:#333}.kv{color:#333}.kv b{font-weight:600}";

/// Defines `fgDraw(el)`, which draws a `.lazy` board (see [`lazy_figure`]) as [`svg::board`]
/// would: the pieces of `data-fen`'s placement, the bestmove `data-best` as an arrow (for the
/// pages that draw boards from data: this one and `fenguard log --html`).
pub const DRAW_JS: &str = "var fgDraw=(function(){var G={K:'♚',Q:'♛',R:'♜',B:'♝',N:'♞',P:'♟'};\
function draw(el){var fen=el.getAttribute('data-fen')||'',W=+el.getAttribute('data-w'),H=+el.getAttribute('data-h'),best=el.getAttribute('data-best')||'';\
var rows=fen.split('/'),t='',u='',mk='',a='';for(var y=0;y<rows.length&&y<H;y++){var r=rows[y],x=0,i=0,w=[],wx=[],b=[],bx=[];\
while(i<r.length){var c=r.charAt(i);if(c>='0'&&c<='9'){var j=i;while(j<r.length&&r.charAt(j)>='0'&&r.charAt(j)<='9')j++;x+=parseInt(r.slice(i,j),10);i=j;continue;}\
i++;if(c==='~')continue;var up=c.toUpperCase(),g=G[up];if(g){if(c===up){w.push(g);wx.push(x);}else{b.push(g);bx.push(x);}}\
else{u+='<use href=\"#p'+(/[ACJXacj]/.test(c)?c:'-')+'\" x=\"'+x+'\" y=\"'+y+'\"/>';}x++;}\
if(w.length)t+='<text class=\"pw\" x=\"'+wx.join(' ')+'\" y=\"'+y+'\">'+w.join('')+'</text>';\
if(b.length)t+='<text class=\"pb\" x=\"'+bx.join(' ')+'\" y=\"'+y+'\">'+b.join('')+'</text>';}\
function X(f){return f.charCodeAt(0)-97;}function Y(n){return H-parseInt(n,10);}\
function sq(f,n){return '<rect class=\"k-move\" x=\"'+X(f)+'\" y=\"'+Y(n)+'\" width=\"1\" height=\"1\"/>';}\
var m=/^([a-z])([0-9]+)([a-z])([0-9]+)/.exec(best),d=/@([a-z])([0-9]+)$/.exec(best);\
if(m){mk=sq(m[1],m[2])+sq(m[3],m[4]);a='<line class=\"ar\" x1=\"'+(X(m[1])+0.5)+'\" y1=\"'+(Y(m[2])+0.5)+'\" x2=\"'+(X(m[3])+0.5)+'\" y2=\"'+(Y(m[4])+0.5)+'\" marker-end=\"url(#ah)\"/>';}\
else if(d){mk=sq(d[1],d[2]);a='<circle class=\"ar\" cx=\"'+(X(d[1])+0.5)+'\" cy=\"'+(Y(d[2])+0.5)+'\" r=\".35\"/>';}\
var co=(H===8&&(W===8||W===10))?'<use href=\"#c'+W+'x'+H+'\"/>':'';\
el.innerHTML='<svg class=\"board\" viewBox=\"0 0 '+W+' '+H+'\" width=\"'+W*36+'\" height=\"'+H*36+'\" role=\"img\"><rect width=\"'+W+'\" height=\"'+H+'\" fill=\"url(#sq)\"/>'+mk+'<g transform=\"translate(.5 .83)\">'+t+'</g>'+u+co+a+'</svg>';\
el.className='drawn';}return draw;})();";

/// Draws the `.lazy` boards ([`DRAW_JS`]) when they come near the window.
const LAZY_JS: &str = "(function(){var draw=fgDraw;\
var lazy=[].slice.call(document.querySelectorAll('.lazy')),queued=false;\
function near(){queued=false;var h=window.innerHeight||1600,keep=[];\
for(var i=0;i<lazy.length;i++){var el=lazy[i];if(el.offsetParent===null){keep.push(el);continue;}\
var r=el.getBoundingClientRect();if(r.bottom>-h&&r.top<2*h)draw(el);else keep.push(el);if(r.top>3*h){keep=keep.concat(lazy.slice(i+1));break;}}lazy=keep;}\
near();function later(){if(!queued){queued=true;window.requestAnimationFrame(near);}}\
window.addEventListener('scroll',later);window.addEventListener('resize',later);\
document.getElementById('filters').addEventListener('change',later);})();";

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
    let body_len: usize = entries
        .iter()
        .map(|e| e.head.len() + e.body.len() + 160)
        .sum();
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
        let _ = write!(out, "<section class=\"rec");
        if !verdict.is_empty() {
            let _ = write!(out, " v-{}", escape(verdict));
        }
        let _ = write!(out, "\" data-kind=\"{}\"", escape(&e.kind));
        if !verdict.is_empty() {
            let _ = write!(out, " data-verdict=\"{}\"", escape(verdict));
        }
        if !e.codes.is_empty() {
            let _ = write!(out, " data-codes=\"{codes}\"");
        }
        let _ = writeln!(out, "><h2>{}</h2>{}</section>", e.head, e.body);
    }
    let _ = write!(
        out,
        "</main>\n<script>{JS}{DRAW_JS}{LAZY_JS}</script>\n</body></html>\n"
    );
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

/// A board drawn by the page's script when it comes near the window (a long session's
/// valid positions: a few dozen bytes instead of a kilobyte of SVG): the placement, the size
/// and the bestmove `best` as data, the caption (text) and the fields as in [`figure`]. Only
/// a plain 8-rank board of 8 or 10 files; `None` for any other.
pub fn lazy_figure(
    board: &Board,
    placement: &str,
    best: Option<&str>,
    caption: &str,
) -> Option<String> {
    let (files, ranks) = (board.files(), board.ranks());
    if ranks != 8 || !(files == 8 || files == 10) {
        return None;
    }
    let mut s = format!(
        "<figure><div class=\"lazy{}\" data-fen=\"{}\" data-w=\"{files}\" data-h=\"{ranks}\"",
        if files == 10 { " w10" } else { "" },
        escape(placement)
    );
    if let Some(b) = best {
        let _ = write!(s, " data-best=\"{}\"", escape(b));
    }
    let _ = write!(s, "></div><figcaption>{}", escape(caption));
    if let Some(p) = svg::pockets_text(board) {
        let _ = write!(s, "<br>{}", escape(&p));
    }
    s.push_str("</figcaption></figure>");
    Some(s)
}

/// The diagnostics as a list: `severity[code]: message`, then `text` with the span
/// underlined (marked), rustc-style.
pub fn diagnostics(findings: &[Finding], text: &str) -> String {
    diagnostics_with(findings, |span, sev| {
        spanned(text, span.clone())
            .map(|shown| shown.replace("<mark>", &format!("<mark class=\"s-{sev}\">")))
    })
}

/// The diagnostics as a list: `severity[code]: message`, then what `span_html` makes of each
/// diagnostic's span (its byte range and its escaped severity; `None`: nothing).
pub fn diagnostics_with(
    findings: &[Finding],
    span_html: impl Fn(&std::ops::Range<usize>, &str) -> Option<String>,
) -> String {
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
        if let Some(shown) = f.span.as_ref().and_then(|span| span_html(span, &sev)) {
            s.push_str(&shown);
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
