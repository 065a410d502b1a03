//! The engine's exit, hangs and restarts (issue 5), by plain calls.

use std::time::{Duration, Instant};

use bytes::Bytes;

use super::super::*;
use super::{engine, gui, session_with, to_engine, to_gui};
use crate::config::OnInvalid;

const MS: Duration = Duration::from_millis(1);

fn restarting() -> Session {
    Session::new(false).with_restart(RestartPolicy {
        enabled: true,
        ..RestartPolicy::default()
    })
}

fn status(code: i32) -> EngineExit {
    EngineExit {
        code: Some(code),
        ..EngineExit::default()
    }
}

fn gui_at(s: &mut Session, line: &str, now: Instant) -> Vec<Action> {
    s.handle(Input::GuiLine(Bytes::from(format!("{line}\n"))), now)
}

fn engine_at(s: &mut Session, line: &str, now: Instant) -> Vec<Action> {
    s.handle(Input::EngineLine(Bytes::from(format!("{line}\n"))), now)
}

/// Exits at `now`, starts the new engine and answers its handshake and barrier; gives the
/// actions of the start, of `uciok` and of `readyok`.
fn restart(s: &mut Session, now: Instant) -> [Vec<Action>; 3] {
    let exit = s.handle(Input::EngineExited(status(1)), now);
    assert!(
        matches!(exit.last(), Some(Action::RestartEngine { .. })),
        "{exit:?}"
    );
    let start = s.handle(
        Input::EngineStarted {
            command: "/e".into(),
            args: vec![],
            pid: Some(2),
        },
        now,
    );
    engine_at(s, "id name E", now);
    let uciok = engine_at(s, "uciok", now);
    let readyok = engine_at(s, "readyok", now);
    [start, uciok, readyok]
}

fn exit_reason(actions: &[Action]) -> Option<ExitReason> {
    actions.iter().find_map(|a| match a {
        Action::Record(Record {
            event: Event::EngineExit { reason, .. },
            ..
        }) => Some(*reason),
        _ => None,
    })
}

#[test]
fn exit_during_search_tells_the_gui_and_answers_go_and_isready() {
    let mut s = Session::new(false);
    gui(&mut s, "go infinite");
    gui(&mut s, "isready");
    let out = s.handle(Input::EngineExited(status(3)), Instant::now());
    assert_eq!(
        to_gui(&out),
        [
            "info string fenguard: engine exited (status 3)\n",
            "bestmove 0000\n",
            "readyok\n"
        ]
    );
    assert_eq!(out.last(), Some(&Action::Finish(EXIT_ENGINE_DIED)));
}

#[test]
fn exit_by_signal_names_the_signal() {
    let mut s = Session::new(false);
    let out = s.handle(
        Input::EngineExited(EngineExit {
            signal: Some(9),
            ..EngineExit::default()
        }),
        Instant::now(),
    );
    assert_eq!(
        to_gui(&out),
        ["info string fenguard: engine exited (signal 9)\n"]
    );
}

#[test]
fn answered_isready_is_not_answered_again_at_exit() {
    let mut s = Session::new(false);
    gui(&mut s, "isready");
    engine(&mut s, "readyok");
    let out = s.handle(Input::EngineExited(status(3)), Instant::now());
    assert!(!to_gui(&out).contains(&"readyok\n".to_owned()), "{out:?}");
}

#[test]
fn exit_with_restarts_on_asks_for_a_restart_after_100_ms() {
    let mut s = restarting();
    let out = s.handle(Input::EngineExited(status(1)), Instant::now());
    assert_eq!(out.last(), Some(&Action::RestartEngine { after: 100 * MS }));
    assert_eq!(s.restarts(), 1);
}

