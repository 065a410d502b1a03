//! A `setoption` that makes the engine exit is found and no longer replayed: a GUI
//! `setoption` followed by nothing but `setoption` / `isready` lines and not confirmed by a
//! later `readyok` when the engine exits is a suspect; the next replay follows it with its
//! own `isready`, and an engine that exits before answering that `isready` was killed by it.

use std::time::Instant;

use super::super::*;
use super::{engine, gui, to_engine, to_gui};

const DEBUG_LOG: &str = "setoption name Debug Log File value /nonexistent/dir/x.log";

fn restarting() -> Session {
    Session::new(false).with_restart(RestartPolicy {
        enabled: true,
        ..RestartPolicy::default()
    })
}

fn exit(s: &mut Session) -> Vec<Action> {
    let out = s.handle(
        Input::EngineExited(EngineExit {
            code: Some(1),
            ..EngineExit::default()
        }),
        Instant::now(),
    );
    assert!(
        matches!(out.last(), Some(Action::RestartEngine { .. })),
        "{out:?}"
    );
    out
}

fn start(s: &mut Session) {
    s.handle(
        Input::EngineStarted {
            command: "/e".into(),
            args: vec![],
            pid: None,
        },
        Instant::now(),
    );
}

/// A running session whose engine exited right after `DEBUG_LOG` and `isready`, restarted
/// up to its `uciok`; gives the replay sent at `uciok`.
fn suspect_replayed() -> (Session, Vec<Action>) {
    let mut s = restarting();
    gui(&mut s, "uci");
    engine(&mut s, "uciok");
    gui(&mut s, "setoption name Hash value 32");
    gui(&mut s, "isready");
    engine(&mut s, "readyok");
    gui(&mut s, DEBUG_LOG);
    gui(&mut s, "isready");
    exit(&mut s);
    start(&mut s);
    let uciok = engine(&mut s, "uciok");
    (s, uciok)
}

#[test]
fn setoption_the_engine_died_after_is_replayed_with_its_own_isready() {
    let (_, uciok) = suspect_replayed();
    assert_eq!(
        to_engine(&uciok),
        [
            "setoption name Hash value 32\n".to_owned(),
            format!("{DEBUG_LOG}\n"),
            "isready\n".to_owned(),
            "isready\n".to_owned()
        ]
    );
}

#[test]
fn engine_dying_again_before_that_isready_drops_the_setoption() {
    let (mut s, _) = suspect_replayed();
    let out = exit(&mut s);
    assert_eq!(
        to_gui(&out),
        [
            "info string fenguard: engine exited (status 1)\n",
            "info string fenguard: setoption Debug Log File made the engine exit; it is not restored any more\n"
        ]
    );
    start(&mut s);
    assert_eq!(
        to_engine(&engine(&mut s, "uciok")),
        ["setoption name Hash value 32\n", "isready\n"]
    );
    assert_eq!(
        to_gui(&engine(&mut s, "readyok")),
        ["info string fenguard: engine restarted (restart 2): options restored\n"]
    );
}

#[test]
fn dropped_setoption_is_logged_as_a_warning() {
    let (mut s, _) = suspect_replayed();
    let out = exit(&mut s);
    assert!(
        out.contains(&Action::Log(
            tracing::Level::WARN,
            format!("engine exited right after the replayed `{DEBUG_LOG}`: not restored any more")
        )),
        "{out:?}"
    );
}

#[test]
fn suspect_the_engine_survives_is_kept_and_the_barrier_waits_for_the_last_readyok() {
    let (mut s, _) = suspect_replayed();
    gui(&mut s, "go depth 1");
    let first = engine(&mut s, "readyok");
    assert!(
        to_gui(&first).is_empty() && to_engine(&first).is_empty(),
        "{first:?}"
    );
    let last = engine(&mut s, "readyok");
    assert_eq!(
        to_gui(&last),
        ["info string fenguard: engine restarted (restart 1): options restored\n"]
    );
    assert_eq!(to_engine(&last), ["go depth 1\n"]);
    exit(&mut s);
    start(&mut s);
    assert_eq!(
        to_engine(&engine(&mut s, "uciok")),
        [
            "setoption name Hash value 32\n".to_owned(),
            format!("{DEBUG_LOG}\n"),
            "isready\n".to_owned()
        ]
    );
}

/// The replay after `DEBUG_LOG`, then `lines` from the GUI (`<` marks an engine line), and an
/// exit.
fn replay_after(lines: &[&str]) -> Vec<String> {
    let mut s = restarting();
    gui(&mut s, DEBUG_LOG);
    for line in lines {
        match line.strip_prefix('<') {
            Some(from_engine) => engine(&mut s, from_engine),
            None => gui(&mut s, line),
        };
    }
    exit(&mut s);
    start(&mut s);
    to_engine(&engine(&mut s, "uciok"))
}

const TESTED: [&str; 3] = [
    "setoption name Debug Log File value /nonexistent/dir/x.log\n",
    "isready\n",
    "isready\n",
];

#[test]
fn setoption_confirmed_by_a_later_readyok_is_replayed_as_usual() {
    assert_eq!(
        replay_after(&["isready", "<readyok"]),
        [format!("{DEBUG_LOG}\n"), "isready\n".to_owned()]
    );
}

#[test]
fn setoption_followed_by_another_command_is_not_a_suspect() {
    assert_eq!(
        replay_after(&["position startpos"]),
        [
            format!("{DEBUG_LOG}\n"),
            "position startpos\n".to_owned(),
            "isready\n".to_owned()
        ]
    );
}

