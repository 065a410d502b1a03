//! A stalled pipe is not a hung engine, a hung engine is found even when its input pipe is full,
//! and an engine behind a wrapper script dies with fenguard (the built binary, the fake engine;
//! Linux).
#![cfg(target_os = "linux")]

use crate::common;

use std::io::{BufRead as _, BufReader, Write as _};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use common::{FAKE_ENGINE, FENGUARD, Proxy, process_gone, test_dir, wait_until, write_config};

/// A one-second `readyok` deadline, so that a test needs seconds, not tens of seconds.
const FAST_PING: &str = "[engine]\nping_timeout_ms = 1000\n";

/// fenguard with `--config` holding `toml`, in front of `engine`, with piped stdio that the test
/// reads (or not) itself.
fn start(dir: &Path, toml: &str, engine: &[&str]) -> Child {
    let config = write_config(dir, toml);
    Command::new(FENGUARD)
        .args(["--config", config.to_str().unwrap(), "--log-dir"])
        .arg(dir.join("logs"))
        .arg("--")
        .args(engine)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

fn log(dir: &Path) -> String {
    std::fs::read_to_string(dir.join("logs/fenguard.log")).unwrap_or_default()
}

#[test]
fn gui_that_stops_reading_for_a_while_does_not_get_its_engine_killed() {
    let dir = test_dir("stall-gui-slow");
    let mut fenguard = start(&dir, FAST_PING, &[FAKE_ENGINE]);
    let mut stdin = fenguard.stdin.take().unwrap();
    // Several MB of output, then `isready`, while the GUI reads nothing for 3 deadlines.
    stdin.write_all(b"burst 100000 5\nisready\n").unwrap();
    std::thread::sleep(Duration::from_secs(3));
    let mut stdout = BufReader::new(fenguard.stdout.take().unwrap());
    let (mut info, mut line) = (0, String::new());
    loop {
        line.clear();
        assert_ne!(stdout.read_line(&mut line).unwrap(), 0, "output ended");
        if line.starts_with("info depth 1 seq ") {
            info += 1;
        } else if line == "readyok\n" {
            break;
        } else {
            panic!("unexpected line {line:?} after {info} info lines");
        }
    }
    stdin.write_all(b"quit\n").unwrap();
    let _ = wait_until(|| fenguard.try_wait().unwrap());
    let _ = fenguard.kill();
    assert_eq!(info, 100_000);
    assert!(!log(&dir).contains("engine hung"), "{}", log(&dir));
}

#[test]
fn engine_that_stops_reading_its_input_is_killed_as_hung_and_quit_gets_through() {
    let dir = test_dir("stall-engine-input");
    let mut fenguard = start(&dir, FAST_PING, &[FAKE_ENGINE]);
    let mut stdin = fenguard.stdin.take().unwrap();
    let mut stdout = fenguard.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut all = Vec::new();
        let _ = std::io::Read::read_to_end(&mut stdout, &mut all);
        all
    });
    // The engine stops reading; more than its input pipe holds follows, then `quit`. The GUI
    // writes from a thread of its own, as GUIs do: fenguard stops reading it meanwhile.
    let writer = std::thread::spawn(move || {
        stdin.write_all(b"hang\n").unwrap();
        stdin.write_all(&b"debug off\n".repeat(30_000)).unwrap();
        stdin.write_all(b"quit\n").unwrap();
        stdin
    });
    let status = wait_until(|| fenguard.try_wait().unwrap());
    let _ = fenguard.kill();
    drop(writer.join());
    let out = String::from_utf8_lossy(&reader.join().unwrap()).into_owned();
    assert_eq!(status.and_then(|s| s.code()), Some(0), "{out}");
    assert!(
        out.contains("info string fenguard: engine hung: it has not read its input for "),
        "{out}"
    );
}