#[test]
fn backoff_doubles_then_fenguard_gives_up_after_max_restarts_a_minute() {
    let mut s = restarting();
    let t0 = Instant::now();
    let mut waits = Vec::new();
    for i in 0..5 {
        let now = t0 + i * 1000 * MS;
        match s.handle(Input::EngineExited(status(1)), now).last() {
            Some(Action::RestartEngine { after }) => waits.push(after.as_millis()),
            other => panic!("no restart: {other:?}"),
        }
        s.handle(
            Input::EngineStarted {
                command: "/e".into(),
                args: vec![],
                pid: None,
            },
            now,
        );
    }
    assert_eq!(waits, [100, 200, 400, 800, 1600]);
    let out = s.handle(Input::EngineExited(status(1)), t0 + 5000 * MS);
    assert_eq!(
        to_gui(&out),
        [
            "info string fenguard: engine exited (status 1)\n",
            "info string fenguard: engine keeps exiting; giving up\n"
        ]
    );
    assert_eq!(out.last(), Some(&Action::Finish(EXIT_ENGINE_DIED)));
}

#[test]
fn restarts_older_than_a_minute_do_not_count() {
    let mut s = restarting();
    let t0 = Instant::now();
    for _ in 0..5 {
        s.handle(Input::EngineExited(status(1)), t0);
        s.handle(
            Input::EngineStarted {
                command: "/e".into(),
                args: vec![],
                pid: None,
            },
            t0,
        );
    }
    let out = s.handle(Input::EngineExited(status(1)), t0 + 61_000 * MS);
    assert_eq!(out.last(), Some(&Action::RestartEngine { after: 100 * MS }));
}

#[test]
fn restarted_engine_gets_uci_then_options_newgame_position_and_isready() {
    let mut s = restarting();
    let now = Instant::now();
    gui(&mut s, "uci");
    engine(&mut s, "uciok");
    gui(&mut s, "setoption name Hash value 16");
    gui(&mut s, "setoption name Threads value 2");
    gui(&mut s, "setoption name fenguard OnBadPosition value repair");
    gui(&mut s, "setoption name hash value 32");
    gui(&mut s, "ucinewgame");
    gui(&mut s, "position startpos moves e2e4");
    let [start, uciok, readyok] = restart(&mut s, now);
    assert_eq!(to_engine(&start), ["uci\n"]);
    assert_eq!(
        to_engine(&uciok),
        [
            "setoption name Threads value 2\n",
            "setoption name hash value 32\n",
            "ucinewgame\n",
            "position startpos moves e2e4\n",
            "isready\n"
        ]
    );
    assert!(to_gui(&uciok).is_empty(), "{uciok:?}");
    assert_eq!(
        to_gui(&readyok),
        ["info string fenguard: engine restarted (restart 1): options and position restored\n"]
    );
}

#[test]
fn engine_start_record_counts_restarts() {
    let mut s = restarting();
    let [start, ..] = restart(&mut s, Instant::now());
    assert!(
        start.iter().any(|a| matches!(
            a,
            Action::Record(Record {
                event: Event::EngineStart { restart: 1, .. },
                ..
            })
        )),
        "{start:?}"
    );
}

#[test]
fn gui_lines_during_a_restart_are_held_until_the_barrier() {
    let mut s = restarting();
    let now = Instant::now();
    s.handle(Input::EngineExited(status(1)), now);
    assert!(gui(&mut s, "position startpos").is_empty());
    assert!(gui(&mut s, "go depth 1").is_empty());
    s.handle(
        Input::EngineStarted {
            command: "/e".into(),
            args: vec![],
            pid: None,
        },
        now,
    );
    let replay = engine(&mut s, "uciok");
    assert_eq!(to_engine(&replay), ["isready\n"]);
    let released = engine(&mut s, "readyok");
    assert_eq!(
        to_engine(&released),
        ["position startpos\n", "go depth 1\n"]
    );
}

#[test]
fn isready_during_a_restart_is_answered_by_fenguard() {
    let mut s = restarting();
    s.handle(Input::EngineExited(status(1)), Instant::now());
    assert_eq!(to_gui(&gui(&mut s, "isready")), ["readyok\n"]);
}

