//! The records `fenguard replay` reads: every GUI line that matters for the engine, logged by
//! the proxy in the order read (`option`, `command`, `position`), read back in full by
//! `fenguard log`; fenguard's own options stay out of a bare replay.

use std::path::Path;
use std::process::Command;

use crate::common::{FAKE_ENGINE, FENGUARD, records, test_dir};
use crate::support::{holds, log_session, replay, stderr, stdout};

#[test]
fn the_log_holds_what_the_gui_sent_in_order() {
    let dir = test_dir("replay-records");
    // A move the fake engine may play after 1. e4.
    let env = [("FAKE_ENGINE_BESTMOVE", "e7e5")];
    let log = log_session(
        &dir,
        "",
        Path::new(FAKE_ENGINE),
        &env,
        &[
            "setoption name Hash value 32",
            "setoption name fenguard OnBadPosition value reject",
            "ucinewgame",
            "position  startpos moves e2e4",
            "go infinite",
            "stop",
            "go ponder movetime 100",
            "ponderhit",
        ],
        false,
    );
    let sent: Vec<String> = records(&dir.join("logs"))
        .iter()
        .filter(|r| ["option", "command", "position"].contains(&r["kind"].as_str().unwrap()))
        .map(|r| {
            format!(
                "{} {}",
                r["kind"].as_str().unwrap(),
                r["raw"].as_str().unwrap()
            )
        })
        .collect();
    assert_eq!(
        sent,
        [
            "option setoption name Hash value 32",
            "option setoption name fenguard OnBadPosition value reject",
            "command ucinewgame",
            "position position  startpos moves e2e4",
            "command go infinite",
            "command stop",
            "command go ponder movetime 100",
            "command ponderhit",
        ]
    );
    let full = Command::new(FENGUARD)
        .args(["log", "--format", "json", log.to_str().unwrap()])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&full.stdout);
    assert!(
        text.contains(r#""kind":"command","raw":"go infinite"}"#),
        "{text}"
    );
    let out = replay(&[log.to_str().unwrap(), "--", FAKE_ENGINE], &env);
    let report = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{report}{}", stderr(&out));
    assert!(
        holds(
            &report,
            "is fenguard's own option: not sent to the bare engine"
        ),
        "{report}"
    );
    assert!(
        !holds(&report, "  seq 3  setoption name fenguard"),
        "{report}"
    );
}

#[test]
fn a_bad_log_line_before_the_last_is_named_with_exit_status_2() {
    let dir = test_dir("replay-bad-line");
    let log = dir.join("positions.jsonl");
    let record = "{\"ts\":\"2026-12-02T07:00:00.000000Z\",\"session\":\"s\",\"seq\":1,\"kind\":\"command\",\"raw\":\"ucinewgame\"}";
    std::fs::write(&log, format!("{record}\nnot json\n{record}\n")).unwrap();
    let out = replay(&[log.to_str().unwrap(), "--", FAKE_ENGINE], &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        holds(&stderr(&out), "positions.jsonl: line 2: not a JSON object"),
        "{}",
        stderr(&out)
    );
    assert_eq!(stdout(&out), "");
}

#[test]
fn a_torn_last_line_is_left_out_with_a_warning_and_the_session_replayed() {
    let dir = test_dir("replay-torn");
    let env = [("FAKE_ENGINE_BESTMOVE", "e7e5")];
    let log = log_session(
        &dir,
        "",
        Path::new(FAKE_ENGINE),
        &env,
        &["ucinewgame", "position startpos moves e2e4", "go depth 1"],
        true,
    );
    // The write of one more record, cut short by a kill: half a line, no newline.
    let text = std::fs::read_to_string(&log).unwrap();
    let whole = text.lines().count();
    let last = text.lines().last().unwrap();
    let torn = format!("{text}{}", &last[..last.len() / 2]);
    std::fs::write(&log, torn).unwrap();
    let out = replay(&[log.to_str().unwrap(), "--", FAKE_ENGINE], &env);
    let (report, err) = (stdout(&out), stderr(&out));
    assert_eq!(out.status.code(), Some(0), "{report}{err}");
    assert!(
        holds(
            &err,
            &format!(
                "warning: {}: line {}, the last, is not a whole record (a torn write?): left out",
                log.display(),
                whole + 1
            )
        ),
        "{err}"
    );
    assert!(
        holds(&report, "go depth 1  -> bestmove e7e5 (as logged)"),
        "{report}"
    );
    assert!(
        holds(
            &report,
            "no failure: 1 searches, 1 with the logged bestmove"
        ),
        "{report}"
    );
}

#[test]
fn the_first_session_is_replayed_unless_one_is_named() {
    let dir = test_dir("replay-two-sessions");
    let engine = Path::new(FAKE_ENGINE);
    log_session(
        &dir,
        "",
        engine,
        &[],
        &["position startpos", "go depth 1"],
        true,
    );
    let log = log_session(
        &dir,
        "",
        engine,
        &[],
        &["position startpos", "go depth 2"],
        true,
    );
    let sessions: Vec<String> = records(&dir.join("logs"))
        .iter()
        .map(|r| r["session"].as_str().unwrap().to_owned())
        .fold(Vec::new(), |mut seen, s| {
            if !seen.contains(&s) {
                seen.push(s);
            }
            seen
        });
    assert_eq!(sessions.len(), 2, "{sessions:?}");
    let out = replay(&[log.to_str().unwrap(), "--", FAKE_ENGINE], &[]);
    let text = stdout(&out);
    assert!(
        holds(&text, &format!("replay: session {},", sessions[0])),
        "{text}"
    );
    assert!(holds(&text, "the log holds 2 sessions"), "{text}");
    assert!(
        holds(&text, "go depth 1") && !holds(&text, "go depth 2"),
        "{text}"
    );
    let out = replay(
        &[
            log.to_str().unwrap(),
            "--session",
            &sessions[1],
            "--",
            FAKE_ENGINE,
        ],
        &[],
    );
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}{}", stderr(&out));
    assert!(
        holds(&text, "go depth 2") && !holds(&text, "go depth 1"),
        "{text}"
    );
}
