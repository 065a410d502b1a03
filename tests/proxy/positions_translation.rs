//! Castling translation both ways (SPEC sections 6 and 7): a Chess960 GUI and a standard GUI
//! in `chess960 = "detect"` mode, in front of real Stockfish (under CI a missing Stockfish
//! fails these tests) and of the fake engine, whose record shows the exact bytes it read.

use crate::common;

use common::{Gui, bestmove_of, pv_of, starting_with};

const DETECT: &str = "[positions]\nchess960 = \"detect\"\n";

/// King d1, rook h1 (and king d8, rook h8): castling needs Chess960 rules; a standard GUI
/// writes White's O-O as `d1g1`, the engine in Chess960 mode as `d1h1`.
const D_FILE_KINGS: &str = "position fen 3k3r/8/8/8/8/8/8/3K3R w Kk - 0 1";

#[test]
fn chess960_gui_castle_is_sent_and_answered_king_takes_rook() {
    let Some(mut gui) = Gui::stockfish_ready("tr-960-gui", "") else {
        return;
    };
    gui.send("setoption name UCI_Chess960 value true");
    let (_, record) = gui.position("position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert_eq!(
        record["sent"], "position fen r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1",
        "{record}"
    );
    let lines = gui.go("go depth 4 searchmoves e1h1");
    assert_eq!(lines.last().unwrap(), "bestmove e1h1", "{lines:#?}");
    for line in &lines {
        let pv = pv_of(line);
        assert!(pv.is_empty() || pv[0] == "e1h1", "{line}");
    }
}

#[test]
fn chess960_gui_moves_list_keeps_king_takes_rook_and_shredder_fen() {
    let Some(mut gui) = Gui::stockfish_ready("tr-960-moves", "") else {
        return;
    };
    gui.send("setoption name UCI_Chess960 value true");
    let (_, record) =
        gui.position("position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 moves e1h1 e8a8");
    assert_eq!(
        record["sent"], "position fen r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1 moves e1h1 e8a8",
        "{record}"
    );
    assert_eq!(record["final_fen"], "2kr3r/8/8/8/8/8/8/R4RK1 w - - 2 2");
}

#[test]
fn detect_translates_the_standard_guis_castle_in_moves() {
    let Some(mut gui) = Gui::stockfish_ready("tr-detect-moves", DETECT) else {
        return;
    };
    let raw = format!("{D_FILE_KINGS} moves d1g1");
    let (_, record) = gui.position(&raw);
    assert_eq!(
        record["sent"], "position fen 3k3r/8/8/8/8/8/8/3K3R w Hh - 0 1 moves d1h1",
        "{record}"
    );
    assert_eq!(record["final_fen"], "3k3r/8/8/8/8/8/8/5RK1 b k - 1 1");
    assert_eq!(record["chess960"], true, "{record}");
}

#[test]
fn detect_searchmoves_castle_comes_back_in_the_guis_notation() {
    let Some(mut gui) = Gui::stockfish_ready("tr-detect-go", DETECT) else {
        return;
    };
    gui.position(D_FILE_KINGS);
    let lines = gui.go("go depth 6 searchmoves d1g1");
    assert_eq!(bestmove_of(lines.last().unwrap()), "d1g1", "{lines:#?}");
    // The engine's king-takes-rook castles never reach this GUI.
    for line in &lines {
        let pv = pv_of(line);
        assert!(
            !pv.contains(&"d1h1") && !pv.contains(&"d8h8"),
            "engine notation in {line}"
        );
        assert!(pv.is_empty() || pv[0] == "d1g1", "{line}");
    }
    assert!(lines.iter().any(|l| !pv_of(l).is_empty()), "{lines:#?}");
}

#[test]
fn detect_sends_uci_chess960_before_the_position_that_needs_it() {
    let mut gui = Gui::fake_ready("tr-detect-fake", DETECT);
    gui.position(D_FILE_KINGS);
    let engine = gui.engine_lines();
    let enable = engine
        .iter()
        .position(|l| l == "setoption name UCI_Chess960 value true")
        .unwrap_or_else(|| panic!("UCI_Chess960 never enabled: {engine:#?}"));
    let position = engine
        .iter()
        .position(|l| l == "position fen 3k3r/8/8/8/8/8/8/3K3R w Hh - 0 1")
        .unwrap_or_else(|| panic!("position not sent in Shredder form: {engine:#?}"));
    assert!(enable < position, "{engine:#?}");
    gui.wait_record(|r| r["kind"] == "chess960-enabled");
}

