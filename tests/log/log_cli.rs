//! `fenguard log` on real logs: every position record of a logged Chess960 game rebuilt with the
//! GUI's exact line and the line the engine read; its PGN read back by python-chess equals the
//! game; filters; `--follow` across rotation.

use crate::common;

use std::io::Read as _;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use common::{FENGUARD, Gui, test_dir};
use fenguard::fen::{Code, Diagnostic, Severity};
use fenguard::poslog::{Compactor, RotatingFile, Rotation, write_record};
use fenguard::session::{Event, Moves, PositionRecord, Record, Verdict};
use serde_json::Value;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Position, fen::Fen};

/// A Chess960 start position (X-FEN) whose castles come early: king b1/b8, rooks a and g.
const START: &str = "rkq1bnrn/pppppppp/8/8/8/8/PPPPPPPP/RKQ1BNRN w KQkq - 0 1";

/// A legal game of `plies` plies from [`START`] in king-takes-rook notation, castling whenever
/// it can.
fn game960(plies: usize) -> Vec<String> {
    let mut pos: Chess = Fen::from_ascii(START.as_bytes())
        .unwrap()
        .into_position(CastlingMode::Chess960)
        .unwrap();
    let mut moves = Vec::new();
    let mut seed = 12345u64;
    for _ in 0..plies {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let mv = legal
            .iter()
            .find(|m| m.is_castle())
            .copied()
            .unwrap_or(legal[(seed >> 33) as usize % legal.len()]);
        moves.push(UciMove::from_chess960(mv).to_string());
        pos.play_unchecked(mv);
    }
    moves
}

fn fenguard_log(args: &[&str]) -> (String, String, Option<i32>) {
    let out = Command::new(FENGUARD)
        .arg("log")
        .args(args)
        .output()
        .expect("run fenguard log");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code(),
    )
}

/// Plays the game through fenguard and the fake engine; gives the GUI lines and the log.
fn logged_game(name: &str, moves: &[String]) -> (Vec<String>, Gui) {
    let mut gui = Gui::fake_ready(name, "");
    gui.send("setoption name UCI_Chess960 value true");
    let mut lines = Vec::new();
    for n in 0..=moves.len() {
        let line = if n == 0 {
            format!("position fen {START}")
        } else {
            format!("position fen {START} moves {}", moves[..n].join(" "))
        };
        gui.send(&line);
        lines.push(line);
    }
    gui.sync();
    gui.send("quit");
    gui.proxy.wait_exit();
    (lines, gui)
}

