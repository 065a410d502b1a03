//! Every row of shared/cases/public-reports.md that concerns the proxy, under the defaults
//! unless the row says otherwise: the exact line sent to the engine, the GUI's lines, the record.

use super::*;
use crate::config::Chess960Mode;
use crate::session::Verdict;

/// Sends `position fen <fen>` and returns the lines sent to the engine.
fn sent_for(s: &mut Session, fen: &str) -> Vec<String> {
    to_engine(&gui(s, &format!("position fen {fen}")))
}

#[test]
fn r01_position_without_white_king_is_rejected_and_go_answered_by_fenguard() {
    let mut s = Session::new(false);
    let actions = gui(&mut s, "position fen 4k3/8/8/8/8/8/8/8 w - - 0 1");
    assert!(to_engine(&actions).is_empty());
    let gui_lines = to_gui(&actions);
    assert_eq!(gui_lines.len(), 1);
    assert!(
        gui_lines[0].starts_with("info string fenguard: rejected position: missing-king: "),
        "{gui_lines:?}"
    );
    assert_eq!(position_record(&actions).verdict, Verdict::Rejected);
    let go = gui(&mut s, "go depth 1");
    assert!(to_engine(&go).is_empty());
    assert_eq!(to_gui(&go), vec!["bestmove 0000\n"]);
}

#[test]
fn r01_engine_is_usable_after_the_rejection() {
    let mut s = Session::new(false);
    gui(&mut s, "position fen 4k3/8/8/8/8/8/8/8 w - - 0 1");
    gui(&mut s, "go depth 1");
    assert_eq!(
        to_engine(&gui(&mut s, "position startpos")),
        vec!["position startpos\n"]
    );
    assert_eq!(to_engine(&gui(&mut s, "go depth 1")), vec!["go depth 1\n"]);
}

#[test]
fn r02_side_not_to_move_in_check_is_rejected() {
    let mut s = Session::new(false);
    let actions = gui(
        &mut s,
        "position fen 5k1r/2q3p1/p3p2p/1B3p1Q/n4P2/6P1/bbP2N1P/1K1RR3 b - - 0 1",
    );
    assert!(to_engine(&actions).is_empty());
    assert!(
        to_gui(&actions)[0]
            .starts_with("info string fenguard: rejected position: opposite-check: ")
    );
}

#[test]
fn r03_rights_for_missing_pieces_are_dropped_and_the_gui_told() {
    let mut s = Session::new(false);
    let actions = gui(
        &mut s,
        "position fen 2k5/8/3K4/1p6/p7/P7/1B6/8 b KQkq - 0 1 moves",
    );
    assert_eq!(
        to_engine(&actions),
        vec!["position fen 2k5/8/3K4/1p6/p7/P7/1B6/8 b - - 0 1\n"]
    );
    let gui_lines = to_gui(&actions);
    assert_eq!(
        gui_lines[..2],
        [
            "info string fenguard: repaired position: castling-without-rook: castling right for a white rook on h1, but it is empty\n",
            "info string fenguard: repaired position: castling-without-rook: castling right for a black rook on h8, but it is empty\n",
        ]
    );
    assert_eq!(position_record(&actions).verdict, Verdict::Repaired);
}

#[test]
fn r04_right_without_rook_on_h8_is_dropped() {
    let mut s = Session::new(false);
    assert_eq!(
        sent_for(
            &mut s,
            "3qk1nb/1p3p2/p1r1p1p1/3p4/3P4/2N1BP2/PPPQ1P2/R3K3 w Qk - 0 15"
        ),
        vec!["position fen 3qk1nb/1p3p2/p1r1p1p1/3p4/3P4/2N1BP2/PPPQ1P2/R3K3 w Q - 0 15\n"]
    );
}

#[test]
fn r05_rights_of_a_captured_rook_are_dropped() {
    let mut s = Session::new(false);
    assert_eq!(
        sent_for(
            &mut s,
            "rnb1kb1Q/1p1qp2p/p3p1p1/2pp4/8/8/PPPP1PPP/RNB1K1NR b KQkq - 1 10"
        ),
        vec!["position fen rnb1kb1Q/1p1qp2p/p3p1p1/2pp4/8/8/PPPP1PPP/RNB1K1NR b KQq - 1 10\n"]
    );
}

