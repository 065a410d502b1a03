//! The search group's checks over every line it read: `pv` legality, `info` in UCI's grammar
//! and in lichess's broker's, an `info ... score` line before each `bestmove`.

use super::engine::Received;
use super::judge::{broker_refusal, info_problems, pv_error};
use super::report::{CheckResult, Status};
use crate::rules::Game;
use crate::uci::{Notation, command_word};

const G: &str = "search";

/// Every `info` line and `bestmove` of the group, with the position it was searched from.
#[derive(Default)]
pub struct Seen {
    /// Each line read, with its search's root.
    pub lines: Vec<(Received, Game)>,
    /// The searches with no `info ... score` line before their `bestmove`.
    pub no_info: Vec<String>,
}

/// `pv` legality, `info` grammar (UCI, then the broker's), `info` before `bestmove`.
pub fn info_checks(seen: &Seen) -> Vec<CheckResult> {
    let mut pv = Vec::new();
    let mut errors = Vec::new();
    let mut unknown = Vec::new();
    let mut broker = Vec::new();
    let mut infos = 0;
    for (l, root) in &seen.lines {
        let text = l.text();
        let word = command_word(&l.line);
        if word == b"info" {
            infos += 1;
            if let Some(e) = pv_error(&l.line, root, Notation::Standard) {
                pv.push((e, text.clone()));
            }
            for p in info_problems(&l.line) {
                if p.error {
                    errors.push((p.what, text.clone()))
                } else {
                    unknown.push((p.what, text.clone()))
                }
            }
        }
        if (word == b"info" || word == b"bestmove")
            && let Some(why) = broker_refusal(&l.line)
        {
            broker.push((why, text.clone()));
        }
    }
    let first = |v: &[(String, String)]| -> (String, Vec<String>) {
        let mut kinds: Vec<String> = Vec::new();
        let mut proof = Vec::new();
        for (what, line) in v {
            if !kinds.contains(what) && kinds.len() < 6 {
                kinds.push(what.clone());
                proof.push(format!("< {line}"));
            }
        }
        (kinds.join("; "), proof)
    };
    let mut out = Vec::new();
    out.push(if pv.is_empty() {
        CheckResult::new(
            G,
            "pv-legal",
            Status::Pass,
            format!("every pv of {infos} info lines legal from its root"),
        )
    } else {
        let (d, t) = first(&pv);
        CheckResult::new(
            G,
            "pv-legal",
            Status::Fail,
            format!("{} illegal pv lines: {d}", pv.len()),
        )
        .with_transcript(t)
    });
    out.push(if !errors.is_empty() {
        let (d, t) = first(&errors);
        CheckResult::new(G, "info-uci", Status::Fail, d).with_transcript(t)
    } else if !unknown.is_empty() {
        let (d, t) = first(&unknown);
        CheckResult::new(G, "info-uci", Status::Warn, d).with_transcript(t)
    } else {
        CheckResult::new(
            G,
            "info-uci",
            Status::Pass,
            format!("{infos} info lines in UCI grammar"),
        )
    });
    out.push(if broker.is_empty() {
        CheckResult::new(G, "info-broker", Status::Pass, "lichess's broker accepts every info and bestmove line")
    } else {
        let (d, t) = first(&broker);
        CheckResult::new(
            G,
            "info-broker",
            Status::Warn,
            format!("lichess's external-engine broker would end the analysis (400) at: {d} (fenguard provide rewrites these lines)"),
        )
        .with_transcript(t)
    });
    out.push(if seen.no_info.is_empty() {
        CheckResult::new(
            G,
            "info-before-bestmove",
            Status::Pass,
            "an info line with a score before every bestmove",
        )
    } else {
        // fastchess --compliance's own searches (clock `go`s) fail; elsewhere a warn.
        let fastchess = ["go-wtime-only", "go-btime-only", "go-clock"];
        let floor = seen.no_info.iter().any(|n| fastchess.contains(&n.as_str()));
        CheckResult::new(
            G,
            "info-before-bestmove",
            if floor { Status::Fail } else { Status::Warn },
            format!(
                "no info line with a score before bestmove in: {} (GUIs show no score, lc0#518{})",
                seen.no_info.join(", "),
                if floor {
                    "; fastchess --compliance fails it"
                } else {
                    ""
                }
            ),
        )
    });
    out
}
