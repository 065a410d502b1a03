//! The engine's output ending inside a line (the engine died while writing it): the fragment
//! is logged, never relayed nor read as a `bestmove`; what the engine owed is answered by
//! fenguard at its exit.

use bytes::Bytes;
use std::time::Instant;
use tracing::Level;

use super::super::*;
use super::{gui, search_records, to_gui};

fn killed() -> EngineExit {
    EngineExit {
        signal: Some(9),
        ..EngineExit::default()
    }
}

/// A session whose engine searches `position startpos` (`go depth 1`).
fn searching() -> Session {
    let mut s = Session::new(false);
    gui(&mut s, "position startpos");
    gui(&mut s, "go depth 1");
    s
}

fn logs(actions: &[Action]) -> Vec<(Level, String)> {
    actions
        .iter()
        .filter_map(|a| match a {
            Action::Log(level, text) => Some((*level, text.clone())),
            _ => None,
        })
        .collect()
}

#[test]
fn unterminated_bestmove_fragment_is_not_relayed() {
    let mut s = searching();
    let fragment = s.handle(
        Input::EngineLine(Bytes::from_static(b"bestmove e2")),
        Instant::now(),
    );
    assert!(to_gui(&fragment).is_empty(), "{fragment:?}");
}

#[test]
fn unterminated_bestmove_fragment_is_logged_as_a_warning() {
    let mut s = searching();
    let fragment = s.handle(
        Input::EngineLine(Bytes::from_static(b"bestmove e2")),
        Instant::now(),
    );
    assert_eq!(
        logs(&fragment),
        [(
            Level::WARN,
            "engine output ended inside a line: `bestmove e2` (not relayed)".to_owned()
        )]
    );
}

#[test]
fn search_lost_in_an_unterminated_bestmove_is_answered_bestmove_0000_at_exit() {
    let mut s = searching();
    s.handle(
        Input::EngineLine(Bytes::from_static(b"bestmove e2")),
        Instant::now(),
    );
    let exit = s.handle(Input::EngineExited(killed()), Instant::now());
    assert_eq!(
        to_gui(&exit),
        [
            "info string fenguard: engine exited (signal 9)\n",
            "bestmove 0000\n"
        ]
    );
    let search = &search_records(&exit)[0];
    assert_eq!(search.bestmove.as_deref(), Some("0000"));
    assert!(search.diagnostics.is_empty(), "{search:?}");
}

#[test]
fn complete_looking_unterminated_bestmove_is_not_the_engines_answer() {
    let mut s = searching();
    assert!(
        to_gui(&s.handle(
            Input::EngineLine(Bytes::from_static(b"bestmove e2e4")),
            Instant::now()
        ))
        .is_empty()
    );
    let exit = s.handle(Input::EngineExited(killed()), Instant::now());
    assert_eq!(
        to_gui(&exit).last().map(String::as_str),
        Some("bestmove 0000\n")
    );
}

#[test]
fn unterminated_info_fragment_is_dropped() {
    let mut s = Session::new(false);
    gui(&mut s, "position startpos");
    gui(&mut s, "go infinite");
    let fragment = s.handle(
        Input::EngineLine(Bytes::from_static(b"info depth 12 score cp 3")),
        Instant::now(),
    );
    assert!(to_gui(&fragment).is_empty(), "{fragment:?}");
    let exit = s.handle(Input::EngineExited(killed()), Instant::now());
    assert_eq!(
        to_gui(&exit),
        [
            "info string fenguard: engine exited (signal 9)\n",
            "bestmove 0000\n"
        ]
    );
}

#[test]
fn unterminated_readyok_leaves_isready_to_be_answered_once_at_exit() {
    let mut s = Session::new(false);
    gui(&mut s, "isready");
    assert!(
        to_gui(&s.handle(
            Input::EngineLine(Bytes::from_static(b"readyok")),
            Instant::now()
        ))
        .is_empty()
    );
    let exit = s.handle(Input::EngineExited(killed()), Instant::now());
    assert_eq!(
        to_gui(&exit),
        [
            "info string fenguard: engine exited (signal 9)\n",
            "readyok\n"
        ]
    );
}

#[test]
fn own_answers_after_an_unterminated_fragment_go_out_at_once() {
    let mut s = Session::new(false);
    s.handle(
        Input::EngineLine(Bytes::from_static(b"info string half")),
        Instant::now(),
    );
    gui(&mut s, "position fen 8/8/8/8/8/8/8/8 w - - 0 1");
    assert_eq!(to_gui(&gui(&mut s, "go depth 1")), ["bestmove 0000\n"]);
}

#[test]
fn long_fragment_is_logged_shortened() {
    let mut s = Session::new(false);
    let mut line = b"info string ".to_vec();
    line.extend(std::iter::repeat_n(b'x', 1000));
    let out = s.handle(Input::EngineLine(Bytes::from(line)), Instant::now());
    let (_, text) = &logs(&out)[0];
    assert!(text.len() < 300, "{text}");
    assert!(text.ends_with("…` (not relayed)"), "{text}");
}
