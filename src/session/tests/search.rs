//! `go`, `stop`, `ponderhit`, `bestmove` and search records.

use crate::session::Input;
use std::time::{Duration, Instant};

use super::*;
use crate::config::{Chess960Mode, OnInvalid};

fn reject(s: &mut Session) {
    gui(s, "position fen 4k3/8/8/8/8/8/8/8 w - - 0 1");
}

#[test]
fn go_infinite_after_reject_is_answered_at_stop() {
    let mut s = Session::new(false);
    reject(&mut s);
    let go = gui(&mut s, "go infinite");
    assert!(to_engine(&go).is_empty());
    assert!(to_gui(&go).is_empty());
    let stop = gui(&mut s, "stop");
    assert!(to_engine(&stop).is_empty());
    assert_eq!(to_gui(&stop), vec!["bestmove 0000\n"]);
}

#[test]
fn go_ponder_after_reject_is_answered_at_ponderhit() {
    let mut s = Session::new(false);
    reject(&mut s);
    gui(&mut s, "go ponder wtime 1000 btime 1000");
    let hit = gui(&mut s, "ponderhit");
    assert!(to_engine(&hit).is_empty());
    assert_eq!(to_gui(&hit), vec!["bestmove 0000\n"]);
}

#[test]
fn stop_without_held_go_is_forwarded() {
    let mut s = Session::new(false);
    assert_eq!(to_engine(&gui(&mut s, "stop")), vec!["stop\n"]);
}

#[test]
fn answered_go_is_recorded_as_search_with_null_bestmove() {
    let mut s = Session::new(false);
    reject(&mut s);
    let go = gui(&mut s, "go depth 1");
    let search = &search_records(&go)[0];
    assert_eq!(search.position_seq, Some(1));
    assert_eq!(search.go, "go depth 1");
    assert_eq!(search.bestmove.as_deref(), Some("0000"));
}

#[test]
fn search_record_measures_elapsed_time_from_the_shell_timestamps() {
    let mut s = Session::new(false);
    let t0 = Instant::now();
    s.handle(
        Input::GuiLine(Bytes::from_static(b"position startpos\n")),
        t0,
    );
    s.handle(Input::GuiLine(Bytes::from_static(b"go movetime 100\n")), t0);
    let best = s.handle(
        Input::EngineLine(Bytes::from_static(b"bestmove e2e4 ponder e7e5\n")),
        t0 + Duration::from_millis(1234),
    );
    assert_eq!(
        search_records(&best),
        vec![SearchRecord {
            position_seq: Some(1),
            go: "go movetime 100".to_owned(),
            bestmove: Some("e2e4".to_owned()),
            ponder: Some("e7e5".to_owned()),
            elapsed_ms: Some(1234),
            diagnostics: vec![],
            variant: None,
            fenguard_answer: None,
        }]
    );
}

#[test]
fn illegal_bestmove_is_relayed_and_reported() {
    let mut s = Session::new(false);
    gui(&mut s, "position startpos");
    gui(&mut s, "go depth 1");
    let best = engine(&mut s, "bestmove e2e5");
    assert_eq!(
        to_gui(&best),
        vec![
            "info string fenguard: illegal-bestmove: bestmove 1 `e2e5` is illegal in rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n",
            "bestmove e2e5\n",
        ]
    );
    assert_eq!(
        search_records(&best)[0].diagnostics[0].code,
        "illegal-bestmove"
    );
}

#[test]
fn illegal_ponder_move_is_reported() {
    let mut s = Session::new(false);
    gui(&mut s, "position startpos");
    gui(&mut s, "go depth 1");
    let best = engine(&mut s, "bestmove e2e4 ponder e2e4");
    assert!(
        to_gui(&best)[0]
            .starts_with("info string fenguard: illegal-bestmove: ponder move 2 `e2e4`")
    );
}

#[test]
fn bestmove_is_checked_against_the_searched_position() {
    let mut s = Session::new(false);
    gui(&mut s, "position startpos moves e2e4");
    gui(&mut s, "go depth 1");
    gui(&mut s, "position startpos");
    let best = engine(&mut s, "bestmove e7e5");
    assert_eq!(to_gui(&best), vec!["bestmove e7e5\n"]);
}