#[test]
fn detect_translates_searchmoves_to_king_takes_rook_for_the_engine() {
    let mut gui = Gui::fake_ready("tr-detect-searchmoves", DETECT);
    gui.position(D_FILE_KINGS);
    gui.go("go depth 2 searchmoves d1g1 d1c1");
    let engine = gui.engine_lines();
    assert!(
        engine.contains(&"go depth 2 searchmoves d1h1 d1c1".to_owned()),
        "{engine:#?}"
    );
}

#[test]
fn detect_translates_the_engines_bestmove_to_the_guis_notation() {
    let mut gui = Gui::fake(
        "tr-detect-bestmove",
        DETECT,
        &[("FAKE_ENGINE_BESTMOVE", "d1h1")],
    );
    gui.handshake();
    gui.position(D_FILE_KINGS);
    let lines = gui.go("go depth 2");
    assert_eq!(lines.last().unwrap(), "bestmove d1g1", "{lines:#?}");
}

#[test]
fn detect_translates_the_engines_ponder_move_too() {
    // After Kc1, Black may castle: the engine's d8h8 is the GUI's d8g8.
    let mut gui = Gui::fake(
        "tr-detect-ponder",
        DETECT,
        &[("FAKE_ENGINE_BESTMOVE", "d1c1 ponder d8h8")],
    );
    gui.handshake();
    gui.position(D_FILE_KINGS);
    let lines = gui.go("go depth 2");
    assert_eq!(
        lines.last().unwrap(),
        "bestmove d1c1 ponder d8g8",
        "{lines:#?}"
    );
}

const R07: &str = "position fen 4rkr1/4p1p1/8/8/8/8/8/5K1R w K - 0 1";

#[test]
fn detect_gui_f1g1_next_to_the_rook_is_the_ordinary_king_move() {
    let mut gui = Gui::fake_ready("tr-detect-kg1", DETECT);
    let (_, record) = gui.position(&format!("{R07} moves f1g1"));
    assert_eq!(
        record["sent"], "position fen 4rkr1/4p1p1/8/8/8/8/8/5K1R w H - 0 1 moves f1g1",
        "{record}"
    );
    assert_eq!(record["final_fen"], "4rkr1/4p1p1/8/8/8/8/8/6KR b - - 1 1");
    let diagnostics = record["diagnostics"].as_array().expect("diagnostics");
    assert!(
        diagnostics
            .iter()
            .any(|d| d["code"] == "ambiguous-castling-move" && d["severity"] == "warning"),
        "{record}"
    );
}

#[test]
fn detect_gui_king_takes_rook_is_castling() {
    let mut gui = Gui::fake_ready("tr-detect-f1h1", DETECT);
    let (_, record) = gui.position(&format!("{R07} moves f1h1"));
    assert_eq!(
        record["sent"], "position fen 4rkr1/4p1p1/8/8/8/8/8/5K1R w H - 0 1 moves f1h1",
        "{record}"
    );
    assert_eq!(record["final_fen"], "4rkr1/4p1p1/8/8/8/8/8/5RK1 b - - 1 1");
}

#[test]
fn standard_gui_king_takes_rook_reaches_the_engine_as_e1g1() {
    let mut gui = Gui::fake_ready("tr-r08-bytes", "");
    gui.position("position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 4 1 moves e1h1");
    assert!(
        gui.engine_input()
            .contains("\nposition fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 4 1 moves e1g1\n"),
        "{}",
        gui.engine_input()
    );
}

/// White has castled (`e1g1`); Black may castle next.
/// White has castled (`e1g1`); Black may castle next.
const ITALIAN_O_O: &str = "position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 f8c5 e1g1 g8f6 d2d3";

#[test]
fn detect_keeps_translating_standard_games_once_the_engine_is_in_chess960() {
    let mut gui = Gui::fake_ready("tr-detect-later", DETECT);
    gui.position(D_FILE_KINGS);
    let (_, record) = gui.position(ITALIAN_O_O);
    assert_eq!(
        record["sent"], "position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 f8c5 e1h1 g8f6 d2d3",
        "{record}"
    );
}

