//! Group 4, hostile input: each malformed class ([`super::cases::hostile_classes`]) sent to the
//! bare engine one line at a time, after a valid marker position; crashes (the engine is
//! restarted), hangs and silent nonsense reported with the one line that does it.

use std::time::Duration;

use super::cases::{HostileCase, MARKER, hostile_classes};
use super::driver::Ctx;
use super::judge::{Observed, bestmove_of, hostile_verdict, is_complaint};
use super::report::{CheckResult, Status};
use crate::rules::Rules;
use crate::uci::{Notation, command_word};

const G: &str = "hostile";

/// Runs the group.
pub fn run(ctx: &mut Ctx, skips: &super::controls::Skips) -> Vec<CheckResult> {
    ctx.fresh(&[]);
    let marker = super::cases::position_of(&Rules::Chess, &format!("position fen {MARKER}"), false)
        .expect("the marker is valid");
    let mut out = Vec::new();
    for class in hostile_classes(ctx.limits.quick) {
        if skips.matches(&format!("{G}.{}", class.name)) {
            out.push(CheckResult::new(G, class.name, Status::Skip, "skipped"));
            continue;
        }
        ctx.step(&format!("{G}.{}", class.name));
        let mut worst = (
            Status::Pass,
            String::new(),
            Vec::new(),
            case_class(&class.cases),
        );
        let mut passes = Vec::new();
        for case in &class.cases {
            let observed = observe(ctx, case);
            let (status, detail) =
                hostile_verdict(&case.expect, &observed, &marker, Notation::Standard);
            let shown = shown(&case.line);
            let transcript = ctx.engine.take_transcript();
            if matches!(observed, Observed::Crashed(_) | Observed::Hung(_)) {
                ctx.fresh(&[]);
            }
            if status == Status::Pass {
                passes.push(format!("`{shown}`: {detail}"));
            } else if status > worst.0 || worst.0 == Status::Pass {
                worst = (
                    status,
                    format!("`{shown}`: {detail}"),
                    transcript,
                    case.class,
                );
            }
        }
        let r = if worst.0 == Status::Pass {
            CheckResult::new(G, class.name, Status::Pass, passes.join("; "))
        } else {
            CheckResult::new(G, class.name, worst.0, worst.1)
                .with_transcript(worst.2)
                .with_class(worst.3)
        };
        out.push(r);
    }
    out
}

/// The class of a class's passing result: its first line's.
fn case_class(cases: &[HostileCase]) -> super::report::Class {
    cases
        .first()
        .map_or(super::report::Class::Policy, |c| c.class)
}

/// The line for a detail: escaped, long lines cut.
fn shown(line: &[u8]) -> String {
    let text = String::from_utf8_lossy(line);
    let text = text.escape_debug().to_string();
    if text.len() > 90 {
        let mut end = 80;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        format!("{}… ({} bytes)", &text[..end], line.len())
    } else {
        text
    }
}

/// Sends the marker, the case's line, `go depth 1` (position lines) and `isready`; reads what
/// the engine does.
fn observe(ctx: &mut Ctx, case: &HostileCase) -> Observed {
    let hang = ctx.limits.hang;
    ctx.engine.send(format!("position fen {MARKER}").as_bytes());
    ctx.engine.send(&case.line);
    if case.search {
        ctx.engine.send(b"go depth 1");
    }
    ctx.engine.send(b"isready");
    let mut complaint = None;
    let mut bestmove = None;
    let mut readyok = false;
    let deadline = std::time::Instant::now() + hang;
    while !readyok || (case.search && bestmove.is_none()) {
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        if left.is_zero() {
            break;
        }
        let r = ctx.engine.read_until(left, |l| {
            matches!(command_word(l), b"readyok" | b"bestmove")
        });
        for l in &r.lines {
            let text = l.text();
            if complaint.is_none() && is_complaint(&text) {
                complaint = Some(text.clone());
            }
        }
        if let Some(l) = r.last() {
            if command_word(&l.line) == b"readyok" {
                readyok = true;
            } else {
                bestmove = bestmove_of(&l.line).map(|(b, _)| b);
            }
        }
        if r.eof {
            return Observed::Crashed(ctx.exit_text());
        }
        if !r.matched {
            break;
        }
    }
    if !readyok || (case.search && bestmove.is_none()) {
        // A hung search: `stop`, and a crash that came late still counts as one.
        ctx.engine.send(b"stop");
        let r = ctx
            .engine
            .read_until_word(Duration::from_millis(500), "bestmove");
        if r.eof {
            return Observed::Crashed(ctx.exit_text());
        }
        return Observed::Hung(hang.as_secs());
    }
    Observed::Answered {
        bestmove,
        complaint,
    }
}
