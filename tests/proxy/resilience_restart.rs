//! The built fenguard survives its engine (issue 5): an engine killed, crashing on a position
//! (real Stockfish), or hung is reported to the GUI, answered for, and restarted with the GUI's
//! options and position, while the GUI's pipes stay open (Linux: signals and /proc).
#![cfg(target_os = "linux")]

use crate::common;

use std::time::{Duration, Instant};

use common::{Gui, process_gone, wait_until};

/// Asks the fake engine for its process id (the current engine's, after restarts).
fn engine_pid(gui: &mut Gui) -> i32 {
    gui.send("pid");
    let lines = gui.read_until_prefix("info string pid ");
    let last = lines.last().expect("pid line");
    last["info string pid ".len()..]
        .parse()
        .expect("pid number")
}

fn sigkill(pid: i32) {
    // SAFETY: sending a signal to a process this test started (through fenguard).
    assert_eq!(unsafe { libc::kill(pid, libc::SIGKILL) }, 0);
}

/// The fake engine echoes its options at `go` and answers `e7e5` (legal after `e2e4`).
/// fenguard in front of the fake engine, after the handshake, a SIGKILL of the engine and the
/// restart that follows.
fn restarted(name: &str) -> Gui {
    let mut gui = Gui::fake(name, "", &[]);
    gui.handshake();
    sigkill(engine_pid(&mut gui));
    gui.read_until(|l| l.starts_with("info string fenguard: engine restarted"));
    gui
}

const ECHO_OPTIONS: [(&str, &str); 2] = [
    ("FAKE_ENGINE_ECHO_OPTIONS", "1"),
    ("FAKE_ENGINE_BESTMOVE", "e7e5"),
];

#[test]
fn sigkill_during_go_infinite_gives_bestmove_0000_within_a_second_then_the_game_goes_on() {
    let mut gui = Gui::fake("res-sigkill-go", "", &ECHO_OPTIONS);
    gui.handshake();
    gui.send("setoption name Hash value 64");
    gui.send("ucinewgame");
    gui.send("position startpos moves e2e4");
    gui.send("go infinite");
    gui.read_until(|l| l == "info string option Hash=64");
    let old = engine_pid(&mut gui);

    let killed = Instant::now();
    sigkill(old);
    let lines = gui.read_until_prefix("bestmove ");
    let answered = killed.elapsed();
    assert_eq!(
        lines,
        [
            "info string fenguard: engine exited (signal 9)",
            "bestmove 0000"
        ]
    );
    assert!(
        answered < Duration::from_secs(1),
        "bestmove 0000 after {answered:?}"
    );

    assert_eq!(gui.sync().last().map(String::as_str), Some("readyok"));
    gui.read_until(|l| l.starts_with("info string fenguard: engine restarted (restart 1)"));
    let restarted = killed.elapsed();
    eprintln!("bestmove 0000 after {answered:?}; engine restored after {restarted:?}");
    assert_eq!(
        gui.go("go depth 1"),
        ["info string option Hash=64", "bestmove e7e5"]
    );
    assert_ne!(engine_pid(&mut gui), old);
    let input = gui.engine_input();
    let replay = input.rsplit_once("uci\n").expect("a second uci").1;
    assert!(
        replay.starts_with(
            "setoption name Hash value 64\nucinewgame\nposition startpos moves e2e4\nisready\n"
        ),
        "{input}"
    );
}

#[test]
fn restart_is_recorded_in_the_position_log() {
    let gui = restarted("res-records");
    let exit = gui.wait_record(|r| r["kind"] == "engine-exit");
    assert_eq!(exit["reason"], "unexpected");
    assert_eq!(exit["signal"], 9);
    let start = gui.wait_record(|r| r["kind"] == "engine-start" && r["restart"] == 1);
    assert!(start["pid"].is_u64(), "{start}");
}

#[test]
fn engine_that_never_answers_isready_is_killed_and_restarted() {
    let mut gui = Gui::fake("res-hang", "[engine]\nping_timeout_ms = 300\n", &[]);
    gui.handshake();
    gui.send("ignore isready");
    gui.send("isready");
    assert_eq!(
        gui.read_until(|l| l == "readyok"),
        [
            "info string fenguard: engine hung: no readyok within 300 ms; killing it",
            "info string fenguard: engine exited (signal 9)",
            "readyok"
        ]
    );
    gui.read_until(|l| l.starts_with("info string fenguard: engine restarted (restart 1)"));
    assert_eq!(gui.sync(), ["readyok"]);
    assert_eq!(gui.go("go depth 1"), ["bestmove e2e4"]);
    let exit = gui.wait_record(|r| r["kind"] == "engine-exit");
    assert_eq!(exit["reason"], "hung");
}

