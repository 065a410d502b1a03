//! Rows R01–R07 of `shared/cases/public-reports.md` end to end: the built fenguard in front of
//! real Stockfish, driven through pipes like a GUI. The expected values are the rows': the
//! line sent to the engine (read back from `positions.jsonl`), the GUI-side `info string` and
//! `bestmove`. Under CI (`CI=true`) a missing Stockfish fails these tests.

use crate::common;

use common::{
    Gui, STARTPOS, assert_legal_bestmove, bestmove_of, codes, pv_of, rejected, repaired,
    starting_with,
};
use serde_json::Value;

/// Sends `raw`, then checks it was rejected with `code`: one `info string`, nothing sent.
fn expect_rejected(gui: &mut Gui, raw: &str, code: &str) {
    let (lines, record) = gui.position(raw);
    assert_eq!(
        starting_with(&lines, &rejected(code)).len(),
        1,
        "GUI lines: {lines:#?}"
    );
    assert_eq!(record["verdict"], "rejected", "{record}");
    assert_eq!(record["sent"], Value::Null, "{record}");
    assert!(
        codes(&record, "error").iter().any(|c| c == code),
        "{record}"
    );
}

const R01: &str = "position fen 4k3/8/8/8/8/8/8/8 w - - 0 1";

#[test]
fn r01_missing_king_is_rejected() {
    let Some(mut gui) = Gui::stockfish_ready("r01-reject", "") else {
        return;
    };
    expect_rejected(&mut gui, R01, "missing-king");
}

#[test]
fn r01_go_after_rejected_position_is_answered_bestmove_0000() {
    let Some(mut gui) = Gui::stockfish_ready("r01-go", "") else {
        return;
    };
    gui.position(R01);
    let lines = gui.go("go depth 1");
    assert_eq!(lines, ["bestmove 0000"]);
}

#[test]
fn r01_engine_survives_and_searches_the_next_valid_position() {
    let Some(mut gui) = Gui::stockfish_ready("r01-alive", "") else {
        return;
    };
    gui.position(R01);
    gui.go("go depth 1");
    gui.expect_sent(
        "position startpos moves e2e4",
        "valid",
        "position startpos moves e2e4",
    );
    let lines = gui.go("go depth 5");
    assert_legal_bestmove(&lines, STARTPOS, &["e2e4"], false);
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 5 ")),
        "the engine searched: {lines:#?}"
    );
}

#[test]
fn r02_side_not_to_move_in_check_is_rejected_opposite_check() {
    let Some(mut gui) = Gui::stockfish_ready("r02", "") else {
        return;
    };
    expect_rejected(
        &mut gui,
        "position fen 5k1r/2q3p1/p3p2p/1B3p1Q/n4P2/6P1/bbP2N1P/1K1RR3 b - - 0 1",
        "opposite-check",
    );
    assert_eq!(gui.go("go depth 1"), ["bestmove 0000"]);
}

#[test]
fn r03_rights_of_missing_kings_and_rooks_are_dropped() {
    let Some(mut gui) = Gui::stockfish_ready("r03", "") else {
        return;
    };
    let (lines, _) = gui.expect_sent(
        "position fen 2k5/8/3K4/1p6/p7/P7/1B6/8 b KQkq - 0 1 moves",
        "repaired",
        "position fen 2k5/8/3K4/1p6/p7/P7/1B6/8 b - - 0 1",
    );
    // One report per dropped right: K and k have no rook on h1/h8 (errors, repaired); Q and q
    // have no rook at all on their side (warnings: the right is ignored).
    let reports: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info string fenguard: ") && l.contains(": castling-without-"))
        .collect();
    assert_eq!(reports.len(), 4, "GUI lines: {lines:#?}");
    assert_eq!(
        starting_with(&lines, &repaired("castling-without-rook")).len(),
        2,
        "{lines:#?}"
    );
}

#[test]
fn r03_repaired_position_is_searched() {
    let Some(mut gui) = Gui::stockfish_ready("r03-go", "") else {
        return;
    };
    gui.position("position fen 2k5/8/3K4/1p6/p7/P7/1B6/8 b KQkq - 0 1 moves");
    let lines = gui.go("go depth 5");
    assert_legal_bestmove(&lines, "2k5/8/3K4/1p6/p7/P7/1B6/8 b - - 0 1", &[], false);
}

#[test]
fn r04_right_whose_rook_square_holds_a_bishop_is_dropped() {
    let Some(mut gui) = Gui::stockfish_ready("r04", "") else {
        return;
    };
    let (lines, _) = gui.expect_sent(
        "position fen 3qk1nb/1p3p2/p1r1p1p1/3p4/3P4/2N1BP2/PPPQ1P2/R3K3 w Qk - 0 15",
        "repaired",
        "position fen 3qk1nb/1p3p2/p1r1p1p1/3p4/3P4/2N1BP2/PPPQ1P2/R3K3 w Q - 0 15",
    );
    assert_eq!(
        starting_with(&lines, &repaired("castling-without-rook")).len(),
        1,
        "{lines:#?}"
    );
}

