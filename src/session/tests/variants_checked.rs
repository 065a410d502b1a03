//! Modelled variants (issue 10): the 8x8 variants of shakmaty and the 10x8 boards checked
//! through the session's one `Game`, like chess: positions judged and logged with their
//! variant, drops and castles read, castling translated between the two sides' notations,
//! the engine's `bestmove` checked.

use super::super::*;
use super::{codes, engine, gui, position_record, search_records, to_engine, to_gui};

/// A session playing `variant` (set by `UCI_Variant`).
fn playing(variant: &str) -> Session {
    let mut s = Session::new(false);
    super::engine_offering_variants(&mut s);
    let set = gui(
        &mut s,
        &format!("setoption name UCI_Variant value {variant}"),
    );
    assert_eq!(
        to_engine(&set),
        [format!("setoption name UCI_Variant value {variant}\n")]
    );
    assert!(to_gui(&set).is_empty(), "no `not checked` notice: {set:?}");
    s
}

#[test]
fn crazyhouse_drop_is_accepted_and_judged() {
    let mut s = playing("crazyhouse");
    let line = "position startpos moves e2e4 d7d5 e4d5 d8d5 P@e4";
    let out = gui(&mut s, line);
    assert_eq!(to_engine(&out), [format!("{line}\n")]);
    let record = position_record(&out);
    assert_eq!(record.verdict, Verdict::Valid);
    assert_eq!(record.variant.as_deref(), Some("crazyhouse"));
    // pyffish 0.0.90 after the same moves (a pawn drop resets the halfmove clock, as in
    // shakmaty; python-chess 1.11.2 writes `1 3`).
    assert_eq!(
        record.final_fen.as_deref(),
        Some("rnb1kbnr/ppp1pppp/8/3q4/4P3/8/PPPP1PPP/RNBQKBNR[p] b KQkq - 0 3")
    );
}

#[test]
fn crazyhouse_illegal_drop_is_rejected_and_go_answered_by_fenguard() {
    let mut s = playing("crazyhouse");
    let out = gui(
        &mut s,
        "position fen 4k3/8/8/8/8/8/8/4K3[P] w - - 0 1 moves P@a8",
    );
    assert!(to_engine(&out).is_empty());
    let record = position_record(&out);
    assert_eq!(record.verdict, Verdict::Rejected);
    assert_eq!(codes(&record), ["illegal-move"]);
    let line = "position fen 4k3/8/8/8/8/8/8/4K3[P] w - - 0 1 moves P@a8";
    let at = line.find("P@a8").unwrap();
    assert_eq!(record.diagnostics[0].span, Some(at..at + 4));
    let go = gui(&mut s, "go depth 1");
    assert!(to_engine(&go).is_empty());
    assert_eq!(to_gui(&go), ["bestmove 0000\n"]);
}

#[test]
fn crazyhouse_drop_from_an_empty_pocket_is_rejected() {
    let mut s = playing("crazyhouse");
    // A drop with an empty pocket.
    let out = gui(
        &mut s,
        "position fen 4k3/8/8/8/8/8/8/4K3[] w - - 0 1 moves Q@e7",
    );
    assert_eq!(position_record(&out).verdict, Verdict::Rejected);
}

#[test]
fn racing_kings_startpos_is_the_variant_start() {
    let mut s = playing("racingkings");
    let out = gui(&mut s, "position startpos moves h2h3");
    assert_eq!(to_engine(&out), ["position startpos moves h2h3\n"]);
    let record = position_record(&out);
    assert_eq!(record.verdict, Verdict::Valid);
    assert_eq!(
        record.final_fen.as_deref(),
        Some("8/8/8/8/8/7K/krbnNBR1/qrbnNBRQ b - - 1 1")
    );
    // e2e4 is a chess move, not a racing kings one (no pawns).
    let bad = gui(&mut s, "position startpos moves e2e4");
    assert_eq!(codes(&position_record(&bad)), ["illegal-move"]);
}

#[test]
fn three_check_counters_are_kept_and_counted() {
    let mut s = playing("3check");
    let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3+3 0 1";
    let out = gui(&mut s, &format!("position fen {fen} moves e2e4 f7f6 d1h5"));
    let record = position_record(&out);
    assert_eq!(record.verdict, Verdict::Valid);
    assert_eq!(record.fen_out.as_deref(), Some(fen));
    assert_eq!(
        record.final_fen.as_deref(),
        Some("rnbqkbnr/ppppp1pp/5p2/7Q/4P3/8/PPPP1PPP/RNB1KBNR b KQkq - 2+3 1 2")
    );
    assert_eq!(record.variant.as_deref(), Some("3check"));
}

