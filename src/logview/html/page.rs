//! The page around the data: the head (the shared style sheet and this report's own rules),
//! the header (title, summary, the filters the script fills), the SVG definitions, the empty
//! timeline the script draws into, the data ([`super::data`]) as a JSON array, the summary's
//! figures as a second JSON object, and the script ([`super::script`]).

use std::io;

use serde_json::json;

use super::script::JS;
use crate::view::html::{CSS, DRAW_JS};
use crate::view::svg;

/// The report's own rules: the virtual list's chunks, the `gap` row.
const LOG_CSS: &str = "#timeline{position:relative;padding:0}\
.chunk{position:absolute;left:12px;right:12px;top:0}\
.rec{content-visibility:visible;contain-intrinsic-size:none}\
.rec[data-kind=gap]{border-left-color:#d22;background:#fee}.gap{color:#a00;margin:2px 0}\
#sessions{font-size:12px;max-height:30vh;overflow:auto}";

/// Ends a block of the data and starts the next.
pub(super) const NEXT_BLOCK: &str =
    "\n]</script>\n<script type=\"application/json\" class=\"fg-d\">[\n";

/// The figures of the shown records, for the summary line.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Counts {
    /// Records shown.
    pub records: usize,
    /// `position` records shown.
    pub positions: usize,
    /// Of those, with a verdict other than `valid`.
    pub troubled: usize,
}

/// Writes everything before the data, and the data's opening `[`.
///
/// # Errors
/// The I/O error of writing `out`.
pub(super) fn start(out: &mut impl io::Write) -> io::Result<()> {
    let title = "fenguard session report";
    write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width\"><title>{title}</title>\
         <style>{CSS}{LOG_CSS}</style></head>\n\
         <body><header><h1>{title}</h1><p id=\"summary\"></p><form id=\"filters\">"
    )?;
    for (label, field) in [("verdict", "verdict"), ("code", "codes"), ("kind", "kind")] {
        write!(
            out,
            "<label>{label} <select data-f=\"{field}\"><option value=\"\">all</option></select></label> "
        )?;
    }
    writeln!(out, "<span id=\"shown\"></span></form></header>")?;
    out.write_all(svg::defs().as_bytes())?;
    out.write_all(
        b"\n<main id=\"timeline\"><noscript>This report draws its records with JavaScript.</noscript></main>\n\
          <script type=\"application/json\" class=\"fg-d\">[",
    )
}

/// Writes the data's closing `]`, the summary's figures (`name`, the file; `sessions`, the ids
/// by number; `kinds`, the kinds by number; the blocks' sizes, the filters' values and the
/// counts of `items`) and the script.
///
/// # Errors
/// The I/O error of writing `out`.
pub(super) fn finish(
    out: &mut impl io::Write,
    name: &str,
    sessions: &[&str],
    kinds: &[&str],
    items: &super::data::Items,
) -> io::Result<()> {
    let counts = items.counts();
    let (verdicts, codes) = items.values();
    let meta = json!({
        "name": name,
        "kinds": kinds,
        "block": super::data::BLOCK,
        "blocks": items.blocks(),
        "verdicts": verdicts,
        "codes": codes,
        "records": counts.records,
        "positions": counts.positions,
        "troubled": counts.troubled,
        "sessions": sessions,
    })
    .to_string()
    .replace('<', "\\u003c");
    write!(
        out,
        "\n]</script>\n<script type=\"application/json\" id=\"fg-meta\">{meta}</script>\n\
         <script>{DRAW_JS}{JS}</script>\n</body></html>\n"
    )
}
