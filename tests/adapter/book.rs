//! `[book] file`, `depth`, `variation` (SPEC section 15): a PolyGlot book built in the test
//! with python-chess from a few games (two castle), read back by `chess.polyglot`, answered by
//! fenguard on `go` (the engine does not search); off book, past `depth`, in Chess960: the
//! engine.

use std::path::{Path, PathBuf};
use std::process::Command;

use fenguard::book::{Book, polyglot};
use fenguard::config::Variation;
use shakmaty::{CastlingMode, Chess, fen::Fen};

use crate::common::{Gui, starting_with, test_dir};

struct Line {
    moves: Vec<String>,
    fen: String,
    key: u64,
    book: Vec<String>,
    best: String,
}

/// The book written into `dir` and python-chess's reading of it; `None` (a counted skip)
/// without python-chess outside CI.
fn build(dir: &Path) -> Option<(PathBuf, Vec<Line>)> {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/adapter/make_book.py");
    let bin = dir.join("book.bin");
    let out = Command::new("python3").arg(script).arg(&bin).output();
    let out = match out {
        Ok(out) if out.status.success() => out,
        other => {
            assert_ne!(
                std::env::var("CI").as_deref(),
                Ok("true"),
                "python-chess missing: {other:?}"
            );
            crate::common::skipped("python-chess");
            return None;
        }
    };
    let lines = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            let strings = |k: &str| -> Vec<String> {
                v[k].as_array()
                    .unwrap()
                    .iter()
                    .map(|m| m.as_str().unwrap().to_owned())
                    .collect()
            };
            Line {
                moves: strings("moves"),
                fen: v["fen"].as_str().unwrap().to_owned(),
                key: u64::from_str_radix(v["key"].as_str().unwrap(), 16).unwrap(),
                book: strings("book"),
                best: v["best"].as_str().unwrap().to_owned(),
            }
        })
        .collect();
    Some((bin, lines))
}

fn uci(m: &shakmaty::Move) -> String {
    m.to_uci(CastlingMode::Standard).to_string()
}

/// fenguard's reader agrees with python-chess's on every key and every move.
#[test]
fn python_chess_agrees_on_every_key_and_move() {
    let dir = test_dir("book_agree");
    let Some((bin, lines)) = build(&dir) else {
        return;
    };
    let book = Book::from_bytes(&std::fs::read(bin).unwrap()).unwrap();
    assert!(
        lines.iter().any(|l| l.book.contains(&"e1g1".to_owned())),
        "a castling entry"
    );
    for line in &lines {
        let pos: Chess = line
            .fen
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        assert_eq!(polyglot::key(&pos), line.key, "{}", line.fen);
        let moves: Vec<String> = book.moves(&pos).iter().map(|(m, _)| uci(m)).collect();
        assert_eq!(moves, line.book, "{}", line.fen);
        let best = book.pick(&pos, Variation::Best, |_| 0).unwrap();
        assert_eq!(uci(&best), line.best, "{}", line.fen);
    }
}

fn config(bin: &Path, depth: u32) -> String {
    format!("[book]\nfile = \"{}\"\ndepth = {depth}\n", bin.display())
}

/// Every book position is answered with python-chess's move, and the engine never searches.
#[test]
fn book_positions_are_answered_by_fenguard() {
    let dir = test_dir("book_answers");
    let Some((bin, lines)) = build(&dir) else {
        return;
    };
    let mut gui = Gui::fake_ready("book_answers_gui", &config(&bin, 16));
    for line in &lines {
        let position = match line.moves.is_empty() {
            true => "position startpos".to_owned(),
            false => format!("position startpos moves {}", line.moves.join(" ")),
        };
        gui.send(&position);
        let got = gui.go("go wtime 1000 btime 1000");
        assert_eq!(
            got.last().unwrap(),
            &format!("bestmove {}", line.best),
            "{position}"
        );
    }
    gui.sync();
    assert!(
        starting_with(&gui.engine_lines(), "go").is_empty(),
        "{}",
        gui.engine_input()
    );
    let record = gui.wait_record(|r| r["kind"] == "search");
    assert_eq!(record["bestmove"], lines[0].best, "{record}");
}

/// Off book, past `depth`, in Chess960 and for `go infinite`: the engine searches.
#[test]
fn off_book_past_depth_chess960_and_analysis_go_to_the_engine() {
    let dir = test_dir("book_off");
    let Some((bin, lines)) = build(&dir) else {
        return;
    };
    let deep = lines
        .iter()
        .find(|l| l.moves.len() >= 2)
        .expect("a line of 2 plies");
    let mut gui = Gui::fake_ready("book_off_gui", &config(&bin, 2));
    gui.send("position startpos moves a2a3");
    gui.go("go wtime 1000 btime 1000");
    gui.send(&format!("position startpos moves {}", deep.moves.join(" ")));
    gui.go("go wtime 1000 btime 1000");
    gui.send("position startpos");
    gui.send("go infinite");
    gui.sync();
    gui.send("stop");
    gui.read_until_prefix("bestmove");
    gui.send("setoption name UCI_Chess960 value true");
    gui.send("position startpos");
    gui.go("go wtime 1000 btime 1000");
    gui.sync();
    assert_eq!(
        starting_with(&gui.engine_lines(), "go").len(),
        4,
        "{}",
        gui.engine_input()
    );
    // And in standard chess the start position is still in the book.
    gui.send("setoption name UCI_Chess960 value false");
    gui.send("position startpos");
    let got = gui.go("go wtime 1000 btime 1000");
    assert_eq!(got.last().unwrap(), &format!("bestmove {}", lines[0].best));
}

/// A book that is not a PolyGlot file stops fenguard at start with a message naming it.
#[test]
fn a_truncated_book_is_a_config_error() {
    let dir = test_dir("book_bad");
    let bin = dir.join("bad.bin");
    std::fs::write(&bin, [0u8; 20]).unwrap();
    let mut gui = Gui::fake("book_bad_gui", &config(&bin, 16), &[]);
    let status = gui.proxy.wait_exit();
    assert_eq!(status.code(), Some(2));
    assert!(
        gui.proxy.stderr().contains("bad.bin"),
        "{}",
        gui.proxy.stderr()
    );
}
