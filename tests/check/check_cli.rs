//! `fenguard check` as a process: arguments, `--file`, stdin, the three formats, exit statuses.

use crate::common;

use std::io::Write;
use std::process::{Command, Stdio};

use common::check::{check, stdout};

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

#[test]
fn valid_fen_argument_exits_0_and_prints_normalized_fen() {
    let o = check(
        &[
            "--format",
            "fen",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR   w KQkq -",
        ],
        "",
    );
    assert_eq!(
        (o.status.code(), stdout(&o)),
        (Some(0), format!("{START}\n"))
    );
}

#[test]
fn stdin_gives_one_line_per_input_line_blank_included_and_exit_1() {
    let o = check(
        &["--format", "fen", "-"],
        &format!("{START}\n\n4k3/8/8/8/8/8/8/8 w - - 0 1\n"),
    );
    assert_eq!(
        (o.status.code(), stdout(&o)),
        (Some(1), format!("{START}\ninvalid\ninvalid\n"))
    );
}

#[test]
fn no_arguments_read_stdin_including_a_last_line_without_newline() {
    let o = check(&["--format", "fen"], START);
    assert_eq!(stdout(&o), format!("{START}\n"));
}

#[test]
fn json_line_has_the_spec_fields() {
    let o = check(&["--format", "json", "4k3/8/8/8/8/8/8/8 w - - 0 1"], "");
    assert_eq!(
        stdout(&o),
        "{\"input\":\"4k3/8/8/8/8/8/8/8 w - - 0 1\",\"valid\":false,\"repaired\":false,\"fen\":null,\"chess960\":false,\
         \"diagnostics\":[{\"code\":\"missing-king\",\"severity\":\"error\",\"message\":\"there is no white king; expected exactly one\",\
         \"span\":[0,17],\"fix\":null}]}\n"
    );
}

#[test]
fn repair_prints_repaired_fen_and_exits_0() {
    let o = check(
        &[
            "--format",
            "fen",
            "--repair",
            "2k5/8/3K4/1p6/p7/P7/1B6/8 b KQkq - 0 1",
        ],
        "",
    );
    assert_eq!(
        (o.status.code(), stdout(&o)),
        (Some(0), "2k5/8/3K4/1p6/p7/P7/1B6/8 b - - 0 1\n".to_owned())
    );
}

#[test]
fn json_marks_repaired_lines() {
    let o = check(
        &[
            "--format",
            "json",
            "--repair",
            "4k3/8/8/8/8/8/8/4K3 w K - 0 1",
        ],
        "",
    );
    let line = stdout(&o);
    assert!(
        line.contains(
            "\"valid\":false,\"repaired\":true,\"fen\":\"4k3/8/8/8/8/8/8/4K3 w - - 0 1\""
        ),
        "{line}"
    );
}

#[test]
fn shredder_castling_writes_file_letters() {
    let o = check(&["--format", "fen", "--castling", "shredder", START], "");
    assert_eq!(
        stdout(&o),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1\n"
    );
}

#[test]
fn ep_fen_mode_keeps_the_square_after_a_double_push() {
    let fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1";
    let legal = check(&["--format", "fen", fen], "");
    let kept = check(&["--format", "fen", "--ep", "fen", fen], "");
    assert_eq!(
        stdout(&legal),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n"
    );
    assert_eq!(stdout(&kept), format!("{fen}\n"));
}

#[test]
fn standard_rejects_a_right_only_chess960_allows() {
    let fen = "4rkr1/4p1p1/8/8/8/8/8/5K1R w K - 0 1";
    let chess960 = check(&["--format", "json", fen], "");
    let standard = check(&["--format", "fen", "--standard", fen], "");
    assert!(stdout(&chess960).contains("\"valid\":true,\"repaired\":false,\"fen\":\"4rkr1/4p1p1/8/8/8/8/8/5K1R w K - 0 1\",\"chess960\":true"));
    assert_eq!(
        (standard.status.code(), stdout(&standard)),
        (Some(1), "invalid\n".to_owned())
    );
}

#[test]
fn human_format_puts_carets_under_the_fault() {
    let o = check(&["--board", "never", "4k3/8/9/8/8/8/8/4K3 w - - 0 1"], "");
    assert_eq!(
        stdout(&o),
        "line 1: invalid\n  error[rank-too-long]: rank 6 has 9 squares, expected 8\n   | 4k3/8/9/8/8/8/8/4K3 w - - 0 1\n   |       ^\n"
    );
}

