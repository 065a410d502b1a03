//! No engine outlives the built fenguard: signals, SIGKILL, and a stuck GUI or engine (Linux).
#![cfg(target_os = "linux")]

use crate::common;

use std::io::Write as _;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use common::{FAKE_ENGINE, FENGUARD, Proxy, process_gone, test_dir, wait_until, write_config};

/// Starts fenguard and the fake engine, ends fenguard with `kill`, and checks that the
/// engine is gone too; returns fenguard's exit code.
fn engine_dies_with_fenguard(name: &str, kill: impl FnOnce(&mut Proxy)) -> Option<i32> {
    let dir = test_dir(name);
    let mut proxy = Proxy::fake(&dir, &[]);
    let engine = proxy.engine_pid();
    kill(&mut proxy);
    let code = proxy.wait_exit().code();
    assert!(
        wait_until(|| process_gone(engine).then_some(())).is_some(),
        "engine {engine} outlived fenguard"
    );
    code
}

fn signal(proxy: &mut Proxy, signal: i32) {
    let pid = i32::try_from(proxy.child.id()).unwrap();
    // SAFETY: sending a signal to our own child process.
    assert_eq!(unsafe { libc::kill(pid, signal) }, 0);
}

#[test]
fn no_orphan_after_sigterm() {
    let code = engine_dies_with_fenguard("sigterm", |p| signal(p, libc::SIGTERM));
    assert_eq!(code, Some(128 + 15));
}

#[test]
fn no_orphan_after_sigint() {
    let code = engine_dies_with_fenguard("sigint", |p| signal(p, libc::SIGINT));
    assert_eq!(code, Some(128 + 2));
}

#[test]
fn no_orphan_after_sighup() {
    let code = engine_dies_with_fenguard("sighup", |p| signal(p, libc::SIGHUP));
    assert_eq!(code, Some(128 + 1));
}

/// The hang timeout (`ping_timeout_ms`, which also bounds an engine that does not read its
/// input) of [`sigterm_is_handled_while_a_hung_engine_leaves_input_unwritten`]: far longer than
/// the test, so the signal comes while the hung engine is still the one fenguard runs.
const LONG_HANG_TIMEOUT: Duration = Duration::from_secs(120);

#[test]
fn sigterm_is_handled_while_a_hung_engine_leaves_input_unwritten() {
    let dir = test_dir("sigterm-hung");
    let config = write_config(
        &dir,
        &format!(
            "[engine]\nping_timeout_ms = {}\n",
            LONG_HANG_TIMEOUT.as_millis()
        ),
    );
    let mut proxy = Proxy::fake(&dir, &["--config", config.to_str().unwrap()]);
    let engine = proxy.engine_pid();
    let record = dir.join("engine-input");
    // The GUI writes from a thread of its own: `hang`, then more than the pipes hold, which
    // fenguard keeps pending (and then stops reading the GUI).
    let mut stdin = proxy.take_stdin();
    let all_written = Arc::new(AtomicBool::new(false));
    let written = Arc::clone(&all_written);
    let hung_at = Instant::now();
    let writer = std::thread::spawn(move || {
        let sent = stdin
            .write_all(b"hang\n")
            .and_then(|()| stdin.write_all(&b"isready\n".repeat(140_000)));
        written.store(sent.is_ok(), Ordering::SeqCst);
    });
    let hung = wait_until(|| {
        let input = std::fs::read(&record).unwrap_or_default();
        input.ends_with(b"hang\n").then_some(())
    });
    assert!(hung.is_some(), "the engine never read `hang`");
    // The stall: the engine reads nothing after `hang`, the GUI's input stays unwritten.
    std::thread::sleep(Duration::from_secs(1));
    assert!(
        !all_written.load(Ordering::SeqCst),
        "fenguard took all of the GUI's input: no stall to signal in"
    );
    signal(&mut proxy, libc::SIGTERM);
    let signalled_after = hung_at.elapsed();
    assert_eq!(proxy.wait_exit().code(), Some(128 + 15));
    assert!(
        wait_until(|| process_gone(engine).then_some(())).is_some(),
        "engine {engine} outlived fenguard"
    );
    // During the stall: well within the hang timeout, no hang found, no engine restarted (a
    // new fake engine would have appended its `uci` to the record).
    assert!(
        signalled_after < LONG_HANG_TIMEOUT / 2,
        "signalled {signalled_after:?} after `hang`"
    );
    let log = proxy.log("fenguard.log");
    assert!(log.contains("received SIGTERM"), "{log}");
    assert!(!log.contains("engine hung"), "{log}");
    let input = std::fs::read(&record).unwrap();
    assert!(
        input.ends_with(b"hang\n"),
        "the engine read on after `hang`: {:?}",
        String::from_utf8_lossy(&input[input.len().saturating_sub(200)..])
    );
    writer.join().unwrap();
}

/// fenguard in front of the fake engine, with about 3 MB of engine output that the GUI never
/// reads (the engine's output side stalls); gives fenguard, its stdin and its log directory.
fn gui_that_does_not_read(name: &str) -> (std::process::Child, std::process::ChildStdin, PathBuf) {
    let dir = test_dir(name);
    let mut fenguard = std::process::Command::new(FENGUARD)
        .args(["--log-dir", dir.to_str().unwrap(), "--", FAKE_ENGINE])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = fenguard.stdin.take().unwrap();
    std::io::Write::write_all(&mut stdin, b"burst 100000\n").unwrap();
    std::thread::sleep(std::time::Duration::from_millis(500));
    (fenguard, stdin, dir)
}

#[test]
fn sigterm_is_handled_while_the_gui_does_not_read() {
    let (mut fenguard, _stdin, _dir) = gui_that_does_not_read("sigterm-gui-stuck");
    let pid = i32::try_from(fenguard.id()).unwrap();
    // SAFETY: sending a signal to our own child process.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGTERM) }, 0);
    let status = wait_until(|| fenguard.try_wait().unwrap());
    let _ = fenguard.kill();
    assert_eq!(status.and_then(|s| s.code()), Some(128 + 15));
}

#[test]
fn no_orphan_after_sigkill() {
    let code = engine_dies_with_fenguard("sigkill", |p| p.child.kill().unwrap());
    assert_eq!(code, None);
}

#[test]
fn engine_runs_in_its_own_process_group() {
    let dir = test_dir("pgroup");
    let mut proxy = Proxy::fake(&dir, &[]);
    let engine = proxy.engine_pid();
    let fenguard = i32::try_from(proxy.child.id()).unwrap();
    // SAFETY: getpgid only reads process attributes.
    let (engine_group, fenguard_group) =
        unsafe { (libc::getpgid(engine), libc::getpgid(fenguard)) };
    assert_eq!(engine_group, engine);
    assert_ne!(engine_group, fenguard_group);
}

#[test]
fn quit_reaches_the_engine_while_the_gui_does_not_read() {
    let (mut fenguard, mut stdin, dir) = gui_that_does_not_read("quit-gui-stuck");
    std::io::Write::write_all(&mut stdin, b"quit\n").unwrap();
    // The fake engine, stuck writing its burst, cannot read `quit`: fenguard takes the `quit`
    // anyway, kills the engine after the grace, gives up on the GUI's output and exits 0.
    let status = wait_until(|| fenguard.try_wait().unwrap());
    let _ = fenguard.kill();
    assert_eq!(status.and_then(|s| s.code()), Some(0));
    let log = std::fs::read_to_string(dir.join("fenguard.log")).unwrap();
    assert!(
        log.contains("engine still running 1000 ms after quit: killing it"),
        "{log}"
    );
}
