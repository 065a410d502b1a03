//! Reply order (issue 9, classes 1, 2, 3 and 7): fenguard's own replies never overtake what
//! the engine still owes; lines that depend on the engine's options wait for its `uciok`;
//! `go perft` is not a search; nothing is answered after `quit` when the engine is killed.

use super::super::*;
use super::{engine, gui, search_records, session_with, to_engine, to_gui};
use std::time::Instant;

const REJECTED: &str = "info string fenguard: rejected position: missing-king: there is no white king; expected exactly one\n";
const NO_KINGS: &str = "position fen 4k3/8/8/8/8/8/8/8 w - - 0 1";

fn exit(code: i32) -> EngineExit {
    EngineExit {
        code: Some(code),
        ..EngineExit::default()
    }
}

fn gui_all(s: &mut Session, lines: &[&str]) -> Vec<Action> {
    lines.iter().flat_map(|l| gui(s, l)).collect()
}

fn engine_all(s: &mut Session, lines: &[&str]) -> Vec<Action> {
    lines.iter().flat_map(|l| engine(s, l)).collect()
}

#[test]
fn own_bestmove_after_a_rejected_position_waits_for_the_owed_readyok() {
    let mut s = Session::new(false);
    let sent = gui_all(
        &mut s,
        &[
            "setoption name Hash value 2048",
            "ucinewgame",
            "isready",
            "position fen 4k3/8/8/8/8/8/8/8 w - - 0 1",
            "go depth 1",
        ],
    );
    assert_eq!(to_gui(&sent), Vec::<String>::new());
    let ready = engine(&mut s, "readyok");
    assert_eq!(to_gui(&ready), ["readyok\n", REJECTED, "bestmove 0000\n"]);
}

#[test]
fn an_engine_readyok_waits_for_the_own_bestmove_of_an_earlier_go() {
    // The fresh-clone review's case: a rejected position and its `go` while the engine still
    // searches, then `isready`. Stockfish answers `isready` mid-search; a bare engine given
    // that second `go` would have read nothing more until its search ended.
    let mut s = Session::new(false);
    let sent = gui_all(
        &mut s,
        &[
            "position startpos",
            "go depth 8",
            NO_KINGS,
            "go depth 3",
            "isready",
        ],
    );
    assert_eq!(to_gui(&sent), Vec::<String>::new());
    assert_eq!(
        to_engine(&sent),
        ["position startpos\n", "go depth 8\n", "isready\n"]
    );
    let early = engine(&mut s, "readyok");
    assert_eq!(to_gui(&early), Vec::<String>::new());
    let best = engine(&mut s, "bestmove e2e4");
    assert_eq!(
        to_gui(&best),
        ["bestmove e2e4\n", REJECTED, "bestmove 0000\n", "readyok\n"]
    );
    // An `isready` behind the engine's own search only is answered at once, as before.
    let sent = gui_all(&mut s, &["position startpos", "go infinite", "isready"]);
    assert_eq!(to_gui(&sent), Vec::<String>::new());
    assert_eq!(to_gui(&engine(&mut s, "readyok")), ["readyok\n"]);
}

#[test]
fn rejection_and_own_bestmove_wait_for_the_engines_handshake() {
    let mut s = Session::new(false);
    let sent = gui_all(&mut s, &["uci", "isready", NO_KINGS, "go depth 1"]);
    assert_eq!(to_gui(&sent), Vec::<String>::new());
    assert_eq!(to_engine(&sent), ["uci\n", "isready\n"]);
    let hand = engine_all(&mut s, &["id name E", "uciok"]);
    let shown = to_gui(&hand);
    assert_eq!(shown.first().map(String::as_str), Some("id name E\n"));
    assert!(shown.contains(&"uciok\n".to_owned()));
    assert!(
        !shown
            .iter()
            .any(|l| l.starts_with("bestmove") || l == REJECTED),
        "{shown:?}"
    );
    let ready = engine(&mut s, "readyok");
    assert_eq!(to_gui(&ready), ["readyok\n", REJECTED, "bestmove 0000\n"]);
}

#[test]
fn engine_exit_with_isready_then_go_pending_answers_readyok_first() {
    let mut s = Session::new(false);
    gui_all(&mut s, &["position startpos", "isready", "go depth 30"]);
    let out = s.handle(Input::EngineExited(exit(1)), Instant::now());
    let shown: Vec<String> = to_gui(&out)
        .into_iter()
        .filter(|l| !l.starts_with("info string"))
        .collect();
    assert_eq!(shown, ["readyok\n", "bestmove 0000\n"]);
}