#[test]
fn illegal_bestmove_is_flagged_in_a_variant() {
    let mut s = playing("crazyhouse");
    gui(&mut s, "position fen 4k3/8/8/8/8/8/8/4K3[Q] w - - 0 1");
    gui(&mut s, "go depth 1");
    let best = engine(&mut s, "bestmove Q@e9");
    let record = &search_records(&best)[0];
    assert_eq!(record.diagnostics[0].code, "illegal-bestmove");
    assert_eq!(record.variant.as_deref(), Some("crazyhouse"));
    gui(&mut s, "go depth 1");
    let drop = engine(&mut s, "bestmove Q@e7 ponder e8e7");
    assert_eq!(search_records(&drop)[0].diagnostics, Vec::new());
    assert_eq!(to_gui(&drop), ["bestmove Q@e7 ponder e8e7\n"]);
}

const CAPA: &str = "r4k3r/pppppppppp/10/10/10/10/PPPPPPPPPP/R4K3R w KQkq - 0 1";

#[test]
fn capablanca_position_is_validated() {
    let mut s = playing("capablanca");
    let out = gui(&mut s, &format!("position fen {CAPA} moves f1i1"));
    let record = position_record(&out);
    assert_eq!(record.verdict, Verdict::Valid);
    assert_eq!(record.variant.as_deref(), Some("capablanca"));
    // pyffish 0.0.90 `get_fen("capablanca", CAPA, ["f1i1"])`.
    assert_eq!(
        record.final_fen.as_deref(),
        Some("r4k3r/pppppppppp/10/10/10/10/PPPPPPPPPP/R6RK1 b kq - 1 1")
    );
    let bad = gui(
        &mut s,
        "position fen rnabqkbcnr/ppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1",
    );
    let record = position_record(&bad);
    assert_eq!(record.verdict, Verdict::Rejected);
    assert_eq!(
        record.diagnostics[0].message,
        "rank 7 has 9 squares, expected 10"
    );
    // The span points into the GUI's line (after `position fen `).
    assert_eq!(
        record.diagnostics[0].span.as_ref().map(|s| s.start),
        Some(24)
    );
}

#[test]
fn capablanca_castling_is_translated_both_ways() {
    // GUI in Chess960 notation (king takes rook), engine without UCI_Chess960: king to target.
    let mut s = playing("capablanca");
    gui(&mut s, "setoption name UCI_Chess960 value true");
    let out = gui(&mut s, &format!("position fen {CAPA} moves f1j1 f8a8"));
    let record = position_record(&out);
    assert_eq!(record.verdict, Verdict::Valid, "{record:?}");
    assert_eq!(record.moves_out.0, "f1i1 f8c8");
    gui(&mut s, &format!("position fen {CAPA}"));
    let go = gui(&mut s, "go depth 2 searchmoves f1j1 f1a1 f1g1");
    assert_eq!(to_engine(&go), ["go depth 2 searchmoves f1i1 f1c1 f1g1\n"]);
    let info = engine(&mut s, "info depth 2 pv f1i1 f8i8 a2a3");
    assert_eq!(
        to_gui(&engine(&mut s, "info depth 2 pv a2a3 f8c8")),
        ["info depth 2 pv a2a3 f8a8\n"]
    );
    assert_eq!(to_gui(&info), ["info depth 2 pv f1j1 f8j8 a2a3\n"]);
    let best = engine(&mut s, "bestmove f1c1 ponder f8c8");
    assert_eq!(to_gui(&best), ["bestmove f1a1 ponder f8a8\n"]);
    assert_eq!(search_records(&best)[0].diagnostics, Vec::new());
}

#[test]
fn embassy_e1h1_is_a_castle() {
    let mut s = playing("embassy");
    let out = gui(
        &mut s,
        "position fen r3k4r/10/10/10/10/10/10/R3K4R w KQkq - 0 1 moves e1h1",
    );
    let record = position_record(&out);
    assert_eq!(record.verdict, Verdict::Valid);
    assert_eq!(record.moves_out.0, "e1h1");
    assert_eq!(
        record.final_fen.as_deref(),
        Some("r3k4r/10/10/10/10/10/10/R5RK2 b kq - 1 1")
    );
}