#[test]
fn detect_standard_castle_after_the_switch_comes_back_standard_from_stockfish() {
    let Some(mut gui) = Gui::stockfish_ready("tr-detect-later-sf", DETECT) else {
        return;
    };
    gui.position(D_FILE_KINGS);
    gui.position(ITALIAN_O_O);
    let lines = gui.go("go depth 4 searchmoves e8g8");
    assert_eq!(
        lines.last().map(|l| bestmove_of(l)),
        Some("e8g8"),
        "{lines:#?}"
    );
    for line in &lines {
        let pv = pv_of(line);
        assert!(pv.is_empty() || pv[0] == "e8g8", "{line}");
    }
}

#[test]
fn gui_mode_keeps_the_engine_standard_and_drops_the_chess960_right() {
    let mut gui = Gui::fake_ready("tr-gui-mode", "");
    let (lines, record) = gui.position(D_FILE_KINGS);
    assert_eq!(
        record["sent"],
        "position fen 3k3r/8/8/8/8/8/8/3K3R w - - 0 1"
    );
    assert_eq!(
        starting_with(
            &lines,
            "info string fenguard: repaired position: castling-needs-chess960: "
        )
        .len(),
        2,
        "{lines:#?}"
    );
    let engine = gui.engine_input();
    assert!(!engine.contains("UCI_Chess960"), "{engine}");
}

#[test]
fn uci_chess960_option_name_and_value_compare_case_insensitively() {
    let mut gui = Gui::fake_ready("tr-case", "");
    gui.send("setoption name uci_chess960 value TRUE");
    let (_, record) = gui.position("position fen 4k3/8/8/8/8/8/8/4KR2 w K - 0 1 moves e1f1");
    assert_eq!(
        record["sent"], "position fen 4k3/8/8/8/8/8/8/4KR2 w F - 0 1 moves e1f1",
        "{record}"
    );
    assert_eq!(record["verdict"], "valid", "{record}");
}

#[cfg(unix)]
#[test]
fn chess960_position_for_an_engine_without_uci_chess960_is_rejected() {
    use common::rejected;
    use serde_json::Value;

    let mut gui = Gui::fake_without_chess960("tr-lacks-960");
    let options = gui.handshake();
    assert!(
        !options.iter().any(|l| l.contains("UCI_Chess960")),
        "{options:#?}"
    );
    gui.send("setoption name UCI_Chess960 value true");
    let (lines, record) = gui.position("position fen 4k3/8/8/8/8/8/8/4KR2 w K - 0 1");
    assert_eq!(
        starting_with(&lines, &rejected("engine-lacks-chess960")).len(),
        1,
        "{lines:#?}"
    );
    assert_eq!(record["sent"], Value::Null, "{record}");
    assert_eq!(gui.go("go depth 1"), ["bestmove 0000"]);
    let engine = gui.engine_input();
    assert!(!engine.contains("position"), "{engine}");
    assert!(!engine.contains("go"), "{engine}");
}

#[test]
fn chess960_gui_startpos_stays_startpos_with_king_takes_rook() {
    let mut gui = Gui::fake_ready("tr-960-startpos", "");
    gui.send("setoption name UCI_Chess960 value true");
    let raw = "position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 f8c5 e1h1";
    let (_, record) = gui.position(raw);
    assert_eq!(record["sent"], raw, "{record}");
    assert_eq!(
        record["final_fen"],
        "r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1 b kq - 5 4"
    );
}

#[test]
fn chess960_value_true_in_any_case_puts_stockfish_in_chess960_mode() {
    let Some(mut gui) = Gui::stockfish_ready("tr-960-True", "") else {
        return;
    };
    // Stockfish 15.1 ignores `value True`: fenguard sends `value true`.
    gui.send("setoption name UCI_Chess960 value True");
    gui.position("position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 moves e1h1");
    let lines = gui.go("go depth 5");
    assert!(
        !lines.iter().any(|l| l.contains("illegal-bestmove")),
        "{lines:#?}"
    );
    let best = bestmove_of(lines.last().unwrap()).to_owned();
    let board = "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1";
    assert!(
        common::legal_uci(board, &[], true).contains(&best),
        "{best} in {board}"
    );
}
