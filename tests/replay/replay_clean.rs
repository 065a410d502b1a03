//! Sessions without a crash or hang, replayed: Stockfish at fixed `nodes` (one thread) gives
//! the logged bestmoves; the waits for `stop` / `ponderhit`; an illegal `bestmove` is found.

use std::path::Path;

use crate::common::{FAKE_ENGINE, records, require_stockfish, test_dir};
use crate::support::{holds, log_session, replay, stderr, stdout};

#[test]
fn a_clean_session_replays_with_the_logged_bestmoves_at_fixed_nodes() {
    let Some(stockfish) = require_stockfish() else {
        return;
    };
    let dir = test_dir("replay-clean");
    let log = log_session(
        &dir,
        "",
        &stockfish,
        &[],
        &[
            "setoption name Threads value 1",
            "setoption name Hash value 16",
            "ucinewgame",
            "position startpos",
            "go nodes 1000",
            "position startpos moves e2e4 e7e5",
            "go nodes 1000",
            "position startpos moves e2e4 e7e5 g1f3 b8c6",
            "go nodes 1000",
        ],
        true,
    );
    let logged: Vec<String> = records(&dir.join("logs"))
        .iter()
        .filter(|r| r["kind"] == "search")
        .map(|r| r["bestmove"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(logged.len(), 3);
    let out = replay(
        &[log.to_str().unwrap(), "--", stockfish.to_str().unwrap()],
        &[],
    );
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}{}", stderr(&out));
    let replayed: Vec<&str> = text
        .lines()
        .filter_map(|l| l.split("-> bestmove ").nth(1))
        .filter_map(|rest| rest.split(' ').next())
        .collect();
    assert_eq!(replayed, logged, "{text}");
    assert!(
        holds(&text, "no failure: 3 searches, 3 with the logged bestmove"),
        "{text}"
    );
}

#[test]
fn searches_ended_by_stop_and_ponderhit_are_awaited() {
    let dir = test_dir("replay-stop-ponderhit");
    let log = log_session(
        &dir,
        "",
        Path::new(FAKE_ENGINE),
        &[],
        &[
            "position startpos",
            "go infinite",
            "stop",
            "position startpos",
            "go ponder wtime 1000 btime 1000",
            "ponderhit",
            "go infinite",
        ],
        false,
    );
    let out = replay(&[log.to_str().unwrap(), "--", FAKE_ENGINE], &[]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}{}", stderr(&out));
    // The last `go infinite` is stopped by the replay at the end.
    assert!(holds(&text, "no failure: 3 searches"), "{text}");
}

#[test]
fn an_illegal_bestmove_is_reported() {
    let dir = test_dir("replay-illegal");
    let env = [("FAKE_ENGINE_BESTMOVE", "e2e5")];
    let log = log_session(
        &dir,
        "",
        Path::new(FAKE_ENGINE),
        &env,
        &["position startpos", "go movetime 10"],
        true,
    );
    let out = replay(&[log.to_str().unwrap(), "--", FAKE_ENGINE], &env);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}{}", stderr(&out));
    assert!(
        holds(
            &text,
            "illegal bestmove at seq 3 (`go movetime 10`): `bestmove e2e5`"
        ),
        "{text}"
    );
    let out = replay(&[log.to_str().unwrap(), "--", FAKE_ENGINE], &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
}