#[test]
fn caparandom_castles_king_takes_rook_in_both_modes() {
    let mut s = playing("caparandom");
    // The GUI's UCI_Chess960 is false: caparandom still writes castles king-takes-rook.
    let out = gui(&mut s, &format!("position fen {CAPA} moves f1j1"));
    let record = position_record(&out);
    assert_eq!(record.verdict, Verdict::Valid);
    assert_eq!(record.moves_out.0, "f1j1");
    assert_eq!(
        record.final_fen.as_deref(),
        Some("r4k3r/pppppppppp/10/10/10/10/PPPPPPPPPP/R6RK1 b kq - 1 1")
    );
    gui(&mut s, &format!("position fen {CAPA}"));
    gui(&mut s, "go depth 1");
    let best = engine(&mut s, "bestmove f1a1");
    assert_eq!(to_gui(&best), ["bestmove f1a1\n"]);
    assert_eq!(search_records(&best)[0].diagnostics, Vec::new());
}

#[test]
fn illegal_bestmove_is_flagged_on_a_10x8_board() {
    let mut s = playing("gothic");
    gui(&mut s, "position startpos moves e2e4");
    gui(&mut s, "go depth 1");
    let best = engine(&mut s, "bestmove e7e4");
    let record = &search_records(&best)[0];
    assert_eq!(record.diagnostics[0].code, "illegal-bestmove");
    assert_eq!(record.variant.as_deref(), Some("gothic"));
}

#[test]
fn missing_promotion_is_repaired_on_a_10x8_board() {
    let mut s = playing("capablanca");
    let out = gui(
        &mut s,
        "position fen 5k4/1P8/10/10/10/10/10/5K4 w - - 0 1 moves b7b8",
    );
    let record = position_record(&out);
    assert_eq!(record.verdict, Verdict::Repaired);
    assert_eq!(codes(&record), ["missing-promotion"]);
    assert_eq!(record.moves_out.0, "b7b8q");
}

#[test]
fn detect_mode_switches_the_engine_for_a_10x8_position_and_translates() {
    let mut s = super::session_with(|c| c.chess960 = crate::config::Chess960Mode::Detect);
    super::engine_announcing(
        &mut s,
        &[
            "option name UCI_Chess960 type check default false",
            super::FAIRY_VARIANTS,
        ],
    );
    gui(&mut s, "setoption name UCI_Variant value capablanca");
    // The king on e1/e8 is off capablanca's f-file: castling needs Chess960.
    let fen = "r3k4r/pppppppppp/10/10/10/10/PPPPPPPPPP/R3K4R w KQkq - 0 1";
    let out = gui(&mut s, &format!("position fen {fen} moves e1i1"));
    let sent = to_engine(&out);
    assert_eq!(sent[0], "setoption name UCI_Chess960 value true\n");
    assert!(sent[1].ends_with(" moves e1j1\n"), "{sent:?}");
    let record = position_record(&out);
    assert_eq!(record.verdict, Verdict::Valid);
    assert!(record.chess960);
    gui(&mut s, "go depth 1");
    let best = engine(&mut s, "bestmove e8a8 ponder a2a3");
    assert_eq!(to_gui(&best), ["bestmove e8c8 ponder a2a3\n"]);
    assert_eq!(search_records(&best)[0].diagnostics, Vec::new());
}

#[test]
fn e1h1_is_king_takes_rook_in_8x8_chess960_but_a_castle_in_embassy() {
    let mut chess = Session::new(false);
    super::engine_offering_chess960(&mut chess);
    gui(&mut chess, "setoption name UCI_Chess960 value true");
    let out = gui(
        &mut chess,
        "position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 moves e1h1",
    );
    assert_eq!(
        position_record(&out).final_fen.as_deref(),
        Some("r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1")
    );
    let mut embassy = playing("embassy");
    let out = gui(
        &mut embassy,
        "position fen r3k4r/10/10/10/10/10/10/R3K4R w KQkq - 0 1 moves e1h1",
    );
    // King on h1, rook on g1 (king-to-target), not king-takes-rook on h1.
    assert_eq!(
        position_record(&out).final_fen.as_deref(),
        Some("r3k4r/10/10/10/10/10/10/R5RK2 b kq - 1 1")
    );
}
