//! The report as text (the report card) and as one self-contained HTML page.

use std::fmt::Write as _;

use super::report::{Report, Status};
use crate::fen::escape_controls as clean;

/// The report card: a header, one line per check (its transcript under every warn and fail),
/// the summary and the fails again at the end. The engine's text (its `id` lines, the lines
/// quoted in details and transcripts) is written with its control characters escaped.
pub fn text(report: &Report) -> String {
    let mut s = String::new();
    let e = &report.engine;
    let _ = writeln!(
        s,
        "fenguard doctor: {} ({}) — {}",
        clean(e.name.as_deref().unwrap_or("(no id name)")),
        clean(e.author.as_deref().unwrap_or("no id author")),
        clean(&e.command.join(" "))
    );
    let _ = writeln!(
        s,
        "  {} options, Chess960 {}, perft {}, {} variants",
        e.options,
        if e.chess960 { "yes" } else { "no" },
        if e.perft { "yes" } else { "no" },
        e.variants.len()
    );
    let mut group = "";
    for c in &report.checks {
        if c.group != group {
            group = c.group;
            let _ = writeln!(s, "\n{group}");
        }
        let _ = writeln!(
            s,
            "  {:<5} {:<34} {}",
            c.status.name(),
            c.id,
            clean(&c.detail)
        );
        for t in &c.transcript {
            let _ = writeln!(s, "          {}", clean(t));
        }
    }
    let m = &report.summary;
    let _ = writeln!(
        s,
        "\nsummary ({}, {:.1} s): {} pass, {} warn, {} fail, {} skip",
        m.mode, m.seconds, m.pass, m.warn, m.fail, m.skip
    );
    for c in report.checks.iter().filter(|c| c.status == Status::Fail) {
        let known = if c.baseline == Some(super::report::Baseline::Known) {
            " (known: in the baseline)"
        } else {
            ""
        };
        let _ = writeln!(s, "  fail {}{known}: {}", c.id, clean(&c.detail));
    }
    let demoted = report.checks.iter().filter(|c| c.demoted).count();
    if demoted > 0 {
        let _ = writeln!(
            s,
            "{demoted} other fails reported as warns: only {} fails fail the run (--fail-on)",
            m.fail_on.join(" and ")
        );
    }
    if let Some(b) = &m.baseline {
        let listed = |ids: &[String]| match ids.is_empty() {
            true => String::new(),
            false => format!(" ({})", ids.join(", ")),
        };
        let _ = writeln!(
            s,
            "baseline {}: {} known fails, {} new{}, {} fixed{}",
            clean(&b.file),
            b.known.len(),
            b.new.len(),
            listed(&b.new),
            b.fixed.len(),
            listed(&b.fixed)
        );
    }
    if !m.not_survived.is_empty() {
        let _ = writeln!(
            s,
            "the engine does not survive: {}. Behind fenguard (`fenguard -- ENGINE`) these inputs never reach it.",
            clean(&m.not_survived.join(", "))
        );
    }
    s
}

/// `text` safe in the page: its control characters escaped as in the text report (no raw
/// ESC or BEL reaches a terminal that prints the file), then HTML's special characters.
fn esc(text: &str) -> String {
    crate::view::html::escape(&clean(text)).into_owned()
}

/// The board of a check: a hostile check's failing line (its detail starts with it in
/// backquotes), any other's first `position fen` line sent; `None` when there is none or it
/// cannot be drawn.
fn check_board(c: &super::report::CheckResult) -> Option<String> {
    if c.group == "hostile" {
        let line = c.detail.strip_prefix('`')?.split('`').next()?;
        return line
            .contains("position fen ")
            .then(|| position_board(&[line.to_owned()]))
            .flatten();
    }
    position_board(&c.transcript)
}

/// The board of the first `position fen` line a transcript sent, as the session report
/// draws it (`crate::view`), or `None` when there is none or it cannot be drawn.
fn position_board(transcript: &[String]) -> Option<String> {
    let line = transcript.iter().find(|l| l.contains("position fen "))?;
    let fen = line.split("position fen ").nth(1)?;
    let fen = fen.split(" moves").next().unwrap_or(fen).trim();
    let files = fen.split(['/', ' ']).next().map_or(8, |rank| {
        rank.chars()
            .map(|c| c.to_digit(10).map_or(1, |d| d as usize))
            .sum::<usize>()
    });
    let shape = crate::view::board::Shape::for_variant((files == 10).then_some("capablanca"));
    let board = crate::view::board::Board::from_fen(fen, shape)?;
    let marks = crate::view::marks::Marks::default();
    Some(crate::view::html::figure(&board, &marks, fen))
}

/// One HTML page, no external resources: the engine, the summary, a table of the checks
/// with each warn's and fail's transcript folded under it.
pub fn html(report: &Report) -> String {
    let mut s = String::new();
    let e = &report.engine;
    let title = esc(e.name.as_deref().unwrap_or("engine"));
    let _ = write!(
        s,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>fenguard doctor: {title}</title>\n<style>\
body{{font-family:sans-serif;margin:2em;max-width:80em}}table{{border-collapse:collapse;width:100%}}\
td,th{{border-bottom:1px solid #ddd;padding:4px 8px;text-align:left;vertical-align:top}}\
.pass{{color:#176c2f}}.warn{{color:#8a5a00}}.fail{{color:#b00020;font-weight:bold}}.skip{{color:#666}}\
pre{{background:#f6f6f6;padding:6px;white-space:pre-wrap;margin:4px 0}}{}</style></head><body>\n{}\n",
        crate::view::html::CSS,
        crate::view::svg::defs()
    );
    let _ = writeln!(
        s,
        "<h1>fenguard doctor: {title}</h1>\n<p>{} — <code>{}</code><br>{} options, Chess960 {}, perft {}, {} variants</p>",
        esc(e.author.as_deref().unwrap_or("no id author")),
        esc(&e.command.join(" ")),
        e.options,
        if e.chess960 { "yes" } else { "no" },
        if e.perft { "yes" } else { "no" },
        e.variants.len()
    );
    let m = &report.summary;
    let _ = writeln!(
        s,
        "<p><b>{} pass, {} warn, {} fail, {} skip</b> ({}, {:.1} s)</p>",
        m.pass, m.warn, m.fail, m.skip, m.mode, m.seconds
    );
    s.push_str("<table><tr><th>status</th><th>check</th><th>detail</th></tr>\n");
    for c in &report.checks {
        let st = c.status.name();
        let _ = write!(
            s,
            "<tr><td class=\"{st}\">{st}</td><td><code>{}</code></td><td>{}",
            esc(&c.id),
            esc(&c.detail)
        );
        if c.status.name() != "pass"
            && let Some(board) = check_board(c)
        {
            s.push_str(&board);
        }
        if !c.transcript.is_empty() {
            let _ = write!(
                s,
                "<details><summary>transcript</summary><pre>{}</pre></details>",
                c.transcript
                    .iter()
                    .map(|l| esc(l))
                    .collect::<Vec<_>>()
                    .join("\n")
            );
        }
        s.push_str("</td></tr>\n");
    }
    s.push_str("</table>\n</body></html>\n");
    s
}