#[test]
fn quit_while_waiting_for_the_restart_finishes_with_zero() {
    let mut s = restarting();
    s.handle(Input::EngineExited(status(1)), Instant::now());
    let out = gui(&mut s, "quit");
    assert_eq!(out.last(), Some(&Action::Finish(0)));
    assert!(to_engine(&out).is_empty());
}

#[test]
fn missing_readyok_past_the_ping_timeout_kills_the_engine() {
    let mut s = restarting();
    let t0 = Instant::now();
    gui_at(&mut s, "isready", t0);
    assert_eq!(s.next_deadline(), Some(t0 + 10_000 * MS));
    assert!(s.handle(Input::Tick, t0 + 9_999 * MS).is_empty());
    let out = s.handle(Input::Tick, t0 + 10_000 * MS);
    assert_eq!(
        to_gui(&out),
        ["info string fenguard: engine hung: no readyok within 10000 ms; killing it\n"]
    );
    assert_eq!(out.last(), Some(&Action::KillEngine));
    let exit = s.handle(
        Input::EngineExited(EngineExit {
            signal: Some(9),
            killed: true,
            ..EngineExit::default()
        }),
        t0 + 10_001 * MS,
    );
    assert_eq!(exit_reason(&exit), Some(ExitReason::Hung));
    assert_eq!(
        to_gui(&exit),
        [
            "info string fenguard: engine exited (signal 9)\n",
            "readyok\n"
        ]
    );
    assert!(matches!(exit.last(), Some(Action::RestartEngine { .. })));
}

#[test]
fn readyok_in_time_clears_the_deadline() {
    let mut s = restarting();
    let t0 = Instant::now();
    gui_at(&mut s, "isready", t0);
    engine_at(&mut s, "readyok", t0 + MS);
    assert_eq!(s.next_deadline(), None);
    assert!(s.handle(Input::Tick, t0 + 20_000 * MS).is_empty());
}

#[test]
fn missing_uciok_past_the_startup_timeout_is_a_hang() {
    let mut s = restarting();
    let t0 = Instant::now();
    gui_at(&mut s, "uci", t0);
    gui_at(&mut s, "isready", t0);
    assert_eq!(s.next_deadline(), Some(t0 + 30_000 * MS));
    let out = s.handle(Input::Tick, t0 + 30_000 * MS);
    assert_eq!(
        to_gui(&out),
        ["info string fenguard: engine hung: no uciok within 30000 ms; killing it\n"]
    );
}

#[test]
fn restarted_engine_that_never_answers_uci_is_a_hang() {
    let mut s = restarting();
    let t0 = Instant::now();
    s.handle(Input::EngineExited(status(1)), t0);
    s.handle(
        Input::EngineStarted {
            command: "/e".into(),
            args: vec![],
            pid: None,
        },
        t0,
    );
    assert_eq!(s.next_deadline(), Some(t0 + 30_000 * MS));
    let out = s.handle(Input::Tick, t0 + 30_000 * MS);
    assert_eq!(out.last(), Some(&Action::KillEngine));
}

#[test]
fn gui_waiting_for_uciok_gets_the_restarted_engines_handshake() {
    let mut s = restarting();
    let now = Instant::now();
    gui(&mut s, "uci");
    s.handle(Input::EngineExited(status(1)), now);
    s.handle(
        Input::EngineStarted {
            command: "/e".into(),
            args: vec![],
            pid: None,
        },
        now,
    );
    assert_eq!(to_gui(&engine(&mut s, "id name E")), ["id name E\n"]);
    let uciok = to_gui(&engine(&mut s, "uciok"));
    assert_eq!(uciok.last().map(String::as_str), Some("uciok\n"));
    assert!(
        uciok[0].starts_with("option name fenguard OnBadPosition"),
        "{uciok:?}"
    );
}