#[test]
fn missing_file_is_an_io_error_with_status_2() {
    let o = check(&["--file", "/nonexistent/fens.txt"], "");
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("/nonexistent/fens.txt"));
}

#[test]
fn unknown_format_is_a_usage_error_with_status_2() {
    let o = check(&["--format", "xml", START], "");
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn file_lines_are_checked_in_order() {
    let path = std::env::temp_dir().join(format!("fenguard-check-{}.txt", std::process::id()));
    std::fs::write(&path, format!("{START}\r\n8/8/8/8/8/8/8/8 w - - 0 1\n"))
        .expect("write temp file");
    let o = check(
        &[
            "--format",
            "fen",
            "--file",
            path.to_str().expect("utf-8 path"),
        ],
        "",
    );
    std::fs::remove_file(&path).ok();
    assert_eq!(
        (o.status.code(), stdout(&o)),
        (Some(1), format!("{START}\ninvalid\n"))
    );
}

#[test]
fn json_spans_point_into_input_as_shown_after_a_non_utf8_byte() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_fenguard"))
        .args(["check", "--format", "json", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("fenguard runs");
    let mut stdin = child.stdin.take().expect("stdin");
    stdin
        .write_all(b"4k3/8/8/8/8/8/8/4K3 w \xff - 0 x\n")
        .expect("write stdin");
    drop(stdin);
    let o = child.wait_with_output().expect("fenguard exits");
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("one JSON object");
    let input = v["input"].as_str().expect("input").as_bytes();
    let spans: Vec<(String, Vec<u8>)> = v["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .map(|d| {
            let (a, b) = (
                d["span"][0].as_u64().unwrap(),
                d["span"][1].as_u64().unwrap(),
            );
            let code = d["code"].as_str().unwrap().to_owned();
            (code, input[a as usize..b as usize].to_vec())
        })
        .collect();
    assert_eq!(
        spans,
        vec![
            (
                "bad-castling-char".to_owned(),
                "\u{fffd}".as_bytes().to_vec()
            ),
            ("bad-fullmove-number".to_owned(), b"x".to_vec()),
        ]
    );
}

#[test]
fn each_line_from_a_pipe_is_answered_before_the_next_arrives() {
    use std::io::{BufRead, BufReader};
    use std::sync::mpsc;
    use std::time::Duration;
    let mut child = Command::new(env!("CARGO_BIN_EXE_fenguard"))
        .args(["check", "--format", "fen", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("fenguard runs");
    let mut stdin = child.stdin.take().expect("stdin");
    let stdout = BufReader::new(child.stdout.take().expect("stdout"));
    // Answers are read on a thread, so a missing flush fails the test instead of hanging it.
    let (tx, answers) = mpsc::channel();
    std::thread::spawn(move || {
        for line in stdout.lines() {
            if tx.send(line.expect("read an answer")).is_err() {
                return;
            }
        }
    });
    for (fen, want) in [(START, START), ("8/8/8/8/8/8/8/8 w - - 0 1", "invalid")] {
        writeln!(stdin, "{fen}").expect("write a line");
        stdin.flush().expect("flush");
        let answer = answers
            .recv_timeout(Duration::from_secs(30))
            .expect("an answer while the input stays open");
        assert_eq!(answer, want);
    }
    drop(stdin);
    assert!(child.wait().expect("exits").code() == Some(1));
}

/// Issue 9 class 4: `check --repair` reads a missing field as the proxy does: the counters
/// stay in place, a lone counter is rejected (not repaired).
#[test]
fn repair_keeps_counters_in_place_when_the_ep_field_is_missing() {
    let o = check(
        &["--format", "fen", "--repair", "-"],
        "4k3/8/8/8/8/8/8/Q3K3 w - 0 120\n4k3/8/8/8/8/8/8/Q3K3 w - - 120\n",
    );
    assert_eq!(
        (o.status.code(), stdout(&o)),
        (
            Some(1),
            "4k3/8/8/8/8/8/8/Q3K3 w - - 0 120\ninvalid\n".to_owned()
        )
    );
    let o = check(&["--format", "json"], "4k3/8/8/8/8/8/8/Q3K3 w - 0 120\n");
    let record: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(
        record["diagnostics"][0]["code"], "missing-field",
        "{record}"
    );
    assert_eq!(
        record["diagnostics"][0]["span"],
        serde_json::json!([25, 25])
    );
}