#[test]
fn r06_inner_rook_right_is_sent_in_shredder_form_in_chess960() {
    let mut s = Session::new(false);
    engine_offering_chess960(&mut s);
    gui(&mut s, "setoption name UCI_Chess960 value true");
    assert_eq!(
        sent_for(&mut s, "4k3/pppppppp/8/8/8/8/PPPPPPPP/rR2K3 w Q - 0 1"),
        vec!["position fen 4k3/pppppppp/8/8/8/8/PPPPPPPP/rR2K3 w B - 0 1\n"]
    );
}

#[test]
fn r07_chess960_right_without_uci_chess960_is_dropped() {
    let mut s = Session::new(false);
    engine_offering_chess960(&mut s);
    let actions = gui(&mut s, "position fen 4rkr1/4p1p1/8/8/8/8/8/5K1R w K - 0 1");
    assert_eq!(
        to_engine(&actions),
        vec!["position fen 4rkr1/4p1p1/8/8/8/8/8/5K1R w - - 0 1\n"]
    );
    assert_eq!(
        codes(&position_record(&actions)),
        vec!["castling-needs-chess960"]
    );
}

#[test]
fn r07_detect_switches_the_engine_and_relays_ambiguous_castle_in_king_takes_rook_form() {
    let mut s = session_with(|p| p.chess960 = Chess960Mode::Detect);
    engine_offering_chess960(&mut s);
    let actions = gui(&mut s, "position fen 4rkr1/4p1p1/8/8/8/8/8/5K1R w K - 0 1");
    assert_eq!(
        to_engine(&actions),
        vec![
            "setoption name UCI_Chess960 value true\n",
            "position fen 4rkr1/4p1p1/8/8/8/8/8/5K1R w H - 0 1\n",
        ]
    );
    assert!(position_record(&actions).chess960);
    gui(&mut s, "go depth 1");
    let best = engine(&mut s, "bestmove f1h1");
    assert_eq!(to_gui(&best), vec!["bestmove f1h1\n"]);
    let search = &search_records(&best)[0];
    assert_eq!(search.diagnostics[0].code, "ambiguous-castling-move");
    assert!(
        best.iter()
            .any(|a| matches!(a, Action::Log(_, m) if m.starts_with("ambiguous-castling-move: ")))
    );
}

#[test]
fn r08_king_takes_rook_from_gui_is_sent_as_standard_castle() {
    let mut s = Session::new(false);
    let actions = gui(
        &mut s,
        "position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 4 1 moves e1h1",
    );
    assert_eq!(
        to_engine(&actions),
        vec!["position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 4 1 moves e1g1\n"]
    );
    assert_eq!(
        position_record(&actions).final_fen.as_deref(),
        Some("r3k2r/8/8/8/8/8/8/R4RK1 b kq - 5 1")
    );
}

fn chess960_final(fen_and_moves: &str) -> Option<String> {
    let mut s = Session::new(false);
    engine_offering_chess960(&mut s);
    gui(&mut s, "setoption name UCI_Chess960 value true");
    position_record(&gui(&mut s, &format!("position fen {fen_and_moves}"))).final_fen
}

#[test]
fn r09_king_staying_on_g1_castles() {
    assert_eq!(
        chess960_final("4k3/8/8/8/8/8/8/6KR w K - 0 1 moves g1h1").as_deref(),
        Some("4k3/8/8/8/8/8/8/5RK1 b - - 1 1")
    );
}

#[test]
fn r09_king_b1_moves_to_c1_or_castles_with_b1a1() {
    assert_eq!(
        chess960_final("4k3/8/8/8/8/8/8/RK6 w Q - 0 1 moves b1c1").as_deref(),
        Some("4k3/8/8/8/8/8/8/R1K5 b - - 1 1")
    );
    assert_eq!(
        chess960_final("4k3/8/8/8/8/8/8/RK6 w Q - 0 1 moves b1a1").as_deref(),
        Some("4k3/8/8/8/8/8/8/2KR4 b - - 1 1")
    );
}

