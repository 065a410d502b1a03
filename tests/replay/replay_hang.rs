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
