//! Dead peers (SPEC section 12: detected on both sides within 30 s; issue 16 section 5): a
//! link cut silently between `fenguard serve` and `fenguard connect` (two network namespaces
//! joined by a veth pair, one end set down), a stopped daemon, a killed one. The daemon must
//! kill the engine and free the slot; `connect` must give the GUI what it waits for
//! (`bestmove 0000`, `readyok`, `uciok`) and exit 1. Each test prints what it measured.
//!
//! The namespace tests need root and iproute2: under `CI=true` they fail without them,
//! elsewhere they print `SKIPPED` and pass.
#![cfg(target_os = "linux")]

use crate::common;
use crate::deadpeer_support;
use crate::serve_support;

use std::process::Command;
use std::time::{Duration, Instant};

use deadpeer_support::*;
use serve_support::{Daemon, FAKE_ENGINE, FENGUARD, alive, children, test_dir, wait_gone};

/// The daemon's live engines (its children), once there are `n`.
fn engines_of(pid: u32, n: usize) -> Vec<u32> {
    let start = Instant::now();
    loop {
        let engines: Vec<u32> = children(pid).into_iter().filter(|&p| alive(p)).collect();
        if engines.len() == n {
            return engines;
        }
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "{} engines, not {n}",
            engines.len()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// `fenguard serve` on loopback without tokens, in front of the fake engine (`env` for it).
fn local_daemon(name: &str, env: &[(&str, &str)]) -> Daemon {
    let dir = test_dir(name);
    // An empty tokens file: no tokens (a configured file must exist).
    std::fs::write(dir.join("none"), "").unwrap();
    let config = format!(
        "[serve]\ntokens_file = \"{}\"\n",
        dir.join("none").display()
    );
    Daemon::start(&dir, &config, "127.0.0.1:{port}", env)
}

/// A GUI on `fenguard connect` (default settings) to `daemon`.
fn connect_to(daemon: &Daemon) -> Gui {
    let mut command = Command::new(FENGUARD);
    command.args(["connect", &format!("127.0.0.1:{}", daemon.port)]);
    Gui::spawn(command)
}

#[test]
fn link_cut_mid_search_kills_the_engine_and_answers_bestmove_0000_within_30_s() {
    let Some(stockfish) = common::require_stockfish() else {
        return;
    };
    let Some(net) = Pair::require(1) else { return };
    let dir = test_dir("deadpeer-search");
    // Default keepalive_s / peer_timeout_s on both sides.
    let config = tls_and_token(&dir, &net.ip_a);
    let addr = format!("tls://{}:7356", net.ip_a);
    let daemon = NsDaemon::start(
        &net,
        &dir,
        &config,
        &addr,
        &[&stockfish.display().to_string()],
    );
    let mut command = net.command(&net.b, FENGUARD);
    command.args(tls_client_args(&dir, &addr));
    let mut gui = Gui::spawn(command);
    gui.send("uci\n");
    gui.until("uciok", Duration::from_secs(10));
    gui.send("isready\n");
    gui.until("readyok", Duration::from_secs(10));
    let engines = engines_of(daemon.child.id(), 1);
    gui.send("position startpos\ngo infinite\n");
    gui.until_with(|l| l.starts_with("info depth"), Duration::from_secs(10));
    std::thread::sleep(Duration::from_secs(1));

    net.cut();
    let cut = Instant::now();
    std::thread::sleep(Duration::from_secs(1));
    gui.send("stop\n");
    let killed = wait_gone(&engines, LIMIT) + Duration::from_secs(1);
    let at = gui.until("bestmove 0000", LIMIT);
    let lost = gui.tail("info string fenguard: connection lost: ");
    assert_eq!(lost.len(), 2, "{:?}", gui.seen);
    assert_eq!(gui.exit_code(), Some(1));
    eprintln!(
        "measured (defaults): cut -> engine killed {}, cut -> bestmove 0000 in the GUI {} ({})",
        secs(killed),
        secs(at - cut),
        lost[0]
    );
    assert!(at - cut < LIMIT);
    // The session's end line: its place among max_sessions is free again.
    wait_log(&dir, "positions judged");
}

#[test]
fn link_cut_while_idle_kills_every_engine_and_answers_uciok_and_readyok() {
    let Some(net) = Pair::require(2) else { return };
    let dir = test_dir("deadpeer-idle");
    let config = format!(
        "{}keepalive_s = 1\npeer_timeout_s = 3\nmax_sessions = 3\n",
        tls_and_token(&dir, &net.ip_a)
    );
    let addr = format!("tls://{}:7356", net.ip_a);
    let daemon = NsDaemon::start(&net, &dir, &config, &addr, &[FAKE_ENGINE]);
    let client = |extra: &[&str]| {
        let mut command = net.command(&net.b, FENGUARD);
        command.args(tls_client_args(&dir, &addr)).args(extra);
        Gui::spawn(command)
    };
    let short = ["--keepalive-s", "1", "--peer-timeout-s", "3"];
    // One done with its handshake, one that has not sent `uci` yet, and one without
    // keepalive or heartbeat: what the daemon sees of a plain client such as DroidFish.
    let mut ready = client(&short);
    ready.send("uci\nisready\n");
    ready.until("readyok", Duration::from_secs(10));
    let mut fresh = client(&short);
    let mut plain = client(&["--keepalive-s", "0", "--peer-timeout-s", "0"]);
    plain.send("uci\nisready\n");
    plain.until("readyok", Duration::from_secs(10));
    let engines = engines_of(daemon.child.id(), 3);
    std::thread::sleep(Duration::from_millis(1500));

    net.cut();
    let cut = Instant::now();
    ready.send("isready\n");
    fresh.send("uci\n");
    let killed = wait_gone(&engines, LIMIT);
    let readyok = ready.until("readyok", LIMIT);
    let uciok = fresh.until("uciok", LIMIT);
    assert_eq!(
        ready.tail("info string fenguard: connection lost: ").len(),
        2
    );
    assert_eq!(
        &fresh.tail("info string fenguard: connection lost: ")[1..],
        ["id name fenguard connect (connection lost)", "uciok"]
    );
    assert_eq!(ready.exit_code(), Some(1));
    assert_eq!(fresh.exit_code(), Some(1));
    eprintln!(
        "measured (keepalive_s 1, peer_timeout_s 3): cut -> all 3 engines killed {}, \
         cut -> readyok {}, cut -> uciok {}",
        secs(killed),
        secs(readyok - cut),
        secs(uciok - cut)
    );
    // The slots are free again: the log has the three sessions' end lines.
    for _ in 0..3 {
        wait_log(&dir, "positions judged");
    }
    drop(plain);
}

#[test]
fn stopped_daemon_before_uciok_gives_the_gui_uciok_within_30_s() {
    let daemon = local_daemon("deadpeer-stopped", &[]);
    signal(daemon.child.id(), "-STOP");
    let mut gui = connect_to(&daemon);
    let start = Instant::now();
    gui.send("uci\n");
    let at = gui.until("uciok", LIMIT);
    signal(daemon.child.id(), "-CONT");
    assert_eq!(
        gui.seen,
        [
            format!(
                "info string fenguard: connection lost: 127.0.0.1:{}: no word from the server for 20 s",
                daemon.port
            ),
            "id name fenguard connect (connection lost)".to_owned(),
            "uciok".to_owned(),
        ]
    );
    assert_eq!(gui.exit_code(), Some(1));
    eprintln!(
        "measured (defaults): uci to a stopped daemon -> uciok {}",
        secs(at - start)
    );
}

#[test]
fn daemon_killed_mid_search_answers_readyok_and_bestmove_at_once_and_leaves_no_engine() {
    // The engine never answers `isready`: one is still open when the daemon dies.
    let mut daemon = local_daemon("deadpeer-killed", &[("FAKE_ENGINE_IGNORE", "isready")]);
    let mut gui = connect_to(&daemon);
    gui.send("uci\n");
    gui.until("uciok", Duration::from_secs(10));
    gui.send("position startpos\ngo infinite\nisready\n");
    let engines = daemon.wait_engines(1);
    std::thread::sleep(Duration::from_millis(300));
    let killed = Instant::now();
    daemon.child.kill().unwrap();
    daemon.child.wait().unwrap();
    let at = gui.until("bestmove 0000", Duration::from_secs(5));
    assert_eq!(
        &gui.tail("info string fenguard: connection lost: ")[1..],
        ["readyok", "bestmove 0000"]
    );
    assert_eq!(gui.exit_code(), Some(1));
    let gone = wait_gone(&engines, Duration::from_secs(5));
    eprintln!(
        "measured: daemon SIGKILL -> bestmove 0000 {}, engine gone {} later",
        secs(at - killed),
        secs(gone)
    );
}

#[test]
fn daemon_stopped_by_sigterm_before_uciok_gives_the_gui_uciok() {
    // The engine never answers `uci`: the GUI still waits for `uciok` when the daemon stops.
    let daemon = local_daemon("deadpeer-sigterm", &[("FAKE_ENGINE_IGNORE", "uci")]);
    let mut gui = connect_to(&daemon);
    gui.send("uci\n");
    daemon.wait_engines(1);
    std::thread::sleep(Duration::from_millis(300));
    signal(daemon.child.id(), "-TERM");
    gui.until("uciok", Duration::from_secs(10));
    assert_eq!(
        &gui.tail("info string fenguard: connection lost: ")[1..],
        ["id name fenguard connect (connection lost)", "uciok"]
    );
    assert_eq!(gui.exit_code(), Some(1));
}
