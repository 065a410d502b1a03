//! `fenguard log --html`: the session report (SPEC section 14), one self-contained HTML page
//! on standard output. A timeline of the records that pass the filters, in the file's order:
//! engine starts and exits, options, positions, searches and any other kind (its fields
//! listed); each position with its verdict, its diagnostics (the span marked in the GUI's
//! line), the GUI's board and the engine's beside it when they differ, the moves as a list
//! (only the new ones when the record extends the previous position of its session), and the
//! engine's bestmove drawn on the searched position as an arrow.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::io::{self, Write as _};
use std::path::Path;
use std::process::ExitCode;

use serde_json::Value;

use super::position::{PositionBoards, searched_board};
use super::{Expander, LogArgs, follow};
use crate::view::Finding;
use crate::view::html::{self, Entry, escape};

/// Runs `fenguard log --html`: 0 when every line was rebuilt, 1 when some could not be (each
/// reported on stderr), 2 when the file cannot be read.
pub(super) fn run(args: &LogArgs, path: &Path) -> ExitCode {
    let mut expander = Expander::default();
    let mut records = Vec::new();
    let mut bad = 0usize;
    let mut number = 0usize;
    let read = follow::read_lines(path, false, |line| {
        number += 1;
        if line.trim().is_empty() {
            return Ok(());
        }
        match expander.expand_line(line) {
            Ok(record) => {
                if args.matches(&record) {
                    records.push(record);
                }
            }
            Err(err) => {
                bad += 1;
                eprintln!("fenguard log: {}:{number}: {err}", path.display());
            }
        }
        Ok(())
    });
    if let Err(err) = read {
        eprintln!("fenguard log: {}: {err}", path.display());
        return ExitCode::from(2);
    }
    let page = report(&path.display().to_string(), &records);
    let mut out = io::stdout().lock();
    match out.write_all(page.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) if bad == 0 => ExitCode::SUCCESS,
        Ok(()) => ExitCode::from(1),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(_) => ExitCode::from(2),
    }
}

/// The report page of `records` (full records, in order), titled by the file `name`.
pub fn report(name: &str, records: &[Value]) -> String {
    // The bestmove of each position: (session, position seq) -> bestmove.
    let mut bestmoves: HashMap<(&str, u64), &str> = HashMap::new();
    for r in records {
        if r["kind"] == "search"
            && let (Some(s), Some(p), Some(b)) = (
                r["session"].as_str(),
                r["position_seq"].as_u64(),
                r["bestmove"].as_str(),
            )
        {
            bestmoves.entry((s, p)).or_insert(b);
        }
    }
    let mut previous: HashMap<&str, &Value> = HashMap::new();
    // Each position record by (session, seq): the board a search is drawn on.
    let mut by_seq: HashMap<(&str, u64), &Value> = HashMap::new();
    for r in records {
        if r["kind"] == "position"
            && let (Some(s), Some(seq)) = (r["session"].as_str(), r["seq"].as_u64())
        {
            by_seq.insert((s, seq), r);
        }
    }
    let mut entries = Vec::with_capacity(records.len());
    let mut sessions: Vec<&str> = Vec::new();
    for r in records {
        let session = r["session"].as_str().unwrap_or_default();
        if !sessions.contains(&session) {
            sessions.push(session);
        }
    }
    for r in records {
        let session = r["session"].as_str().unwrap_or_default();
        let index = sessions.iter().position(|s| *s == session).unwrap_or(0) + 1;
        let mut entry = match r["kind"].as_str() {
            Some("position") => {
                let best = r["seq"]
                    .as_u64()
                    .and_then(|seq| bestmoves.get(&(session, seq)).copied());
                let e = position(r, previous.get(session).copied(), best);
                previous.insert(session, r);
                e
            }
            Some("search") => {
                let position = r["position_seq"]
                    .as_u64()
                    .and_then(|seq| by_seq.get(&(session, seq)).copied());
                search(r, position)
            }
            _ => generic(r),
        };
        entry
            .head
            .insert_str(0, &head(r, (sessions.len() > 1).then_some(index)));
        entries.push(entry);
    }
    let positions = records.iter().filter(|r| r["kind"] == "position").count();
    let troubled = entries
        .iter()
        .filter(|e| e.verdict.as_deref().is_some_and(|v| v != "valid"))
        .count();
    let mut summary = format!(
        "{name}: {} records, {positions} positions, {troubled} not valid; sessions:",
        records.len(),
    );
    for (i, s) in sessions.iter().enumerate() {
        let _ = write!(summary, " s{} = {s}", i + 1);
    }
    html::page("fenguard session report", &summary, &entries)
}

/// The heading: seq, kind, verdict, variant, the time of day, the session (`s2`) when the
/// report has several.
fn head(r: &Value, session: Option<usize>) -> String {
    let kind = r["kind"].as_str().unwrap_or("?");
    let mut h = format!(
        "seq {} <span class=\"kind\">{}</span>",
        escape(&r["seq"].to_string()),
        escape(kind)
    );
    if let Some(v) = r["verdict"].as_str() {
        let _ = write!(h, " <span class=\"verdict\">{}</span>", escape(v));
    }
    if let Some(v) = r["variant"].as_str() {
        let _ = write!(h, " ({})", escape(v));
    }
    let ts = r["ts"].as_str().unwrap_or_default();
    let time = ts.split_once('T').map_or(ts, |(_, t)| t);
    let _ = write!(h, " <small>{}", escape(time));
    if let Some(i) = session {
        let _ = write!(h, " · s{i}");
    }
    h.push_str("</small>");
    h
}

