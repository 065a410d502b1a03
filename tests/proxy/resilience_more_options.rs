//! The built fenguard when a `setoption` makes the engine exit: the option is found, no longer
//! restored, and the restart succeeds (fake engine and real Stockfish; Linux).
#![cfg(target_os = "linux")]

use crate::common;

use common::Gui;

const DEBUG_LOG: &str = "setoption name Debug Log File value /nonexistent/dir/x.log";
const DROPPED: &str = "info string fenguard: setoption Debug Log File made the engine exit; it is not restored any more";

fn fake_dying_on_debug_log(name: &str) -> Gui {
    let env = [
        ("FAKE_ENGINE_DIE_ON_OPTION", "Debug Log File"),
        ("FAKE_ENGINE_ECHO_OPTIONS", "1"),
    ];
    let mut gui = Gui::fake(name, "", &env);
    gui.handshake();
    gui
}

#[test]
fn setoption_that_kills_the_engine_is_dropped_and_the_second_restart_succeeds() {
    let mut gui = fake_dying_on_debug_log("more-option-fake");
    gui.send("setoption name Hash value 64");
    gui.send(DEBUG_LOG);
    gui.send("isready");
    let lines = gui.read_until(|l| l.starts_with("info string fenguard: engine restarted"));
    assert_eq!(
        lines,
        [
            "info string option Hash = 64",
            "info string fenguard: engine exited (status 1)",
            "readyok",
            "info string fenguard: engine exited (status 1)",
            DROPPED,
            "info string fenguard: engine restarted (restart 2): options restored"
        ]
    );
}

#[test]
fn engine_after_the_dropped_setoption_keeps_the_other_options() {
    let mut gui = fake_dying_on_debug_log("more-option-kept");
    gui.send("setoption name Hash value 64");
    gui.send(DEBUG_LOG);
    gui.send("isready");
    gui.read_until(|l| l.starts_with("info string fenguard: engine restarted"));
    assert_eq!(
        gui.go("go depth 1"),
        ["info string option Hash=64", "bestmove e2e4"]
    );
    let input = gui.engine_input();
    let last_replay = input.rsplit_once("uci\n").expect("a uci").1;
    assert!(
        last_replay.starts_with("setoption name Hash value 64\nisready\ngo depth 1\n"),
        "{input}"
    );
}

#[test]
fn stockfish_exiting_on_a_setoption_is_restarted_without_it() {
    let Some(mut gui) = Gui::stockfish_ready("more-option-stockfish", "") else {
        return;
    };
    gui.send(DEBUG_LOG);
    gui.send("isready");
    let lines = gui.read_until(|l| l.starts_with("info string fenguard: engine restarted"));
    assert!(lines.iter().any(|l| l == DROPPED), "{lines:#?}");
    assert_eq!(
        lines.last().map(String::as_str),
        Some("info string fenguard: engine restarted (restart 2): options restored")
    );
    gui.send("position startpos moves e2e4");
    let lines = gui.go("go depth 5");
    common::assert_legal_bestmove(&lines, common::STARTPOS, &["e2e4"], false);
}
