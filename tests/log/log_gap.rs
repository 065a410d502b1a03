//! The positions log never drops a record silently (SPEC section 8, issue 30): a 10,000-line
//! script piped through the proxy as fast as it reads finds every `position` record in the
//! log, and a log made unwritable after start (its path turned into a symlink to `/dev/full`,
//! which the writer reopens as it would a file another process rotated; every write then fails
//! with `ENOSPC`, a full disk) gets a `gap` record with the exact count and seq range once it
//! can be written again, a warning in `fenguard.log`, and `fenguard log` and `fenguard replay`
//! naming the gap.

use crate::common;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{FAKE_ENGINE, FENGUARD, Gui, test_dir};
use serde_json::Value;

/// The moves of a short game, cycled through: the script resends it growing, as GUIs do.
const GAME: [&str; 12] = [
    "e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6", "e1g1", "f8e7", "f1e1", "b7b5",
];
const FEN: &str = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";

/// The `n`th `position` line of the script: twelve lines of `position startpos moves` with
/// the first 1..=12 moves of [`GAME`], then twelve of `position fen` of the position after its
/// first move with the next 1..=11 moves (the last one twice), and so on.
fn script_line(n: usize) -> String {
    let plies = n % GAME.len() + 1;
    if (n / GAME.len()).is_multiple_of(2) {
        format!("position startpos moves {}", GAME[..plies].join(" "))
    } else {
        let plies = plies.min(GAME.len() - 1);
        format!("position fen {FEN} moves {}", GAME[1..=plies].join(" "))
    }
}

/// Every record of the positions log in `dir`, rotated files first, each file rebuilt on its
/// own (as `fenguard log` reads each).
fn all_records(dir: &Path) -> Vec<Value> {
    let mut files: Vec<_> = (1..=40)
        .rev()
        .map(|n| dir.join(format!("positions.jsonl.{n}")))
        .filter(|p| p.exists())
        .collect();
    files.push(dir.join("positions.jsonl"));
    let mut records = Vec::new();
    for file in files {
        let mut expander = fenguard::logview::Expander::default();
        let text = std::fs::read_to_string(&file).unwrap();
        for line in text.lines() {
            records.push(
                expander
                    .expand_line(line)
                    .unwrap_or_else(|e| panic!("{}: {e}: {line}", file.display())),
            );
        }
    }
    records
}