#[test]
fn r09_king_e1_rook_f1_castles_with_e1f1() {
    assert_eq!(
        chess960_final("4k3/8/8/8/8/8/8/4KR2 w K - 0 1 moves e1f1").as_deref(),
        Some("4k3/8/8/8/8/8/8/5RK1 b - - 1 1")
    );
}

#[test]
fn r10_searchmoves_castle_is_checked_and_forwarded() {
    let mut s = Session::new(false);
    let actions = gui(
        &mut s,
        "position startpos moves e2e4 e7e6 d2d4 d7d5 c1e3 d5e4 b1d2 g8f6 c2c3 f8e7 d1c2 f6d5 d2e4 f7f5 e4g3 f5f4 e3d2 f4g3 h2g3 g7g6",
    );
    assert_eq!(position_record(&actions).verdict, Verdict::Valid);
    let go = gui(&mut s, "go nodes 1 searchmoves e1c1");
    assert_eq!(to_engine(&go), vec!["go nodes 1 searchmoves e1c1\n"]);
    assert!(to_gui(&go).is_empty());
}

#[test]
fn r11_move_from_empty_square_rejects_naming_move_and_position() {
    let mut s = Session::new(false);
    let actions = gui(
        &mut s,
        "position fen r4rk1/1R5p/3p1q2/p1pP4/P7/7P/6P1/1R1Q3K b - - 0 24 moves b8e8",
    );
    assert!(to_engine(&actions).is_empty());
    assert_eq!(
        to_gui(&actions),
        vec![
            "info string fenguard: rejected position: illegal-move: move 1 `b8e8` is illegal in r4rk1/1R5p/3p1q2/p1pP4/P7/7P/6P1/1R1Q3K b - - 0 24\n"
        ]
    );
}

#[test]
fn r12_ep_square_behind_impossible_check_is_dropped() {
    let mut s = Session::new(false);
    assert_eq!(
        sent_for(&mut s, "k7/8/8/3pP3/8/7n/5K2/8 w - d6 0 1"),
        vec!["position fen k7/8/8/3pP3/8/7n/5K2/8 w - - 0 1\n"]
    );
}

#[test]
fn r13_ep_square_without_pawn_is_dropped_and_counters_padded() {
    let mut s = Session::new(false);
    assert_eq!(
        sent_for(
            &mut s,
            "rnbqkb1r/ppp3pp/3p1n2/3P4/8/2P5/PP3PPP/RNBQKB1R w KQkq e6"
        ),
        vec!["position fen rnbqkb1r/ppp3pp/3p1n2/3P4/8/2P5/PP3PPP/RNBQKB1R w KQkq - 0 1\n"]
    );
}

#[test]
fn r13_ep_capture_exposing_the_king_is_not_written() {
    let mut s = Session::new(false);
    assert_eq!(
        sent_for(&mut s, "8/5bk1/8/2Pp4/8/1K6/8/8 w - d6"),
        vec!["position fen 8/5bk1/8/2Pp4/8/1K6/8/8 w - - 0 1\n"]
    );
}

#[test]
fn r14_keyword_and_garbage_fens_are_rejected_with_syntax_codes() {
    for (fen, code) in [
        ("startpos", "unknown-piece"),
        ("blah", "rank-too-short"),
        ("1", "rank-too-short"),
    ] {
        let mut s = Session::new(false);
        let actions = gui(&mut s, &format!("position fen {fen}"));
        assert!(to_engine(&actions).is_empty(), "{fen}");
        let first = &to_gui(&actions)[0];
        let prefix = format!("info string fenguard: rejected position: {code}: ");
        assert!(first.starts_with(&prefix), "{fen}: {first}");
        assert!(first.contains("expected"), "{fen}: {first}");
    }
}

