//! The alphabet ([`Input`]) through [`Session::handle`], and the states ([`Phase`]) it moves
//! the session through.

use std::time::{Duration, Instant};

use bytes::Bytes;

use super::super::*;
use super::{to_engine, to_gui};

const MS: Duration = Duration::from_millis(1);

fn line(text: &'static str) -> Bytes {
    Bytes::from_static(text.as_bytes())
}

fn exit(code: i32) -> Input {
    Input::EngineExited(EngineExit {
        code: Some(code),
        ..EngineExit::default()
    })
}

fn started() -> Input {
    Input::EngineStarted {
        command: "/e".into(),
        args: vec![],
        pid: None,
    }
}

#[test]
fn a_restart_goes_through_every_phase_in_turn() {
    let t0 = Instant::now();
    let mut s = Session::new(false).with_restart(RestartPolicy {
        enabled: true,
        ..RestartPolicy::default()
    });
    assert_eq!(*s.phase(), Phase::Running);
    s.handle(Input::GuiLine(line("setoption name Hash value 64\n")), t0);
    s.handle(Input::GuiLine(line("go infinite\n")), t0);
    s.handle(exit(1), t0);
    assert_eq!(*s.phase(), Phase::Waiting);
    let out = s.handle(started(), t0 + 100 * MS);
    assert_eq!(*s.phase(), Phase::Handshake);
    assert_eq!(to_engine(&out), ["uci\n"]);
    assert_eq!(
        s.next_deadline(),
        Some(t0 + 100 * MS + Duration::from_secs(30))
    );
    let out = s.handle(Input::EngineLine(line("uciok\n")), t0 + 200 * MS);
    assert!(matches!(s.phase(), Phase::Barrier(_)), "{:?}", s.phase());
    assert_eq!(
        to_engine(&out),
        ["setoption name Hash value 64\n", "isready\n"]
    );
    s.handle(Input::EngineLine(line("readyok\n")), t0 + 300 * MS);
    assert_eq!(*s.phase(), Phase::Running);
    assert_eq!(s.next_deadline(), None);
}

#[test]
fn a_tick_before_any_deadline_does_nothing() {
    let t0 = Instant::now();
    let mut s = Session::new(false);
    assert!(s.handle(Input::Tick, t0).is_empty());
    s.handle(Input::GuiLine(line("isready\n")), t0);
    assert!(s.handle(Input::Tick, t0 + 9_999 * MS).is_empty());
    let out = s.handle(Input::Tick, t0 + 10_000 * MS);
    assert_eq!(out.last(), Some(&Action::KillEngine));
}

#[test]
fn deferring_the_deadlines_moves_a_passed_one() {
    let t0 = Instant::now();
    let mut s = Session::new(false);
    s.handle(Input::GuiLine(line("isready\n")), t0);
    let until = t0 + 20_000 * MS;
    assert!(s.handle(Input::DeferDeadlines { until }, t0).is_empty());
    assert_eq!(s.next_deadline(), Some(until));
}

#[test]
fn a_backlog_is_remembered_for_the_output_grace() {
    let t0 = Instant::now();
    let mut s = Session::new(false);
    assert!(s.handle(Input::EngineBacklog, t0).is_empty());
    assert!(s.engine_output_backlogged(t0 + OUTPUT_GRACE - MS));
    assert!(!s.engine_output_backlogged(t0 + OUTPUT_GRACE));
}

#[test]
fn the_end_of_the_gui_input_closes_the_engine_input() {
    let mut s = Session::new(false);
    let out = s.handle(Input::GuiEof, Instant::now());
    assert!(out.contains(&Action::CloseEngineInput), "{out:?}");
    assert!(out.contains(&Action::StartQuitGrace), "{out:?}");
}

#[test]
fn pieces_of_over_long_lines_are_inputs_too() {
    let t0 = Instant::now();
    let mut s = Session::new(false);
    let first = Input::GuiPiece {
        chunk: line("echo xxxx"),
        first: true,
    };
    assert_eq!(to_engine(&s.handle(first, t0)), ["echo xxxx"]);
    let piece = Input::EnginePiece {
        chunk: line("info string yyyy\n"),
        first: false,
    };
    assert_eq!(to_gui(&s.handle(piece, t0)), ["info string yyyy\n"]);
}

#[test]
fn a_stalled_engine_input_kills_the_engine_once() {
    let t0 = Instant::now();
    let mut s = Session::new(false);
    let out = s.handle(Input::EngineInputStalled(Duration::from_secs(11)), t0);
    assert_eq!(out.last(), Some(&Action::KillEngine));
    assert!(
        s.handle(Input::EngineInputStalled(Duration::from_secs(12)), t0)
            .is_empty()
    );
}
