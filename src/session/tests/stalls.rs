//! Stalled and cut streams: an engine whose output is still arriving is behind,
//! not hung; one that stopped reading its input is hung; an over-long GUI line cut by an engine
//! exit does not reach the next engine (by plain calls).

use std::time::{Duration, Instant};

use bytes::Bytes;

use super::super::*;
use super::to_gui;

const MS: Duration = Duration::from_millis(1);

fn restarting() -> Session {
    Session::new(false).with_restart(RestartPolicy {
        enabled: true,
        ..RestartPolicy::default()
    })
}

fn at(s: &mut Session, from_gui: bool, line: &str, now: Instant) -> Vec<Action> {
    let line = Bytes::from(format!("{line}\n"));
    if from_gui {
        s.handle(Input::GuiLine(line), now)
    } else {
        s.handle(Input::EngineLine(line), now)
    }
}

#[test]
fn passed_readyok_deadline_with_output_still_arriving_is_put_off() {
    let mut s = restarting();
    let t0 = Instant::now();
    at(&mut s, true, "isready", t0);
    // A burst the GUI was slow to take: its lines are still being read at the deadline.
    s.handle(Input::EngineBacklog, t0 + 9_800 * MS);
    at(&mut s, false, "info depth 1 pv e2e4", t0 + 9_800 * MS);
    assert!(s.handle(Input::Tick, t0 + 10_000 * MS).is_empty());
    assert_eq!(s.next_deadline(), Some(t0 + 9_800 * MS + OUTPUT_GRACE));
}

#[test]
fn readyok_deadline_is_kept_once_the_output_stops() {
    let mut s = restarting();
    let t0 = Instant::now();
    at(&mut s, true, "isready", t0);
    s.handle(Input::EngineBacklog, t0 + 9_800 * MS);
    at(&mut s, false, "info depth 1 pv e2e4", t0 + 9_800 * MS);
    s.handle(Input::Tick, t0 + 10_000 * MS);
    let out = s.handle(Input::Tick, t0 + 9_800 * MS + OUTPUT_GRACE);
    assert_eq!(
        to_gui(&out),
        ["info string fenguard: engine hung: no readyok within 10000 ms; killing it\n"]
    );
    assert_eq!(out.last(), Some(&Action::KillEngine));
}

#[test]
fn output_older_than_the_grace_does_not_save_a_hung_engine() {
    let mut s = restarting();
    let t0 = Instant::now();
    at(&mut s, false, "info string hello", t0);
    at(&mut s, true, "isready", t0 + MS);
    let out = s.handle(Input::Tick, t0 + 10_001 * MS);
    assert_eq!(out.last(), Some(&Action::KillEngine));
}

#[test]
fn engine_that_does_not_read_its_input_is_killed_as_hung() {
    let mut s = restarting();
    let out = s.handle(
        Input::EngineInputStalled(Duration::from_millis(10_500)),
        Instant::now(),
    );
    assert_eq!(
        to_gui(&out),
        ["info string fenguard: engine hung: it has not read its input for 10500 ms; killing it\n"]
    );
    assert_eq!(out.last(), Some(&Action::KillEngine));
    // Reported once: the kill is under way.
    assert!(
        s.handle(
            Input::EngineInputStalled(Duration::from_secs(11)),
            Instant::now()
        )
        .is_empty()
    );
}

#[test]
fn deadline_put_off_by_the_shell_moves_later_only() {
    let mut s = restarting();
    let t0 = Instant::now();
    at(&mut s, true, "isready", t0);
    s.handle(
        Input::DeferDeadlines {
            until: t0 + 12_000 * MS,
        },
        t0 + 12_000 * MS,
    );
    assert_eq!(s.next_deadline(), Some(t0 + 12_000 * MS));
    s.handle(
        Input::DeferDeadlines {
            until: t0 + 5_000 * MS,
        },
        t0 + 5_000 * MS,
    );
    assert_eq!(s.next_deadline(), Some(t0 + 12_000 * MS));
}