#[test]
fn engine_output_other_than_readyok_does_not_clear_a_suspect() {
    // The engine may have written it before it read the `setoption`.
    assert_eq!(replay_after(&["isready", "<info string hello"]), TESTED);
}

#[test]
fn readyok_for_an_isready_sent_before_the_setoption_does_not_clear_it() {
    let mut s = restarting();
    gui(&mut s, "isready");
    gui(&mut s, DEBUG_LOG);
    engine(&mut s, "readyok");
    exit(&mut s);
    start(&mut s);
    assert_eq!(to_engine(&engine(&mut s, "uciok")), TESTED);
}

#[test]
fn engine_dying_at_the_final_isready_drops_nothing() {
    let (mut s, _) = suspect_replayed();
    engine(&mut s, "readyok");
    let out = exit(&mut s);
    assert!(
        !to_gui(&out).iter().any(|l| l.contains("not restored")),
        "{out:?}"
    );
}

#[test]
fn ucinewgame_between_setoption_and_isready_keeps_the_suspect() {
    assert_eq!(
        replay_after(&["ucinewgame", "isready"]),
        [
            format!("{DEBUG_LOG}\n"),
            "isready\n".to_owned(),
            "ucinewgame\n".to_owned(),
            "isready\n".to_owned()
        ]
    );
}

/// Issue 16: `Threads 1000` accepted with `readyok`, the engine killed at `go` (out of
/// memory): after the second death during a search with no `bestmove` in between, the option
/// is no longer restored.
#[test]
fn an_option_the_engine_dies_of_while_searching_is_dropped_after_one_retry() {
    let mut s = restarting();
    gui(&mut s, "uci");
    engine(&mut s, "uciok");
    gui(&mut s, "setoption name Threads value 1000");
    gui(&mut s, "isready");
    engine(&mut s, "readyok");
    gui(&mut s, "position startpos");
    gui(&mut s, "go depth 1");
    let first = exit(&mut s);
    assert!(
        !to_gui(&first).iter().any(|l| l.contains("not restored")),
        "{first:?}"
    );
    start(&mut s);
    let replay = engine(&mut s, "uciok");
    assert!(
        to_engine(&replay).contains(&"setoption name Threads value 1000\n".to_owned()),
        "restored once: {replay:?}"
    );
    engine(&mut s, "readyok");
    gui(&mut s, "go depth 1");
    let second = exit(&mut s);
    assert!(
        to_gui(&second).contains(
            &"info string fenguard: setoption Threads: the engine exited during a search twice \
              after it; it is not restored any more\n"
                .to_owned()
        ),
        "{second:?}"
    );
    start(&mut s);
    let replay = engine(&mut s, "uciok");
    assert!(
        !to_engine(&replay).iter().any(|l| l.contains("Threads")),
        "{replay:?}"
    );
}

#[test]
fn a_finished_search_keeps_the_options_restored() {
    let mut s = restarting();
    gui(&mut s, "uci");
    engine(&mut s, "uciok");
    gui(&mut s, "setoption name Hash value 64");
    gui(&mut s, "position startpos");
    gui(&mut s, "go depth 1");
    engine(&mut s, "bestmove e2e4");
    gui(&mut s, "go depth 1");
    exit(&mut s);
    start(&mut s);
    engine(&mut s, "uciok");
    engine(&mut s, "readyok");
    gui(&mut s, "go depth 1");
    let second = exit(&mut s);
    assert!(!to_gui(&second).iter().any(|l| l.contains("not restored")));
    start(&mut s);
    let replay = engine(&mut s, "uciok");
    assert!(to_engine(&replay).contains(&"setoption name Hash value 64\n".to_owned()));
}

#[test]
fn a_fatal_setoption_followed_at_once_by_position_and_go_is_found_by_the_replays() {
    // The fresh-clone review's case: no `isready` after the `setoption`, so it is no suspect.
    let mut s = restarting();
    gui(&mut s, "uci");
    engine(&mut s, "uciok");
    gui(&mut s, "setoption name Hash value 32");
    gui(&mut s, DEBUG_LOG);
    gui(&mut s, "position startpos");
    gui(&mut s, "go depth 1");
    exit(&mut s);
    start(&mut s);
    let first = to_engine(&engine(&mut s, "uciok"));
    assert_eq!(
        first.iter().filter(|l| *l == "isready\n").count(),
        1,
        "{first:?}"
    );
    // The replay dies before its final readyok: the next one tests every option.
    exit(&mut s);
    start(&mut s);
    let second = to_engine(&engine(&mut s, "uciok"));
    assert_eq!(
        second[..4],
        [
            "setoption name Hash value 32\n".to_owned(),
            "isready\n".to_owned(),
            format!("{DEBUG_LOG}\n"),
            "isready\n".to_owned()
        ]
    );
    assert!(to_gui(&engine(&mut s, "readyok")).is_empty());
    let told = to_gui(&exit(&mut s));
    assert!(
        told.iter().any(|l| l.contains("made the engine exit")),
        "{told:?}"
    );
    start(&mut s);
    let third = to_engine(&engine(&mut s, "uciok"));
    assert!(
        !third.iter().any(|l| l.contains("Debug Log File")),
        "{third:?}"
    );
    assert_eq!(third[..2], ["setoption name Hash value 32\n", "isready\n"]);
    // That replay completes (its Hash test, then its final isready): a later crash's replay
    // tests its options no more.
    engine(&mut s, "readyok");
    engine(&mut s, "readyok");
    exit(&mut s);
    start(&mut s);
    let later = to_engine(&engine(&mut s, "uciok"));
    assert_eq!(
        later.iter().filter(|l| *l == "isready\n").count(),
        1,
        "{later:?}"
    );
}
