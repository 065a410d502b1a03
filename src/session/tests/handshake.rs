//! An engine that dies in the middle of the `uci` handshake: the GUI still sees each `id`
//! field and each `option` once, then `uciok`.

use std::time::Instant;

use super::super::*;
use super::{engine, gui, to_gui};

fn restarting() -> Session {
    Session::new(false).with_restart(RestartPolicy {
        enabled: true,
        ..RestartPolicy::default()
    })
}

fn crash_and_start(s: &mut Session) {
    let now = Instant::now();
    let exit = s.handle(
        Input::EngineExited(EngineExit {
            code: Some(1),
            ..EngineExit::default()
        }),
        now,
    );
    assert!(
        matches!(exit.last(), Some(Action::RestartEngine { .. })),
        "{exit:?}"
    );
    s.handle(
        Input::EngineStarted {
            command: "/e".into(),
            args: vec![],
            pid: None,
        },
        now,
    );
}

const HASH: &str = "option name Hash type spin default 16 min 1 max 1024";

#[test]
fn id_line_shown_before_the_crash_is_not_shown_again() {
    let mut s = restarting();
    gui(&mut s, "uci");
    engine(&mut s, "id name E");
    crash_and_start(&mut s);
    assert!(to_gui(&engine(&mut s, "id name E")).is_empty());
}

#[test]
fn option_shown_before_the_crash_is_not_shown_again() {
    let mut s = restarting();
    gui(&mut s, "uci");
    engine(&mut s, "id name E");
    engine(&mut s, HASH);
    crash_and_start(&mut s);
    engine(&mut s, "id name E");
    assert!(to_gui(&engine(&mut s, HASH)).is_empty());
}

#[test]
fn option_is_known_by_its_name_whatever_its_line() {
    let mut s = restarting();
    gui(&mut s, "uci");
    engine(&mut s, HASH);
    crash_and_start(&mut s);
    let again = engine(
        &mut s,
        "option name hash type spin default 16 min 1 max 2048",
    );
    assert!(to_gui(&again).is_empty(), "{again:?}");
}

#[test]
fn lines_the_gui_has_not_seen_yet_are_shown_then_uciok() {
    let mut s = restarting();
    gui(&mut s, "uci");
    engine(&mut s, "id name E");
    engine(&mut s, HASH);
    crash_and_start(&mut s);
    let mut shown = Vec::new();
    for line in [
        "id name E",
        "id author A",
        HASH,
        "option name Threads type spin default 1 min 1 max 512",
    ] {
        shown.extend(to_gui(&engine(&mut s, line)));
    }
    assert_eq!(
        shown,
        [
            "id author A\n",
            "option name Threads type spin default 1 min 1 max 512\n"
        ]
    );
    let uciok = to_gui(&engine(&mut s, "uciok"));
    assert_eq!(uciok.last().map(String::as_str), Some("uciok\n"));
    assert_eq!(uciok.iter().filter(|l| *l == "uciok\n").count(), 1);
}

#[test]
fn lines_shown_for_an_earlier_uci_are_shown_again_for_the_next() {
    let mut s = restarting();
    gui(&mut s, "uci");
    engine(&mut s, "id name E");
    engine(&mut s, HASH);
    engine(&mut s, "uciok");
    gui(&mut s, "uci");
    engine(&mut s, "id name E");
    crash_and_start(&mut s);
    assert!(to_gui(&engine(&mut s, "id name E")).is_empty());
    assert_eq!(to_gui(&engine(&mut s, HASH)), [format!("{HASH}\n")]);
}
