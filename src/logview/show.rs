//! The human form of a record: a header line, then the GUI's exact line, what was sent, the
//! final FEN and the diagnostics of a `position` record, or the fields of any other record.

use std::io;

use serde_json::Value;

fn text(value: &Value) -> String {
    match value {
        Value::Null => "(nothing)".to_owned(),
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Writes `record` (a full record, line `number` of `file`) as a block of lines.
///
/// # Errors
/// The I/O error of writing `out`.
pub fn human(
    out: &mut impl io::Write,
    file: &str,
    number: usize,
    record: &Value,
) -> io::Result<()> {
    let kind = record["kind"].as_str().unwrap_or("?");
    write!(out, "{file}:{number}  seq {}  {kind}", text(&record["seq"]))?;
    if let Some(verdict) = record["verdict"].as_str() {
        write!(out, "  {verdict}")?;
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
                writeln!(out, "  {key}: {}", text(value))?;
            }
        }
    }
    for d in record["diagnostics"].as_array().into_iter().flatten() {
        writeln!(
            out,
            "  {} {}: {}",
            text(&d["severity"]),
            text(&d["code"]),
            text(&d["message"])
        )?;
    }
    Ok(())
}
