//! `fenguard log` on input that is no log (issue 30's review): a device is refused at once
//! (exit 2), and a line longer than any record fenguard writes is reported as a bad line with
//! its place, cut, while the records after it are still shown (memory stays bounded).

use std::process::Command;

fn fenguard_log(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_fenguard"))
        .arg("log")
        .args(args)
        .output()
        .unwrap()
}

#[cfg(unix)]
#[test]
fn a_device_is_refused_at_once_naming_it() {
    let o = fenguard_log(&["/dev/zero"]);
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        stderr.contains("/dev/zero: a device, not a log file"),
        "{stderr}"
    );
}

#[test]
fn a_line_longer_than_any_record_is_a_bad_line_and_the_next_record_is_shown() {
    let dir = crate::common::test_dir("log-overlong");
    let path = dir.join("positions.jsonl");
    let mut text = "x".repeat(20 << 20);
    text.push('\n');
    text.push_str(
        r#"{"ts":"2026-12-03T00:00:00.000001Z","session":"s","seq":1,"kind":"engine-start","restart":false}"#,
    );
    text.push('\n');
    std::fs::write(&path, text).unwrap();
    let o = fenguard_log(&[path.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&o.stdout);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        stderr.contains("positions.jsonl:1: not a JSON object"),
        "{stderr}"
    );
    assert!(stdout.contains("seq 1  engine-start"), "{stdout}");
    assert!(
        stderr.len() < 4096,
        "the cut line is not echoed: {} bytes",
        stderr.len()
    );
}
