//! The bodies made here, as HTML (every text escaped), of the records the page's script does
//! not draw from fields: a position with a diagnostic or a repair (its boards marked), a
//! search with diagnostics, a `gap` (records lost), any other kind (its fields listed).
//!
//! The GUI's line of a position is not in its body (a game resent move by move would repeat
//! it): `<pre data-gui></pre>` stands for `gui:  LINE`, and `<pre data-span="A,B"
//! data-sev="error"></pre>` for the line with bytes A..B marked; the script fills both from
//! the item's `r`.

use std::fmt::Write as _;

use serde_json::Value;

use super::super::position::{PositionBoards, searched_board};
use super::fields::field;
use crate::view::Finding;
use crate::view::html::{self, escape};

fn findings(r: &Value) -> Vec<Finding> {
    r["diagnostics"]
        .as_array()
        .into_iter()
        .flatten()
        .map(Finding::from_json)
        .collect()
}

/// The moves as a list; after `skip` moves of the previous position, only the new ones after
/// a count of the earlier.
fn move_list(r: &Value, skip: usize) -> String {
    let all: Vec<&str> = r["moves_in"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    if all.is_empty() {
        return String::new();
    }
    let mut s = String::from("<p class=\"moves\">moves: ");
    if skip > 0 {
        let _ = write!(s, "… {skip} as before, then ");
    }
    for (i, m) in all.iter().enumerate().skip(skip) {
        let _ = write!(s, "{}.{} ", i + 1, escape(m));
    }
    s.push_str("</p>");
    s
}

/// The diagnostics of a position: `severity[code]: message`, then the GUI's line with the
/// span marked (left to the script: `data-span`).
fn diagnostics(findings: &[Finding]) -> String {
    html::diagnostics_with(findings, |span, sev| {
        Some(format!(
            "<pre data-span=\"{},{}\" data-sev=\"{sev}\"></pre>",
            span.start, span.end
        ))
    })
}

/// A position's body: the GUI's line (unless it extends the previous position, `skip` moves,
/// and has no diagnostic), what was sent, the moves, the diagnostics, the boards (the GUI's
/// and the engine's start when troubled or nothing was searched, the searched position with
/// the bestmove `best`).
pub(super) fn body_position(r: &Value, extends: bool, skip: usize, best: Option<&str>) -> String {
    let findings = findings(r);
    let raw = r["raw"].as_str().unwrap_or_default();
    let mut body = String::new();
    if !extends || !findings.is_empty() {
        body.push_str("<pre data-gui></pre>");
    }
    match r["sent"].as_str() {
        None => body.push_str("<pre>sent: (nothing)</pre>"),
        Some(sent) if sent == raw => {}
        Some(sent) if !extends => {
            let _ = write!(body, "<pre>sent: {}</pre>", escape(sent));
        }
        Some(_) => {}
    }
    body.push_str(&move_list(r, skip));
    body.push_str(&diagnostics(&findings));
    let b = PositionBoards::of(r);
    let troubled = !findings.is_empty() || r["verdict"].as_str().is_some_and(|v| v != "valid");
    body.push_str("<div class=\"boards\">");
    // Without moves, the engine's start board is the position searched: the bestmove is drawn
    // on it and no third board is needed.
    let no_moves = r["moves_out"].as_array().is_none_or(Vec::is_empty);
    let searched_shown = no_moves && b.engine_start.is_some();
    if troubled || b.searched.is_none() {
        if let Some(g) = &b.gui {
            body.push_str(&html::figure(&g.board, &g.marks, &g.caption));
        }
        if let Some(e) = &b.engine_start {
            let mut marks = e.marks.clone();
            let mut caption = e.caption.clone();
            if let Some(m) = best.filter(|_| searched_shown) {
                marks.arrow(&e.board, m);
                caption = format!("{caption}; bestmove {m}");
            }
            body.push_str(&html::figure(&e.board, &marks, &caption));
        }
    }
    if let Some(s) = searched_board(r, best).filter(|_| !searched_shown) {
        let caption = match best {
            Some(m) => format!("{}; bestmove {m}", s.caption),
            None => s.caption,
        };
        // An untroubled position's board is drawn by the page's script.
        let fen = r["final_fen"].as_str().unwrap_or_default();
        let lazy = match troubled {
            true => None,
            false => {
                let placement = fen.split(' ').next().unwrap_or_default();
                let placement = placement.split('[').next().unwrap_or_default();
                let caption = format!("{caption} · {fen}");
                html::lazy_figure(&s.board, placement, best, &caption)
            }
        };
        match lazy {
            Some(lazy) => body.push_str(&lazy),
            None => body.push_str(&html::figure(&s.board, &s.marks, &caption)),
        }
    }
    body.push_str("</div>");
    body
}

/// A search with diagnostics: its `go`, bestmove, ponder and time on one line, its
/// diagnostics, and under a diagnostic (`illegal-bestmove`) the position it searched
/// (`position`, when known) with the bestmove drawn and marked.
pub(super) fn body_search(r: &Value, position: Option<&Value>) -> String {
    let findings = findings(r);
    let mut body = format!(
        "<p class=\"kv\">{} → <b>bestmove {}</b>",
        escape(&field(r, "go").unwrap_or_default()),
        escape(&field(r, "bestmove").unwrap_or_default())
    );
    if let Some(p) = field(r, "ponder") {
        let _ = write!(body, " ponder {}", escape(&p));
    }
    if let Some(ms) = field(r, "elapsed_ms") {
        let _ = write!(body, " ({} ms)", escape(&ms));
    }
    if let Some(p) = field(r, "position_seq") {
        let _ = write!(body, " · position seq {}", escape(&p));
    }
    if let Some(why) = field(r, "fenguard_answer") {
        let _ = write!(body, " · fenguard's own answer ({})", escape(&why));
    }
    body.push_str("</p>");
    let line = format!("bestmove {}", r["bestmove"].as_str().unwrap_or_default());
    body.push_str(&html::diagnostics(&findings, &line));
    let when = crate::view::BoardWhen::Auto;
    if let Some(d) = super::super::show::search_board(r, position, when) {
        body.push_str("<div class=\"boards\">");
        body.push_str(&html::figure(&d.board, &d.marks, &d.caption));
        body.push_str("</div>");
    }
    body
}

/// A `gap` record: `N records lost (seq A–B)`, a row that stands out.
pub(super) fn body_gap(r: &Value) -> String {
    let text = |key: &str| field(r, key).unwrap_or_else(|| "?".to_owned());
    format!(
        "<p class=\"gap\"><b>{} records lost (seq {}–{})</b></p>",
        escape(&text("lost")),
        escape(&text("first_seq")),
        escape(&text("last_seq"))
    )
}

/// Any other kind (engine-start, engine-exit, chess960-enabled, option, command, a kind a
/// later version adds): its fields listed.
pub(super) fn body_generic(r: &Value) -> String {
    let mut body = String::from("<p class=\"kv\">");
    for (key, v) in super::fields::other_fields(r) {
        let _ = write!(body, "<b>{}</b> {} &nbsp; ", escape(key), escape(&v));
    }
    body.push_str("</p>");
    body.push_str(&html::diagnostics(&findings(r), ""));
    body
}
