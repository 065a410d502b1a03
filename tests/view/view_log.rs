//! `fenguard log` boards: under a rejected move (the position before it, the move's squares
//! marked), a repaired FEN (the GUI's and the engine's boards side by side), and with
//! `--board always` under every position and search (the bestmove marked).

use std::process::Command;

use crate::snapshot;

/// A small log: a valid game position and its search, an illegal move, a repaired FEN, a
/// capablanca position and its search.
pub const LOG: &str = r#"{"ts":"2026-12-02T07:00:00.000001Z","session":"s1","seq":1,"kind":"engine-start","command":"/usr/games/stockfish","args":[],"pid":1,"restart":0}
{"ts":"2026-12-02T07:00:00.000002Z","session":"s1","seq":2,"kind":"position","raw":"position startpos moves e2e4 e7e5","verdict":"valid","diagnostics":[],"fen_in":"startpos","fen_out":"startpos","moves_in":["e2e4","e7e5"],"moves_out":["e2e4","e7e5"],"chess960":false,"final_fen":"rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2","sent":"position startpos moves e2e4 e7e5"}
{"ts":"2026-12-02T07:00:00.000003Z","session":"s1","seq":3,"kind":"search","position_seq":2,"go":"go nodes 1000","bestmove":"g1f3","ponder":null,"elapsed_ms":5,"diagnostics":[]}
{"ts":"2026-12-02T07:00:00.000004Z","session":"s1","seq":4,"kind":"position","raw":"position startpos moves e2e4 e7e5 e2e5","verdict":"rejected","diagnostics":[{"code":"illegal-move","severity":"error","message":"move 3 `e2e5` is illegal","span":[34,38],"fix":null}],"fen_in":"startpos","fen_out":null,"moves_in":["e2e4","e7e5","e2e5"],"moves_out":[],"chess960":false,"final_fen":null,"sent":null}
{"ts":"2026-12-02T07:00:00.000005Z","session":"s1","seq":5,"kind":"position","raw":"position fen 4k3/8/8/8/8/8/8/4K3 w K - 0 1","verdict":"repaired","diagnostics":[{"code":"castling-without-rook","severity":"error","message":"castling right for a white rook on h1, but it is empty","span":[35,36],"fix":"drop the castling right"}],"fen_in":"4k3/8/8/8/8/8/8/4K3 w K - 0 1","fen_out":"4k3/8/8/8/8/8/8/4K3 w - - 0 1","moves_in":[],"moves_out":[],"chess960":false,"final_fen":"4k3/8/8/8/8/8/8/4K3 w - - 0 1","sent":"position fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1"}
{"ts":"2026-12-02T07:00:00.000006Z","session":"s1","seq":6,"kind":"position","raw":"position startpos moves e2e4","verdict":"valid","diagnostics":[],"fen_in":"startpos","fen_out":"startpos","moves_in":["e2e4"],"moves_out":["e2e4"],"chess960":false,"final_fen":"rnabqkbcnr/pppppppppp/10/10/4P5/10/PPPP1PPPPP/RNABQKBCNR b KQkq - 0 1","sent":"position startpos moves e2e4","variant":"capablanca"}
{"ts":"2026-12-02T07:00:00.000007Z","session":"s1","seq":7,"kind":"search","position_seq":6,"go":"go nodes 1000","bestmove":"c8d6","ponder":null,"elapsed_ms":5,"diagnostics":[],"variant":"capablanca"}
{"ts":"2026-12-02T07:00:00.000008Z","session":"s1","seq":8,"kind":"option","name":"Hash","value":"16<b>"}
{"ts":"2026-12-02T07:00:00.000009Z","session":"s1","seq":9,"kind":"search","position_seq":2,"go":"go depth 1","bestmove":"e1e3","ponder":null,"elapsed_ms":1,"diagnostics":[{"code":"illegal-bestmove","severity":"error","message":"bestmove `e1e3` is illegal","span":[9,13],"fix":null}]}
"#;

/// Writes [`LOG`] to a fresh directory; returns the file.
pub fn log_file(name: &str) -> std::path::PathBuf {
    let dir = crate::common::test_dir(name);
    let path = dir.join("positions.jsonl");
    std::fs::write(&path, LOG).expect("write log");
    path
}

fn log(args: &[&str], file: &std::path::Path) -> String {
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
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn a_rejected_move_shows_the_position_before_it_with_its_squares() {
    let file = log_file("view_log_auto");
    let out = log(&["--color", "never"], &file);
    assert!(out.contains("GUI's position before move 3 (e2e5)"), "{out}");
    assert!(
        out.contains("   |                                   ^^^^\n"),
        "{out}"
    );
    assert!(out.contains("[e2 e5] illegal-move"), "{out}");
    assert!(out.contains("engine got (repaired)"), "{out}");
    snapshot("log_auto", &out);
}

#[test]
fn follow_draws_each_position_as_it_is_written() {
    use std::io::{BufRead, BufReader, Write};
    let file = log_file("view_log_follow");
    std::fs::write(&file, "").expect("empty log");
    let mut child = Command::new(env!("CARGO_BIN_EXE_fenguard"))
        .args(["log", "--follow", "--board", "always", "--color", "never"])
        .arg(&file)
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("fenguard log --follow");
    let stdout = child.stdout.take().expect("stdout");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                return;
            }
        }
    });
    // The GUI plays on: records are appended while fenguard log follows.
    let mut log = std::fs::OpenOptions::new()
        .append(true)
        .open(&file)
        .expect("open");
    for line in LOG.lines().take(3) {
        writeln!(log, "{line}").expect("append");
    }
    let mut seen = Vec::new();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while !seen
        .iter()
        .any(|l: &String| l.contains(" 1  R  N  B  Q  K  B (N) R"))
    {
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        match rx.recv_timeout(left) {
            Ok(line) => seen.push(line),
            Err(_) => break,
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    let text = seen.join("\n");
    assert!(text.contains("engine's position after 2 moves"), "{text}");
    assert!(
        text.contains(" 1  R  N  B  Q  K  B (N) R"),
        "the bestmove g1f3 marked:\n{text}"
    );
}

#[test]
fn board_always_draws_every_position_and_the_bestmove() {
    let file = log_file("view_log_always");
    let out = log(&["--board", "always", "--color", "never"], &file);
    // The search's bestmove g1f3 on the board of seq 2: its squares in parentheses.
    assert!(out.contains(" 1  R  N  B  Q  K  B (N) R"), "{out}");
    // The illegal bestmove e1e3 marked on the board of seq 2.
    assert!(out.contains("[e1 e3] illegal-bestmove"), "{out}");
    // The capablanca position is ten files wide.
    assert!(out.contains("   a  b  c  d  e  f  g  h  i  j"), "{out}");
    snapshot("log_always", &out);
    let colour = log(&["--board", "always", "--color", "always"], &file);
    snapshot("log_always_color", &colour);
}
