//! `fenguard check` memory on a huge line (issue 9 class 7, SPEC 9 "a line with no end does
//! not grow memory past a fixed cap (also in `fenguard check`)"): a 200 MiB line gets one
//! `invalid` output line, the next line is checked as usual, and the child's peak resident
//! set (`VmHWM` in `/proc/PID/status`, read while it waits for more input) stays far below
//! the line's size. Linux only (reads `/proc`).

#![cfg(target_os = "linux")]

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// The child's peak resident set in KiB.
fn peak_rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("/proc status");
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmHWM")
}

fn huge_line_then_a_fen(format: &str) -> (Vec<String>, u64, Option<i32>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_fenguard"))
        .args(["check", "--format", format, "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("fenguard runs");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
    let chunk = vec![b'8'; 1 << 20];
    for _ in 0..200 {
        stdin.write_all(&chunk).expect("write the huge line");
    }
    stdin.write_all(b"\n").expect("end the line");
    stdin.flush().expect("flush");
    let mut first = String::new();
    stdout
        .read_line(&mut first)
        .expect("the huge line's answer");
    // The child has read the whole line and waits for more: its peak so far is the line's.
    let peak = peak_rss_kib(child.id());
    writeln!(stdin, "{START}").expect("write a FEN");
    drop(stdin);
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut stdout, &mut rest).expect("the rest");
    let status = child.wait().expect("exits");
    let mut lines = vec![first.trim_end().to_owned()];
    lines.extend(rest.lines().map(str::to_owned));
    (lines, peak, status.code())
}

#[test]
fn a_200_mib_line_is_one_invalid_line_in_bounded_memory() {
    let (lines, peak_kib, status) = huge_line_then_a_fen("fen");
    assert_eq!(lines, ["invalid", START], "{lines:?}");
    assert_eq!(status, Some(1));
    // The cap is 1 MiB; the line is 200 MiB. 32 MiB is far above the program's own needs
    // and far below a buffered line.
    assert!(peak_kib < 32 * 1024, "peak RSS {peak_kib} KiB");
}

#[test]
fn a_200_mib_line_is_reported_line_too_long_in_json() {
    let (lines, peak_kib, status) = huge_line_then_a_fen("json");
    assert_eq!(lines.len(), 2, "{lines:?}");
    let record: serde_json::Value = serde_json::from_str(&lines[0]).expect("JSON");
    assert_eq!(record["valid"], false, "{record}");
    assert_eq!(record["fen"], serde_json::Value::Null, "{record}");
    assert_eq!(
        record["diagnostics"][0]["code"], "line-too-long",
        "{record}"
    );
    assert_eq!(record["diagnostics"][0]["severity"], "error", "{record}");
    assert!(
        record["diagnostics"][0]["message"]
            .as_str()
            .is_some_and(|m| m.starts_with("line of 209715201 bytes")),
        "{record}"
    );
    assert_eq!(record["input"], format!("{}…", "8".repeat(64)), "{record}");
    let next: serde_json::Value = serde_json::from_str(&lines[1]).expect("JSON");
    assert_eq!(next["valid"], true, "{next}");
    assert_eq!(status, Some(1));
    assert!(peak_kib < 32 * 1024, "peak RSS {peak_kib} KiB");
}
