//! Issue 21, "never worse: fix these first", through the binary: what a GUI sees for
//! `bestmove ... ponder 0000` and for `go searchmoves 0000`.

mod common;

use common::Gui;

#[test]
fn ponder_0000_reaches_the_gui_unjudged() {
    let mut gui = Gui::fake(
        "nw-ponder-0000",
        "",
        &[("FAKE_ENGINE_BESTMOVE", "e2e4 ponder 0000")],
    );
    gui.handshake();
    gui.position("position startpos");
    let lines = gui.go("go depth 1");
    assert_eq!(lines, ["bestmove e2e4 ponder 0000"], "{lines:#?}");
    let search = gui.wait_record(|r| r["kind"] == "search");
    assert_eq!(search["diagnostics"], serde_json::json!([]), "{search}");
    assert_eq!(search["ponder"], "0000", "{search}");
}

#[test]
fn searchmoves_0000_is_answered_as_stockfish_answers_it() {
    let Some(mut gui) = Gui::stockfish_ready("nw-searchmoves-0000", "") else {
        return;
    };
    gui.position("position startpos");
    // Stockfish 15.1 alone: `info depth 0 score cp 0`, `bestmove (none)`.
    let lines = gui.go("go depth 1 searchmoves 0000");
    assert_eq!(lines.last().map(String::as_str), Some("bestmove (none)"));
    assert!(!lines.iter().any(|l| l.contains("fenguard")), "{lines:#?}");
    let lines = gui.go("go depth 2 searchmoves 0000 e2e4");
    assert_eq!(
        lines.last().map(String::as_str),
        Some("bestmove e2e4"),
        "{lines:#?}"
    );
    assert!(!lines.iter().any(|l| l.contains("fenguard")), "{lines:#?}");
}
