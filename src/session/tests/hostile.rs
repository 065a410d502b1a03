//! Hostile input: NUL and non-UTF-8 bytes in `position` lines, a `go` without `stop`, and
//! fenguard's own lines while an engine line is half relayed.

use super::*;
use crate::session::EngineExit;
use crate::session::Input;
use std::time::Instant;

fn gui_bytes(s: &mut Session, line: &'static [u8]) -> Vec<Action> {
    s.handle(Input::GuiLine(Bytes::from_static(line)), Instant::now())
}

#[test]
fn nul_in_a_move_is_escaped_in_the_gui_report() {
    let mut s = Session::new(false);
    let actions = gui_bytes(
        &mut s,
        b"position fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1 moves e1e2\0\n",
    );
    assert_eq!(
        to_gui(&actions),
        vec![
            "info string fenguard: rejected position: bad-move-syntax: move 1 `e1e2\\u{0}` is not \
             a UCI move (expected long algebraic like `e2e4` or `e7e8q`); position before it: \
             4k3/8/8/8/8/8/8/4K3 w - - 0 1\n"
        ]
    );
    let record = position_record(&actions);
    assert_eq!(record.diagnostics[0].span, Some(49..54));
}

#[test]
fn escape_sequence_in_a_move_reaches_the_gui_escaped() {
    let mut s = Session::new(false);
    let actions = gui_bytes(&mut s, b"position startpos moves e2e4 \x1b[31m\n");
    let told = &to_gui(&actions)[0];
    assert!(
        told.contains("move 2 `\\u{1b}[31m` is not a UCI move"),
        "{told}"
    );
    assert!(!told.trim_end().chars().any(char::is_control), "{told:?}");
}

#[test]
fn nul_in_the_board_is_diagnosed_at_its_byte() {
    let mut s = Session::new(false);
    let actions = gui_bytes(&mut s, b"position fen 4k3/8/8/8/8/8/8/4K\x003 w - - 0 1\n");
    let record = position_record(&actions);
    let unknown: Vec<_> = record
        .diagnostics
        .iter()
        .filter(|d| d.code == "unknown-piece")
        .map(|d| d.span.clone())
        .collect();
    assert_eq!(unknown, vec![Some(31..32)]);
    assert!(to_engine(&actions).is_empty());
}

#[test]
fn non_utf8_castling_byte_is_rejected_with_a_utf8_report() {
    let mut s = Session::new(false);
    let actions = gui_bytes(&mut s, b"position fen 4k3/8/8/8/8/8/8/4K3 w \xff - 0 1\n");
    let record = position_record(&actions);
    assert_eq!(record.diagnostics[0].code, "bad-castling-char");
    assert_eq!(record.diagnostics[0].span, Some(35..36));
    let told: Vec<_> = actions
        .iter()
        .filter_map(|a| match a {
            Action::ToGui(line) => Some(std::str::from_utf8(line).is_ok()),
            _ => None,
        })
        .collect();
    assert_eq!(told, vec![true]);
}

#[test]
fn go_after_held_go_answers_the_held_one_first() {
    let mut s = Session::new(false);
    gui(&mut s, "position fen 4k3/8/8/8/8/8/8/8 w - - 0 1");
    gui(&mut s, "go infinite");
    gui(&mut s, "position startpos");
    let go = gui(&mut s, "go depth 1");
    assert_eq!(to_gui(&go), vec!["bestmove 0000\n"]);
    assert_eq!(to_engine(&go), vec!["go depth 1\n"]);
    assert_eq!(to_engine(&gui(&mut s, "stop")), vec!["stop\n"]);
}

#[test]
fn second_held_go_answers_the_first() {
    let mut s = Session::new(false);
    gui(&mut s, "position fen 4k3/8/8/8/8/8/8/8 w - - 0 1");
    gui(&mut s, "go infinite");
    assert_eq!(to_gui(&gui(&mut s, "go infinite")), vec!["bestmove 0000\n"]);
    assert_eq!(to_gui(&gui(&mut s, "stop")), vec!["bestmove 0000\n"]);
}

#[test]
fn own_lines_wait_for_the_end_of_an_overlong_engine_line() {
    let mut s = Session::new(false);
    s.handle(
        Input::EnginePiece {
            chunk: Bytes::from_static(b"info string aaaa"),
            first: true,
        },
        Instant::now(),
    );
    let rejected = gui(&mut s, "position fen 8/8/8/8/8/8/8/8 w - - 0 1");
    let go = gui(&mut s, "go depth 1");
    assert!(to_gui(&rejected).is_empty() && to_gui(&go).is_empty());
    let end = s.handle(
        Input::EnginePiece {
            chunk: Bytes::from_static(b"bbbb\n"),
            first: false,
        },
        Instant::now(),
    );
    let gui_lines = to_gui(&end);
    assert_eq!(gui_lines[0], "bbbb\n");
    assert!(gui_lines[1].starts_with("info string fenguard: rejected position: missing-king"));
    assert_eq!(
        gui_lines.last().map(String::as_str),
        Some("bestmove 0000\n")
    );
}

#[test]
fn own_lines_after_an_unfinished_overlong_engine_line_follow_a_line_feed_at_exit() {
    let mut s = Session::new(false);
    s.handle(
        Input::EnginePiece {
            chunk: Bytes::from_static(b"info string aaaa"),
            first: true,
        },
        Instant::now(),
    );
    gui(&mut s, "position fen 8/8/8/8/8/8/8/8 w - - 0 1");
    let go = gui(&mut s, "go depth 1");
    assert!(to_gui(&go).is_empty());
    let exit = s.handle(Input::EngineExited(EngineExit::default()), Instant::now());
    let gui_lines = to_gui(&exit);
    assert_eq!(gui_lines[0], "\n");
    assert_eq!(gui_lines[3], "bestmove 0000\n");
    assert_eq!(
        gui_lines.last().map(String::as_str),
        Some("info string fenguard: engine exited (unknown status)\n")
    );
}

#[test]
fn own_lines_go_out_at_once_when_the_engine_line_is_complete() {
    let mut s = Session::new(false);
    engine(&mut s, "readyok");
    gui(&mut s, "position fen 8/8/8/8/8/8/8/8 w - - 0 1");
    assert_eq!(to_gui(&gui(&mut s, "go depth 1")), vec!["bestmove 0000\n"]);
}
