//! The daemon's option guard (`guard.rs`, SPEC section 11): refusals, caps, the engine's
//! announced maxima, fenguard's own options.

use std::time::Instant;

use bytes::Bytes;
use tracing::Level;

use crate::session::Input;
use crate::session::guard::{DEFAULT_ALLOW, Guard};
use crate::session::{Action, Session};

fn b(s: &'static [u8]) -> Bytes {
    Bytes::from_static(s)
}

/// A session without a position log (each `setoption` would have its `option` record).
fn unlogged() -> Session {
    let settings = crate::session::Settings {
        log_positions: false,
        ..Default::default()
    };
    Session::with_settings(false, settings)
}

fn guarded() -> Session {
    let allow: Vec<String> = DEFAULT_ALLOW.iter().map(|s| (*s).to_owned()).collect();
    unlogged().with_guard(Guard::new(&allow, Some(4), Some(256)))
}

fn to_gui(text: &str) -> Action {
    Action::ToGui(Bytes::from(format!("{text}\n")))
}

#[test]
fn refused_option_is_answered_and_not_forwarded() {
    let mut s = guarded();
    let out = s.handle(
        Input::GuiLine(b(b"setoption name Debug Log File value /tmp/x\n")),
        Instant::now(),
    );
    let engine: Vec<_> = out
        .iter()
        .filter(|a| matches!(a, Action::ToEngine(_)))
        .collect();
    assert!(engine.is_empty(), "{out:?}");
    assert!(out.contains(&to_gui(
        "info string fenguard: option not allowed: Debug Log File"
    )));
}

#[test]
fn session_goes_on_after_a_refusal() {
    let mut s = guarded();
    s.handle(
        Input::GuiLine(b(b"setoption name EvalFile value nn.bin\n")),
        Instant::now(),
    );
    assert_eq!(
        s.handle(Input::GuiLine(b(b"isready\n")), Instant::now()),
        vec![Action::ToEngine(b(b"isready\n"))]
    );
}

#[test]
fn allowed_option_is_forwarded_unchanged() {
    let mut s = guarded();
    let line = b(b"setoption name multipv value 3\n");
    assert_eq!(
        s.handle(Input::GuiLine(line.clone()), Instant::now()),
        vec![Action::ToEngine(line)]
    );
}

#[test]
fn uci_prefix_allows_uci_options_but_not_paths() {
    let mut s = guarded();
    let line = b(b"setoption name UCI_ShowWDL value true\n");
    assert_eq!(
        s.handle(Input::GuiLine(line.clone()), Instant::now()),
        vec![Action::ToEngine(line)]
    );
    let out = s.handle(
        Input::GuiLine(b(b"setoption name UCI_ShredderbasesPath value /\n")),
        Instant::now(),
    );
    assert_eq!(
        out,
        vec![
            Action::Log(
                Level::WARN,
                "option not allowed: UCI_ShredderbasesPath (not forwarded)".to_owned()
            ),
            to_gui("info string fenguard: option not allowed: UCI_ShredderbasesPath"),
        ]
    );
}

#[test]
fn option_the_engine_announced_as_string_is_refused() {
    let mut s = guarded();
    s.handle(
        Input::EngineLine(b(b"option name UCI_Opponent type string default\n")),
        Instant::now(),
    );
    let out = s.handle(
        Input::GuiLine(b(b"setoption name UCI_Opponent value GM Carlsen\n")),
        Instant::now(),
    );
    assert!(!out.iter().any(|a| matches!(a, Action::ToEngine(_))));
}

#[test]
fn threads_above_the_cap_are_clamped_with_a_note() {
    let mut s = guarded();
    let out = s.handle(
        Input::GuiLine(b(b"setoption name Threads value 64\n")),
        Instant::now(),
    );
    assert_eq!(
        out,
        vec![
            Action::Log(
                Level::INFO,
                "Threads clamped to 4 (server limit; asked 64)".to_owned()
            ),
            Action::ToEngine(b(b"setoption name Threads value 4\n")),
            // fenguard's own line goes out after what the command sent (the owed queue).
            to_gui("info string fenguard: Threads clamped to 4 (server limit; asked 64)"),
        ]
    );
}

#[test]
fn hash_within_the_cap_is_untouched() {
    let mut s = guarded();
    let line = b(b"setoption name Hash value 128\n");
    assert_eq!(
        s.handle(Input::GuiLine(line.clone()), Instant::now()),
        vec![Action::ToEngine(line)]
    );
}

#[test]
fn engine_announced_max_is_rewritten_to_the_cap() {
    let mut s = guarded();
    let out = s.handle(
        Input::EngineLine(b(
            b"option name Hash type spin default 16 min 1 max 33554432\n",
        )),
        Instant::now(),
    );
    assert_eq!(
        out,
        vec![Action::ToGui(b(
            b"option name Hash type spin default 16 min 1 max 256\n"
        ))]
    );
    let out = s.handle(
        Input::EngineLine(b(
            b"option name Threads type spin default 8 min 1 max 1024\n",
        )),
        Instant::now(),
    );
    assert_eq!(
        out,
        vec![Action::ToGui(b(
            b"option name Threads type spin default 4 min 1 max 4\n"
        ))]
    );
}

#[test]
fn fenguard_own_options_listed_in_client_options_pass_the_guard() {
    let allow: Vec<String> = DEFAULT_ALLOW.iter().map(|s| (*s).to_owned()).collect();
    let guard =
        Guard::new(&allow, Some(4), Some(256)).with_client_options(&["onbadposition".to_owned()]);
    let mut s = unlogged().with_guard(guard);
    let out = s.handle(
        Input::GuiLine(b(b"setoption name fenguard OnInvalid value reject\n")),
        Instant::now(),
    );
    assert!(
        !out.iter().any(|a| matches!(a, Action::ToGui(_))),
        "{out:?}"
    );
    assert_eq!(
        s.settings().positions.on_invalid,
        crate::config::OnInvalid::Reject
    );
}

#[test]
fn without_a_guard_everything_is_forwarded() {
    let mut s = unlogged();
    let line = b(b"setoption name EvalFile value nn.bin\n");
    assert_eq!(
        s.handle(Input::GuiLine(line.clone()), Instant::now()),
        vec![Action::ToEngine(line)]
    );
}