#[test]
fn info_lines_pass_through_unchanged_when_notations_agree() {
    let mut s = Session::new(false);
    gui(&mut s, "position startpos");
    gui(&mut s, "go infinite");
    let line = Bytes::from_static(b"info depth 1 pv e1g1 e8g8\n");
    assert_eq!(
        s.handle(Input::EngineLine(line.clone()), Instant::now()),
        vec![Action::ToGui(line)]
    );
}

#[test]
fn illegal_searchmoves_move_is_reported_and_removed() {
    let mut s = Session::new(false);
    gui(&mut s, "position startpos");
    let go = gui(&mut s, "go depth 2 searchmoves e2e5 e2e4 movetime 5");
    assert_eq!(
        to_engine(&go),
        vec!["go depth 2 searchmoves e2e4 movetime 5\n"]
    );
    assert!(to_gui(&go)[0].starts_with("info string fenguard: searchmoves: illegal-move: "));
}

#[test]
fn searchmoves_with_no_legal_move_is_answered_with_null_bestmove() {
    let mut s = Session::new(false);
    gui(&mut s, "position startpos");
    let go = gui(&mut s, "go nodes 1 searchmoves e1c1 b8e8");
    assert!(to_engine(&go).is_empty());
    let answer = to_gui(&go);
    assert_eq!(answer.last().map(String::as_str), Some("bestmove 0000\n"));
    assert_eq!(
        search_records(&go)[0].go,
        "go nodes 1 searchmoves e1c1 b8e8"
    );
}

#[test]
fn forward_mode_sends_illegal_searchmoves_as_given() {
    let mut s = session_with(|p| p.on_invalid = OnInvalid::Forward);
    gui(&mut s, "position startpos");
    let go = gui(&mut s, "go searchmoves e2e5 e2e4");
    assert_eq!(to_engine(&go), vec!["go searchmoves e2e5 e2e4\n"]);
}

#[test]
fn search_record_keeps_the_guis_go_line() {
    let mut s = session_with(|p| p.chess960 = Chess960Mode::Detect);
    engine(&mut s, "option name UCI_Chess960 type check default false");
    gui(&mut s, "position fen 4rkr1/4p1p1/8/8/8/8/8/5K1R w K - 0 1");
    gui(&mut s, "go depth 3 searchmoves f1g1");
    let best = engine(&mut s, "bestmove f1g1");
    assert_eq!(search_records(&best)[0].go, "go depth 3 searchmoves f1g1");
}

#[test]
fn own_null_bestmove_waits_for_the_bestmove_the_engine_still_owes() {
    let mut s = Session::new(false);
    gui(&mut s, "position startpos");
    gui(&mut s, "go infinite");
    gui(&mut s, "stop");
    gui(&mut s, "position fen 4k3/8/8/8/8/8/8/8 w - - 0 1");
    let go = gui(&mut s, "go depth 1");
    assert!(!to_gui(&go).contains(&"bestmove 0000\n".to_owned()));
    let best = engine(&mut s, "bestmove d2d4 ponder d7d5");
    // The rejection's `info string` waits its turn too.
    assert_eq!(
        to_gui(&best),
        vec![
            "bestmove d2d4 ponder d7d5\n",
            "info string fenguard: rejected position: missing-king: there is no white king; expected exactly one\n",
            "bestmove 0000\n"
        ]
    );
    let records = search_records(&best);
    assert_eq!(records[0].go, "go infinite");
    assert_eq!(records[0].bestmove.as_deref(), Some("d2d4"));
    assert_eq!(records[1].go, "go depth 1");
    assert_eq!(records[1].bestmove.as_deref(), Some("0000"));
}

