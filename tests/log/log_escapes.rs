//! `fenguard log` and `fenguard log --follow` print a log's text with its control characters
//! escaped (issue 30): a GUI's `setoption` name, its `position` line (a move, the FEN's last
//! field, which the board block shows), an engine's bestmove, a diagnostic written by another
//! hand; with `--color always`, fenguard's own colours still there.

use std::io::{Read as _, Write as _};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::json;

use crate::common::controls::{HOSTILE, assert_no_raw_controls};

/// A log whose GUI and engine text carries [`HOSTILE`], its last record naming `end-of-log`.
fn hostile_log() -> String {
    let raw = format!("position fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1{HOSTILE} moves e1e2{HOSTILE}");
    let records = [
        json!({"ts": "2026-12-03T10:00:00.000001Z", "session": format!("s{HOSTILE}"), "seq": 1,
               "kind": "option", "name": format!("Hash{HOSTILE}"), "value": HOSTILE}),
        json!({"ts": "2026-12-03T10:00:00.000002Z", "session": "s", "seq": 2, "kind": "position",
               "raw": raw, "verdict": "rejected",
               "diagnostics": [{"code": "illegal-move", "severity": "error",
                                "message": format!("move 1 `e1e2{HOSTILE}` is illegal"),
                                "span": [44, 48], "fix": HOSTILE}],
               "fen_in": format!("4k3/8/8/8/8/8/8/4K3 w - - 0 1{HOSTILE}"), "fen_out": null,
               "moves_in": [format!("e1e2{HOSTILE}")], "moves_out": [], "chess960": false,
               "final_fen": null, "sent": null}),
        json!({"ts": "2026-12-03T10:00:00.000003Z", "session": "s", "seq": 3, "kind": "search",
               "position_seq": 2, "go": format!("go{HOSTILE}"), "bestmove": format!("e1e2{HOSTILE}"),
               "ponder": null, "elapsed_ms": 1, "diagnostics": []}),
        json!({"ts": "2026-12-03T10:00:00.000004Z", "session": "s", "seq": 4, "kind": "command",
               "raw": format!("go{HOSTILE} end-of-log")}),
    ];
    records.iter().map(|r| format!("{r}\n")).collect()
}

fn log(args: &[&str], file: &std::path::Path) -> Vec<u8> {
    let o = Command::new(env!("CARGO_BIN_EXE_fenguard"))
        .arg("log")
        .args(args)
        .arg(file)
        .output()
        .expect("fenguard log");
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    o.stdout
}

#[test]
fn log_escapes_the_text_of_a_gui_and_an_engine_but_keeps_its_own_colours() {
    let dir = crate::common::test_dir("log_escapes");
    let file = dir.join("positions.jsonl");
    std::fs::write(&file, hostile_log()).expect("write the log");
    for args in [
        &["--color", "never"][..],
        &["--color", "always", "--board", "always"][..],
        &["--format", "human", "--unicode", "--color", "always"][..],
    ] {
        let out = log(args, &file);
        let text = assert_no_raw_controls(&out, &format!("fenguard log {args:?}"));
        assert!(
            text.contains("name: Hash\\u{1b}]52;c;ZWNobyBwd25lZA==\\u{7}\\u{1b}[2J"),
            "{text}"
        );
        assert!(text.contains("bestmove: e1e2\\u{1b}]52;c;"), "{text}");
        assert!(text.contains("\\u{9b}\\u{1b}[31m"), "{text}");
        assert!(text.contains("end-of-log"), "{text}");
        if args.contains(&"always") {
            assert!(
                out.windows(4).any(|w| w == b"\x1b[0m"),
                "our colours are kept"
            );
        }
    }
}

#[test]
fn follow_escapes_each_record_as_it_is_written() {
    let dir = crate::common::test_dir("log_escapes_follow");
    let file = dir.join("positions.jsonl");
    std::fs::write(&file, "").expect("an empty log");
    let mut child = Command::new(env!("CARGO_BIN_EXE_fenguard"))
        .args(["log", "--follow", "--board", "always", "--color", "always"])
        .arg(&file)
        .stdout(Stdio::piped())
        .spawn()
        .expect("fenguard log --follow");
    let mut stdout = child.stdout.take().expect("stdout");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while let Ok(n) = stdout.read(&mut buf) {
            if n == 0 || tx.send(buf[..n].to_vec()).is_err() {
                return;
            }
        }
    });
    let mut log = std::fs::OpenOptions::new()
        .append(true)
        .open(&file)
        .expect("open the log");
    log.write_all(hostile_log().as_bytes()).expect("append");
    let mut seen = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(60);
    while !String::from_utf8_lossy(&seen).contains("end-of-log") {
        match rx.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
            Ok(bytes) => seen.extend(bytes),
            Err(_) => break,
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    let text = assert_no_raw_controls(&seen, "fenguard log --follow");
    assert!(text.contains("end-of-log"), "{text}");
    assert!(text.contains("\\u{1b}]52;c;"), "{text}");
}
