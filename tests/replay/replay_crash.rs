//! A session in which Stockfish 15.1 crashes (a king-less position forwarded under
//! `on_invalid = "forward"`), replayed: the same crash at the same line, a minimal script that
//! still crashes the bare engine, and under `--guarded` the verdict fenguard gives it now.

use std::os::unix::process::ExitStatusExt as _;
use std::path::PathBuf;

use crate::common::{records, require_stockfish, test_dir};
use crate::support::{holds, log_session, pipe_into, replay, stderr, stdout};

const KINGLESS: &str = "position fen 8/8/8/8/8/8/8/8 w - - 0 1";

/// Stockfish and the log of a session that crashes it, with the `seq` of the king-less
/// position; `None` when Stockfish is missing (outside CI).
fn crash_log(name: &str) -> Option<(PathBuf, PathBuf, u64)> {
    crash_log_with(name, KINGLESS)
}

/// [`crash_log`] with `kingless` as the line that crashes it.
fn crash_log_with(name: &str, kingless: &str) -> Option<(PathBuf, PathBuf, u64)> {
    session_log(name, FORWARD, kingless)
}

/// `on_invalid = "forward"`: the king-less position reaches the engine.
const FORWARD: &str = "[positions]\non_invalid = \"forward\"\n";

/// Stockfish and the log of a session under the config `toml` that sends `kingless`, with
/// that line's `seq`.
fn session_log(name: &str, toml: &str, kingless: &str) -> Option<(PathBuf, PathBuf, u64)> {
    let stockfish = require_stockfish()?;
    let dir = test_dir(name);
    let log = log_session(
        &dir,
        toml,
        &stockfish,
        &[],
        &[
            "setoption name Threads value 1",
            "ucinewgame",
            "position startpos moves e2e4",
            "go nodes 1000",
            "position startpos moves e2e4 e7e5",
            "go nodes 1000",
            kingless,
            "go depth 5",
        ],
        true,
    );
    let logged = records(log.parent().unwrap());
    if toml == FORWARD {
        let exit = logged
            .iter()
            .find(|r| r["kind"] == "engine-exit" && r["reason"] == "unexpected")
            .expect("the logged session's engine crashed");
        assert_eq!(exit["signal"], 11, "{exit}");
    }
    let seq = logged
        .iter()
        .find(|r| r["raw"] == kingless)
        .and_then(|r| r["seq"].as_u64())
        .expect("the king-less position's record");
    Some((stockfish, log, seq))
}

#[test]
fn a_logged_crash_replays_to_the_same_crash() {
    let Some((stockfish, log, seq)) = crash_log("replay-crash") else {
        return;
    };
    let out = replay(
        &[log.to_str().unwrap(), "--", stockfish.to_str().unwrap()],
        &[],
    );
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}{}", stderr(&out));
    // Stockfish 15.1 dies reading the position (before the `go`): the `isready` after it gets
    // no `readyok`.
    let want = format!("crash at seq {seq} (`{KINGLESS}`): killed by signal 11 (SIGSEGV)");
    assert!(holds(&text, &want), "{text}");
    assert!(holds(&text, "go nodes 1000  -> bestmove"), "{text}");
}

/// The moves after the king-less FEN do not matter to the crash: ddmin over moves drops them.
#[test]
fn minimize_leaves_a_short_script_that_crashes_the_bare_engine() {
    let with_moves = format!("{KINGLESS} moves e2e4 e7e5 g1f3");
    let Some((stockfish, log, _)) = crash_log_with("replay-crash-minimize", &with_moves) else {
        return;
    };
    let out = replay(
        &[
            "--minimize",
            log.to_str().unwrap(),
            "--",
            stockfish.to_str().unwrap(),
        ],
        &[],
    );
    let script = stdout(&out);
    let report = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{script}{report}");
    let lines: Vec<&str> = script.lines().collect();
    assert!(lines.len() <= 5, "{script}");
    assert_eq!(lines.first(), Some(&"uci"), "{script}");
    assert!(lines.contains(&KINGLESS), "{script}");
    assert!(holds(&report, "the script fails the same way"), "{report}");
    let status = pipe_into(&stockfish, &script);
    assert_eq!(status.signal(), Some(11), "{status:?} on {script}");
}

#[test]
fn guarded_replay_reports_the_verdict_fenguard_gives_now() {
    let Some((stockfish, log, seq)) = crash_log("replay-crash-guarded") else {
        return;
    };
    let out = replay(
        &[
            "--guarded",
            log.to_str().unwrap(),
            "--",
            stockfish.to_str().unwrap(),
        ],
        &[],
    );
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}{}", stderr(&out));
    let want = format!(
        "different verdict at seq {seq} (`{KINGLESS}`): logged forwarded-invalid, now rejected"
    );
    assert!(holds(&text, &want), "{text}");
    assert!(!holds(&text, "crash at"), "{text}");
    assert!(holds(&text, "go depth 5  -> bestmove 0000"), "{text}");
    // Under the logged config, fenguard forwards it again and its log shows the crash.
    let config = log
        .parent()
        .unwrap()
        .parent()
        .unwrap()
        .join("fenguard.toml");
    let out = replay(
        &[
            "--guarded",
            "--config",
            config.to_str().unwrap(),
            log.to_str().unwrap(),
            "--",
            stockfish.to_str().unwrap(),
        ],
        &[],
    );
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}{}", stderr(&out));
    let want = format!("crash at seq {seq} (`{KINGLESS}`): killed by signal 11 (SIGSEGV)");
    assert!(holds(&text, &want), "{text}");
    assert!(!holds(&text, "different verdict"), "{text}");
}

/// fenguard rejected the position in the logged session: the bare engine crashes on what the
/// GUI sent, the guarded one does not.
#[test]
fn a_rejected_position_crashes_the_bare_engine_only() {
    let Some((stockfish, log, seq)) = session_log("replay-rejected", "", KINGLESS) else {
        return;
    };
    let engine = stockfish.to_str().unwrap();
    let out = replay(&[log.to_str().unwrap(), "--", engine], &[]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}{}", stderr(&out));
    assert!(holds(&text, &format!("crash at seq {seq} ")), "{text}");
    let out = replay(&["--guarded", log.to_str().unwrap(), "--", engine], &[]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}{}", stderr(&out));
    assert!(
        holds(&text, "no failure: 3 searches, 3 with the logged bestmove"),
        "{text}"
    );
}

#[test]
fn until_stops_before_the_crash() {
    let Some((stockfish, log, seq)) = crash_log("replay-crash-until") else {
        return;
    };
    let until = (seq - 1).to_string();
    let out = replay(
        &[
            log.to_str().unwrap(),
            "--until",
            &until,
            "--",
            stockfish.to_str().unwrap(),
        ],
        &[],
    );
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}{}", stderr(&out));
    assert!(
        holds(&text, "no failure: 2 searches, 2 with the logged bestmove"),
        "{text}"
    );
}