fn to_engine_bytes(actions: &[Action]) -> Vec<u8> {
    actions
        .iter()
        .filter_map(|a| match a {
            Action::ToEngine(line) => Some(line.to_vec()),
            _ => None,
        })
        .flatten()
        .collect()
}

fn exit_then_start(s: &mut Session, now: Instant) -> Vec<Action> {
    let exit = EngineExit {
        code: Some(1),
        ..EngineExit::default()
    };
    let mut out = s.handle(Input::EngineExited(exit), now);
    out.extend(s.handle(
        Input::EngineStarted {
            command: "/e".into(),
            args: vec![],
            pid: None,
        },
        now,
    ));
    out
}

#[test]
fn rest_of_an_overlong_gui_line_cut_by_an_engine_exit_never_reaches_the_new_engine() {
    let mut s = restarting();
    let now = Instant::now();
    let first = s.handle(
        Input::GuiPiece {
            chunk: Bytes::from_static(b"echo xxxx"),
            first: true,
        },
        Instant::now(),
    );
    assert_eq!(to_engine_bytes(&first), b"echo xxxx");
    let mut sent = to_engine_bytes(&exit_then_start(&mut s, now));
    // The rest of the line arrives while the new engine starts, and after it is ready.
    sent.extend(to_engine_bytes(&s.handle(
        Input::GuiPiece {
            chunk: Bytes::from_static(b"yyyy"),
            first: false,
        },
        Instant::now(),
    )));
    sent.extend(to_engine_bytes(&at(&mut s, false, "uciok", now)));
    sent.extend(to_engine_bytes(&at(&mut s, false, "readyok", now)));
    sent.extend(to_engine_bytes(&s.handle(
        Input::GuiPiece {
            chunk: Bytes::from_static(b"zzzz\n"),
            first: false,
        },
        Instant::now(),
    )));
    sent.extend(to_engine_bytes(&at(&mut s, true, "isready", now)));
    assert_eq!(String::from_utf8(sent).unwrap(), "uci\nisready\nisready\n");
}

