//! The writer thread's batches and gap accounting, on real files: a batch written whole, a
//! write the system refuses (`/dev/full`: `ENOSPC`, reached through a symlink the writer
//! reopens, as a rotation by another process), records dropped at the queue, and a writer stuck
//! in a write (a FIFO nobody reads) with the relay going on.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::sync_channel;

use serde_json::Value;
use time::OffsetDateTime;

use super::{Msg, Writer};
use crate::logview::Expander;
use crate::poslog::gap::Run;
use crate::poslog::{PositionLog, RotatingFile, Rotation, record_bytes};
use crate::session::{Event, Moves, PositionRecord, Record, Verdict};

/// A test's directory, removed when the test passes.
struct TestDir(PathBuf);

impl Drop for TestDir {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

fn dir(name: &str) -> TestDir {
    let dir = std::env::temp_dir().join(format!("fenguard-writer-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    TestDir(dir)
}

/// `position startpos moves ...` with the first `plies` moves of a knight shuffle: each record
/// extends the one before.
fn position(seq: u64, plies: usize) -> Record {
    let list: Vec<&str> = ["g1f3", "g8f6", "f3g1", "f6g8"]
        .iter()
        .cycle()
        .take(plies)
        .copied()
        .collect();
    let list = list.join(" ");
    Record {
        seq,
        event: Event::Position(Box::new(PositionRecord {
            raw: format!("position startpos moves {list}"),
            verdict: Verdict::Valid,
            diagnostics: Vec::new(),
            fen_in: Some("startpos".into()),
            fen_out: Some("startpos".into()),
            moves_in: Moves(list.clone()),
            moves_out: Moves(list.clone()),
            chess960: false,
            final_fen: Some("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".into()),
            sent: Some(format!("position startpos moves {list}")),
            variant: None,
        })),
    }
}

fn msg(seq: u64, label: Option<&str>, budget: &AtomicUsize) -> Msg {
    let record = position(seq, seq as usize);
    let label = label.map(str::to_owned);
    let bytes = record_bytes(&record, label.as_ref());
    budget.fetch_add(bytes, Ordering::Relaxed);
    Msg::Record(record, OffsetDateTime::now_utc(), label, bytes)
}

fn writer(path: &Path) -> Writer {
    let rotation = Rotation {
        max_bytes: 1 << 20,
        keep: 2,
    };
    let (done, _) = sync_channel(16);
    Writer::new(
        RotatingFile::open(path, rotation).unwrap(),
        "s".into(),
        done,
    )
}

fn lines(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Every line of `path` rebuilt in full, as `fenguard log` does.
fn rebuilt(path: &Path) -> Vec<Value> {
    let mut expander = Expander::default();
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .map(|l| expander.expand_line(l).unwrap())
        .collect()
}

#[test]
fn a_batch_is_written_whole_compacted_and_its_bytes_leave_the_budget() {
    let dir = dir("batch");
    let path = dir.0.join("p.jsonl");
    let mut w = writer(&path);
    let budget = AtomicUsize::new(0);
    let msgs: Vec<Msg> = (1..=5).map(|seq| msg(seq, None, &budget)).collect();
    w.batch(msgs.into_iter(), &budget);
    let written = lines(&path);
    let seqs: Vec<u64> = written.iter().map(|r| r["seq"].as_u64().unwrap()).collect();
    assert_eq!(seqs, [1, 2, 3, 4, 5]);
    assert!(written[0].get("extends").is_none());
    assert!(written[1..].iter().all(|r| r.get("extends").is_some()));
    assert_eq!(budget.load(Ordering::Relaxed), 0);
    assert_eq!(w.file.committed(), std::fs::metadata(&path).unwrap().len());
}

#[test]
fn a_refused_write_loses_its_records_and_the_next_write_starts_with_their_gap_record() {
    let dir = dir("refused");
    let path = dir.0.join("p.jsonl");
    let mut w = writer(&path);
    let budget = AtomicUsize::new(0);
    w.batch((1..=3).map(|seq| msg(seq, None, &budget)), &budget);
    // The disk fills: the path now names /dev/full (every write: ENOSPC).
    std::fs::rename(&path, dir.0.join("before.jsonl")).unwrap();
    std::os::unix::fs::symlink("/dev/full", &path).unwrap();
    w.batch((4..=6).map(|seq| msg(seq, None, &budget)), &budget);
    w.batch((7..=8).map(|seq| msg(seq, None, &budget)), &budget);
    assert_eq!(
        w.gaps.runs(),
        [Run {
            label: None,
            lost: 5,
            first_seq: 4,
            last_seq: 8
        }]
    );
    // Room again: the next batch writes the gap, then its records, the first in full.
    std::fs::remove_file(&path).unwrap();
    w.batch((9..=10).map(|seq| msg(seq, None, &budget)), &budget);
    let written = lines(&path);
    assert_eq!(written[0]["kind"], "gap");
    assert_eq!(written[0]["session"], "s");
    assert_eq!(
        (
            &written[0]["lost"],
            &written[0]["first_seq"],
            &written[0]["last_seq"]
        ),
        (&Value::from(5), &Value::from(4), &Value::from(8))
    );
    assert_eq!(written[1]["seq"], 9);
    assert!(written[1].get("extends").is_none(), "{}", written[1]);
    assert_eq!(written[2]["extends"], 9);
    assert_eq!(rebuilt(&path).len(), 3);
    assert_eq!(lines(&dir.0.join("before.jsonl")).len(), 3);
    assert!(w.gaps.is_empty());
    assert_eq!(budget.load(Ordering::Relaxed), 0);
}

#[test]
fn records_dropped_at_the_queue_get_a_gap_record_before_the_next_record() {
    let dir = dir("dropped");
    let path = dir.0.join("p.jsonl");
    let mut w = writer(&path);
    let budget = AtomicUsize::new(0);
    let run = Run {
        label: None,
        lost: 3,
        first_seq: 3,
        last_seq: 5,
    };
    let msgs = vec![
        msg(1, None, &budget),
        msg(2, None, &budget),
        Msg::Lost(run),
        msg(6, None, &budget),
    ];
    w.batch(msgs.into_iter(), &budget);
    let written = lines(&path);
    let kinds: Vec<&str> = written
        .iter()
        .map(|r| r["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["position", "position", "gap", "position"]);
    assert_eq!(written[2]["lost"], 3);
    assert_eq!(written[2]["first_seq"], 3);
    assert_eq!(written[2]["last_seq"], 5);
    assert!(written[3].get("extends").is_none());
    // A batch that ends with lost records writes their gap at its end.
    w.batch(std::iter::once(Msg::Lost(Run::one(None, 7))), &budget);
    let last = lines(&path).pop().unwrap();
    assert_eq!((&last["kind"], &last["lost"]), (&"gap".into(), &1.into()));
}

#[test]
fn each_session_label_gets_its_own_gap_record() {
    let dir = dir("labels");
    let path = dir.0.join("p.jsonl");
    let mut w = writer(&path);
    let budget = AtomicUsize::new(0);
    std::os::unix::fs::symlink("/dev/full", dir.0.join("full")).unwrap();
    std::fs::rename(dir.0.join("full"), &path).unwrap();
    let msgs = vec![
        msg(1, Some("job1"), &budget),
        msg(2, Some("job1"), &budget),
        msg(3, None, &budget),
        msg(4, Some("job2"), &budget),
    ];
    w.batch(msgs.into_iter(), &budget);
    std::fs::remove_file(&path).unwrap();
    w.batch(std::iter::once(msg(5, Some("job2"), &budget)), &budget);
    let gaps: Vec<(String, u64, u64, u64)> = lines(&path)
        .iter()
        .filter(|r| r["kind"] == "gap")
        .map(|r| {
            let n = |k: &str| r[k].as_u64().unwrap();
            let s = r["session"].as_str().unwrap().to_owned();
            (s, n("lost"), n("first_seq"), n("last_seq"))
        })
        .collect();
    assert_eq!(
        gaps,
        [
            ("job1".to_owned(), 2, 1, 2),
            ("s".to_owned(), 1, 3, 3),
            ("job2".to_owned(), 1, 4, 4),
        ]
    );
}

/// A writer stuck in a write (a FIFO whose reader does not read yet): the relay's records go
/// on into the queue up to its budget, the rest are dropped and counted; once the reader reads,
/// every record is either in the file or in a gap record, each seq once.
#[test]
fn a_stuck_writer_costs_at_most_the_budget_and_says_what_it_dropped() {
    let dir = dir("stuck");
    let fifo = dir.0.join("p.jsonl");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::File::open(fifo).unwrap())
    };
    let mut log = PositionLog::open(&fifo, "s".into())
        .unwrap()
        .with_queue_bytes(200_000);
    let mut pipe = reader.join().unwrap();
    const RECORDS: u64 = 3000;
    for seq in 1..=RECORDS {
        log.write(position(seq, 40));
    }
    let drain = std::thread::spawn(move || {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut pipe, &mut text).unwrap();
        text
    });
    drop(log);
    let text = drain.join().unwrap();
    let mut seen = vec![0u32; RECORDS as usize + 1];
    let mut gaps = 0;
    for line in text.lines() {
        let r: Value = serde_json::from_str(line).unwrap();
        if r["kind"] == "gap" {
            gaps += 1;
            let (first, last) = (
                r["first_seq"].as_u64().unwrap(),
                r["last_seq"].as_u64().unwrap(),
            );
            assert_eq!(r["lost"].as_u64().unwrap(), last - first + 1, "{line}");
            for seq in first..=last {
                seen[seq as usize] += 1;
            }
        } else {
            seen[r["seq"].as_u64().unwrap() as usize] += 1;
        }
    }
    assert!(gaps >= 1, "nothing was dropped: the writer was not stuck");
    assert!(seen[1..].iter().all(|&n| n == 1), "a seq missing or twice");
}

/// The queue counts what a record holds: a `position` record of a short game, about a
/// kilobyte (its slot, its box, its seven strings), so 16 MiB hold some 13,000 of them.
#[test]
fn a_queued_position_record_counts_about_its_memory() {
    let bytes = record_bytes(&position(1, 11), None);
    assert!((900..1500).contains(&bytes), "{bytes}");
    assert_eq!(
        record_bytes(&position(1, 11), Some(&"job-1".to_owned())),
        bytes + 5 + 32
    );
}