#[test]
fn stopped_search_is_checked_against_its_own_position() {
    let mut s = Session::new(false);
    gui(&mut s, "position startpos");
    gui(&mut s, "go infinite");
    gui(&mut s, "stop");
    gui(&mut s, "position fen 4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    gui(&mut s, "go depth 3");
    let first = engine(&mut s, "bestmove d2d4 ponder d7d5");
    assert_eq!(to_gui(&first), vec!["bestmove d2d4 ponder d7d5\n"]);
    assert_eq!(search_records(&first)[0].go, "go infinite");
    let second = engine(&mut s, "bestmove h1g1");
    assert_eq!(to_gui(&second), vec!["bestmove h1g1\n"]);
    assert_eq!(search_records(&second)[0].go, "go depth 3");
}

#[test]
fn every_search_gets_its_record_when_gos_queue_up() {
    let mut s = Session::new(false);
    let mut records = 0;
    for _ in 0..50 {
        gui(&mut s, "position startpos moves e2e4");
        gui(&mut s, "go nodes 10");
    }
    for _ in 0..50 {
        records += search_records(&engine(&mut s, "bestmove e7e5")).len();
    }
    assert_eq!(records, 50);
}

#[test]
fn engine_exit_answers_every_search_it_still_owed_in_order() {
    let mut s = Session::new(false);
    gui(&mut s, "position startpos");
    gui(&mut s, "go infinite");
    gui(&mut s, "stop");
    gui(&mut s, "go depth 5");
    gui(&mut s, "position fen 4k3/8/8/8/8/8/8/8 w - - 0 1");
    gui(&mut s, "go depth 1");
    let exit = s.handle(
        Input::EngineExited(crate::session::EngineExit {
            signal: Some(9),
            ..Default::default()
        }),
        Instant::now(),
    );
    let nulls: Vec<String> = to_gui(&exit)
        .into_iter()
        .filter(|l| l.starts_with("bestmove"))
        .collect();
    assert_eq!(nulls, vec!["bestmove 0000\n"; 3]);
    let gos: Vec<String> = search_records(&exit)
        .into_iter()
        .map(|r| r.go.clone())
        .collect();
    assert_eq!(gos, vec!["go infinite", "go depth 5", "go depth 1"]);
}

#[test]
fn engine_exit_after_quit_still_answers_what_the_engine_owed() {
    let mut s = Session::new(false);
    gui(&mut s, "position startpos");
    gui(&mut s, "go depth 20");
    gui(&mut s, "isready");
    gui(&mut s, "quit");
    let exit = s.handle(
        Input::EngineExited(crate::session::EngineExit {
            code: Some(0),
            ..Default::default()
        }),
        Instant::now(),
    );
    assert_eq!(to_gui(&exit), vec!["bestmove 0000\n", "readyok\n"]);
    assert_eq!(exit.last(), Some(&Action::Finish(0)));
}

#[test]
fn go_infinite_with_no_legal_searchmove_is_answered_at_stop() {
    let mut s = Session::new(false);
    gui(&mut s, "position startpos");
    let go = gui(&mut s, "go infinite searchmoves a2a5");
    assert!(to_engine(&go).is_empty());
    assert!(!to_gui(&go).contains(&"bestmove 0000\n".to_owned()));
    let stop = gui(&mut s, "stop");
    assert!(to_engine(&stop).is_empty());
    assert_eq!(to_gui(&stop), vec!["bestmove 0000\n"]);
}

#[test]
fn own_answer_queued_behind_a_search_lost_in_a_fragment_follows_its_bestmove_0000() {
    let mut s = Session::new(false);
    gui(&mut s, "position startpos");
    gui(&mut s, "go depth 1");
    gui(&mut s, "position fen 4k3/8/8/8/8/8/8/8 w - - 0 1");
    gui(&mut s, "go depth 1");
    let best = s.handle(
        Input::EngineLine(Bytes::from_static(b"bestmove e2e4")),
        Instant::now(),
    );
    assert!(to_gui(&best).is_empty(), "{best:?}");
    let exit = s.handle(
        Input::EngineExited(crate::session::EngineExit {
            code: Some(0),
            ..Default::default()
        }),
        Instant::now(),
    );
    assert_eq!(
        to_gui(&exit),
        [
            "info string fenguard: engine exited (status 0)\n",
            "bestmove 0000\n",
            "info string fenguard: rejected position: missing-king: there is no white king; expected exactly one\n",
            "bestmove 0000\n"
        ]
    );
}