#[test]
fn every_position_record_rebuilds_to_the_guis_line_and_the_line_the_engine_read() {
    let moves = game960(120);
    assert!(
        moves
            .iter()
            .take(12)
            .any(|m| m == "b1a1" || m == "b8a8" || m == "b1g1" || m == "b8g8")
    );
    let (lines, gui) = logged_game("log-cli-rebuild", &moves);
    let file = gui.proxy.log_dir.join("positions.jsonl");
    let raw = std::fs::read_to_string(&file).unwrap();
    let last = raw
        .lines()
        .rfind(|l| l.contains("\"kind\":\"position\""))
        .unwrap();
    assert!(last.contains("\"extends\":"), "{last}");
    assert!(last.len() <= 1024, "{} bytes: {last}", last.len());

    let (out, err, code) = fenguard_log(&[
        "--format",
        "json",
        "--kind",
        "position",
        file.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(0), "{err}");
    let records: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let raws: Vec<&str> = records.iter().map(|r| r["raw"].as_str().unwrap()).collect();
    assert_eq!(raws, lines);
    let sent: Vec<String> = records
        .iter()
        .map(|r| r["sent"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(sent, gui.positions_sent());
    let last = records.last().unwrap();
    let moves_in: Vec<&str> = last["moves_in"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert_eq!(moves_in, moves);
    assert!(
        records
            .iter()
            .all(|r| r.get("extends").is_none() && r["verdict"] == "valid")
    );
}

/// Whether python-chess can be imported; under CI its absence fails, elsewhere it is a
/// counted skip.
fn python_chess_present() -> bool {
    let present = Command::new("python3")
        .args(["-c", "import chess.pgn, chess.variant"])
        .status()
        .is_ok_and(|s| s.success());
    if !present {
        assert_ne!(
            std::env::var("CI").as_deref(),
            Ok("true"),
            "python-chess is missing under CI"
        );
        eprintln!("python-chess not installed: PGN read-back not checked");
        crate::common::skipped("python-chess");
    }
    present
}

/// Runs the python `script` with `args`, `pgn` on its stdin; its stdout once it succeeded.
fn read_back(script: &str, args: &[&str], pgn: &str) -> String {
    let mut child = Command::new("python3")
        .args(["-c", script])
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write as _;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(pgn.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "python-chess: {}\n{pgn}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

#[test]
fn pgn_of_a_logged_chess960_game_read_back_by_python_chess_equals_the_game() {
    if !python_chess_present() {
        return;
    }
    let moves = game960(90);
    let (_, gui) = logged_game("log-cli-pgn", &moves);
    let file = gui.proxy.log_dir.join("positions.jsonl");
    let (pgn, err, code) = fenguard_log(&["--pgn", file.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{err}");
    assert!(pgn.contains("[Variant \"Chess960\"]"), "{pgn}");
    assert!(pgn.contains("O-O"), "{pgn}");
    let records = gui.records();
    let final_fen = records
        .iter()
        .rev()
        .find(|r| r["kind"] == "position")
        .unwrap()["final_fen"]
        .as_str()
        .unwrap()
        .to_owned();
    let script = r#"
import io, sys, chess, chess.pgn
game = chess.pgn.read_game(io.StringIO(sys.stdin.read()))
assert not game.errors, game.errors
board = game.board()
assert board.chess960, "not a Chess960 board"
want = chess.Board(sys.argv[1], chess960=True)
assert board.fen() == want.fen(), (board.fen(), want.fen())
moves = []
for move in game.mainline_moves():
    moves.append(board.uci(move, chess960=True))
    board.push(move)
assert moves == sys.argv[2].split(), (moves, sys.argv[2])
assert board.fen() == sys.argv[3], (board.fen(), sys.argv[3])
print("ok", len(moves))
"#;
    let told = read_back(script, &[START, &moves.join(" "), &final_fen], &pgn);
    assert_eq!(told, format!("ok {}", moves.len()));
}

fn record(seq: u64, moves: &str, rejected: bool) -> Record {
    let raw = format!("position startpos moves {moves}");
    Record {
        seq,
        event: Event::Position(Box::new(PositionRecord {
            raw: raw.clone(),
            verdict: if rejected {
                Verdict::Rejected
            } else {
                Verdict::Valid
            },
            diagnostics: if rejected {
                vec![Diagnostic {
                    code: Code::IllegalMove,
                    severity: Severity::Error,
                    message: "move 3 `e2e5` is illegal".into(),
                    span: Some(34..38),
                    fix: None,
                }]
            } else {
                Vec::new()
            },
            fen_in: Some("startpos".into()),
            fen_out: (!rejected).then(|| "startpos".into()),
            moves_in: Moves(moves.into()),
            moves_out: Moves(if rejected {
                String::new()
            } else {
                moves.into()
            }),
            chess960: false,
            final_fen: (!rejected).then(|| "x".into()),
            sent: (!rejected).then_some(raw),
            variant: None,
        })),
    }
}

fn write_log(path: &Path, rotation: Rotation, session: &str, records: &[Record], pause: Duration) {
    let mut file = RotatingFile::open(path, rotation).unwrap();
    let mut compactor = Compactor::default();
    for r in records {
        write_record(
            &mut file,
            &mut compactor,
            session,
            r,
            time::OffsetDateTime::now_utc(),
        )
        .unwrap();
        std::thread::sleep(pause);
    }
}

#[test]
fn filters_by_session_verdict_and_code_show_the_guis_line() {
    let dir = test_dir("log-cli-filters");
    let file = dir.join("positions.jsonl");
    let a = [
        record(1, "e2e4", false),
        record(2, "e2e4 e7e5", false),
        record(3, "e2e4 e7e5 e2e5", true),
    ];
    write_log(&file, Rotation::NEVER, "A", &a, Duration::ZERO);
    write_log(
        &file,
        Rotation::NEVER,
        "B",
        &[record(1, "d2d4", false)],
        Duration::ZERO,
    );
    let f = file.to_str().unwrap();
    let (out, _, code) = fenguard_log(&["--verdict", "rejected", f]);
    assert_eq!(code, Some(0));
    assert!(
        out.starts_with("positions.jsonl:3  seq 3  position  rejected  "),
        "{out}"
    );
    assert!(
        out.contains("\n  gui:    position startpos moves e2e4 e7e5 e2e5\n  sent:   (nothing)\n"),
        "{out}"
    );
    assert!(
        out.contains("  error illegal-move: move 3 `e2e5` is illegal\n"),
        "{out}"
    );
    let (out, _, _) = fenguard_log(&["--code", "illegal-move", "--format", "json", f]);
    assert_eq!(out.lines().count(), 1, "{out}");
    let (out, _, _) = fenguard_log(&["--session", "B", "--format", "json", f]);
    let r: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(r["raw"], "position startpos moves d2d4");
    let (out, _, _) = fenguard_log(&["--session", "A", "--seq", "2", "--format", "json", f]);
    let r: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(r["moves_in"], serde_json::json!(["e2e4", "e7e5"]));
    assert_eq!(r["sent"], "position startpos moves e2e4 e7e5");
}

#[test]
fn follow_prints_records_as_they_are_written_across_rotations() {
    let dir = test_dir("log-cli-follow");
    let file = dir.join("positions.jsonl");
    let moves: Vec<&str> = ["g1f3", "g8f6", "f3g1", "f6g8"]
        .iter()
        .cycle()
        .take(40)
        .copied()
        .collect();
    let records: Vec<Record> = (1..=40)
        .map(|n| record(n as u64, &moves[..n].join(" "), false))
        .collect();
    let rotation = Rotation {
        max_bytes: 4096,
        keep: 5,
    };
    write_log(&file, rotation, "F", &records[..3], Duration::ZERO);
    let mut child = Command::new(FENGUARD)
        .args([
            "log",
            "--follow",
            "--format",
            "json",
            file.to_str().unwrap(),
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(300));
    write_log(
        &file,
        rotation,
        "F",
        &records[3..],
        Duration::from_millis(30),
    );
    assert!(
        fenguard::poslog::rotated_path(&file, 2).exists(),
        "did not rotate twice"
    );
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stdout.read_to_string(&mut text);
        text
    });
    // The follower polls every 100 ms: give it a few polls after the last write.
    std::thread::sleep(Duration::from_millis(800));
    let _ = child.kill();
    let _ = child.wait();
    let text = reader.join().unwrap();
    let mut err = String::new();
    let _ = child.stderr.take().unwrap().read_to_string(&mut err);
    assert_eq!(err, "");
    let seqs: Vec<u64> = text
        .lines()
        .map(|l| {
            serde_json::from_str::<Value>(l).unwrap()["seq"]
                .as_u64()
                .unwrap()
        })
        .collect();
    assert_eq!(seqs, (1..=40).collect::<Vec<u64>>(), "{text}");
    let last: Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    assert_eq!(
        last["raw"],
        format!("position startpos moves {}", moves.join(" "))
    );
}

/// `--follow` started before the file exists waits for it (`tail -F`), and several rotations
/// between two polls lose nothing: the files rotated in between are read too. Before, the
/// follower exited with "No such file or directory", and after two rotations within one poll
/// it skipped `FILE.1` (here records 4 to about 30 were lost).
#[test]
fn follow_waits_for_the_file_and_reads_every_file_rotated_between_polls() {
    let dir = test_dir("log-cli-follow-burst");
    let file = dir.join("positions.jsonl");
    let moves: Vec<&str> = ["g1f3", "g8f6", "f3g1", "f6g8"]
        .iter()
        .cycle()
        .take(40)
        .copied()
        .collect();
    let records: Vec<Record> = (1..=40)
        .map(|n| record(n as u64, &moves[..n].join(" "), false))
        .collect();
    let rotation = Rotation {
        max_bytes: 4096,
        keep: 5,
    };
    let mut child = Command::new(FENGUARD)
        .args([
            "log",
            "--follow",
            "--format",
            "json",
            file.to_str().unwrap(),
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(300));
    write_log(&file, rotation, "F", &records[..3], Duration::ZERO);
    std::thread::sleep(Duration::from_millis(400));
    // The rest at once: several rotations within one poll.
    write_log(&file, rotation, "F", &records[3..], Duration::ZERO);
    assert!(
        fenguard::poslog::rotated_path(&file, 2).exists(),
        "did not rotate twice"
    );
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stdout.read_to_string(&mut text);
        text
    });
    std::thread::sleep(Duration::from_millis(800));
    let _ = child.kill();
    let _ = child.wait();
    let text = reader.join().unwrap();
    let mut err = String::new();
    let _ = child.stderr.take().unwrap().read_to_string(&mut err);
    assert_eq!(err, "");
    let seqs: Vec<u64> = text
        .lines()
        .map(|l| {
            serde_json::from_str::<Value>(l).unwrap()["seq"]
                .as_u64()
                .unwrap()
        })
        .collect();
    assert_eq!(seqs, (1..=40).collect::<Vec<u64>>(), "{text}");
}

/// `--pgn` of a crazyhouse game (drops included) played through the proxy: a `Variant` tag and
/// the moves by crazyhouse rules, which python-chess reads back to the logged final position.
/// (It was read as chess: the drop came out as "not legal".) A giveaway or 10x8 game, which has
/// no PGN here, gets a comment saying so.
#[test]
fn pgn_of_a_crazyhouse_game_read_back_by_python_chess_equals_the_game() {
    if !python_chess_present() {
        return;
    }
    let moves = "e2e4 d7d5 e4d5 d8d5 b1c3 d5a5 P@e4 a5e5 g1f3 P@d4";
    let option =
        "option name UCI_Variant type combo default chess var chess var crazyhouse var capablanca";
    let mut gui = Gui::fake(
        "log-cli-pgn-zh",
        "",
        &[("FAKE_ENGINE_EXTRA_OPTION", option)],
    );
    gui.handshake();
    gui.send("setoption name UCI_Variant value crazyhouse");
    gui.send(&format!("position startpos moves {moves}"));
    gui.send("setoption name UCI_Variant value capablanca");
    gui.send("position startpos moves e2e4");
    gui.sync();
    gui.send("quit");
    gui.proxy.wait_exit();
    let file = gui.proxy.log_dir.join("positions.jsonl");
    let (pgn, err, code) = fenguard_log(&["--pgn", file.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{err}");
    assert!(pgn.contains("[Variant \"Crazyhouse\"]"), "{pgn}");
    assert!(pgn.contains("4. @e4"), "{pgn}"); // a pawn drop, as python-chess writes it
    assert!(
        pgn.contains("{fenguard: variant `capablanca` is not written as PGN}"),
        "{pgn}"
    );
    let final_fen = gui
        .records()
        .iter()
        .find(|r| r["kind"] == "position" && r["variant"] == "crazyhouse")
        .unwrap()["final_fen"]
        .as_str()
        .unwrap()
        .to_owned();
    let script = r#"
import io, sys, chess, chess.pgn
game = chess.pgn.read_game(io.StringIO(sys.stdin.read()))
assert not game.errors, game.errors
board = game.board()
assert board.uci_variant == "crazyhouse", board.uci_variant
moves = []
for move in game.mainline_moves():
    moves.append(board.uci(move))
    board.push(move)
assert moves == sys.argv[1].split(), (moves, sys.argv[1])
# Without the halfmove clock: python-chess 1.11.2 does not reset it at a pawn drop (README).
placement = lambda fen: fen.rsplit(" ", 2)[0]
assert placement(board.fen()) == placement(sys.argv[2]), (board.fen(), sys.argv[2])
print("ok", len(moves))
"#;
    let told = read_back(script, &[moves, &final_fen], &pgn);
    assert_eq!(told, format!("ok {}", moves.split(' ').count()));
}

/// A torn last line (a write cut short) is a warning and leaves the exit status 0, as `fenguard
/// replay` takes it; a bad line before the last is an error with its number (exit 1).
#[test]
fn a_torn_last_line_is_a_warning_and_a_bad_middle_line_an_error() {
    let dir = test_dir("log_torn");
    let whole = r#"{"ts":"2026-12-02T07:00:00.100000Z","session":"s","seq":1,"kind":"engine-start","command":"x","args":[],"pid":1,"restart":0}"#;
    let torn = dir.join("torn.jsonl");
    std::fs::write(&torn, format!("{whole}\n{}", &whole[..40])).unwrap();
    let (out, err, code) = fenguard_log(&[torn.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains("engine-start"), "{out}");
    assert!(
        err.contains("torn.jsonl:2: the last line is not a whole record"),
        "{err}"
    );
    let middle = dir.join("middle.jsonl");
    std::fs::write(&middle, format!("{}\n{whole}\n", &whole[..40])).unwrap();
    let (out, err, code) = fenguard_log(&[middle.to_str().unwrap()]);
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(err.contains("middle.jsonl:1: "), "{err}");
    assert!(!err.contains("warning"), "{err}");
    // A bad last line written whole (its line end is there) is no torn write: an error.
    let whole_bad = dir.join("whole_bad.jsonl");
    std::fs::write(&whole_bad, format!("{whole}\n{}\n", &whole[..40])).unwrap();
    let (out, err, code) = fenguard_log(&[whole_bad.to_str().unwrap()]);
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(!err.contains("warning"), "{err}");
}
