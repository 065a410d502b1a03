//! `fenguard serve` lifecycle: no engine outlives its client or the daemon.
#![cfg(unix)]

use crate::serve_support;

use std::io::Write as _;
use std::process::{Command, Stdio};
use std::time::Duration;

use serve_support::*;

fn config(dir: &std::path::Path) -> String {
    std::fs::write(dir.join("no-tokens"), "").unwrap();
    format!(
        "[serve]\ntokens_file = \"{}\"\n",
        dir.join("no-tokens").display()
    )
}

fn signal(pid: u32, name: &str) {
    let ok = Command::new("kill")
        .args([name, &pid.to_string()])
        .status()
        .unwrap();
    assert!(ok.success());
}

#[test]
fn client_killed_mid_search_leaves_no_engine_after_one_second() {
    let dir = test_dir("client-killed");
    let daemon = Daemon::start(&dir, &config(&dir), "127.0.0.1:{port}", &[]);
    let mut connect = Command::new(FENGUARD)
        .args(["connect", &format!("127.0.0.1:{}", daemon.port)])
        .env_remove("FENGUARD_TOKEN")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = connect.stdin.take().unwrap();
    // `hang`: the engine stops reading, so only the kill after the grace ends it.
    stdin
        .write_all(b"uci\nisready\nposition startpos\ngo infinite\ndebug hang\n")
        .unwrap();
    let engines = daemon.wait_engines(1);
    std::thread::sleep(Duration::from_millis(200));
    connect.kill().unwrap();
    connect.wait().unwrap();
    let took = wait_gone(&engines, Duration::from_secs(1));
    eprintln!("engine gone {} ms after the client", took.as_millis());
    // The engine stopped reading (`hang`): only the kill after the grace ended it.
    daemon.wait_log("engine killed by fenguard");
}

#[test]
fn sigterm_sends_quit_to_every_engine_then_kills_and_exits() {
    let dir = test_dir("sigterm");
    let record = dir.join("engine-input");
    let mut daemon = Daemon::start(
        &dir,
        &config(&dir),
        "127.0.0.1:{port}",
        &[("FAKE_ENGINE_RECORD", record.to_str().unwrap())],
    );
    let (mut a, mut b) = (daemon.client(), daemon.client());
    a.handshake();
    b.handshake();
    // b's engine stops reading: only the kill after the grace ends it.
    b.send("debug hang\n");
    let engines = daemon.wait_engines(2);
    std::thread::sleep(Duration::from_millis(100));
    signal(daemon.child.id(), "-TERM");
    let status = daemon.child.wait().unwrap();
    assert!(status.success(), "{status:?}");
    wait_gone(&engines, Duration::from_secs(2));
    let got = std::fs::read_to_string(&record).unwrap();
    assert_eq!(
        got.matches("quit\n").count(),
        1,
        "the engine that reads got quit: {got}"
    );
    assert!(
        daemon.stderr().contains("received SIGTERM"),
        "{}",
        daemon.stderr()
    );
    a.rest();
    b.rest();
}

#[test]
fn sigkill_of_the_daemon_leaves_no_engine() {
    let dir = test_dir("sigkill");
    let mut daemon = Daemon::start(&dir, &config(&dir), "127.0.0.1:{port}", &[]);
    let (mut a, mut b) = (daemon.client(), daemon.client());
    a.handshake();
    b.handshake();
    b.send("go infinite\n");
    let engines = daemon.wait_engines(2);
    daemon.child.kill().unwrap();
    daemon.child.wait().unwrap();
    wait_gone(&engines, Duration::from_secs(2));
}

#[test]
fn lost_connection_answers_the_open_search_and_connect_exits_1() {
    use std::io::Read as _;
    let dir = test_dir("lost");
    let mut daemon = Daemon::start(&dir, &config(&dir), "127.0.0.1:{port}", &[]);
    let mut connect = Command::new(FENGUARD)
        .args(["connect", &format!("127.0.0.1:{}", daemon.port)])
        .env_remove("FENGUARD_TOKEN")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = connect.stdin.take().unwrap();
    stdin
        .write_all(b"uci\nisready\nposition startpos\ngo infinite\n")
        .unwrap();
    daemon.wait_engines(1);
    std::thread::sleep(Duration::from_millis(200));
    daemon.child.kill().unwrap();
    daemon.child.wait().unwrap();
    let mut out = String::new();
    connect
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    let status = connect.wait().unwrap();
    assert_eq!(status.code(), Some(1), "{out}");
    let tail: Vec<&str> = out.lines().rev().take(2).collect();
    assert_eq!(tail[0], "bestmove 0000", "{out}");
    assert!(
        tail[1].starts_with("info string fenguard: connection lost: 127.0.0.1:"),
        "{out}"
    );
}

#[test]
fn idle_connection_is_closed_and_its_engine_ends() {
    let dir = test_dir("idle");
    let config = format!("{}idle_timeout_ms = 400\n", config(&dir));
    let daemon = Daemon::start(&dir, &config, "127.0.0.1:{port}", &[]);
    let mut client = daemon.client();
    client.handshake();
    let engines = daemon.wait_engines(1);
    let start = std::time::Instant::now();
    assert_eq!(client.rest(), "", "the server closes the connection");
    assert!(
        start.elapsed() >= Duration::from_millis(300),
        "{:?}",
        start.elapsed()
    );
    wait_gone(&engines, Duration::from_secs(2));
    daemon.wait_log("closed idle");
}
