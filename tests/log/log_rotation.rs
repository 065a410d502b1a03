//! Size-based rotation (`log.max_bytes`, `log.keep`): under a soak of many records every file
//! stays within the cap plus one record, the keep count holds, and every file rebuilds on its
//! own (its first position record is full); through the proxy both `positions.jsonl` and
//! `fenguard.log` rotate.

use crate::common;

use std::path::Path;

use common::{Gui, test_dir};
use fenguard::logview::Expander;
use fenguard::poslog::{Compactor, RotatingFile, Rotation, rotated_path, write_record};
use fenguard::session::{Event, Moves, PositionRecord, Record, Verdict};

fn position(seq: u64, plies: usize) -> Record {
    let moves: Vec<&str> = ["g1f3", "g8f6", "f3g1", "f6g8"]
        .iter()
        .cycle()
        .take(plies)
        .copied()
        .collect();
    let list = moves.join(" ");
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

/// Rebuilds every line of `path` with a fresh expander; returns the lines.
fn rebuild_alone(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut expander = Expander::default();
    for (n, line) in text.lines().enumerate() {
        expander
            .expand_line(line)
            .unwrap_or_else(|e| panic!("{}:{}: {e}", path.display(), n + 1));
    }
    text.lines().map(str::to_owned).collect()
}

#[test]
fn soak_holds_the_cap_plus_one_record_and_the_keep_count_and_files_rebuild_alone() {
    let dir = test_dir("log-rotation-soak");
    let path = dir.join("positions.jsonl");
    let rotation = Rotation {
        max_bytes: 8192,
        keep: 3,
    };
    let mut file = RotatingFile::open(&path, rotation).unwrap();
    let mut compactor = Compactor::default();
    let now = time::OffsetDateTime::now_utc();
    let mut longest = 0;
    // 40 games of 120 plies: 4,800 records, a few hundred KB uncompacted per game.
    let mut seq = 0;
    for _game in 0..40 {
        for ply in 0..120 {
            seq += 1;
            let record = position(seq, ply);
            let full = fenguard::poslog::render("soak", &record, now).len();
            longest = longest.max(full);
            write_record(&mut file, &mut compactor, "soak", &record, now).unwrap();
        }
    }
    drop(file);
    let cap = rotation.max_bytes as usize + longest;
    for n in 0..=rotation.keep {
        let p = if n == 0 {
            path.clone()
        } else {
            rotated_path(&path, n)
        };
        let size = std::fs::metadata(&p).unwrap().len() as usize;
        assert!(size <= cap, "{} is {size} bytes > {cap}", p.display());
        let lines = rebuild_alone(&p);
        assert!(!lines.is_empty());
        assert!(!lines[0].contains("\"extends\""), "{}", lines[0]);
    }
    assert!(!rotated_path(&path, rotation.keep + 1).exists());
}

#[test]
fn the_proxy_rotates_positions_jsonl_and_fenguard_log_by_the_config() {
    let toml = "[log]\nmax_bytes = 4096\nkeep = 2\ntranscript = true\n";
    let mut gui = Gui::fake_ready("log-rotation-proxy", toml);
    let moves = ["g1f3", "g8f6", "f3g1", "f6g8"];
    let mut line = "position startpos moves".to_owned();
    for i in 0..200 {
        line.push(' ');
        line.push_str(moves[i % 4]);
        gui.send(&line);
    }
    gui.sync();
    gui.send("quit");
    gui.proxy.wait_exit();
    let logs = gui.proxy.log_dir.clone();
    for name in ["positions.jsonl", "fenguard.log"] {
        let path = logs.join(name);
        assert!(rotated_path(&path, 1).exists(), "{name} did not rotate");
        assert!(rotated_path(&path, 2).exists(), "{name}: keep = 2");
        assert!(!rotated_path(&path, 3).exists(), "{name}: keep = 2");
        for p in [path.clone(), rotated_path(&path, 1), rotated_path(&path, 2)] {
            let size = std::fs::metadata(&p).unwrap().len();
            // The cap plus one line: a position line of the transcript is under 2 KB here.
            assert!(size <= 4096 + 2048, "{} is {size} bytes", p.display());
        }
    }
    let path = logs.join("positions.jsonl");
    for p in [path.clone(), rotated_path(&path, 1), rotated_path(&path, 2)] {
        rebuild_alone(&p);
    }
}

/// Every file of `path`'s rotation chain that exists, newest last; panics on a gap in the
/// numbering (a rotated file lost to a rename over it).
fn chain(path: &Path, keep: u32) -> Vec<std::path::PathBuf> {
    let mut files: Vec<_> = (1..=keep).map(|n| rotated_path(path, n)).collect();
    let present = files.iter().take_while(|p| p.exists()).count();
    for p in &files[present..] {
        assert!(
            !p.exists(),
            "gap in the rotation chain before {}",
            p.display()
        );
    }
    files.truncate(present);
    files.reverse();
    files.push(path.to_path_buf());
    files
}

#[test]
fn writers_sharing_a_directory_lose_no_line_when_they_rotate_at_once() {
    // Each thread has its own `RotatingFile` on the same path, as fenguard processes sharing a
    // log directory do (a GUI's engine match): they rotate at about the same moments.
    let dir = test_dir("log-rotation-shared");
    let path = dir.join("positions.jsonl");
    let rotation = Rotation {
        max_bytes: 2048,
        keep: 1000,
    };
    let (writers, lines) = (4, 1500);
    let threads: Vec<_> = (0..writers)
        .map(|w| {
            let path = path.clone();
            std::thread::spawn(move || {
                use std::io::Write as _;
                let mut file = RotatingFile::open(&path, rotation).unwrap();
                for n in 0..lines {
                    let line = format!(
                        "{{\"writer\":{w},\"n\":{n},\"pad\":\"{}\"}}\n",
                        "x".repeat(60)
                    );
                    file.prepare(line.len() as u64).unwrap();
                    file.write_all(line.as_bytes()).unwrap();
                    if n % 4 == 3 {
                        file.flush().unwrap();
                    }
                }
                file.flush().unwrap();
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    let mut seen = vec![vec![false; lines]; writers];
    for p in chain(&path, rotation.keep) {
        for line in std::fs::read_to_string(&p).unwrap().lines() {
            let v: serde_json::Value = serde_json::from_str(line)
                .unwrap_or_else(|e| panic!("{}: {e}: {line}", p.display()));
            let (w, n) = (v["writer"].as_u64().unwrap(), v["n"].as_u64().unwrap());
            assert!(!seen[w as usize][n as usize], "line {w}/{n} twice");
            seen[w as usize][n as usize] = true;
        }
    }
    let lost: Vec<(usize, usize)> = (0..writers)
        .flat_map(|w| (0..lines).map(move |n| (w, n)))
        .filter(|&(w, n)| !seen[w][n])
        .collect();
    assert!(
        lost.is_empty(),
        "{} lines lost, first {:?}",
        lost.len(),
        &lost[..lost.len().min(5)]
    );
}
