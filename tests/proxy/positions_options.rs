//! fenguard's own settings (SPEC sections 5 and 6): the `fenguard ...` UCI options, the
//! `[positions]` config keys, and the answers for `go` after a rejected position. Driven through pipes around the fake engine, whose record
//! (`FAKE_ENGINE_RECORD`) shows exactly what it read.

use crate::common;

use common::{Gui, rejected, repaired, starting_with};

const R01: &str = "position fen 4k3/8/8/8/8/8/8/8 w - - 0 1";
const R03: &str = "position fen 2k5/8/3K4/1p6/p7/P7/1B6/8 b KQkq - 0 1";
const R03_SENT: &str = "position fen 2k5/8/3K4/1p6/p7/P7/1B6/8 b - - 0 1";

#[test]
fn uci_announces_fenguards_options_before_uciok() {
    let mut gui = Gui::fake("opt-announce", "", &[]);
    let lines = gui.handshake();
    for option in [
        "option name fenguard OnBadPosition type combo default repair var repair var reject var forward",
        "option name fenguard Castling type combo default auto var auto var xfen var shredder",
        "option name fenguard EnPassant type combo default legal var legal var xfen var fen",
        "option name fenguard Chess960 type combo default gui var gui var detect",
        "option name fenguard LogPositions type check default true",
        "option name fenguard CheckMoves type check default true",
        "option name fenguard ReportToGui type check default true",
    ] {
        assert_eq!(
            lines.iter().filter(|l| *l == option).count(),
            1,
            "{option:?} in {lines:#?}"
        );
    }
    // The engine's own options are relayed too, and `uciok` comes last.
    assert!(lines.contains(&"option name Hash type spin default 16 min 1 max 1024".to_owned()));
    assert_eq!(lines.last().unwrap(), "uciok");
}

#[test]
fn setoption_fenguard_is_not_forwarded() {
    let mut gui = Gui::fake_ready("opt-not-forwarded", "");
    gui.send("setoption name fenguard OnBadPosition value reject");
    gui.send("setoption name fenguard ReportToGui value false");
    gui.send("setoption name Hash value 32");
    gui.sync();
    let engine = gui.engine_input();
    assert!(!engine.contains("fenguard"), "{engine}");
    assert!(
        engine.contains("setoption name Hash value 32\n"),
        "{engine}"
    );
}

#[test]
fn setoption_fenguard_on_invalid_reject_rejects_a_repairable_position() {
    let mut gui = Gui::fake_ready("opt-reject", "");
    gui.send("setoption name fenguard OnBadPosition value reject");
    let (lines, record) = gui.position(R03);
    assert!(
        !starting_with(&lines, &rejected("castling-without-rook")).is_empty(),
        "{lines:#?}"
    );
    assert_eq!(record["verdict"], "rejected", "{record}");
    assert!(gui.positions_sent().is_empty(), "{:#?}", gui.engine_lines());
}

#[test]
fn config_on_invalid_reject_rejects_a_repairable_position() {
    let mut gui = Gui::fake_ready("cfg-reject", "[positions]\non_invalid = \"reject\"\n");
    let (lines, _) = gui.position(R03);
    assert!(
        !starting_with(&lines, &rejected("castling-without-rook")).is_empty(),
        "{lines:#?}"
    );
    assert!(gui.positions_sent().is_empty(), "{:#?}", gui.engine_lines());
}

#[test]
fn config_on_invalid_forward_sends_the_guis_line_unchanged() {
    let mut gui = Gui::fake_ready("cfg-forward", "[positions]\non_invalid = \"forward\"\n");
    let (lines, record) = gui.position(R01);
    assert_eq!(gui.positions_sent(), [R01]);
    assert_eq!(record["verdict"], "forwarded-invalid", "{record}");
    assert_eq!(record["sent"], R01, "{record}");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string fenguard: ") && l.contains("missing-king")),
        "{lines:#?}"
    );
}