#[test]
fn engine_exit_answers_go_then_isready_in_the_order_asked() {
    let mut s = Session::new(false);
    gui_all(&mut s, &["position startpos", "go depth 30", "isready"]);
    let out = s.handle(Input::EngineExited(exit(1)), Instant::now());
    let shown: Vec<String> = to_gui(&out)
        .into_iter()
        .filter(|l| !l.starts_with("info string"))
        .collect();
    assert_eq!(shown, ["bestmove 0000\n", "readyok\n"]);
}

#[test]
fn readyok_owed_behind_a_uciok_waits_for_the_restarted_engines_uciok() {
    let mut s = Session::new(false).with_restart(RestartPolicy {
        enabled: true,
        ..RestartPolicy::default()
    });
    gui_all(&mut s, &["uci", "isready"]);
    let out = s.handle(Input::EngineExited(exit(1)), Instant::now());
    assert!(!to_gui(&out).contains(&"readyok\n".to_owned()), "{out:?}");
    s.handle(
        Input::EngineStarted {
            command: "e".to_owned(),
            args: Vec::new(),
            pid: None,
        },
        Instant::now(),
    );
    let during = gui(&mut s, "isready");
    assert!(to_gui(&during).is_empty(), "{during:?}");
    let hand = engine_all(&mut s, &["id name E", "uciok"]);
    let shown = to_gui(&hand);
    let uciok = shown.iter().position(|l| l == "uciok\n").expect("uciok");
    assert_eq!(shown[uciok + 1..], ["readyok\n", "readyok\n"]);
}

#[test]
fn chess960_position_sent_right_after_uci_is_judged_after_uciok() {
    let mut s = Session::new(false);
    let sent = gui_all(
        &mut s,
        &[
            "uci",
            "setoption name UCI_Chess960 value true",
            "position fen 4rkr1/4p1p1/8/8/8/8/8/5K1R w K - 0 1",
            "go depth 1",
        ],
    );
    assert_eq!(to_engine(&sent), ["uci\n"]);
    let hand = engine_all(
        &mut s,
        &["option name UCI_Chess960 type check default false", "uciok"],
    );
    assert_eq!(
        to_engine(&hand),
        [
            "setoption name UCI_Chess960 value true\n",
            "position fen 4rkr1/4p1p1/8/8/8/8/8/5K1R w H - 0 1\n",
            "go depth 1\n"
        ]
    );
    assert!(
        !to_gui(&hand)
            .iter()
            .any(|l| l.contains("engine-lacks-chess960")),
        "{hand:?}"
    );
}

#[test]
fn lines_after_a_waiting_line_keep_their_order() {
    let mut s = Session::new(false);
    let sent = gui_all(
        &mut s,
        &["uci", "setoption name Hash value 32", "isready", "debug on"],
    );
    assert_eq!(to_engine(&sent), ["uci\n"]);
    let hand = engine(&mut s, "uciok");
    assert_eq!(
        to_engine(&hand),
        ["setoption name Hash value 32\n", "isready\n", "debug on\n"]
    );
}

#[test]
fn quit_waits_behind_the_lines_waiting_for_uciok() {
    // Newcomer review: `uci`, `setoption`, `isready`, `position`, `go`, `quit` in one write
    // is answered `uciok`, `readyok`, `bestmove` by the bare engine: fenguard must not drop
    // the lines in between.
    let mut s = Session::new(false);
    let sent = gui_all(
        &mut s,
        &[
            "uci",
            "setoption name Hash value 32",
            "isready",
            "position startpos",
            "go depth 1",
            "quit",
        ],
    );
    assert_eq!(to_engine(&sent), ["uci\n"]);
    let hand = engine(&mut s, "uciok");
    assert_eq!(
        to_engine(&hand),
        [
            "setoption name Hash value 32\n",
            "isready\n",
            "position startpos\n",
            "go depth 1\n",
            "quit\n"
        ]
    );
    assert!(hand.contains(&Action::StartQuitGrace));
}

#[test]
fn end_of_input_waits_behind_the_lines_waiting_for_uciok() {
    let mut s = Session::new(false);
    // `isready` goes at once (it depends on no option); `position` waits, and all after it.
    let sent = gui_all(
        &mut s,
        &["uci", "isready", "position startpos", "go depth 1"],
    );
    assert_eq!(to_engine(&sent), ["uci\n", "isready\n"]);
    let eof = s.handle(Input::GuiEof, Instant::now());
    assert!(!eof.contains(&Action::CloseEngineInput), "{eof:?}");
    let hand = engine(&mut s, "uciok");
    assert_eq!(to_engine(&hand), ["position startpos\n", "go depth 1\n"]);
    let close = hand.iter().position(|a| *a == Action::CloseEngineInput);
    let go = hand
        .iter()
        .position(|a| *a == Action::ToEngine(bytes::Bytes::from_static(b"go depth 1\n")));
    assert!(close > go, "{hand:?}");
    // The engine answers and quits: every reply reaches the GUI, then fenguard ends.
    let answers = engine_all(&mut s, &["readyok", "bestmove e2e4"]);
    assert_eq!(to_gui(&answers), ["readyok\n", "bestmove e2e4\n"]);
    let end = s.handle(Input::EngineExited(exit(0)), Instant::now());
    assert_eq!(end.last(), Some(&Action::Finish(0)));
}

