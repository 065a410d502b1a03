//! The built fenguard under hostile input (issue 5): a line with no end, a flooding GUI, an
//! engine flooding a GUI that reads slowly. Memory is fenguard's peak RSS (`VmHWM`, Linux).
#![cfg(target_os = "linux")]

use crate::common;

use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::process::{Command, Stdio};
use std::time::Duration;

use common::{FAKE_ENGINE, FENGUARD, Gui, Proxy, contains, peak_rss_kib, rejected, test_dir};

/// The peak RSS every test here stays under.
const RSS_LIMIT_KIB: u64 = 32 * 1024;

/// The peak RSS under a flood of GUI lines that each have a positions log record (`debug off`):
/// [`RSS_LIMIT_KIB`] plus the positions log's queue, which holds up to
/// `fenguard::poslog::QUEUE_BYTES` of records a writer that lags has not written yet (a debug
/// build's writer lags behind its relay; records are no longer dropped at 4,096 without a
/// trace, issue 30).
const FLOOD_RSS_LIMIT_KIB: u64 = RSS_LIMIT_KIB + (fenguard::poslog::QUEUE_BYTES as u64) / 1024;

/// Generous: a debug build on a slow, shared machine.
const FLOOD_PATIENCE: Duration = Duration::from_secs(120);

fn wait_stdout_long(proxy: &Proxy, done: impl Fn(&[u8]) -> bool) -> Vec<u8> {
    proxy.wait_stdout_within(FLOOD_PATIENCE, done)
}

#[test]
fn gui_line_of_100_mib_without_newline_keeps_rss_under_32_mib_and_isready_is_answered() {
    let dir = test_dir("hostile-100mib");
    let mut proxy = Proxy::start(&dir, &["--", FAKE_ENGINE], &[]);
    let chunk = vec![b'x'; 1 << 20];
    for _ in 0..100 {
        proxy.send(&chunk);
    }
    let peak_inside = peak_rss_kib(proxy.child.id());
    proxy.send(b"\nisready\n");
    wait_stdout_long(&proxy, |out| out.ends_with(b"readyok\n"));
    let peak = peak_rss_kib(proxy.child.id());
    eprintln!("peak RSS {peak} KiB ({peak_inside} KiB before the line ended)");
    assert!(peak < RSS_LIMIT_KIB, "fenguard's peak RSS {peak} KiB");
}

#[test]
fn position_line_over_the_cap_is_rejected_and_never_reaches_the_engine() {
    let mut gui = Gui::fake_ready("hostile-long-position", "");
    let mut line = b"position fen ".to_vec();
    line.resize(3 << 20, b'x');
    line.push(b'\n');
    gui.proxy.send(&line);
    let lines = gui.sync();
    assert_eq!(lines.len(), 2, "{lines:#?}");
    assert!(
        lines[0].starts_with(&rejected("line-too-long")),
        "{lines:#?}"
    );
    assert_eq!(gui.go("go depth 1"), ["bestmove 0000"]);
    assert!(
        !gui.engine_input().contains("position"),
        "the engine saw the position"
    );
    let record = gui.wait_record(|r| r["kind"] == "position");
    assert_eq!(record["verdict"], "rejected");
    assert_eq!(record["diagnostics"][0]["code"], "line-too-long");
}

#[test]
fn gui_flood_of_a_million_lines_reaches_the_engine_with_bounded_rss() {
    let dir = test_dir("hostile-gui-flood");
    let mut proxy = Proxy::start(&dir, &["--", FAKE_ENGINE], &[]);
    let block = b"debug off\n".repeat(10_000);
    for _ in 0..100 {
        proxy.send(&block);
    }
    proxy.send(b"isready\n");
    let out = wait_stdout_long(&proxy, |out| contains(out, b"readyok\n"));
    assert_eq!(out, b"readyok\n");
    let peak = peak_rss_kib(proxy.child.id());
    eprintln!("peak RSS {peak} KiB after 1,000,000 GUI lines");
    assert!(peak < FLOOD_RSS_LIMIT_KIB, "fenguard's peak RSS {peak} KiB");
}

#[test]
fn engine_flood_of_a_million_info_lines_to_a_slow_gui_arrives_in_order_with_bounded_rss() {
    let dir = test_dir("hostile-engine-flood");
    let mut child = Command::new(FENGUARD)
        .arg("--log-dir")
        .arg(dir.join("logs"))
        .args(["--", FAKE_ENGINE])
        .env_remove("RUST_LOG")
        .env_remove("FENGUARD_CONFIG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start fenguard");
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(b"burst 1000000\nisready\n").expect("write");
    stdin.flush().expect("flush");
    let mut out = BufReader::new(child.stdout.take().expect("stdout"));
    // A slow GUI: nothing read for a second, then 4 KiB every millisecond for a while.
    std::thread::sleep(Duration::from_secs(1));
    let mut slow = vec![0u8; 4096];
    let mut head = Vec::new();
    for _ in 0..500 {
        let n = out.read(&mut slow).expect("read");
        head.extend_from_slice(&slow[..n]);
        std::thread::sleep(Duration::from_millis(1));
    }
    let mut reader = BufReader::new(head.as_slice()).chain(out);
    let mut line = String::new();
    for seq in 0..1_000_000 {
        line.clear();
        reader.read_line(&mut line).expect("read line");
        assert_eq!(line, format!("info depth 1 seq {seq} pv e2e4\n"));
    }
    line.clear();
    reader.read_line(&mut line).expect("read line");
    assert_eq!(line, "readyok\n");
    let peak = peak_rss_kib(child.id());
    eprintln!("peak RSS {peak} KiB after 1,000,000 engine lines to a slow GUI");
    drop(stdin);
    let _ = child.wait();
    assert!(peak < RSS_LIMIT_KIB, "fenguard's peak RSS {peak} KiB");
}
