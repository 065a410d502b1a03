//! A daemon session belongs to its operator (issue 30, SPEC 11 and 12): fenguard's own options
//! pass only when `[serve] client_options` lists them, and refusals are summed in the log
//! while the client is answered each time.

use super::super::*;
use super::{gui, position_record, to_engine, to_gui};
use crate::config::OnInvalid;
use crate::session::Guard;
use std::time::{Duration, Instant};
use tracing::Level;

const KINGLESS: &str = "position fen 8/8/8/8/8/8/8/8 w - - 0 1";

fn daemon(client_options: &[&str]) -> Session {
    let allow: Vec<String> = crate::session::guard::DEFAULT_ALLOW
        .iter()
        .map(|s| (*s).to_owned())
        .collect();
    let names: Vec<String> = client_options.iter().map(|s| (*s).to_owned()).collect();
    let guard = Guard::new(&allow, Some(2), Some(64)).with_client_options(&names);
    Session::new(false).with_guard(guard)
}

fn logs(actions: &[Action]) -> Vec<&str> {
    actions
        .iter()
        .filter_map(|a| match a {
            Action::Log(_, text) => Some(text.as_str()),
            _ => None,
        })
        .collect()
}

#[test]
fn fenguard_options_are_refused_from_a_daemon_client() {
    let mut s = daemon(&[]);
    let before = s.settings().clone();
    for (line, name) in [
        (
            "setoption name fenguard OnBadPosition value forward",
            "OnBadPosition",
        ),
        (
            "setoption name fenguard oninvalid value forward",
            "OnBadPosition",
        ),
        (
            "setoption name fenguard CheckMoves value false",
            "CheckMoves",
        ),
        (
            "setoption name FENGUARD LogPositions value false",
            "LogPositions",
        ),
        (
            "setoption name fenguard ReportToGui value false",
            "ReportToGui",
        ),
        (
            "setoption name fenguard Castling value shredder",
            "Castling",
        ),
    ] {
        let out = gui(&mut s, line);
        assert!(to_engine(&out).is_empty(), "{line}");
        assert_eq!(
            to_gui(&out),
            [format!(
                "info string fenguard: option not allowed: fenguard {name}\n"
            )],
            "{line}"
        );
    }
    let out = gui(&mut s, "setoption name fenguard Later value x");
    assert_eq!(
        to_gui(&out),
        ["info string fenguard: option not allowed: fenguard Later\n"]
    );
    assert_eq!(s.settings(), &before);
    // The operator's policy holds: the king-less FEN is rejected and still logged.
    let out = gui(&mut s, KINGLESS);
    assert!(to_engine(&out).is_empty());
    assert_eq!(position_record(&out).verdict, Verdict::Rejected);
}

#[test]
fn a_fenguard_option_listed_in_client_options_is_the_clients() {
    let mut s = daemon(&["OnBadPosition"]);
    let out = gui(
        &mut s,
        "setoption name fenguard OnBadPosition value forward",
    );
    assert!(to_gui(&out).is_empty(), "{out:?}");
    assert_eq!(s.settings().positions.on_invalid, OnInvalid::Forward);
    let out = gui(&mut s, "setoption name fenguard LogPositions value false");
    assert_eq!(
        to_gui(&out),
        ["info string fenguard: option not allowed: fenguard LogPositions\n"]
    );
    assert!(s.settings().log_positions);
    let out = gui(&mut s, KINGLESS);
    assert_eq!(to_engine(&out), [format!("{KINGLESS}\n")]);
    assert_eq!(position_record(&out).verdict, Verdict::ForwardedInvalid);
}

#[test]
fn a_daemon_client_is_shown_only_the_fenguard_options_it_may_set() {
    let mut s = daemon(&["ReportToGui"]);
    gui(&mut s, "uci");
    let out = super::engine(&mut s, "uciok");
    assert_eq!(
        to_gui(&out),
        [
            "option name fenguard ReportToGui type check default true\n",
            "uciok\n"
        ]
    );
    let mut s = Session::new(false);
    gui(&mut s, "uci");
    assert_eq!(to_gui(&super::engine(&mut s, "uciok")).len(), 8);
}

#[test]
fn the_stdio_proxy_still_takes_fenguard_options_from_its_gui() {
    let mut s = Session::new(false);
    gui(&mut s, "setoption name fenguard LogPositions value false");
    assert!(!s.settings().log_positions);
}

#[test]
fn refusals_are_answered_each_time_and_logged_once_then_summed_at_the_end() {
    let mut s = daemon(&[]);
    let t0 = Instant::now();
    let mut logged = Vec::new();
    let mut answers = 0;
    for _ in 0..10_000 {
        let out = s.handle(
            Input::GuiLine(bytes::Bytes::from_static(
                b"setoption name EvalFile value /etc/shadow\n",
            )),
            t0,
        );
        answers += to_gui(&out).len();
        logged.extend(logs(&out).into_iter().map(str::to_owned));
    }
    assert_eq!(answers, 10_000);
    assert_eq!(logged, ["option not allowed: EvalFile (not forwarded)"]);
    let out = s.handle(
        Input::GuiLine(bytes::Bytes::from_static(b"quit\n")),
        t0 + Duration::from_secs(3),
    );
    let summary: Vec<&str> = logs(&out)
        .into_iter()
        .filter(|l| l.starts_with("refusals summed"))
        .collect();
    assert_eq!(
        summary,
        ["refusals summed: 9999 more in the last 3 s: option not allowed: EvalFile (9999)"]
    );
}

#[test]
fn refusals_are_summed_every_ten_seconds_while_they_go_on() {
    let mut s = daemon(&[]);
    let t0 = Instant::now();
    let mut summaries = Vec::new();
    for i in 0..30u64 {
        for line in [
            &b"bench\n"[..],
            b"setoption name fenguard CheckMoves value false\n",
        ] {
            let out = s.handle(
                Input::GuiLine(bytes::Bytes::copy_from_slice(line)),
                t0 + Duration::from_secs(i),
            );
            summaries.extend(
                out.iter()
                    .filter(|a| {
                        matches!(a, Action::Log(Level::WARN, t) if t.starts_with("refusals summed"))
                    })
                    .cloned(),
            );
        }
    }
    assert_eq!(summaries.len(), 2, "{summaries:?}");
    assert_eq!(
        summaries[0],
        Action::Log(
            Level::WARN,
            "refusals summed: 21 more in the last 10 s: command not allowed: bench (11), option not allowed: fenguard CheckMoves (10)".to_owned()
        )
    );
}