#[test]
fn default_repair_sends_the_repaired_position_and_reports_it() {
    let mut gui = Gui::fake_ready("opt-repair", "");
    let (lines, record) = gui.position(R03);
    assert_eq!(gui.positions_sent(), [R03_SENT]);
    assert_eq!(record["verdict"], "repaired", "{record}");
    assert_eq!(record["fen_in"], "2k5/8/3K4/1p6/p7/P7/1B6/8 b KQkq - 0 1");
    assert_eq!(record["fen_out"], "2k5/8/3K4/1p6/p7/P7/1B6/8 b - - 0 1");
    assert!(
        !starting_with(&lines, &repaired("castling-without-rook")).is_empty(),
        "{lines:#?}"
    );
}

#[test]
fn rejected_position_is_not_forwarded_nor_its_go() {
    let mut gui = Gui::fake_ready("opt-reject-go", "");
    gui.position(R01);
    assert_eq!(gui.go("go depth 1"), ["bestmove 0000"]);
    let engine = gui.engine_input();
    assert!(!engine.contains("position"), "{engine}");
    assert!(!engine.contains("go"), "{engine}");
}

#[test]
fn go_infinite_after_rejection_is_answered_at_stop() {
    let mut gui = Gui::fake_ready("opt-reject-infinite", "");
    gui.position(R01);
    gui.send("go infinite");
    let waiting = gui.sync();
    assert_eq!(waiting, ["readyok"], "no bestmove before stop");
    gui.send("stop");
    assert_eq!(gui.read_until_prefix("bestmove "), ["bestmove 0000"]);
}

#[test]
fn go_ponder_after_rejection_is_answered_at_ponderhit() {
    let mut gui = Gui::fake_ready("opt-reject-ponder", "");
    gui.position(R01);
    gui.send("go ponder wtime 1000 btime 1000");
    let waiting = gui.sync();
    assert_eq!(waiting, ["readyok"], "no bestmove before ponderhit");
    gui.send("ponderhit");
    assert_eq!(gui.read_until_prefix("bestmove "), ["bestmove 0000"]);
}

#[test]
fn valid_position_after_rejection_reaches_the_engine_again() {
    let mut gui = Gui::fake_ready("opt-reject-recover", "");
    gui.position(R01);
    gui.go("go depth 1");
    gui.position("position startpos");
    assert_eq!(gui.go("go depth 1"), ["bestmove e2e4"]);
    let engine = gui.engine_lines();
    assert!(
        engine.contains(&"position startpos".to_owned()),
        "{engine:#?}"
    );
    assert!(engine.contains(&"go depth 1".to_owned()), "{engine:#?}");
}

#[test]
fn report_to_gui_false_keeps_diagnostics_from_the_gui() {
    let mut gui = Gui::fake_ready("cfg-quiet", "[positions]\nreport_to_gui = false\n");
    let (lines, record) = gui.position(R03);
    assert_eq!(lines, ["readyok"]);
    assert_eq!(record["sent"], R03_SENT, "{record}");
}

#[test]
fn setoption_fenguard_report_to_gui_false_keeps_diagnostics_from_the_gui() {
    let mut gui = Gui::fake_ready("opt-quiet", "");
    gui.send("setoption name fenguard ReportToGui value false");
    let (lines, _) = gui.position(R03);
    assert_eq!(lines, ["readyok"]);
}

#[test]
fn config_castling_shredder_writes_rook_files() {
    let mut gui = Gui::fake_ready("cfg-shredder", "[positions]\ncastling = \"shredder\"\n");
    gui.position("position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert_eq!(
        gui.positions_sent(),
        ["position fen r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1"]
    );
}

#[test]
fn config_castling_xfen_writes_kqkq_in_chess960_mode() {
    let mut gui = Gui::fake_ready("cfg-xfen", "[positions]\ncastling = \"xfen\"\n");
    gui.send("setoption name UCI_Chess960 value true");
    gui.position("position fen r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1");
    assert_eq!(
        gui.positions_sent(),
        ["position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"]
    );
}

/// White's c-pawn may take en passant on d6 only by exposing its king to the f7 bishop.
const PINNED_EP: &str = "position fen 8/5bk1/8/2Pp4/8/1K6/8/8 w - d6 0 1";

#[test]
fn en_passant_legal_drops_a_square_with_no_legal_capture() {
    let mut gui = Gui::fake_ready("cfg-ep-legal", "");
    gui.position(PINNED_EP);
    assert_eq!(
        gui.positions_sent(),
        ["position fen 8/5bk1/8/2Pp4/8/1K6/8/8 w - - 0 1"]
    );
}