#[test]
fn engine_that_always_hangs_makes_fenguard_give_up() {
    let toml = "[engine]\nping_timeout_ms = 200\nmax_restarts = 2\n";
    let mut gui = Gui::fake("res-give-up", toml, &[("FAKE_ENGINE_IGNORE", "isready")]);
    gui.send("uci");
    gui.read_until(|l| l == "uciok");
    gui.send("isready");
    let lines = gui.read_until(|l| l.ends_with("giving up"));
    let hangs = lines.iter().filter(|l| l.contains("engine hung")).count();
    assert_eq!(hangs, 3, "{lines:#?}");
    assert_eq!(
        lines.last().map(String::as_str),
        Some("info string fenguard: engine keeps exiting; giving up")
    );
    assert_eq!(gui.proxy.wait_exit().code(), Some(1));
}

#[test]
fn quit_after_a_restart_exits_with_zero() {
    let mut gui = restarted("res-quit");
    gui.send("quit");
    assert_eq!(gui.proxy.wait_exit().code(), Some(0));
}

#[test]
fn no_restarted_engine_outlives_a_sigkilled_fenguard() {
    let mut gui = restarted("res-orphan");
    let engine = engine_pid(&mut gui);
    gui.proxy.child.kill().expect("SIGKILL fenguard");
    let killed = Instant::now();
    assert!(
        wait_until(|| process_gone(engine).then_some(())).is_some(),
        "engine {engine} outlived fenguard"
    );
    assert!(
        killed.elapsed() < Duration::from_secs(1),
        "{:?}",
        killed.elapsed()
    );
}

#[test]
fn stockfish_crashing_on_a_forwarded_position_is_restarted_with_its_options() {
    let Some(mut gui) =
        Gui::stockfish_ready("res-stockfish", "[positions]\non_invalid = \"forward\"\n")
    else {
        return;
    };
    gui.send("setoption name MultiPV value 2");
    gui.send("position startpos");
    gui.sync();
    // Stockfish 15.1 segfaults on a board without kings; Stockfish 17.1+ exits by design.
    gui.send("position fen 8/8/8/8/8/8/8/8 w - - 0 1");
    let lines = gui.read_until(|l| l.starts_with("info string fenguard: engine exited ("));
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string fenguard: invalid position forwarded")),
        "{lines:#?}"
    );
    gui.read_until(|l| l.starts_with("info string fenguard: engine restarted (restart 1)"));
    assert_eq!(gui.sync(), ["readyok"]);
    // The invalid position is not restored: a go before the next position gets bestmove 0000.
    assert_eq!(gui.go("go depth 1"), ["bestmove 0000"]);
    gui.send("position startpos moves e2e4");
    let lines = gui.go("go depth 3");
    assert!(
        lines.iter().any(|l| l.contains(" multipv 2 ")),
        "MultiPV not restored: {lines:#?}"
    );
    common::assert_legal_bestmove(&lines, common::STARTPOS, &["e2e4"], false);
}

#[test]
fn engine_hung_before_uciok_is_restarted_and_the_gui_gets_its_uciok() {
    // The first engine ignores `uci`; the second (a flag file exists by then) answers it.
    let dir = common::test_dir("res-startup-hang");
    let flag = dir.join("started-once");
    let script = format!(
        "if [ -e '{flag}' ]; then exec '{engine}'; else : > '{flag}'; \
         FAKE_ENGINE_IGNORE=uci exec '{engine}'; fi",
        flag = flag.display(),
        engine = common::FAKE_ENGINE,
    );
    let config = common::write_config(&dir, "[engine]\nstartup_timeout_ms = 300\n");
    let args = [
        "--config",
        config.to_str().expect("UTF-8 path"),
        "--",
        "/bin/sh",
        "-c",
        &script,
    ];
    let mut proxy = common::Proxy::start(&dir, &args, &[]);
    proxy.send(b"uci\n");
    let out = proxy.wait_for("uciok\n");
    let text = String::from_utf8_lossy(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[..3],
        [
            "info string fenguard: engine hung: no uciok within 300 ms; killing it",
            "info string fenguard: engine exited (signal 9)",
            "id name FakeEngine"
        ]
    );
    let uciok = lines.iter().position(|l| *l == "uciok").expect("uciok");
    assert!(
        lines[..uciok].contains(&"option name fenguard CheckMoves type check default true"),
        "{lines:#?}"
    );
    proxy.send(b"isready\n");
    proxy.wait_for("readyok\n");
}