#[test]
fn r15_four_fields_and_empty_moves_are_padded() {
    let mut s = Session::new(false);
    let actions = gui(
        &mut s,
        "position fen 5rk1/2p4p/2p4r/3P4/4p1b1/1Q2NqPp/PP3P1K/R4R2 b - - moves",
    );
    assert_eq!(
        to_engine(&actions),
        vec!["position fen 5rk1/2p4p/2p4r/3P4/4p1b1/1Q2NqPp/PP3P1K/R4R2 b - - 0 1\n"]
    );
    assert_eq!(
        position_record(&actions).sent.as_deref(),
        Some("position fen 5rk1/2p4p/2p4r/3P4/4p1b1/1Q2NqPp/PP3P1K/R4R2 b - - 0 1")
    );
}

const R16: &str = "r1bqkbnr/pp1ppppp/2n5/2p5/2P1PP2/8/PP1P2PP/RNBQKBNR";
const R16_SENT: &str =
    "position fen r1bqkbnr/pp1ppppp/2n5/2p5/2P1PP2/8/PP1P2PP/RNBQKBNR b KQkq - 0 1\n";

#[test]
fn r16_four_fields_are_padded_with_a_warning() {
    let mut s = Session::new(false);
    let actions = gui(&mut s, &format!("position fen {R16} b KQkq -"));
    assert_eq!(to_engine(&actions), vec![R16_SENT]);
    assert_eq!(
        to_gui(&actions),
        vec![
            "info string fenguard: warning: missing-field: missing halfmove clock, fullmove number; expected six fields\n"
        ]
    );
}

#[test]
fn r16_trailing_slash_and_fullmove_zero_are_warnings() {
    let mut s = Session::new(false);
    let actions = gui(&mut s, &format!("position fen {R16}/ b KQkq - 0 0"));
    assert_eq!(to_engine(&actions), vec![R16_SENT]);
    let record = position_record(&actions);
    assert_eq!(record.verdict, Verdict::Valid);
    assert_eq!(codes(&record), vec!["trailing-slash", "fullmove-zero"]);
}

#[test]
fn r16_dash_counters_are_repaired() {
    let mut s = Session::new(false);
    let actions = gui(&mut s, &format!("position fen {R16} b KQkq - - -"));
    assert_eq!(to_engine(&actions), vec![R16_SENT]);
    assert_eq!(position_record(&actions).verdict, Verdict::Repaired);
}

#[test]
fn r16_epd_operations_are_rejected_as_extra_field() {
    let mut s = Session::new(false);
    let actions = gui(
        &mut s,
        &format!("position fen {R16} b KQkq - bm Kg2; id \"x\";"),
    );
    assert!(to_engine(&actions).is_empty());
    assert_eq!(
        to_gui(&actions),
        vec![
            "info string fenguard: rejected position: extra-field: EPD operations `bm Kg2; id \"x\";` after the en passant field; a FEN has the halfmove clock and fullmove number there, and nothing after them\n"
        ]
    );
}

#[test]
fn r17_fullmove_zero_is_valid_with_a_warning() {
    let mut s = Session::new(false);
    let actions = gui(
        &mut s,
        "position fen 3r4/p2nrpkp/2B1p3/2P2pP1/3R3Q/q7/6PP/6RK w - - 0 0",
    );
    assert_eq!(
        to_engine(&actions),
        vec!["position fen 3r4/p2nrpkp/2B1p3/2P2pP1/3R3Q/q7/6PP/6RK w - - 0 1\n"]
    );
    assert_eq!(
        to_gui(&actions),
        vec!["info string fenguard: warning: fullmove-zero: fullmove number 0; it starts at 1\n"]
    );
}

#[test]
fn r18_high_halfmove_clocks_are_kept() {
    let mut s = Session::new(false);
    let actions = gui(&mut s, "position fen 4kr2/8/8/8/8/8/8/3RK3 b - - 100 1");
    assert_eq!(
        to_engine(&actions),
        vec!["position fen 4kr2/8/8/8/8/8/8/3RK3 b - - 100 1\n"]
    );
    assert_eq!(codes(&position_record(&actions)), vec!["fifty-move-draw"]);
    assert_eq!(
        sent_for(&mut s, "8/8/2p5/3b1K1k/4p3/4PpR1/5P2/8 w - - 99 113"),
        vec!["position fen 8/8/2p5/3b1K1k/4p3/4PpR1/5P2/8 w - - 99 113\n"]
    );
}
