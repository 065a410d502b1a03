//! The rules fenguard judges by are the rules the engine announced (issue 30, SPEC 10 and 12):
//! a `UCI_Variant` value or a variant check option changes them only when the engine offered
//! it after its `uci`; otherwise positions are judged as chess, the GUI is told once a
//! `setoption`, and a daemon session does not forward the line.

use super::super::*;
use super::{
    engine, engine_announcing, engine_offering_variants, gui, position_record, to_engine, to_gui,
};
use crate::session::Guard;
use std::time::Instant;

/// Stockfish 15.1's announcement, shortened: no `UCI_Variant`, no variant check option.
const STOCKFISH: [&str; 6] = [
    "option name Threads type spin default 1 min 1 max 1024",
    "option name Hash type spin default 16 min 1 max 33554432",
    "option name UCI_Chess960 type check default false",
    "option name UCI_AnalyseMode type check default false",
    "option name UCI_ShowWDL type check default false",
    "option name SyzygyPath type string default <empty>",
];

/// Positions Stockfish cannot read (it crashes on them): king-less, horde, a crazyhouse
/// pocket, an 18,000-square rank.
fn crashers() -> Vec<String> {
    vec![
        "position fen 8/8/8/8/8/8/8/8 w - - 0 1".to_owned(),
        "position fen rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1"
            .to_owned(),
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[QQQQqqqq] w KQkq - 0 1 moves Q@e4"
            .to_owned(),
        format!("position fen {}/8/8/8/8/8/8/K6k w - - 0 1", "1".repeat(18_000)),
    ]
}

fn stockfish() -> Session {
    let mut s = Session::new(false);
    engine_announcing(&mut s, &STOCKFISH);
    s
}

fn daemon_stockfish() -> Session {
    let allow: Vec<String> = crate::session::guard::DEFAULT_ALLOW
        .iter()
        .map(|s| (*s).to_owned())
        .collect();
    let mut s = Session::new(false).with_guard(Guard::new(&allow, Some(2), Some(64)));
    engine_announcing(&mut s, &STOCKFISH);
    s
}

/// Every crasher is rejected: nothing reaches the engine.
fn rejects_every_crasher(s: &mut Session, context: &str) {
    for line in crashers() {
        let out = gui(s, &line);
        assert!(
            to_engine(&out).is_empty(),
            "{context}: {line:.80} -> {out:?}"
        );
        assert_eq!(
            position_record(&out).verdict,
            Verdict::Rejected,
            "{context}"
        );
    }
}

#[test]
fn variant_the_engine_does_not_announce_is_forwarded_but_judged_as_chess() {
    for variant in ["horde", "antichess", "crazyhouse", "xyz"] {
        let mut s = stockfish();
        let line = format!("setoption name UCI_Variant value {variant}");
        let out = gui(&mut s, &line);
        assert_eq!(to_engine(&out), [format!("{line}\n")], "{variant}");
        assert_eq!(
            to_gui(&out),
            [format!(
                "info string fenguard: variant {variant} not offered by the engine (it announced no option UCI_Variant): positions are judged as chess\n"
            )]
        );
        assert_eq!(s.rules(), &Rules::Chess, "{variant}");
        rejects_every_crasher(&mut s, variant);
    }
}

#[test]
fn check_option_the_engine_does_not_announce_changes_no_rules() {
    let mut s = stockfish();
    let out = gui(&mut s, "setoption name UCI_Horde value true");
    assert_eq!(to_engine(&out), ["setoption name UCI_Horde value true\n"]);
    assert_eq!(
        to_gui(&out),
        [
            "info string fenguard: variant horde not offered by the engine (it announced no option UCI_Horde): positions are judged as chess\n"
        ]
    );
    assert_eq!(s.rules(), &Rules::Chess);
    rejects_every_crasher(&mut s, "UCI_Horde");
}

#[test]
fn daemon_session_does_not_forward_a_variant_the_engine_lacks() {
    for line in [
        "setoption name UCI_Variant value horde",
        "setoption name uci_variant value XYZ",
        "setoption name UCI_Horde value true",
        "setoption name UCI_CapaRandom value true",
    ] {
        let mut s = daemon_stockfish();
        let out = gui(&mut s, line);
        assert!(to_engine(&out).is_empty(), "{line}: {out:?}");
        let told = to_gui(&out);
        assert_eq!(told.len(), 1, "{told:?}");
        assert!(
            told[0].ends_with("positions are judged as chess; not forwarded\n"),
            "{told:?}"
        );
        rejects_every_crasher(&mut s, line);
    }
}

#[test]
fn variant_set_before_the_engine_announced_anything_changes_no_rules() {
    let mut s = Session::new(false);
    let out = gui(&mut s, "setoption name UCI_Variant value horde");
    assert!(to_engine(&out).is_empty(), "{out:?}");
    assert_eq!(
        to_gui(&out),
        [
            "info string fenguard: variant horde not offered by the engine (its options are not known before its uciok): positions are judged as chess; not forwarded\n"
        ]
    );
    rejects_every_crasher(&mut s, "before uci");
}