fn codes(r: &Value) -> (Vec<Finding>, Vec<String>) {
    let findings: Vec<Finding> = r["diagnostics"]
        .as_array()
        .into_iter()
        .flatten()
        .map(Finding::from_json)
        .collect();
    let mut codes: Vec<String> = Vec::new();
    for f in &findings {
        if !codes.contains(&f.code) {
            codes.push(f.code.clone());
        }
    }
    (findings, codes)
}

fn moves(r: &Value, key: &str) -> Vec<String> {
    r[key]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|m| m.as_str().map(str::to_owned))
        .collect()
}

/// The moves as a list; when they extend `earlier` (the session's previous position from the
/// same start), only the new ones after a count of the earlier.
fn move_list(r: &Value, earlier: Option<&Value>) -> String {
    let all = moves(r, "moves_in");
    if all.is_empty() {
        return String::new();
    }
    let skip = earlier
        .filter(|p| p["fen_in"] == r["fen_in"])
        .map(|p| moves(p, "moves_in"))
        .filter(|p| !p.is_empty() && all.starts_with(p))
        .map_or(0, |p| p.len());
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

fn position(r: &Value, earlier: Option<&Value>, best: Option<&str>) -> Entry {
    let (findings, codes) = codes(r);
    let raw = r["raw"].as_str().unwrap_or_default();
    let extends = earlier.is_some_and(|p| {
        p["fen_in"] == r["fen_in"] && {
            let (a, b) = (moves(p, "moves_in"), moves(r, "moves_in"));
            !a.is_empty() && b.starts_with(&a)
        }
    });
    let mut body = String::new();
    if !extends || !findings.is_empty() {
        let _ = write!(body, "<pre>gui:  {}</pre>", escape(raw));
    }
    match r["sent"].as_str() {
        None => body.push_str("<pre>sent: (nothing)</pre>"),
        Some(sent) if sent == raw => {}
        Some(sent) if !extends => {
            let _ = write!(body, "<pre>sent: {}</pre>", escape(sent));
        }
        Some(_) => {}
    }
    body.push_str(&move_list(r, earlier));
    body.push_str(&html::diagnostics(&findings, raw));
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
        // An untroubled position's board is drawn by the page's script (big logs stay small).
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
    Entry {
        kind: "position".into(),
        verdict: r["verdict"].as_str().map(str::to_owned),
        codes,
        head: String::new(),
        body,
    }
}

/// A search: its `go`, bestmove, ponder and time on one line, its diagnostics, and under a
/// diagnostic (`illegal-bestmove`) the position it searched with the bestmove drawn and
/// marked.
fn search(r: &Value, position: Option<&Value>) -> Entry {
    let (findings, codes) = codes(r);
    let field = |key: &str| match &r[key] {
        Value::Null => None,
        Value::String(s) => Some(s.clone()),
        other => Some(other.to_string()),
    };
    let mut body = format!(
        "<p class=\"kv\">{} → <b>bestmove {}</b>",
        escape(&field("go").unwrap_or_default()),
        escape(&field("bestmove").unwrap_or_default())
    );
    if let Some(p) = field("ponder") {
        let _ = write!(body, " ponder {}", escape(&p));
    }
    if let Some(ms) = field("elapsed_ms") {
        let _ = write!(body, " ({} ms)", escape(&ms));
    }
    if let Some(p) = field("position_seq") {
        let _ = write!(body, " · position seq {}", escape(&p));
    }
    if let Some(why) = field("fenguard_answer") {
        let _ = write!(body, " · fenguard's own answer ({})", escape(&why));
    }
    body.push_str("</p>");
    let line = format!("bestmove {}", r["bestmove"].as_str().unwrap_or_default());
    body.push_str(&html::diagnostics(&findings, &line));
    if let Some(d) = super::show::search_board(r, position, crate::view::BoardWhen::Auto) {
        body.push_str("<div class=\"boards\">");
        body.push_str(&html::figure(&d.board, &d.marks, &d.caption));
        body.push_str("</div>");
    }
    Entry {
        kind: "search".into(),
        verdict: None,
        codes,
        head: String::new(),
        body,
    }
}

/// Any other kind (engine-start, engine-exit, chess960-enabled, option, command, a kind a
/// later version adds): its fields listed.
fn generic(r: &Value) -> Entry {
    let (findings, codes) = codes(r);
    let mut body = String::from("<p class=\"kv\">");
    if let Value::Object(map) = r {
        for (key, value) in map {
            if matches!(
                key.as_str(),
                "ts" | "session" | "seq" | "kind" | "diagnostics"
            ) {
                continue;
            }
            let v = match value {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            let _ = write!(body, "<b>{}</b> {} &nbsp; ", escape(key), escape(&v));
        }
    }
    body.push_str("</p>");
    body.push_str(&html::diagnostics(&findings, ""));
    Entry {
        kind: r["kind"].as_str().unwrap_or("?").to_owned(),
        verdict: None,
        codes,
        head: String::new(),
        body,
    }
}