#[test]
fn en_passant_xfen_keeps_a_square_next_to_an_enemy_pawn() {
    let mut gui = Gui::fake_ready("cfg-ep-xfen", "[positions]\nen_passant = \"xfen\"\n");
    gui.position(PINNED_EP);
    assert_eq!(gui.positions_sent(), [PINNED_EP]);
}

#[test]
fn en_passant_fen_keeps_every_valid_square() {
    let mut gui = Gui::fake_ready("cfg-ep-fen", "[positions]\nen_passant = \"fen\"\n");
    let raw = "position fen rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1";
    gui.position(raw);
    assert_eq!(gui.positions_sent(), [raw]);
}

#[test]
fn check_moves_false_forwards_moves_unchecked() {
    let mut gui = Gui::fake_ready("cfg-no-check-moves", "[positions]\ncheck_moves = false\n");
    let (_, record) = gui.position("position startpos moves e2e5");
    assert_eq!(gui.positions_sent(), ["position startpos moves e2e5"]);
    assert_eq!(record["sent"], "position startpos moves e2e5", "{record}");
}

#[test]
fn rejection_after_a_valid_position_keeps_the_old_one_from_being_searched() {
    let mut gui = Gui::fake_ready("opt-reject-after-valid", "");
    gui.position("position startpos moves e2e4");
    gui.position(R01);
    assert_eq!(gui.go("go depth 1"), ["bestmove 0000"]);
    assert_eq!(gui.go("go depth 2"), ["bestmove 0000"]);
    let engine = gui.engine_input();
    assert!(!engine.contains("go"), "{engine}");
}

#[test]
fn setoption_fenguard_names_compare_case_insensitively() {
    let mut gui = Gui::fake_ready("opt-case", "");
    gui.send("setoption name FENGUARD onInvalid value reject");
    let (lines, _) = gui.position(R03);
    assert!(
        !starting_with(&lines, &rejected("castling-without-rook")).is_empty(),
        "{lines:#?}"
    );
    let engine = gui.engine_input();
    assert!(!engine.to_lowercase().contains("fenguard"), "{engine}");
}

#[test]
fn missing_promotion_piece_is_repaired_to_a_queen() {
    let mut gui = Gui::fake_ready("opt-promotion", "");
    let (lines, record) = gui.position("position fen 8/P7/8/8/8/8/8/k6K w - - 0 1 moves a7a8");
    assert_eq!(
        gui.positions_sent(),
        ["position fen 8/P7/8/8/8/8/8/k6K w - - 0 1 moves a7a8q"]
    );
    assert_eq!(record["verdict"], "repaired", "{record}");
    assert_eq!(
        starting_with(&lines, &repaired("missing-promotion")).len(),
        1,
        "{lines:#?}"
    );
}

#[test]
fn config_on_invalid_forward_does_not_repair() {
    let mut gui = Gui::fake_ready(
        "cfg-forward-repairable",
        "[positions]\non_invalid = \"forward\"\n",
    );
    let (_, record) = gui.position(R03);
    assert_eq!(gui.positions_sent(), [R03]);
    assert_eq!(record["verdict"], "forwarded-invalid", "{record}");
}

#[test]
fn go_after_a_forwarded_invalid_position_reaches_the_engine() {
    let mut gui = Gui::fake_ready("cfg-forward-go", "[positions]\non_invalid = \"forward\"\n");
    gui.position(R01);
    assert_eq!(gui.go("go depth 1"), ["bestmove e2e4"]);
    assert!(gui.engine_lines().contains(&"go depth 1".to_owned()));
}

#[test]
fn uci_chess960_false_again_restores_standard_rules() {
    let mut gui = Gui::fake_ready("opt-960-off", "");
    gui.send("setoption name UCI_Chess960 value true");
    gui.send("setoption name UCI_Chess960 value false");
    let (lines, _) = gui.position("position fen 4k3/8/8/8/8/8/8/4KR2 w K - 0 1");
    assert_eq!(
        gui.positions_sent(),
        ["position fen 4k3/8/8/8/8/8/8/4KR2 w - - 0 1"]
    );
    assert_eq!(
        starting_with(&lines, &repaired("castling-needs-chess960")).len(),
        1,
        "{lines:#?}"
    );
}