#[test]
fn r05_right_whose_rook_square_holds_a_white_queen_is_dropped() {
    let Some(mut gui) = Gui::stockfish_ready("r05", "") else {
        return;
    };
    let (lines, _) = gui.expect_sent(
        "position fen rnb1kb1Q/1p1qp2p/p3p1p1/2pp4/8/8/PPPP1PPP/RNB1K1NR b KQkq - 1 10",
        "repaired",
        "position fen rnb1kb1Q/1p1qp2p/p3p1p1/2pp4/8/8/PPPP1PPP/RNB1K1NR b KQq - 1 10",
    );
    assert_eq!(
        starting_with(&lines, &repaired("castling-without-rook")).len(),
        1,
        "{lines:#?}"
    );
    // The engine answers `go` (one engine never did).
    let lines = gui.go("go depth 3");
    let fen = "rnb1kb1Q/1p1qp2p/p3p1p1/2pp4/8/8/PPPP1PPP/RNB1K1NR b KQq - 1 10";
    assert_legal_bestmove(&lines, fen, &[], false);
}

#[test]
fn r06_chess960_q_is_the_b1_rook_and_is_sent_in_shredder_form() {
    let Some(mut gui) = Gui::stockfish_ready("r06", "") else {
        return;
    };
    gui.send("setoption name UCI_Chess960 value true");
    let (lines, _) = gui.expect_sent(
        "position fen 4k3/pppppppp/8/8/8/8/PPPPPPPP/rR2K3 w Q - 0 1",
        "valid",
        "position fen 4k3/pppppppp/8/8/8/8/PPPPPPPP/rR2K3 w B - 0 1",
    );
    assert!(
        starting_with(&lines, "info string fenguard:").is_empty(),
        "{lines:#?}"
    );
    let record = gui.position_record("position fen 4k3/pppppppp/8/8/8/8/PPPPPPPP/rR2K3 w Q - 0 1");
    assert_eq!(
        record["final_fen"],
        "4k3/pppppppp/8/8/8/8/PPPPPPPP/rR2K3 w Q - 0 1"
    );
    assert_eq!(record["chess960"], true);
}

const R07: &str = "position fen 4rkr1/4p1p1/8/8/8/8/8/5K1R w K - 0 1";

#[test]
fn r07_chess960_right_without_uci_chess960_is_dropped() {
    let Some(mut gui) = Gui::stockfish_ready("r07-gui", "") else {
        return;
    };
    let (lines, _) = gui.expect_sent(
        R07,
        "repaired",
        "position fen 4rkr1/4p1p1/8/8/8/8/8/5K1R w - - 0 1",
    );
    assert_eq!(
        starting_with(&lines, &repaired("castling-needs-chess960")).len(),
        1,
        "{lines:#?}"
    );
}

#[test]
fn r07_detect_switches_the_engine_to_chess960() {
    let Some(mut gui) = Gui::stockfish_ready("r07-detect", "[positions]\nchess960 = \"detect\"\n")
    else {
        return;
    };
    gui.expect_sent(
        R07,
        "valid",
        "position fen 4rkr1/4p1p1/8/8/8/8/8/5K1R w H - 0 1",
    );
    gui.wait_record(|r| r["kind"] == "chess960-enabled");
}

#[test]
fn r07_detect_castling_mate_reaches_the_gui_as_king_takes_rook() {
    let Some(mut gui) = Gui::stockfish_ready("r07-mate", "[positions]\nchess960 = \"detect\"\n")
    else {
        return;
    };
    gui.position(R07);
    let lines = gui.go("go depth 5");
    assert_eq!(
        lines.last().map(|l| bestmove_of(l)),
        Some("f1h1"),
        "{lines:#?}"
    );
    // The mate is found at depth 1: every pv starts with it, in king-takes-rook form (`f1g1`
    // would read as Kg1).
    let pvs: Vec<Vec<&str>> = lines
        .iter()
        .map(|l| pv_of(l))
        .filter(|pv| !pv.is_empty())
        .collect();
    assert!(!pvs.is_empty(), "{lines:#?}");
    for pv in &pvs {
        assert_eq!(pv[0], "f1h1", "{lines:#?}");
    }
    let logged = common::wait_until(|| {
        let logs = gui.proxy.log("positions.jsonl") + &gui.proxy.log("fenguard.log");
        logs.contains("ambiguous-castling-move").then_some(())
    });
    assert!(
        logged.is_some(),
        "ambiguous-castling-move in neither positions.jsonl nor fenguard.log: {}",
        gui.proxy.log("positions.jsonl")
    );
}

#[test]
fn r07_detect_searchmoves_f1g1_is_the_ordinary_king_move() {
    // Kg1 and the standard form of O-O are the same text: it is the king move (SPEC 7).
    let Some(mut gui) = Gui::stockfish_ready("r07-kg1", "[positions]\nchess960 = \"detect\"\n")
    else {
        return;
    };
    gui.position(R07);
    let lines = gui.go("go depth 3 searchmoves f1g1");
    assert_eq!(
        lines.last().map(|l| bestmove_of(l)),
        Some("f1g1"),
        "{lines:#?}"
    );
}
