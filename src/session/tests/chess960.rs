//! Chess960: the engine's offer, the GUI's `UCI_Chess960`, detect mode, castling translation.

use super::*;
use crate::config::Chess960Mode;
use crate::session::Input;
use crate::session::Verdict;
use std::time::Instant;

const FRC: &str = "4k3/8/8/8/8/8/8/RK6 w Q - 0 1";
/// White castles short in the Italian game, in the GUI's standard notation ...
const ITALIAN_O_O: &str = "position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1g1";
/// ... and as an engine in Chess960 mode must get it.
const ITALIAN_O_O_SENT: &str = "position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1h1\n";

#[test]
fn engine_offer_is_recorded_case_insensitively() {
    let mut s = Session::new(false);
    gui(&mut s, "uci");
    let relayed = engine(&mut s, "option name uci_chess960 type check default false");
    assert_eq!(
        to_gui(&relayed),
        vec!["option name uci_chess960 type check default false\n"]
    );
    assert!(s.chess960().engine_offers);
}

#[test]
fn gui_setoption_is_read_case_insensitively_and_forwarded_with_the_exact_value() {
    let mut s = Session::new(false);
    engine_offering_chess960(&mut s);
    let actions = gui(&mut s, "setoption name UCI_CHESS960 value True");
    // Stockfish 15.1 ignores `True`: the engine gets the spelling of the UCI spec.
    assert_eq!(
        to_engine(&actions),
        vec!["setoption name UCI_CHESS960 value true\n"]
    );
    assert!(s.chess960().gui);
    assert!(s.chess960().engine_on());
    let off = gui(&mut s, "setoption name UCI_Chess960 value FALSE\r");
    assert_eq!(
        to_engine(&off),
        vec!["setoption name UCI_Chess960 value false\n"]
    );
    assert!(!s.chess960().engine_on());
}

#[test]
fn chess960_position_is_rejected_when_the_engine_lacks_the_option() {
    let mut s = Session::new(false);
    gui(&mut s, "setoption name UCI_Chess960 value true");
    let actions = gui(&mut s, &format!("position fen {FRC}"));
    assert!(to_engine(&actions).is_empty());
    assert_eq!(
        to_gui(&actions),
        vec![
            "info string fenguard: rejected position: engine-lacks-chess960: the position needs Chess960 castling, but the engine does not offer UCI_Chess960\n"
        ]
    );
}

#[test]
fn standard_position_is_fine_when_the_engine_lacks_the_option() {
    let mut s = Session::new(false);
    gui(&mut s, "setoption name UCI_Chess960 value true");
    let actions = gui(&mut s, "position startpos moves e2e4");
    assert_eq!(to_engine(&actions), vec!["position startpos moves e2e4\n"]);
}

#[test]
fn detect_without_engine_offer_rejects() {
    let mut s = session_with(|p| p.chess960 = Chess960Mode::Detect);
    let record = position_record(&gui(&mut s, &format!("position fen {FRC}")));
    assert_eq!(record.verdict, Verdict::Rejected);
    assert_eq!(codes(&record), vec!["engine-lacks-chess960"]);
}

#[test]
fn detect_records_chess960_enabled_once() {
    let mut s = session_with(|p| p.chess960 = Chess960Mode::Detect);
    engine_offering_chess960(&mut s);
    let first = gui(&mut s, &format!("position fen {FRC}"));
    assert!(first.iter().any(|a| matches!(
        a,
        Action::Record(r) if matches!(&r.event, Event::Chess960Enabled { sent, fen }
            if sent == "setoption name UCI_Chess960 value true" && fen == FRC)
    )));
    let second = gui(&mut s, &format!("position fen {FRC} moves b1a1"));
    assert_eq!(
        to_engine(&second),
        vec!["position fen 4k3/8/8/8/8/8/8/RK6 w A - 0 1 moves b1a1\n"]
    );
}

#[test]
fn detect_translates_gui_standard_castle_into_king_takes_rook() {
    let mut s = session_with(|p| p.chess960 = Chess960Mode::Detect);
    engine_offering_chess960(&mut s);
    gui(&mut s, &format!("position fen {FRC}"));
    assert_eq!(to_engine(&gui(&mut s, ITALIAN_O_O)), vec![ITALIAN_O_O_SENT]);
}