#[test]
fn invalid_forwarded_position_is_not_replayed_and_go_gets_bestmove_0000() {
    let mut s = session_with(|p| p.on_invalid = OnInvalid::Forward).with_restart(RestartPolicy {
        enabled: true,
        ..RestartPolicy::default()
    });
    let now = Instant::now();
    gui(&mut s, "position startpos");
    gui(&mut s, "position fen 8/8/8/8/8/8/8/8 w - - 0 1");
    let [_, uciok, _] = restart(&mut s, now);
    assert_eq!(to_engine(&uciok), ["isready\n"]);
    assert_eq!(to_gui(&gui(&mut s, "go depth 1")), ["bestmove 0000\n"]);
}

#[test]
fn overlong_position_line_is_rejected_and_never_reaches_the_engine() {
    let mut s = Session::new(false);
    let first = s.handle(
        Input::GuiPiece {
            chunk: Bytes::from_static(b"position fen xxxx"),
            first: true,
        },
        Instant::now(),
    );
    let rest = s.handle(
        Input::GuiPiece {
            chunk: Bytes::from_static(b"yyyy\n"),
            first: false,
        },
        Instant::now(),
    );
    assert!(to_engine(&first).is_empty() && to_engine(&rest).is_empty());
    assert_eq!(
        to_gui(&first),
        [
            "info string fenguard: rejected position: line-too-long: position command longer than 17 bytes; not sent to the engine\n"
        ]
    );
    assert_eq!(to_gui(&gui(&mut s, "go depth 1")), ["bestmove 0000\n"]);
}

#[test]
fn line_after_a_dropped_overlong_position_is_relayed() {
    let mut s = Session::new(false);
    s.handle(
        Input::GuiPiece {
            chunk: Bytes::from_static(b"position fen xxxx"),
            first: true,
        },
        Instant::now(),
    );
    s.handle(
        Input::GuiPiece {
            chunk: Bytes::from_static(b"yyyy\n"),
            first: false,
        },
        Instant::now(),
    );
    assert_eq!(to_engine(&gui(&mut s, "isready")), ["isready\n"]);
}

#[test]
fn isready_after_held_lines_is_answered_at_once_and_not_replayed() {
    let mut s = restarting();
    let now = Instant::now();
    s.handle(Input::EngineExited(status(1)), now);
    gui(&mut s, "setoption name Hash value 32");
    gui(&mut s, "go depth 1");
    assert_eq!(to_gui(&gui(&mut s, "isready")), ["readyok\n"]);
    s.handle(
        Input::EngineStarted {
            command: "/e".into(),
            args: vec![],
            pid: None,
        },
        now,
    );
    engine(&mut s, "uciok");
    let released = engine(&mut s, "readyok");
    assert_eq!(
        to_engine(&released),
        ["setoption name Hash value 32\n", "go depth 1\n"]
    );
}

#[test]
fn giving_up_answers_every_held_go() {
    let t0 = Instant::now();
    let mut s = restarting();
    s.handle(Input::EngineExited(status(1)), t0);
    gui(&mut s, "position startpos moves e2e4");
    gui(&mut s, "go depth 1");
    for i in 1..5 {
        let now = t0 + i * 1000 * MS;
        s.handle(
            Input::EngineStarted {
                command: "/e".into(),
                args: vec![],
                pid: None,
            },
            now,
        );
        s.handle(Input::EngineExited(status(1)), now);
    }
    s.handle(
        Input::EngineStarted {
            command: "/e".into(),
            args: vec![],
            pid: None,
        },
        t0 + 5000 * MS,
    );
    let out = s.handle(Input::EngineExited(status(1)), t0 + 5000 * MS);
    assert_eq!(out.last(), Some(&Action::Finish(EXIT_ENGINE_DIED)));
    assert_eq!(
        to_gui(&out).last().map(String::as_str),
        Some("bestmove 0000\n")
    );
}

#[test]
fn restart_without_a_position_says_only_options_were_restored() {
    let mut s = restarting();
    let [_, _, readyok] = restart(&mut s, Instant::now());
    assert_eq!(
        to_gui(&readyok),
        ["info string fenguard: engine restarted (restart 1): options restored\n"]
    );
}
