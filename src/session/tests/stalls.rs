//! Hang detection against stalled pipes: an engine whose output is still arriving is behind,
//! not hung; one that stopped reading its input is hung (by plain calls).

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
        s.on_gui_line_at(line, now)
    } else {
        s.on_engine_line_at(line, now)
    }
}

#[test]
fn passed_readyok_deadline_with_output_still_arriving_is_put_off() {
    let mut s = restarting();
    let t0 = Instant::now();
    at(&mut s, true, "isready", t0);
    // A burst the GUI was slow to take: its lines are still being read at the deadline.
    at(&mut s, false, "info depth 1 pv e2e4", t0 + 9_800 * MS);
    assert!(s.on_tick(t0 + 10_000 * MS).is_empty());
    assert_eq!(s.next_deadline(), Some(t0 + 9_800 * MS + OUTPUT_GRACE));
}

#[test]
fn readyok_deadline_is_kept_once_the_output_stops() {
    let mut s = restarting();
    let t0 = Instant::now();
    at(&mut s, true, "isready", t0);
    at(&mut s, false, "info depth 1 pv e2e4", t0 + 9_800 * MS);
    s.on_tick(t0 + 10_000 * MS);
    let out = s.on_tick(t0 + 9_800 * MS + OUTPUT_GRACE);
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
    let out = s.on_tick(t0 + 10_001 * MS);
    assert_eq!(out.last(), Some(&Action::KillEngine));
}

#[test]
fn engine_that_does_not_read_its_input_is_killed_as_hung() {
    let mut s = restarting();
    let out = s.on_engine_input_stalled(Duration::from_millis(10_500));
    assert_eq!(
        to_gui(&out),
        ["info string fenguard: engine hung: it has not read its input for 10500 ms; killing it\n"]
    );
    assert_eq!(out.last(), Some(&Action::KillEngine));
    // Reported once: the kill is under way.
    assert!(
        s.on_engine_input_stalled(Duration::from_secs(11))
            .is_empty()
    );
}

#[test]
fn deadline_put_off_by_the_shell_moves_later_only() {
    let mut s = restarting();
    let t0 = Instant::now();
    at(&mut s, true, "isready", t0);
    s.defer_deadlines(t0 + 12_000 * MS);
    assert_eq!(s.next_deadline(), Some(t0 + 12_000 * MS));
    s.defer_deadlines(t0 + 5_000 * MS);
    assert_eq!(s.next_deadline(), Some(t0 + 12_000 * MS));
}
