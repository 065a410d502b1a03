//! Quitting (`quit.rs`): the grace waits for a `uciok` the GUI still waits for, as a bare
//! engine answers `uci` before it reads `quit`.

use std::time::{Duration, Instant};

use bytes::Bytes;

use super::{engine, gui, to_gui};
use crate::session::{Action, Input, Session};

fn grace(actions: &[Action]) -> bool {
    actions.contains(&Action::StartQuitGrace)
}

#[test]
fn quit_right_after_uci_starts_the_grace_at_the_engines_uciok() {
    let mut s = Session::new(false);
    gui(&mut s, "uci");
    let out = gui(&mut s, "quit");
    assert!(!grace(&out), "{out:?}");
    assert!(out.contains(&Action::ToEngine(Bytes::from_static(b"quit\n"))));
    assert!(!grace(&engine(&mut s, "id name Slow 1.0")));
    let out = engine(&mut s, "uciok");
    assert!(grace(&out), "{out:?}");
    assert!(to_gui(&out).contains(&"uciok\n".to_owned()), "{out:?}");
    // Once is enough.
    assert!(!grace(&gui(&mut s, "quit")));
}

#[test]
fn the_end_of_input_right_after_uci_waits_for_uciok_too() {
    let mut s = Session::new(false);
    gui(&mut s, "uci");
    let out = s.handle(Input::GuiEof, Instant::now());
    assert!(out.contains(&Action::CloseEngineInput), "{out:?}");
    assert!(!grace(&out), "{out:?}");
    assert!(grace(&engine(&mut s, "uciok")));
}

#[test]
fn an_engine_that_never_sends_uciok_gets_the_grace_at_its_startup_deadline() {
    let mut s = Session::new(false);
    let t0 = Instant::now();
    s.handle(Input::GuiLine(Bytes::from_static(b"uci\n")), t0);
    assert!(!grace(
        &s.handle(Input::GuiLine(Bytes::from_static(b"quit\n")), t0)
    ));
    let deadline = s.next_deadline().expect("the uciok deadline");
    assert!(!grace(
        &s.handle(Input::Tick, t0 + Duration::from_millis(1))
    ));
    let out = s.handle(Input::Tick, deadline);
    assert!(grace(&out), "{out:?}");
    // Not reported as a hung engine to be restarted: the GUI has quit.
    assert!(!out.contains(&Action::KillEngine), "{out:?}");
}

#[test]
fn quit_after_the_handshake_starts_the_grace_at_once() {
    let mut s = Session::new(false);
    gui(&mut s, "uci");
    engine(&mut s, "uciok");
    assert!(grace(&gui(&mut s, "quit")));
}

#[test]
fn a_second_uci_keeps_the_grace_waiting_for_its_own_uciok() {
    let mut s = Session::new(false);
    gui(&mut s, "uci");
    gui(&mut s, "uci");
    gui(&mut s, "quit");
    assert!(!grace(&engine(&mut s, "uciok")));
    assert!(grace(&engine(&mut s, "uciok")));
}

#[test]
fn where_the_end_of_input_means_the_gui_is_gone_the_grace_starts_at_once() {
    let mut s = Session::new(false).with_gone_at_eof();
    gui(&mut s, "uci");
    assert!(grace(&s.handle(Input::GuiEof, Instant::now())));
    // A `quit` that put the grace off: the closed connection starts it.
    let mut s = Session::new(false).with_gone_at_eof();
    gui(&mut s, "uci");
    assert!(!grace(&gui(&mut s, "quit")));
    assert!(grace(&s.handle(Input::GuiEof, Instant::now())));
    assert!(!grace(&engine(&mut s, "uciok")));
}

#[test]
fn a_bestmove_after_quit_is_relayed_not_held_as_early() {
    let config = crate::config::Config::from_toml("", "t.toml").unwrap();
    let mut s =
        Session::new(false).with_adapter(crate::session::Adapter::from_config(&config, None, 7));
    gui(&mut s, "go infinite");
    gui(&mut s, "quit");
    let out = engine(&mut s, "bestmove e2e4");
    assert_eq!(to_gui(&out), ["bestmove e2e4\n"]);
    assert!(
        !out.iter()
            .any(|a| matches!(a, Action::Log(_, text) if text.contains("held"))),
        "{out:?}"
    );
}

/// The GUI quits while the engine is away (restarting); the shell's restart timer fires as
/// the quit comes and starts an engine anyway: it gets `quit` at once (no `uci`, no replay),
/// and its exit ends the session. (Seen as a process that never exited, about 1 run in 20
/// under load.)
#[test]
fn an_engine_started_after_the_gui_quit_gets_quit_and_its_exit_ends_the_session() {
    let mut s = Session::new(false).with_restart(crate::session::RestartPolicy {
        enabled: true,
        ..crate::session::RestartPolicy::default()
    });
    gui(&mut s, "uci");
    engine(&mut s, "uciok");
    let now = Instant::now();
    let exit = s.handle(
        Input::EngineExited(crate::session::EngineExit::default()),
        now,
    );
    assert!(
        matches!(exit.last(), Some(Action::RestartEngine { .. })),
        "{exit:?}"
    );
    let quit = gui(&mut s, "quit");
    assert_eq!(quit.last(), Some(&Action::Finish(0)));
    assert!(
        s.handle(Input::GuiEof, now).is_empty(),
        "the quit ended it already"
    );
    let started = s.handle(
        Input::EngineStarted {
            command: "/e".into(),
            args: vec![],
            pid: Some(2),
        },
        now,
    );
    assert_eq!(super::to_engine(&started), ["quit\n"]);
    assert!(grace(&started), "{started:?}");
    let gone = s.handle(
        Input::EngineExited(crate::session::EngineExit::default()),
        now,
    );
    assert!(matches!(gone.last(), Some(Action::Finish(0))), "{gone:?}");
}
