//! `[search] hold_early_bestmove` (SPEC section 15): a `bestmove` during `go ponder` / `go
//! infinite` held until `ponderhit` / `stop`, against the fake engine taught to end ponder
//! early (`FAKE_ENGINE_FAULTS=ponder-early`).

use std::time::Duration;

use crate::common::{Gui, starting_with};

const EARLY: &[(&str, &str)] = &[("FAKE_ENGINE_FAULTS", "ponder-early")];

/// The engine answers `go ponder` at once; the GUI sees nothing until its `ponderhit`, which
/// is answered with the held `bestmove` and not forwarded.
#[test]
fn early_bestmove_is_held_until_ponderhit() {
    let mut gui = Gui::fake("ponder_hit", "", EARLY);
    gui.handshake();
    gui.send("position startpos moves e2e4");
    gui.send("go ponder wtime 1000 btime 1000");
    // The engine has answered (its input is read) while the GUI got nothing but `readyok`.
    let lines = gui.sync();
    assert!(starting_with(&lines, "bestmove").is_empty(), "{lines:#?}");
    std::thread::sleep(Duration::from_millis(200));
    let lines = gui.sync();
    assert!(starting_with(&lines, "bestmove").is_empty(), "{lines:#?}");
    gui.send("ponderhit");
    let lines = gui.read_until_prefix("bestmove ");
    assert_eq!(lines.last().map(String::as_str), Some("bestmove e2e4"));
    gui.sync();
    assert!(
        !gui.engine_input().contains("ponderhit"),
        "{}",
        gui.engine_input()
    );
}

/// `go infinite` answered at once is held until `stop`.
#[test]
fn early_bestmove_is_held_until_stop() {
    let mut gui = Gui::fake("ponder_stop", "", EARLY);
    gui.handshake();
    gui.send("go infinite");
    let lines = gui.sync();
    assert!(starting_with(&lines, "bestmove").is_empty(), "{lines:#?}");
    gui.send("stop");
    let lines = gui.read_until_prefix("bestmove ");
    assert_eq!(lines.last().map(String::as_str), Some("bestmove e2e4"));
}

/// Turned off, the engine's early `bestmove` reaches the GUI at once, as from the bare engine.
#[test]
fn off_relays_the_early_bestmove_at_once() {
    let mut gui = Gui::fake(
        "ponder_off",
        "[search]\nhold_early_bestmove = false\n",
        EARLY,
    );
    gui.handshake();
    gui.send("go infinite");
    let lines = gui.read_until_prefix("bestmove ");
    assert_eq!(lines.last().map(String::as_str), Some("bestmove e2e4"));
}

/// An engine that keeps the rule is not affected: `stop` is forwarded and answered.
#[test]
fn a_well_behaved_engine_is_stopped_as_before() {
    let mut gui = Gui::fake_ready("ponder_fine", "");
    gui.send("go infinite");
    gui.sync();
    gui.send("stop");
    gui.read_until_prefix("bestmove ");
    assert!(
        gui.engine_input().contains("stop\n"),
        "{}",
        gui.engine_input()
    );
}

/// The engine crashes while its early `bestmove` is held: the GUI gets that move at once (as
/// every search lost with its engine is answered at once), not fenguard's `bestmove 0000`, and
/// the record does not call it fenguard's. The GUI's `ponderhit` then is not forwarded.
#[test]
fn a_held_bestmove_survives_the_engine_crashing() {
    let mut gui = Gui::fake("ponder_crash", "", EARLY);
    gui.handshake();
    gui.send("position startpos moves e2e4");
    gui.send("go ponder wtime 1000 btime 1000");
    let lines = gui.sync();
    assert!(starting_with(&lines, "bestmove").is_empty(), "{lines:#?}");
    gui.send("crash");
    let lines = gui.read_until_prefix("bestmove ");
    assert_eq!(
        lines.last().map(String::as_str),
        Some("bestmove e2e4"),
        "{lines:#?}"
    );
    assert!(!lines.iter().any(|l| l == "bestmove 0000"), "{lines:#?}");
    let search = gui.wait_record(|r| r["kind"] == "search");
    assert_eq!(search["bestmove"], "e2e4", "{search:#}");
    assert!(search.get("fenguard_answer").is_none(), "{search:#}");
}
