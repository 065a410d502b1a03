//! The position log and the engine's answers checked (SPEC sections 6 and 8): `position` and
//! `search` records, `sent` equal to the engine's bytes, `LogPositions`, `illegal-bestmove`.
//! Driven through pipes around the fake engine, whose record (`FAKE_ENGINE_RECORD`) shows
//! exactly what it read.

use crate::common;

use common::{Gui, starting_with};
use serde_json::Value;

const R03: &str = "position fen 2k5/8/3K4/1p6/p7/P7/1B6/8 b KQkq - 0 1";

#[test]
fn setoption_fenguard_log_positions_false_stops_position_records() {
    let mut gui = Gui::fake_ready("opt-no-log", "");
    gui.position("position startpos moves e2e4");
    gui.send("setoption name fenguard LogPositions value false");
    gui.send("position startpos moves d2d4");
    gui.sync();
    assert_eq!(
        gui.positions_sent(),
        [
            "position startpos moves e2e4",
            "position startpos moves d2d4"
        ]
    );
    // The first position is logged; give the writer time, then the second must be missing.
    gui.position_record("position startpos moves e2e4");
    gui.go("go depth 1");
    std::thread::sleep(std::time::Duration::from_millis(500));
    let records = gui.records();
    assert!(
        !records
            .iter()
            .any(|r| r["raw"] == "position startpos moves d2d4"),
        "{records:#?}"
    );
}

#[test]
fn search_record_links_go_and_bestmove_to_its_position() {
    let mut gui = Gui::fake_ready("rec-search", "");
    let (_, position) = gui.position("position startpos moves e2e4 e7e5");
    gui.go("go depth 1");
    let search = gui.wait_record(|r| r["kind"] == "search");
    assert_eq!(search["position_seq"], position["seq"], "{search}");
    assert_eq!(search["go"], "go depth 1", "{search}");
    assert_eq!(search["bestmove"], "e2e4", "{search}");
    assert_eq!(search["ponder"], Value::Null, "{search}");
    assert!(search["elapsed_ms"].is_u64(), "{search}");
    assert!(
        search["seq"].as_u64() > position["seq"].as_u64(),
        "{search}"
    );
}

#[test]
fn position_record_has_every_field() {
    let mut gui = Gui::fake_ready("rec-position", "");
    let raw =
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 moves e2e4 e7e5";
    let (_, record) = gui.position(raw);
    assert!(record["ts"].is_string(), "{record}");
    assert!(record["session"].is_string(), "{record}");
    assert!(record["seq"].is_u64(), "{record}");
    assert_eq!(record["raw"], raw);
    assert_eq!(record["verdict"], "valid");
    assert_eq!(record["diagnostics"], serde_json::json!([]));
    assert_eq!(
        record["fen_in"],
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    );
    assert_eq!(record["moves_in"], serde_json::json!(["e2e4", "e7e5"]));
    assert_eq!(record["moves_out"], serde_json::json!(["e2e4", "e7e5"]));
    assert_eq!(record["chess960"], false);
    assert_eq!(
        record["final_fen"],
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    );
    assert_eq!(record["sent"], raw);
}

#[test]
fn illegal_bestmove_is_relayed_and_reported() {
    let mut gui = Gui::fake("illegal-bestmove", "", &[("FAKE_ENGINE_BESTMOVE", "e2e5")]);
    gui.handshake();
    gui.position("position startpos");
    let mut lines = gui.go("go depth 1");
    assert_eq!(lines.last().unwrap(), "bestmove e2e5", "{lines:#?}");
    // The report may come just before or just after the relayed bestmove.
    lines.extend(gui.sync());
    assert_eq!(
        starting_with(&lines, "info string fenguard: illegal-bestmove: ").len(),
        1,
        "{lines:#?}"
    );
}

#[test]
fn sent_field_is_exactly_what_the_engine_read() {
    let mut gui = Gui::fake_ready("rec-sent-bytes", "");
    let rows = [
        R03,
        "position fen 3qk1nb/1p3p2/p1r1p1p1/3p4/3P4/2N1BP2/PPPQ1P2/R3K3 w Qk - 0 15",
        "position fen k7/8/8/3pP3/8/7n/5K2/8 w - d6 0 1",
        "position fen 5rk1/2p4p/2p4r/3P4/4p1b1/1Q2NqPp/PP3P1K/R4R2 b - - moves",
        "position fen 3r4/p2nrpkp/2B1p3/2P2pP1/3R3Q/q7/6PP/6RK w - - 0 0",
        "position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 4 1 moves e1h1",
    ];
    let mut expected = String::new();
    for raw in rows {
        let (_, record) = gui.position(raw);
        let sent = record["sent"].as_str().expect("sent");
        expected.push_str(&format!("{sent}\n"));
    }
    let engine: String = gui
        .engine_input()
        .split_inclusive('\n')
        .filter(|l| l.starts_with("position"))
        .collect();
    assert_eq!(engine, expected);
}

#[test]
fn illegal_ponder_is_relayed_and_reported() {
    let mut gui = Gui::fake(
        "illegal-ponder",
        "",
        &[("FAKE_ENGINE_BESTMOVE", "e2e4 ponder e2e4")],
    );
    gui.handshake();
    gui.position("position startpos");
    let mut lines = gui.go("go depth 1");
    assert_eq!(
        lines.last().unwrap(),
        "bestmove e2e4 ponder e2e4",
        "{lines:#?}"
    );
    lines.extend(gui.sync());
    assert_eq!(
        starting_with(&lines, "info string fenguard: illegal-bestmove: ").len(),
        1,
        "{lines:#?}"
    );
}