#[test]
fn engine_behind_a_wrapper_script_dies_with_fenguard() {
    let dir = test_dir("stall-wrapper");
    // `sh -c` with a second command does not `exec`: the engine is the shell's child.
    let script = format!("'{FAKE_ENGINE}'; true");
    let mut proxy = Proxy::start(&dir, &["--", "/bin/sh", "-c", &script], &[]);
    let engine = proxy.engine_pid();
    // Hung: it no longer reads, so the end of its input would not end it either.
    proxy.send(b"hang\n");
    let fenguard = i32::try_from(proxy.child.id()).unwrap();
    // SAFETY: sending a signal to our own child process.
    assert_eq!(unsafe { libc::kill(fenguard, libc::SIGTERM) }, 0);
    assert_eq!(proxy.wait_exit().code(), Some(128 + 15));
    let gone = wait_until(|| process_gone(engine).then_some(())).is_some();
    if !gone {
        // SAFETY: ending the leftover test engine, whose pid this test read.
        unsafe { libc::kill(engine, libc::SIGKILL) };
    }
    assert!(gone, "engine {engine} behind the wrapper outlived fenguard");
}

#[test]
fn engine_that_ignores_stop_is_killed_as_hung_and_the_search_answered() {
    let dir = test_dir("stall-stop-ignored");
    let config = write_config(&dir, FAST_PING);
    let args = ["--config", config.to_str().unwrap(), "--", FAKE_ENGINE];
    let mut proxy = Proxy::start(&dir, &args, &[("FAKE_ENGINE_IGNORE", "stop")]);
    proxy.send(b"uci\nisready\nposition startpos\ngo infinite\n");
    proxy.wait_for("readyok");
    proxy.send(b"stop\n");
    let out = String::from_utf8_lossy(&proxy.wait_for("bestmove 0000")).into_owned();
    assert!(
        out.contains(
            "info string fenguard: engine hung: no bestmove after stop within 1000 ms; killing it\n"
        ),
        "{out}"
    );
    assert!(out.ends_with("bestmove 0000\n"), "{out}");
    proxy.send(b"quit\n");
    assert_eq!(proxy.wait_exit().code(), Some(0));
}

#[test]
fn gui_that_stops_reading_but_keeps_writing_does_not_get_its_engine_killed() {
    let dir = test_dir("stall-gui-writes");
    let mut fenguard = start(&dir, FAST_PING, &[FAKE_ENGINE]);
    let mut stdin = fenguard.stdin.take().unwrap();
    let stdout = fenguard.stdout.take().unwrap();
    // The engine writes far more than the pipes hold, so it blocks writing and stops reading
    // its input while fenguard waits for the GUI, which goes on writing for a while (from
    // when the burst flows, so that the engine is not just slow to start it).
    stdin.write_all(b"uci\nburst 200000\n").unwrap();
    let mut stdout = BufReader::new(stdout);
    let mut text = String::new();
    while !text.starts_with("info depth 1 seq ") {
        text.clear();
        assert_ne!(stdout.read_line(&mut text).unwrap(), 0, "output ended");
    }
    let line = format!(
        "position startpos moves {}\nisready\n",
        "g1f3 g8f6 f3g1 f6g8 ".repeat(20)
    );
    let writer = std::thread::spawn(move || {
        for _ in 0..400 {
            stdin.write_all(line.as_bytes()).unwrap();
        }
        stdin
    });
    // Four times the timeout without reading.
    std::thread::sleep(Duration::from_secs(4));
    let mut readyok = 0;
    while readyok < 400 {
        text.clear();
        assert_ne!(stdout.read_line(&mut text).unwrap(), 0, "output ended");
        assert!(!text.contains("engine hung"), "{text}");
        readyok += usize::from(text == "readyok\n");
    }
    let mut stdin = writer.join().unwrap();
    stdin.write_all(b"quit\n").unwrap();
    let _ = wait_until(|| fenguard.try_wait().unwrap());
    let _ = fenguard.kill();
    assert!(!log(&dir).contains("engine hung"), "{}", log(&dir));
}
