//! A client that sends `uci` and goes away: its engine and its session's place go within the
//! quit grace, not at the engine's `uciok` (which nobody reads), so leaving clients cannot hold
//! the daemon's places for `engine.startup_timeout_ms` each.

use std::time::{Duration, Instant};

use crate::common::{FAKE_ENGINE, test_dir};
use crate::serve_support::{Client, Daemon};

/// A client that got a place: its `isready` answered (a place taken by a client that has just
/// left is waited for).
fn wait_for_place(daemon: &Daemon) -> Client {
    let start = Instant::now();
    loop {
        let mut client = daemon.client();
        client.send("isready\n");
        if client.until(|_| true) == "readyok" {
            return client;
        }
        assert!(start.elapsed() < Duration::from_secs(20), "no place");
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn a_client_that_sends_uci_and_leaves_frees_its_place_within_the_grace() {
    let dir = test_dir("serve_uci_and_leave");
    // One place; engines that never answer `uci` (so `uciok` would come only at the startup
    // timeout, 20 s).
    let config = "[serve]\nmax_sessions = 1\n[engine]\nstartup_timeout_ms = 20000\n";
    // The engine outlives the end of its input (as one busy loading its network would): only
    // fenguard's grace ends it.
    let engine = format!("'{FAKE_ENGINE}'; exec sleep 1000");
    let daemon = Daemon::start_with(
        &dir,
        config,
        &["127.0.0.1:{port}"],
        &[("FAKE_ENGINE_IGNORE", "uci")],
        None,
        &["/bin/sh", "-c", &engine],
    );
    for quit in ["", "quit\n"] {
        // In (its engine answers `isready`), then gone.
        let mut leaving = wait_for_place(&daemon);
        leaving.send(&format!("uci\nisready\n{quit}"));
        leaving.until(|l| l == "readyok");
        drop(leaving);
        let left = Instant::now();
        let answered = loop {
            let mut next = daemon.client();
            next.send("isready\n");
            let line = next.until(|_| true);
            if line == "readyok" {
                break true;
            }
            assert!(line.contains("server busy"), "{line}");
            if left.elapsed() > Duration::from_secs(8) {
                break false;
            }
            std::thread::sleep(Duration::from_millis(200));
        };
        assert!(
            answered,
            "the place was still held {:?} after the client left ({quit:?})",
            left.elapsed()
        );
    }
}
