//! The human form of a record: a header line, then the GUI's exact line, what was sent, the
//! final FEN and the diagnostics of a `position` record (each with carets under its span in
//! the GUI's line), or the fields of any other record; then the boards (SPEC section 14):
//! under a position with a diagnostic or a repair (`--board auto`), under every position and
//! search (`--board always`, a search's bestmove marked on the board of its position).

use std::io;

use serde_json::Value;

use super::position::{Drawn, PositionBoards, searched_board};
use crate::fen::escape_controls;
use crate::view::term::{board_lines, side_by_side};
use crate::view::{BoardWhen, Finding, Style};

/// How boards are drawn in the human form.
#[derive(Debug, Clone, Copy, Default)]
pub struct Boards {
    /// `--board`.
    pub when: BoardWhen,
    /// Colour and Unicode.
    pub style: Style,
}

/// A field's value as text, its control characters escaped (a GUI's or an engine's text never
/// reaches the terminal raw).
fn text(value: &Value) -> String {
    match value {
        Value::Null => "(nothing)".to_owned(),
        Value::String(s) => escape_controls(s).into_owned(),
        other => escape_controls(&other.to_string()).into_owned(),
    }
}

/// Writes `record` (a full record, line `number` of `file`) as a block of lines; `position`
/// is the `position` record a search record searched from, when known.
///
/// # Errors
/// The I/O error of writing `out`.
pub fn human(
    out: &mut impl io::Write,
    (file, number): (&str, usize),
    record: &Value,
    boards: Boards,
    position: Option<&Value>,
) -> io::Result<()> {
    if let Some(gap) = super::Gap::of(record) {
        return writeln!(
            out,
            "{file}:{number}  -- {gap} --  {}  session {}",
            text(&record["ts"]),
            text(&record["session"])
        );
    }
    let kind = record["kind"].as_str().unwrap_or("?");
    write!(
        out,
        "{file}:{number}  seq {}  {}",
        text(&record["seq"]),
        escape_controls(kind)
    )?;
    if let Some(verdict) = record["verdict"].as_str() {
        write!(out, "  {}", escape_controls(verdict))?;
    }
    writeln!(
        out,
        "  {}  session {}",
        text(&record["ts"]),
        text(&record["session"])
    )?;
    let Value::Object(map) = record else {
        return Ok(());
    };
    if kind == "position" {
        writeln!(out, "  gui:    {}", text(&record["raw"]))?;
        writeln!(out, "  sent:   {}", text(&record["sent"]))?;
        writeln!(out, "  final:  {}", text(&record["final_fen"]))?;
        writeln!(
            out,
            "  fen_in: {}  fen_out: {}",
            text(&record["fen_in"]),
            text(&record["fen_out"])
        )?;
        writeln!(out, "  chess960: {}", text(&record["chess960"]))?;
    } else {
        for (key, value) in map {
            if !matches!(
                key.as_str(),
                "ts" | "session" | "seq" | "kind" | "diagnostics"
            ) {
                writeln!(out, "  {}: {}", escape_controls(key), text(value))?;
            }
        }
    }
    let raw = record["raw"].as_str().filter(|_| kind == "position");
    for d in record["diagnostics"].as_array().into_iter().flatten() {
        writeln!(
            out,
            "  {} {}: {}",
            text(&d["severity"]),
            text(&d["code"]),
            text(&d["message"])
        )?;
        if let (Some(raw), Some(span)) = (raw, Finding::from_json(d).span) {
            carets(out, raw, span, boards.style.color)?;
        }
    }
    if boards.when == BoardWhen::Never {
        return Ok(());
    }
    match kind {
        "position" => position_boards(out, record, boards),
        "search" => match search_board(record, position, boards.when) {
            Some(drawn) => write_drawn(out, &drawn, boards.style),
            None => Ok(()),
        },
        _ => Ok(()),
    }
}

/// `   | LINE` and `   |   ^^^` under the span's characters.
fn carets(
    out: &mut impl io::Write,
    raw: &str,
    span: std::ops::Range<usize>,
    color: bool,
) -> io::Result<()> {
    let start = span.start.min(raw.len());
    let end = span.end.clamp(start, raw.len());
    let (Some(head), Some(body)) = (raw.get(..start), raw.get(start..end)) else {
        return Ok(());
    };
    let shown: String = raw
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let (on, off) = if color {
        ("\x1b[1;31m", "\x1b[0m")
    } else {
        ("", "")
    };
    writeln!(out, "   | {shown}")?;
    writeln!(
        out,
        "   | {}{on}{}{off}",
        " ".repeat(head.chars().count()),
        "^".repeat(body.chars().count().max(1))
    )
}

/// The board a search is drawn on: its position with the bestmove marked (`--board always`),
/// or, under a diagnostic (`illegal-bestmove`), the bestmove's squares marked as the
/// diagnostic's severity.
pub(super) fn search_board(
    record: &Value,
    position: Option<&Value>,
    when: BoardWhen,
) -> Option<Drawn> {
    let diagnostics = record["diagnostics"].as_array().filter(|d| !d.is_empty());
    if when == BoardWhen::Never || (when == BoardWhen::Auto && diagnostics.is_none()) {
        return None;
    }
    let best = record["bestmove"].as_str();
    let mut drawn = searched_board(position?, best)?;
    if let (Some(ds), Some(best)) = (diagnostics, best) {
        // A diagnostic about the ponder move leaves the bestmove unmarked.
        for d in ds.iter().filter(|d| {
            !d["message"]
                .as_str()
                .is_some_and(|m| m.starts_with("ponder"))
        }) {
            let f = Finding::from_json(d);
            let kind = crate::view::MarkKind::of_severity(&f.severity);
            drawn.marks.move_squares(&drawn.board, best, kind, &f.code);
        }
    }
    Some(drawn)
}

fn write_drawn(out: &mut impl io::Write, drawn: &Drawn, style: Style) -> io::Result<()> {
    writeln!(out, "    {}", escape_controls(&drawn.caption))?;
    for line in board_lines(&drawn.board, &drawn.marks, style) {
        writeln!(out, "  {line}")?;
    }
    Ok(())
}

fn position_boards(out: &mut impl io::Write, record: &Value, boards: Boards) -> io::Result<()> {
    let troubled = record["diagnostics"]
        .as_array()
        .is_some_and(|d| !d.is_empty())
        || record["verdict"].as_str().is_some_and(|v| v != "valid");
    let always = boards.when == BoardWhen::Always;
    if !troubled && !always {
        return Ok(());
    }
    let b = PositionBoards::of(record);
    if troubled {
        match (&b.gui, &b.engine_start) {
            (Some(gui), Some(engine)) => {
                let left = board_lines(&gui.board, &gui.marks, boards.style);
                let right = board_lines(&engine.board, &engine.marks, boards.style);
                let (g, e) = (
                    escape_controls(&gui.caption),
                    escape_controls(&engine.caption),
                );
                for line in side_by_side((&g, &left), (&e, &right), 4) {
                    writeln!(out, "  {line}")?;
                }
            }
            (Some(gui), None) => write_drawn(out, gui, boards.style)?,
            _ => {}
        }
    }
    match (&b.searched, always) {
        (Some(s), true) => write_drawn(out, s, boards.style),
        (None, true) if !troubled => match &b.gui {
            Some(gui) => write_drawn(out, gui, boards.style),
            None => Ok(()),
        },
        _ => Ok(()),
    }
}
