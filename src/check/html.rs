//! `fenguard check --html`: the checked FENs as one self-contained HTML page on standard output
//! (SPEC section 14): each line's verdict, its diagnostics with the span marked, the board as
//! given with the squares and fields they name marked, and the repaired or normalized board
//! beside it when it draws differently. Every variant `check` knows; same exit statuses.

use std::io::{self, Write};
use std::process::ExitCode;

use super::{CheckArgs, Settings};
use crate::framing::MAX_LINE;
use crate::rules::{Game, GameRules, Rules};
use crate::view::html::{self, Entry, escape};
use crate::view::{Board, Finding, Marks, Shape};

/// Runs `fenguard check --html`.
pub(super) fn run(args: &CheckArgs) -> ExitCode {
    let settings = Settings::from(args);
    let variant = &args.variant.variant;
    let rules = Rules::for_variant(variant);
    if !rules.checked() {
        eprintln!(
            "fenguard check: unsupported variant `{}` (see fenguard check --help)",
            variant.uci_name()
        );
        return ExitCode::from(2);
    }
    let shape = Shape::for_variant(Some(variant.uci_name()));
    let mut entries = Vec::new();
    let mut all_ok = true;
    let mut number = 0u64;
    let mut sink = io::sink();
    let result = super::check_all(
        args,
        &mut |line, length, _| {
            number += 1;
            let (entry, ok) = match line.len() > MAX_LINE {
                true => (too_long(number, length), false),
                false => entry(&settings, &rules, shape, number, line),
            };
            all_ok &= ok;
            entries.push(entry);
            Ok(())
        },
        &mut sink,
    );
    if let Err(e) = result {
        eprintln!("fenguard check: {e}");
        return ExitCode::from(2);
    }
    let invalid = entries
        .iter()
        .filter(|e| e.verdict.as_deref() == Some("invalid"))
        .count();
    let summary = format!(
        "{} FENs checked ({}), {invalid} invalid",
        entries.len(),
        variant.uci_name()
    );
    let page = html::page("fenguard check", &summary, &entries);
    let mut out = io::stdout().lock();
    match out.write_all(page.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) if all_ok => ExitCode::SUCCESS,
        Ok(()) => ExitCode::from(1),
        Err(_) => ExitCode::from(2),
    }
}

fn too_long(number: u64, length: u64) -> Entry {
    Entry {
        kind: "fen".into(),
        verdict: Some("invalid".into()),
        codes: vec!["line-too-long".into()],
        head: format!("line {number}: <span class=\"verdict\">invalid</span>"),
        body: format!(
            "<ul class=\"diags\"><li class=\"diag s-error\"><b>error[line-too-long]</b>: line of {length} bytes is longer than the {MAX_LINE}-byte cap; not checked</li></ul>"
        ),
    }
}

/// One line's entry, and whether it is fine (valid, or repaired with `--repair`).
fn entry(
    settings: &Settings,
    rules: &Rules,
    shape: Shape,
    number: u64,
    input: &[u8],
) -> (Entry, bool) {
    let chess960 = settings.options.chess960_allowed;
    let a = Game::analyze(rules, input, chess960, settings.repair);
    let repaired = !a.valid && a.game.is_some();
    let verdict = match (a.valid, repaired) {
        (true, _) => "valid",
        (false, true) => "repaired",
        (false, false) => "invalid",
    };
    let fen = a
        .game
        .as_ref()
        .map(|g| g.fen(settings.castling, settings.ep));
    let text = String::from_utf8_lossy(input);
    let findings: Vec<Finding> = a.diagnostics.iter().map(Finding::from).collect();
    let mut codes: Vec<String> = Vec::new();
    for f in &findings {
        if !codes.contains(&f.code) {
            codes.push(f.code.clone());
        }
    }
    let mut head = format!(
        "line {number}: <span class=\"verdict\">{verdict}</span> <code>{}</code>",
        escape(&text)
    );
    if let Some(fen) = fen.as_ref().filter(|f| f.as_str() != text.trim()) {
        head.push_str(&format!(" → <code>{}</code>", escape(fen)));
    }
    let mut body = html::diagnostics(&findings, &text);
    body.push_str(&boards(input, shape, &findings, fen.as_deref(), repaired));
    let entry = Entry {
        kind: "fen".into(),
        verdict: Some(verdict.into()),
        codes,
        head,
        body,
    };
    (entry, a.valid || repaired)
}

/// The board as given (findings marked) and, when `after` draws differently, the repaired or
/// normalized board with the changes marked on both.
pub(crate) fn boards(
    input: &[u8],
    shape: Shape,
    findings: &[Finding],
    after: Option<&str>,
    repaired: bool,
) -> String {
    let Some(before) = Board::from_bytes(input, shape) else {
        return String::new();
    };
    let mut marks = Marks::default();
    for f in findings {
        marks.finding(&before, f, 0);
    }
    let mut s = String::from("<div class=\"boards\">");
    let after = after
        .and_then(|fen| Board::from_fen(fen, shape))
        .filter(|b| !before.changed_squares(b).is_empty() || !before.changed_fields(b).is_empty());
    match after {
        Some(after) => {
            let mut changed = Marks::default();
            changed.changes(&before, &after);
            marks.merge(&changed);
            s.push_str(&html::figure(&before, &marks, "as given"));
            let title = if repaired { "repaired" } else { "normalized" };
            s.push_str(&html::figure(&after, &changed, title));
        }
        None => s.push_str(&html::figure(&before, &marks, "as given")),
    }
    s.push_str("</div>");
    s
}
