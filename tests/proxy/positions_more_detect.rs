//! `chess960 = "detect"` with `check_moves = false`: once fenguard has switched the engine to
//! Chess960, the GUI's standard castles still reach it as king-takes-rook.

use crate::common;

use common::Gui;

const CONFIG: &str = "[positions]\nchess960 = \"detect\"\ncheck_moves = false\n";
/// A Chess960 start position (king b1, rooks a1 / h1): sending it switches the engine.
const FRC: &str = "position fen 1r4kr/8/8/8/8/8/8/RK5R w AHbh - 0 1";
const ITALIAN_CASTLE: &str = "position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1g1";

#[test]
fn gui_castle_goes_to_the_switched_fake_engine_as_king_takes_rook() {
    let mut gui = Gui::fake_ready("more-detect-fake", CONFIG);
    gui.position(FRC);
    gui.position(ITALIAN_CASTLE);
    assert_eq!(
        gui.positions_sent().last().map(String::as_str),
        Some("position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1h1")
    );
}

#[test]
fn switched_stockfish_plays_on_after_the_guis_castle() {
    let Some(mut gui) = Gui::stockfish_ready("more-detect-stockfish", CONFIG) else {
        return;
    };
    gui.position(FRC);
    let (_, record) = gui.position(ITALIAN_CASTLE);
    assert_eq!(record["chess960"], true, "{record}");
    let lines = gui.go("go depth 5");
    let moves = ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "e1g1"];
    common::assert_legal_bestmove(&lines, common::STARTPOS, &moves, false);
}