/// 10,000 `position` lines (and an `isready` every 1,000) piped in at once, the log rotating
/// at 256 KiB: the relay reads them as fast as it can, and every one has its record, seqs
/// without a hole, each file rebuilt on its own. With the former queue of 4,096 records a
/// debug build kept 48,861 records of 100,000 (its writer lags far behind its relay), and a
/// release build 6,025-6,965 of 10,000. 10,000 of these records (1-1.5 KB each as the queue
/// counts them) fit its 16 MiB even if the writer wrote none until the end, so only a lost
/// write could fail this; the release build's 100,000-line run is in docs/benchmarks.md. A
/// debug build's writer kept up with 10,000 lines behind the former queue too: the test that
/// fails there without the unbounded queue is
/// `a_writer_held_up_by_its_disk_loses_no_record_that_fits_the_queue`.
#[test]
fn a_10k_line_script_piped_through_the_proxy_loses_no_record() {
    const LINES: usize = 10_000;
    let dir = test_dir("gap-10k");
    let logs = dir.join("logs");
    let mut script = String::from("uci\nisready\n");
    for n in 0..LINES {
        script.push_str(&script_line(n));
        script.push('\n');
        if n % 1000 == 999 {
            script.push_str("isready\n");
        }
    }
    script.push_str("isready\nquit\n");
    let script_path = dir.join("script.uci");
    std::fs::write(&script_path, script).unwrap();
    // Rotation at 256 KiB: batches across some fifteen files, each readable on its own.
    let config = common::write_config(&dir, "[log]\nmax_bytes = 262144\nkeep = 40\n");
    let mut child = Command::new(FENGUARD)
        .arg("--log-dir")
        .arg(&logs)
        .arg("--config")
        .arg(&config)
        .args(["--", FAKE_ENGINE])
        .env_remove("RUST_LOG")
        .env_remove("FENGUARD_CONFIG")
        .stdin(std::fs::File::open(&script_path).unwrap())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start fenguard");
    // A debug build on a loaded machine: generous, and an exit is the event waited for.
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > Duration::from_secs(600) {
            let _ = child.kill();
            panic!("fenguard did not finish the script");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(status.success(), "{status}");
    assert!(
        logs.join("positions.jsonl.8").exists(),
        "rotated fewer than 8 times"
    );
    let records = all_records(&logs);
    assert!(
        records.iter().all(|r| r["kind"] != "gap"),
        "a gap record: {:?}",
        records.iter().find(|r| r["kind"] == "gap")
    );
    let positions: Vec<&Value> = records.iter().filter(|r| r["kind"] == "position").collect();
    assert_eq!(positions.len(), LINES);
    let seqs: Vec<u64> = positions
        .iter()
        .map(|r| r["seq"].as_u64().unwrap())
        .collect();
    let holes: Vec<(u64, u64)> = seqs
        .windows(2)
        .filter(|w| w[1] != w[0] + 1)
        .map(|w| (w[0], w[1]))
        .collect();
    assert!(holes.is_empty(), "seq holes: {holes:?}");
    for (n, record) in positions.iter().enumerate().step_by(997) {
        assert_eq!(record["raw"], script_line(n).as_str());
        assert_eq!(record["verdict"], "valid", "{record}");
    }
}

/// Sends `count` position lines of the script from line `from` on, then `isready`, and waits
/// for `readyok`: the session has judged them all and queued their records.
fn send_positions(gui: &mut Gui, from: usize, count: usize) {
    for n in from..from + count {
        gui.send(&script_line(n));
    }
    gui.sync();
}

#[cfg(target_os = "linux")]
#[test]
fn a_log_made_unwritable_after_start_gets_a_gap_record_with_the_count_and_seq_range() {
    let mut gui = Gui::fake(
        "gap-full",
        "",
        &[("RUST_LOG", "info,fenguard::poslog=debug")],
    );
    gui.handshake();
    let logs = gui.proxy.log_dir.clone();
    let path = logs.join("positions.jsonl");
    send_positions(&mut gui, 0, 20);
    let written = common::wait_until(|| {
        let records = common::records(&logs);
        (records.iter().filter(|r| r["kind"] == "position").count() == 20).then_some(records)
    })
    .expect("the first 20 records");
    let last_seq = written.last().unwrap()["seq"].as_u64().unwrap();
    // The disk fills: the path now names /dev/full; the writer reopens it at its next batch.
    std::fs::rename(&path, logs.join("before.jsonl")).unwrap();
    std::os::unix::fs::symlink("/dev/full", &path).unwrap();
    const LOST: u64 = 300;
    send_positions(&mut gui, 20, LOST as usize);
    let (first, last) = (last_seq + 1, last_seq + LOST);
    let so_far = format!("{LOST} records lost so far (seq {first}-{last})");
    gui.proxy.wait_log("fenguard.log", &so_far);
    let log = gui.proxy.log("fenguard.log");
    assert_eq!(
        log.matches("records are lost until it can write again")
            .count(),
        1
    );
    // Room again: the writer opens the path afresh at its next batch.
    std::fs::remove_file(&path).unwrap();
    gui.send(&script_line(12));
    gui.sync();
    let records = common::wait_until(|| {
        let records = common::records(&logs);
        (records.len() >= 2).then_some(records)
    })
    .expect("records after the gap");
    let gap = &records[0];
    assert_eq!(gap["kind"], "gap", "{gap}");
    assert_eq!(gap["lost"], LOST);
    assert_eq!(gap["first_seq"], first);
    assert_eq!(gap["last_seq"], last);
    assert_eq!(gap["session"], written[0]["session"]);
    assert_eq!(records[1]["seq"], last + 1);
    let text = std::fs::read_to_string(&path).unwrap();
    let next: Value = serde_json::from_str(text.lines().nth(1).unwrap()).unwrap();
    assert!(
        next.get("extends").is_none(),
        "after a gap, in full: {next}"
    );
    let range = format!("{LOST} records lost (seq {first}-{last})");
    gui.proxy
        .wait_log("fenguard.log", &format!("{range} of session"));
    gui.send("quit");
    gui.proxy.close();
    gui.proxy.wait_exit();

    let log = Command::new(FENGUARD)
        .arg("log")
        .arg(&path)
        .output()
        .unwrap();
    let shown = String::from_utf8_lossy(&log.stdout);
    assert!(shown.contains(&format!("-- {range} --")), "{shown}");
    let json = Command::new(FENGUARD)
        .args(["log", "--format", "json", "--kind", "gap"])
        .arg(&path)
        .output()
        .unwrap();
    let passed: Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(&passed, gap);
    let replay = Command::new(FENGUARD)
        .arg("replay")
        .arg(&path)
        .args(["--", FAKE_ENGINE])
        .output()
        .unwrap();
    let warned = String::from_utf8_lossy(&replay.stderr);
    assert!(
        warned.contains("has a gap") && warned.contains(&range),
        "{warned}"
    );
}

/// `fenguard log` filters keep the gap in sight: `--seq` of a lost record, `--verdict`.
#[test]
fn log_filters_show_a_gap_a_lost_record_may_have_matched() {
    let dir = test_dir("gap-filters");
    let path = dir.join("positions.jsonl");
    let lines = [
        r#"{"ts":"2026-12-03T14:00:00.000000Z","session":"s","seq":1,"kind":"command","raw":"ucinewgame"}"#,
        r#"{"ts":"2026-12-03T14:00:01.000000Z","session":"s","kind":"gap","lost":3,"first_seq":2,"last_seq":4}"#,
        r#"{"ts":"2026-12-03T14:00:02.000000Z","session":"t","kind":"gap","lost":1,"first_seq":9,"last_seq":9}"#,
    ];
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    let run = |args: &[&str]| {
        let out = Command::new(FENGUARD)
            .arg("log")
            .args(args)
            .arg(&path)
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    let by_seq = run(&["--seq", "3"]);
    assert!(
        by_seq.contains("-- 3 records lost (seq 2-4) --"),
        "{by_seq}"
    );
    assert!(
        !by_seq.contains("ucinewgame") && !by_seq.contains("seq 9"),
        "{by_seq}"
    );
    let by_verdict = run(&["--verdict", "rejected", "--session", "t"]);
    assert!(
        by_verdict.contains("-- 1 record lost (seq 9) --"),
        "{by_verdict}"
    );
    assert_eq!(by_verdict.lines().count(), 1, "{by_verdict}");
}

/// A full disk can take part of a line: the writer ends it before the gap record, and both
/// `fenguard log` and `fenguard replay` leave the torn line out with a warning, not an error.
#[test]
fn a_line_torn_where_a_gap_starts_is_left_out_with_a_warning() {
    let dir = test_dir("gap-torn");
    let path = dir.join("positions.jsonl");
    let lines = [
        r#"{"ts":"2026-12-03T14:00:00.000000Z","session":"s","seq":1,"kind":"command","raw":"ucinewgame"}"#,
        r#"{"ts":"2026-12-03T14:00:00.100000Z","session":"s","seq":2,"kind":"posi"#,
        r#"{"ts":"2026-12-03T14:00:01.000000Z","session":"s","kind":"gap","lost":2,"first_seq":2,"last_seq":3}"#,
        r#"{"ts":"2026-12-03T14:00:02.000000Z","session":"s","seq":4,"kind":"command","raw":"ucinewgame"}"#,
    ];
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    let log = Command::new(FENGUARD)
        .arg("log")
        .arg(&path)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&log.stderr);
    assert_eq!(log.status.code(), Some(0), "{err}");
    assert!(
        err.contains("warning: positions.jsonl:2: not a whole record"),
        "{err}"
    );
    assert!(String::from_utf8_lossy(&log.stdout).contains("-- 2 records lost (seq 2-3) --"));
    let replay = Command::new(FENGUARD)
        .arg("replay")
        .arg(&path)
        .args(["--", FAKE_ENGINE])
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&replay.stdout);
    let err = String::from_utf8_lossy(&replay.stderr);
    assert_eq!(replay.status.code(), Some(0), "{out}{err}");
    assert!(out.contains("line 2 is not a whole record"), "{out}");
    assert!(err.contains("has a gap: 2 records lost (seq 2-3)"), "{err}");
}

