//! A session whose engine never answers `go` (the fake engine's `FAKE_ENGINE_IGNORE=go`),
//! replayed: reported as a hang at that `go`, and shrunk to it by `--minimize`.

use std::path::{Path, PathBuf};

use crate::common::{FAKE_ENGINE, test_dir};
use crate::support::{holds, log_session, replay, stderr, stdout};

fn hang_log(name: &str) -> PathBuf {
    let dir = test_dir(name);
    log_session(
        &dir,
        "",
        Path::new(FAKE_ENGINE),
        &[("FAKE_ENGINE_IGNORE", "go")],
        &[
            "setoption name Hash value 32",
            "ucinewgame",
            "position startpos",
            "go movetime 50",
        ],
        false,
    )
}

#[test]
fn a_hang_is_reported_as_a_hang() {
    let log = hang_log("replay-hang");
    // Long enough for every answer of the fake engine on a loaded machine.
    let args = [
        log.to_str().unwrap(),
        "--hang-ms",
        "3000",
        "--",
        FAKE_ENGINE,
    ];
    let out = replay(&args, &[("FAKE_ENGINE_IGNORE", "go")]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}{}", stderr(&out));
    assert!(
        holds(&text, "(`go movetime 50`): no bestmove within 3000 ms"),
        "{text}"
    );
    assert!(holds(&text, "hang at seq "), "{text}");
    // The same lines to an engine that answers: nothing fails.
    let out = replay(&args, &[]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}{}", stderr(&out));
    assert!(holds(&text, "no failure: 1 searches"), "{text}");
}

#[test]
fn minimize_keeps_the_hang() {
    let log = hang_log("replay-hang-minimize");
    let out = replay(
        &[
            "--minimize",
            log.to_str().unwrap(),
            "--hang-ms",
            "3000",
            "--",
            FAKE_ENGINE,
        ],
        &[("FAKE_ENGINE_IGNORE", "go")],
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "uci\nisready\ngo movetime 50\n",
        "{}",
        stderr(&out)
    );
}

/// A `go infinite` that fenguard answered because its engine crashed (`fenguard_answer:
/// engine-gone`; the GUI never sent `stop`), then the game went on: replayed against an engine
/// that does not crash, that search is stopped, so the next `go` is not a hang that never was
/// (Stockfish waits for a running search before it starts the next).
#[test]
fn a_go_infinite_lost_with_its_engine_is_stopped_not_reported_as_a_hang() {
    let Some(stockfish) = crate::common::require_stockfish() else {
        return;
    };
    let dir = test_dir("replay-lost-infinite");
    let log = log_session(
        &dir,
        "",
        Path::new(FAKE_ENGINE),
        &[],
        &[
            "position startpos",
            "go infinite",
            "crash",
            "position startpos moves e2e4",
            "go depth 3",
        ],
        true,
    );
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(
        text.contains(r#""fenguard_answer":"engine-gone""#),
        "{text}"
    );
    let args = [
        log.to_str().unwrap(),
        "--hang-ms",
        "3000",
        "--",
        stockfish.to_str().unwrap(),
    ];
    let out = replay(&args, &[]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}{}", stderr(&out));
    assert!(!holds(&text, "hang at seq "), "{text}");
}