#[test]
fn detect_translates_searchmoves_and_engine_output_back() {
    let mut s = session_with(|p| p.chess960 = Chess960Mode::Detect);
    engine_offering_chess960(&mut s);
    gui(&mut s, "position fen r3k2r/8/8/8/8/8/8/RK6 w Qkq - 0 1");
    let go = gui(&mut s, "go depth 3 searchmoves b1a1");
    assert_eq!(to_engine(&go), vec!["go depth 3 searchmoves b1a1\n"]);
    engine(&mut s, "bestmove b1a1");
    gui(
        &mut s,
        "position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6",
    );
    let go = gui(&mut s, "go depth 3 searchmoves e1g1 d2d3");
    assert_eq!(to_engine(&go), vec!["go depth 3 searchmoves e1h1 d2d3\n"]);
    let info = engine(&mut s, "info depth 3 score cp 30 pv e1h1 f8c5 d2d3");
    assert_eq!(
        to_gui(&info),
        vec!["info depth 3 score cp 30 pv e1g1 f8c5 d2d3\n"]
    );
    let best = engine(&mut s, "bestmove e1h1 ponder f8c5");
    assert_eq!(to_gui(&best), vec!["bestmove e1g1 ponder f8c5\n"]);
    let search = &search_records(&best)[0];
    assert_eq!(search.bestmove.as_deref(), Some("e1g1"));
    assert_eq!(search.ponder.as_deref(), Some("f8c5"));
}

#[test]
fn gui_in_chess960_gets_engine_lines_untouched() {
    let mut s = Session::new(false);
    engine_offering_chess960(&mut s);
    gui(&mut s, "setoption name UCI_Chess960 value true");
    gui(
        &mut s,
        "position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6",
    );
    let line = Bytes::from_static(b"info depth 3 pv e1h1 f8c5\n");
    assert_eq!(
        s.handle(Input::EngineLine(line.clone()), Instant::now()),
        vec![Action::ToGui(line)]
    );
}

#[test]
fn gui_setoption_after_detect_takes_over() {
    let mut s = session_with(|p| p.chess960 = Chess960Mode::Detect);
    engine_offering_chess960(&mut s);
    gui(&mut s, &format!("position fen {FRC}"));
    assert!(s.chess960().engine_on());
    gui(&mut s, "setoption name UCI_Chess960 value false");
    assert!(!s.chess960().engine_on());
}

/// Detect mode with `check_moves = false`, the engine switched to Chess960 by a position.
fn switched_without_check_moves() -> Session {
    let mut s = session_with(|p| {
        p.chess960 = Chess960Mode::Detect;
        p.check_moves = false;
    });
    engine_offering_chess960(&mut s);
    gui(&mut s, &format!("position fen {FRC}"));
    s
}

#[test]
fn detect_without_check_moves_still_translates_gui_castles() {
    let mut s = switched_without_check_moves();
    assert_eq!(to_engine(&gui(&mut s, ITALIAN_O_O)), vec![ITALIAN_O_O_SENT]);
}

#[test]
fn detect_without_check_moves_sends_the_moves_after_an_unplayable_one_as_given() {
    let mut s = switched_without_check_moves();
    let actions = gui(&mut s, "position startpos moves e2e4 e7e5 e1g1 e2e5 e8g8");
    let record = position_record(&actions);
    assert_eq!(record.verdict, Verdict::Valid);
    assert!(record.diagnostics.is_empty(), "{record:?}");
    assert_eq!(
        to_engine(&actions),
        vec!["position startpos moves e2e4 e7e5 e1g1 e2e5 e8g8\n"]
    );
}

#[test]
fn detect_without_check_moves_translates_up_to_an_unplayable_move() {
    let mut s = switched_without_check_moves();
    let actions = gui(
        &mut s,
        "position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1g1 a7a1 e8g8",
    );
    assert_eq!(
        to_engine(&actions),
        vec!["position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1h1 a7a1 e8g8\n"]
    );
}