#[test]
fn a_setoption_sent_during_the_handshake_is_judged_against_the_full_list() {
    let mut s = Session::new(false);
    gui(&mut s, "uci");
    assert!(gui(&mut s, "setoption name UCI_Variant value horde").is_empty());
    engine(&mut s, super::FAIRY_VARIANTS);
    let out = engine(&mut s, "uciok");
    assert_eq!(
        to_engine(&out),
        ["setoption name UCI_Variant value horde\n"]
    );
    assert_eq!(s.rules(), &Rules::Eight(crate::variant::Variant::Horde));
}

#[test]
fn offered_variant_selects_its_rules_in_any_case() {
    let mut s = Session::new(false);
    engine_offering_variants(&mut s);
    let out = gui(&mut s, "setoption name UCI_VARIANT value Horde");
    assert!(to_gui(&out).is_empty(), "{out:?}");
    // Fairy-Stockfish takes `Horde` for its combo but plays chess: it gets its own spelling.
    assert_eq!(
        to_engine(&out),
        ["setoption name UCI_VARIANT value horde\n"]
    );
    assert_eq!(s.rules(), &Rules::Eight(crate::variant::Variant::Horde));
    let horde = &crashers()[1];
    assert_eq!(position_record(&gui(&mut s, horde)).verdict, Verdict::Valid);
}

#[test]
fn offered_variant_fenguard_does_not_model_passes_unchecked() {
    let mut s = Session::new(false);
    engine_offering_variants(&mut s);
    gui(&mut s, "setoption name UCI_Variant value shogi");
    assert_eq!(s.rules(), &Rules::Unchecked("shogi".to_owned()));
}

#[test]
fn a_var_the_engine_lacks_keeps_the_variant_it_plays() {
    let mut s = Session::new(false);
    engine_offering_variants(&mut s);
    gui(&mut s, "setoption name UCI_Variant value crazyhouse");
    let out = gui(&mut s, "setoption name UCI_Variant value xyz");
    assert_eq!(
        to_gui(&out),
        [
            "info string fenguard: variant xyz not offered by the engine (its UCI_Variant has no var xyz): positions are judged as crazyhouse\n"
        ]
    );
    assert_eq!(
        s.rules(),
        &Rules::Eight(crate::variant::Variant::Crazyhouse)
    );
    // Under an unknown variant an 18,000-square rank was forwarded unchecked.
    let out = gui(&mut s, &crashers()[3]);
    assert!(to_engine(&out).is_empty());
}

#[test]
fn check_option_the_engine_announced_selects_and_clears_its_variant() {
    let mut s = Session::new(false);
    engine_announcing(&mut s, &["option name UCI_Horde type check default false"]);
    let out = gui(&mut s, "setoption name UCI_Horde value True");
    assert_eq!(to_engine(&out), ["setoption name UCI_Horde value true\n"]);
    assert_eq!(s.rules(), &Rules::Eight(crate::variant::Variant::Horde));
    gui(&mut s, "setoption name UCI_Horde value false");
    assert_eq!(s.rules(), &Rules::Chess);
}

#[test]
fn a_new_uci_reads_the_engine_offer_again() {
    let mut s = Session::new(false);
    engine_offering_variants(&mut s);
    engine_announcing(&mut s, &STOCKFISH);
    gui(&mut s, "setoption name UCI_Variant value horde");
    assert_eq!(s.rules(), &Rules::Chess);
}

fn restart(s: &mut Session) -> Vec<Action> {
    s.handle(
        Input::EngineExited(EngineExit {
            code: Some(1),
            ..EngineExit::default()
        }),
        Instant::now(),
    );
    s.handle(
        Input::EngineStarted {
            command: "e".to_owned(),
            args: Vec::new(),
            pid: None,
        },
        Instant::now(),
    );
    let mut out = engine(s, "uciok");
    out.extend(engine(s, "readyok"));
    out
}

#[test]
fn restored_options_after_a_restart_keep_the_engine_rules() {
    let policy = RestartPolicy {
        enabled: true,
        ..RestartPolicy::default()
    };
    let mut s = stockfish().with_restart(policy);
    gui(&mut s, "setoption name UCI_Variant value horde");
    gui(&mut s, "position startpos");
    let replay = restart(&mut s);
    assert!(
        to_engine(&replay).contains(&"setoption name UCI_Variant value horde\n".to_owned()),
        "{replay:?}"
    );
    assert_eq!(s.rules(), &Rules::Chess);
    rejects_every_crasher(&mut s, "after a restart");
    // A setoption held during the restart is judged against the same offer.
    let mut s = stockfish().with_restart(policy);
    s.handle(
        Input::EngineExited(EngineExit {
            code: Some(1),
            ..EngineExit::default()
        }),
        Instant::now(),
    );
    gui(&mut s, "setoption name UCI_Variant value antichess");
    s.handle(
        Input::EngineStarted {
            command: "e".to_owned(),
            args: Vec::new(),
            pid: None,
        },
        Instant::now(),
    );
    engine(&mut s, "uciok");
    let released = engine(&mut s, "readyok");
    assert!(
        to_gui(&released)
            .iter()
            .any(|l| l.contains("variant antichess not offered")),
        "{released:?}"
    );
    assert_eq!(s.rules(), &Rules::Chess);
    // The offered variant survives the restart too.
    let mut s = Session::new(false).with_restart(policy);
    engine_offering_variants(&mut s);
    gui(&mut s, "setoption name UCI_Variant value crazyhouse");
    restart(&mut s);
    assert_eq!(
        s.rules(),
        &Rules::Eight(crate::variant::Variant::Crazyhouse)
    );
}