#[test]
fn end_of_input_then_an_engine_exit_before_uciok_answers_what_waited() {
    let mut s = Session::new(false);
    gui_all(
        &mut s,
        &["uci", "isready", "position startpos", "go depth 1"],
    );
    s.handle(Input::GuiEof, Instant::now());
    let end = s.handle(Input::EngineExited(exit(1)), Instant::now());
    assert_eq!(to_gui(&end), ["readyok\n", "bestmove 0000\n"]);
    assert!(matches!(end.last(), Some(Action::Finish(_))), "{end:?}");
}

#[test]
fn go_perft_is_forwarded_and_owes_no_bestmove() {
    let mut s = Session::new(false);
    gui(&mut s, "position startpos");
    let perft = gui(&mut s, "go perft 2");
    assert_eq!(to_engine(&perft), ["go perft 2\n"]);
    engine_all(&mut s, &["a2a3: 20", "Nodes searched: 400"]);
    // A later `stop` does not wait for a bestmove from the perft: no deadline, no kill.
    let now = std::time::Instant::now();
    s.handle(Input::GuiLine(bytes::Bytes::from_static(b"stop\n")), now);
    assert_eq!(s.next_deadline(), None);
}

#[test]
fn bestmove_after_go_perft_is_judged_in_its_own_search() {
    let mut s = Session::new(false);
    gui(&mut s, "position startpos moves e2e4");
    gui(&mut s, "go perft 1");
    gui(&mut s, "position startpos");
    gui(&mut s, "go depth 1");
    let best = engine(&mut s, "bestmove d2d4");
    assert_eq!(to_gui(&best), ["bestmove d2d4\n"]);
    assert_eq!(search_records(&best)[0].diagnostics, Vec::new());
}

#[test]
fn go_perft_after_a_rejected_position_is_not_sent_and_answers_no_bestmove() {
    let mut s = Session::new(false);
    gui(&mut s, NO_KINGS);
    let perft = gui(&mut s, "go perft 3");
    assert!(to_engine(&perft).is_empty());
    assert_eq!(
        to_gui(&perft),
        ["info string fenguard: go perft after a rejected position: not sent to the engine\n"]
    );
    let go = gui(&mut s, "go depth 1");
    assert_eq!(to_gui(&go), ["bestmove 0000\n"]);
}

#[test]
fn nothing_is_answered_when_the_engine_is_killed_after_quit() {
    let mut s = Session::new(false);
    gui_all(
        &mut s,
        &["position startpos", "isready", "isready", "go infinite"],
    );
    gui(&mut s, "quit");
    let out = s.handle(
        Input::EngineExited(EngineExit {
            signal: Some(9),
            killed: true,
            ..EngineExit::default()
        }),
        Instant::now(),
    );
    assert_eq!(to_gui(&out), Vec::<String>::new());
    assert_eq!(out.last(), Some(&Action::Finish(0)));
}

#[test]
fn searchmoves_report_comes_before_its_own_bestmove() {
    let mut s = session_with(|_| {});
    gui(&mut s, "position startpos");
    let go = gui(&mut s, "go searchmoves e2e5");
    let shown = to_gui(&go);
    assert_eq!(shown.last().map(String::as_str), Some("bestmove 0000\n"));
    assert!(
        shown[0].starts_with("info string fenguard: searchmoves"),
        "{shown:?}"
    );
}

#[test]
fn unasked_engine_answers_are_relayed_and_owe_nothing() {
    let mut s = Session::new(false);
    let out = engine_all(&mut s, &["readyok", "bestmove e2e4", "uciok"]);
    let shown = to_gui(&out);
    assert!(shown.contains(&"readyok\n".to_owned()));
    assert!(shown.contains(&"bestmove e2e4\n".to_owned()));
    let go = gui_all(&mut s, &[NO_KINGS, "go depth 1"]);
    assert_eq!(to_gui(&go), [REJECTED, "bestmove 0000\n"]);
}