#[test]
fn overlong_gui_line_finished_before_the_exit_is_not_cut() {
    let mut s = restarting();
    let now = Instant::now();
    s.handle(
        Input::GuiPiece {
            chunk: Bytes::from_static(b"echo xxxx"),
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
    exit_then_start(&mut s, now);
    at(&mut s, false, "uciok", now);
    at(&mut s, false, "readyok", now);
    let next = s.handle(
        Input::GuiPiece {
            chunk: Bytes::from_static(b"echo aaaa"),
            first: true,
        },
        Instant::now(),
    );
    assert_eq!(to_engine_bytes(&next), b"echo aaaa");
}

#[test]
fn engine_that_keeps_printing_but_never_answers_isready_is_hung() {
    let mut s = restarting();
    let t0 = Instant::now();
    at(&mut s, true, "isready", t0);
    // One `info` line every 400 ms, forever, each read alone (no backlog in the pipe): the
    // deadline is put off for one more timeout only.
    let mut now = t0;
    let killed_at = loop {
        now += 400 * MS;
        at(&mut s, false, "info depth 1 pv e2e4", now);
        if let Some(deadline) = s.next_deadline()
            && deadline <= now
            && s.handle(Input::Tick, now).last() == Some(&Action::KillEngine)
        {
            break now;
        }
        assert!(now < t0 + 30_000 * MS, "never killed");
    };
    assert!(
        killed_at >= t0 + 20_000 * MS && killed_at <= t0 + 21_000 * MS,
        "{:?}",
        killed_at - t0
    );
}

#[test]
fn a_backlog_puts_the_deadline_off_as_long_as_it_lasts() {
    let mut s = restarting();
    let t0 = Instant::now();
    at(&mut s, true, "isready", t0);
    let mut now = t0;
    while now < t0 + 60_000 * MS {
        now += 400 * MS;
        s.handle(Input::EngineBacklog, now);
        assert!(s.handle(Input::Tick, now).is_empty());
    }
    let out = s.handle(Input::Tick, now + OUTPUT_GRACE);
    assert_eq!(out.last(), Some(&Action::KillEngine));
}

#[test]
fn engine_that_ignores_stop_is_hung_after_ping_timeout() {
    let mut s = restarting();
    let t0 = Instant::now();
    at(&mut s, true, "position startpos", t0);
    at(&mut s, true, "go infinite", t0);
    assert_eq!(s.next_deadline(), None);
    at(&mut s, true, "stop", t0 + 5_000 * MS);
    assert_eq!(s.next_deadline(), Some(t0 + 15_000 * MS));
    let out = s.handle(Input::Tick, t0 + 15_000 * MS);
    assert_eq!(
        to_gui(&out),
        ["info string fenguard: engine hung: no bestmove after stop within 10000 ms; killing it\n"]
    );
    assert_eq!(out.last(), Some(&Action::KillEngine));
}

#[test]
fn bestmove_after_stop_clears_its_deadline() {
    let mut s = restarting();
    let t0 = Instant::now();
    at(&mut s, true, "position startpos", t0);
    at(&mut s, true, "go infinite", t0);
    at(&mut s, true, "stop", t0 + 5_000 * MS);
    at(&mut s, false, "bestmove e2e4", t0 + 5_010 * MS);
    assert_eq!(s.next_deadline(), None);
    // `stop` with no search running arms nothing.
    at(&mut s, true, "stop", t0 + 6_000 * MS);
    assert_eq!(s.next_deadline(), None);
}

#[test]
fn readyok_resets_the_put_off_limit() {
    let mut s = restarting();
    let t0 = Instant::now();
    at(&mut s, true, "isready", t0);
    at(&mut s, true, "isready", t0);
    at(&mut s, false, "info depth 1 pv e2e4", t0 + 9_900 * MS);
    assert!(s.handle(Input::Tick, t0 + 10_000 * MS).is_empty());
    // The first readyok comes late but comes: the second isready gets a full timeout again.
    at(&mut s, false, "readyok", t0 + 19_900 * MS);
    at(&mut s, false, "info depth 2 pv e2e4", t0 + 29_800 * MS);
    assert!(s.handle(Input::Tick, t0 + 29_900 * MS).is_empty());
}

#[test]
fn readyok_after_a_setoption_gets_the_startup_timeout() {
    let mut s = restarting();
    let t0 = Instant::now();
    // Stockfish allocates a large Hash while handling the setoption: seconds, silently.
    at(&mut s, true, "setoption name Hash value 4096", t0);
    at(&mut s, true, "isready", t0);
    assert_eq!(s.next_deadline(), Some(t0 + 30_000 * MS));
    at(&mut s, false, "readyok", t0 + 5_000 * MS);
    at(&mut s, true, "isready", t0 + 6_000 * MS);
    assert_eq!(s.next_deadline(), Some(t0 + 16_000 * MS));
}

#[test]
fn second_stop_is_timed_from_the_first_searchs_bestmove() {
    let mut s = restarting();
    let t0 = Instant::now();
    at(&mut s, true, "position startpos", t0);
    at(&mut s, true, "go infinite", t0);
    at(&mut s, true, "stop", t0);
    at(&mut s, true, "go infinite", t0);
    at(&mut s, true, "stop", t0);
    at(&mut s, false, "bestmove e2e4", t0 + 100 * MS);
    assert_eq!(s.next_deadline(), Some(t0 + 10_100 * MS));
    let out = s.handle(Input::Tick, t0 + 10_100 * MS);
    assert_eq!(
        to_gui(&out),
        ["info string fenguard: engine hung: no bestmove after stop within 10000 ms; killing it\n"]
    );
}