/// A writer held up by its disk (the log a FIFO that the test reads only once the relay has
/// judged every line: the writer blocks in its first writes, as on a stalled disk) loses
/// nothing while its backlog fits the queue: 10,000 records, all written once the disk moves
/// again. The former queue of 4,096 records dropped all but about 4,200 of them.
#[cfg(target_os = "linux")]
#[test]
fn a_writer_held_up_by_its_disk_loses_no_record_that_fits_the_queue() {
    const LINES: usize = 10_000;
    let dir = test_dir("gap-stalled");
    let logs = dir.join("logs");
    std::fs::create_dir_all(&logs).unwrap();
    let fifo = logs.join("positions.jsonl");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let (go, wait) = std::sync::mpsc::channel::<()>();
    let reader = std::thread::spawn(move || {
        let mut pipe = std::fs::File::open(&fifo).unwrap();
        wait.recv().unwrap();
        let mut text = String::new();
        std::io::Read::read_to_string(&mut pipe, &mut text).unwrap();
        text
    });
    let record = dir.join("engine-input");
    let mut proxy = common::Proxy::with_log_dir(
        logs,
        &["--", FAKE_ENGINE],
        &[("FAKE_ENGINE_RECORD", record.to_str().unwrap())],
    );
    let mut script = String::from("uci\n");
    for n in 0..LINES {
        script.push_str(&script_line(n));
        script.push('\n');
    }
    script.push_str("isready\n");
    proxy.send(script.as_bytes());
    proxy.wait_stdout_within(Duration::from_secs(120), |out| {
        common::contains(out, b"readyok\n")
    });
    // Every line judged, every record queued: now the disk moves again.
    go.send(()).unwrap();
    proxy.send(b"quit\n");
    proxy.close();
    assert!(proxy.wait_exit().success());
    let text = reader.join().unwrap();
    let records: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(
        records.iter().all(|r| r["kind"] != "gap"),
        "{:?}",
        records.iter().find(|r| r["kind"] == "gap")
    );
    let seqs: Vec<u64> = records
        .iter()
        .filter(|r| r["kind"] == "position")
        .map(|r| r["seq"].as_u64().unwrap())
        .collect();
    assert_eq!(seqs.len(), LINES);
    assert!(seqs.windows(2).all(|w| w[1] == w[0] + 1));
}
