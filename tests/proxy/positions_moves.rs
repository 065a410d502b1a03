//! Rows R08–R11 of `shared/cases/public-reports.md` end to end (the `moves` list and
//! `searchmoves`): the built fenguard in front of real Stockfish, driven through pipes like a
//! GUI. Under CI (`CI=true`) a missing Stockfish fails these tests.

use crate::common;

use common::{Gui, assert_legal_bestmove, rejected, starting_with};
use serde_json::Value;

/// fenguard in front of Stockfish after `uci`/`isready`, with UCI_Chess960 set when `chess960`.
fn stockfish(name: &str, chess960: bool) -> Option<Gui> {
    let mut gui = Gui::stockfish_ready(name, "")?;
    if chess960 {
        gui.send("setoption name UCI_Chess960 value true");
    }
    Some(gui)
}

/// Sends `raw`; checks the record's `sent`, `final_fen` and verdict `valid`.
fn expect_valid(gui: &mut Gui, raw: &str, sent: &str, final_fen: &str) {
    let (lines, record) = gui.position(raw);
    assert_eq!(record["sent"], sent, "{record}");
    assert_eq!(record["final_fen"], final_fen, "{record}");
    assert_eq!(record["verdict"], "valid", "{record}");
    assert!(
        starting_with(&lines, "info string fenguard: rejected").is_empty(),
        "{lines:#?}"
    );
}

const R08: &str = "position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 4 1 moves e1h1";
const R08_FINAL: &str = "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 5 1";

#[test]
fn r08_king_takes_rook_castle_is_sent_as_the_kings_two_square_move() {
    let Some(mut gui) = stockfish("r08", false) else {
        return;
    };
    expect_valid(
        &mut gui,
        R08,
        "position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 4 1 moves e1g1",
        R08_FINAL,
    );
}

#[test]
fn r08_engine_searches_the_castled_position() {
    let Some(mut gui) = stockfish("r08-go", false) else {
        return;
    };
    gui.position(R08);
    let lines = gui.go("go depth 5");
    assert_legal_bestmove(&lines, R08_FINAL, &[], false);
}

#[test]
fn r09_chess960_castle_with_the_king_staying_on_g1() {
    let Some(mut gui) = stockfish("r09-g1h1", true) else {
        return;
    };
    expect_valid(
        &mut gui,
        "position fen 4k3/8/8/8/8/8/8/6KR w K - 0 1 moves g1h1",
        "position fen 4k3/8/8/8/8/8/8/6KR w H - 0 1 moves g1h1",
        "4k3/8/8/8/8/8/8/5RK1 b - - 1 1",
    );
    let lines = gui.go("go depth 5");
    assert_legal_bestmove(&lines, "4k3/8/8/8/8/8/8/5RK1 b - - 1 1", &[], true);
}

#[test]
fn r09_chess960_king_b1_to_c1_is_a_king_move() {
    let Some(mut gui) = stockfish("r09-b1c1", true) else {
        return;
    };
    expect_valid(
        &mut gui,
        "position fen 4k3/8/8/8/8/8/8/RK6 w Q - 0 1 moves b1c1",
        "position fen 4k3/8/8/8/8/8/8/RK6 w A - 0 1 moves b1c1",
        "4k3/8/8/8/8/8/8/R1K5 b - - 1 1",
    );
}

#[test]
fn r09_chess960_king_b1_takes_a1_is_queenside_castling() {
    let Some(mut gui) = stockfish("r09-b1a1", true) else {
        return;
    };
    expect_valid(
        &mut gui,
        "position fen 4k3/8/8/8/8/8/8/RK6 w Q - 0 1 moves b1a1",
        "position fen 4k3/8/8/8/8/8/8/RK6 w A - 0 1 moves b1a1",
        "4k3/8/8/8/8/8/8/2KR4 b - - 1 1",
    );
}

#[test]
fn r09_chess960_king_e1_takes_f1_is_kingside_castling() {
    let Some(mut gui) = stockfish("r09-e1f1", true) else {
        return;
    };
    expect_valid(
        &mut gui,
        "position fen 4k3/8/8/8/8/8/8/4KR2 w K - 0 1 moves e1f1",
        "position fen 4k3/8/8/8/8/8/8/4KR2 w F - 0 1 moves e1f1",
        "4k3/8/8/8/8/8/8/5RK1 b - - 1 1",
    );
}

const R10: &str = "position startpos moves e2e4 e7e6 d2d4 d7d5 c1e3 d5e4 b1d2 g8f6 c2c3 f8e7 \
                   d1c2 f6d5 d2e4 f7f5 e4g3 f5f4 e3d2 f4g3 h2g3 g7g6";

#[test]
fn r10_move_list_is_forwarded_as_given() {
    let Some(mut gui) = stockfish("r10-sent", false) else {
        return;
    };
    expect_valid(
        &mut gui,
        R10,
        R10,
        "rnbqk2r/ppp1b2p/4p1p1/3n4/3P4/2P3P1/PPQB1PP1/R3KBNR w KQkq - 0 11",
    );
}

#[test]
fn r10_searchmoves_queenside_castle_is_the_bestmove() {
    let Some(mut gui) = stockfish("r10-go", false) else {
        return;
    };
    let (_, position) = gui.position(R10);
    let lines = gui.go("go nodes 1 searchmoves e1c1");
    assert_eq!(lines.last().unwrap(), "bestmove e1c1", "{lines:#?}");
    let search = gui.wait_record(|r| r["kind"] == "search" && r["bestmove"] != Value::Null);
    assert_eq!(search["position_seq"], position["seq"], "{search}");
    assert_eq!(search["bestmove"], "e1c1", "{search}");
}

#[test]
fn r10_searchmoves_king_takes_rook_is_translated_for_the_standard_engine() {
    let Some(mut gui) = stockfish("r10-e1a1", false) else {
        return;
    };
    gui.position(R10);
    let lines = gui.go("go nodes 1 searchmoves e1a1");
    assert_eq!(lines.last().unwrap(), "bestmove e1c1", "{lines:#?}");
}

const R11: &str = "position fen r4rk1/1R5p/3p1q2/p1pP4/P7/7P/6P1/1R1Q3K b - - 0 24 moves b8e8";

#[test]
fn r11_move_from_an_empty_square_is_rejected_naming_the_move_and_position() {
    let Some(mut gui) = stockfish("r11", false) else {
        return;
    };
    let (lines, record) = gui.position(R11);
    let reports = starting_with(&lines, &rejected("illegal-move"));
    assert_eq!(reports.len(), 1, "{lines:#?}");
    let message = reports[0];
    assert!(message.contains("move 1"), "{message}");
    assert!(message.contains("b8e8"), "{message}");
    assert!(
        message.contains("r4rk1/1R5p/3p1q2/p1pP4/P7/7P/6P1/1R1Q3K b - - 0 24"),
        "{message}"
    );
    assert_eq!(record["verdict"], "rejected", "{record}");
    assert_eq!(record["sent"], Value::Null, "{record}");
    assert_eq!(gui.go("go depth 1"), ["bestmove 0000"]);
}

#[test]
fn r11_illegal_move_is_not_cut_under_repair() {
    // An illegal move later in the list is still a rejection: cutting the list would have the
    // engine search a position the GUI does not have.
    let Some(mut gui) = stockfish("r11-late", false) else {
        return;
    };
    let (lines, record) = gui.position("position startpos moves e2e4 e7e5 e2e5");
    assert_eq!(
        starting_with(&lines, &rejected("illegal-move")).len(),
        1,
        "{lines:#?}"
    );
    assert_eq!(record["sent"], Value::Null, "{record}");
}
