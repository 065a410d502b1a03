//! fenguard's own UCI options.

use super::*;
use crate::config::{Chess960Mode, OnInvalid};

const ANNOUNCED: [&str; 7] = [
    "option name fenguard OnBadPosition type combo default repair var repair var reject var forward\n",
    "option name fenguard Castling type combo default auto var auto var xfen var shredder\n",
    "option name fenguard EnPassant type combo default legal var legal var xfen var fen\n",
    "option name fenguard Chess960 type combo default gui var gui var detect\n",
    "option name fenguard CheckMoves type check default true\n",
    "option name fenguard ReportToGui type check default true\n",
    "option name fenguard LogPositions type check default true\n",
];

#[test]
fn options_are_announced_just_before_uciok() {
    let mut s = Session::new(false);
    let mut expected: Vec<String> = ANNOUNCED.iter().map(|l| (*l).to_owned()).collect();
    expected.push("uciok\n".to_owned());
    assert_eq!(to_gui(&engine(&mut s, "uciok")), expected);
}

#[test]
fn announced_defaults_follow_the_config() {
    let mut s = session_with(|p| {
        p.on_invalid = OnInvalid::Reject;
        p.chess960 = Chess960Mode::Detect;
    });
    let lines = to_gui(&engine(&mut s, "uciok"));
    assert!(lines[0].contains("default reject var"), "{}", lines[0]);
    assert!(lines[3].contains("default detect var"), "{}", lines[3]);
}

#[test]
fn fenguard_setoption_is_applied_and_not_forwarded() {
    let mut s = Session::new(false);
    let actions = gui(&mut s, "setoption name FENGUARD onInvalid value Reject");
    assert!(to_engine(&actions).is_empty());
    assert!(to_gui(&actions).is_empty());
    assert_eq!(s.settings().positions.on_invalid, OnInvalid::Reject);
}

#[test]
fn check_options_take_true_and_false() {
    let mut s = Session::new(false);
    gui(&mut s, "setoption name fenguard LogPositions value false");
    gui(&mut s, "setoption name fenguard CheckMoves value FALSE");
    assert!(!s.settings().log_positions);
    assert!(!s.settings().positions.check_moves);
}

#[test]
fn bad_value_gets_an_error_line() {
    let mut s = Session::new(false);
    let actions = gui(&mut s, "setoption name fenguard Castling value fancy");
    assert!(to_engine(&actions).is_empty());
    assert_eq!(
        to_gui(&actions),
        vec![
            "info string fenguard: error: bad value `fancy` for option fenguard Castling (expected auto, xfen or shredder)\n"
        ]
    );
}

#[test]
fn unknown_fenguard_option_gets_an_error_line() {
    let mut s = Session::new(false);
    let actions = gui(&mut s, "setoption name fenguard Colour value red");
    assert!(to_engine(&actions).is_empty());
    assert!(
        to_gui(&actions)[0]
            .starts_with("info string fenguard: error: unknown option `fenguard Colour`")
    );
}

#[test]
fn other_options_are_forwarded() {
    let mut s = Session::new(false);
    let actions = gui(&mut s, "setoption name Hash value 64");
    assert_eq!(to_engine(&actions), vec!["setoption name Hash value 64\n"]);
}

#[test]
fn reject_option_changes_the_verdict() {
    let mut s = Session::new(false);
    gui(&mut s, "setoption name fenguard OnBadPosition value reject");
    let actions = gui(&mut s, "position fen 4k3/8/8/8/8/8/8/4K2R w KQ - 0 1");
    assert!(to_engine(&actions).is_empty());
}
