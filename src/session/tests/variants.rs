//! Variants fenguard does not model (issue 9, class 5; here `loop`, a crazyhouse relative):
//! transparent, with one `info string`
//! and one `variant-not-checked` note; and the handshake words pychess refuses (class 6).

use super::super::*;
use super::{engine, gui, position_record, search_records, to_engine, to_gui};
use std::time::Instant;

const NOT_CHECKED: &str = "info string fenguard: variant loop: fenguard has no rules for it; positions and moves pass unchecked\n";
const ZH_START: &str = "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1 moves e2e4 d7d5 e4d5 d8d5 P@e4";

fn unmodelled() -> Session {
    let mut s = Session::new(false);
    super::engine_offering_variants(&mut s);
    let set = gui(&mut s, "setoption name UCI_Variant value loop");
    assert_eq!(to_engine(&set), ["setoption name UCI_Variant value loop\n"]);
    assert_eq!(to_gui(&set), [NOT_CHECKED]);
    s
}

#[test]
fn unmodelled_variant_position_is_forwarded_byte_for_byte() {
    let mut s = unmodelled();
    let out = gui(&mut s, ZH_START);
    assert_eq!(to_engine(&out), [format!("{ZH_START}\n")]);
    assert_eq!(to_gui(&out), Vec::<String>::new());
    let record = position_record(&out);
    assert_eq!(record.verdict, Verdict::Unchecked);
    assert_eq!(record.variant.as_deref(), Some("loop"));
    assert_eq!(super::codes(&record), ["variant-not-checked"]);
}

#[test]
fn variant_not_checked_note_and_info_string_come_once() {
    let mut s = unmodelled();
    gui(&mut s, "position startpos");
    let again = gui(&mut s, "setoption name UCI_Variant value loop");
    assert!(to_gui(&again).is_empty());
    let second = gui(&mut s, ZH_START);
    assert_eq!(super::codes(&position_record(&second)), Vec::<&str>::new());
}

#[test]
fn unmodelled_variant_moves_are_not_judged_nor_rewritten() {
    let mut s = unmodelled();
    gui(&mut s, "setoption name UCI_Chess960 value true");
    engine(&mut s, "option name UCI_Chess960 type check default false");
    gui(&mut s, ZH_START);
    let go = gui(&mut s, "go depth 1 searchmoves P@e5 e1g1");
    assert_eq!(to_engine(&go), ["go depth 1 searchmoves P@e5 e1g1\n"]);
    let info = engine(&mut s, "info depth 1 pv P@f7 e8f7");
    assert_eq!(to_gui(&info), ["info depth 1 pv P@f7 e8f7\n"]);
    let best = engine(&mut s, "bestmove P@f7 ponder e8f7");
    assert_eq!(to_gui(&best), ["bestmove P@f7 ponder e8f7\n"]);
    let record = &search_records(&best)[0];
    assert_eq!(record.diagnostics, Vec::new());
    assert_eq!(record.variant.as_deref(), Some("loop"));
}

#[test]
fn unmodelled_variant_startpos_is_not_judged_as_the_chess_start() {
    let mut s = unmodelled();
    let out = gui(&mut s, "position startpos moves P@e4");
    assert_eq!(to_engine(&out), ["position startpos moves P@e4\n"]);
    assert_eq!(position_record(&out).verdict, Verdict::Unchecked);
}

#[test]
fn cutechess_check_option_selects_and_clears_a_variant() {
    let mut s = Session::new(false);
    super::engine_announcing(
        &mut s,
        &[
            "option name UCI_CapaRandom type check default false",
            "option name UCI_Giveaway type check default false",
        ],
    );
    gui(&mut s, "setoption name UCI_CapaRandom value true");
    assert_eq!(
        s.rules(),
        &Rules::Ten(crate::variant::board10::Variant10::CapaRandom)
    );
    gui(&mut s, "setoption name UCI_CapaRandom value false");
    assert_eq!(s.rules(), &Rules::Chess);
    gui(&mut s, "setoption name UCI_Giveaway value true");
    assert_eq!(s.rules(), &Rules::Eight(crate::variant::Variant::Giveaway));
}

#[test]
fn other_uci_options_select_no_variant() {
    let mut s = Session::new(false);
    for line in [
        "setoption name UCI_ShowWDL value true",
        "setoption name UCI_Chess960 value true",
        "setoption name UCI_AnalyseMode value true",
    ] {
        gui(&mut s, line);
        assert_eq!(s.rules(), &Rules::Chess, "{line}");
    }
}

#[test]
fn variant_chess_checks_positions_again() {
    let mut s = unmodelled();
    let back = gui(&mut s, "setoption name UCI_Variant value chess");
    assert!(to_gui(&back).is_empty());
    let out = gui(&mut s, "position fen 4k3/8/8/8/8/8/8/8 w - - 0 1");
    assert_eq!(position_record(&out).verdict, Verdict::Rejected);
}

#[test]
fn no_announced_option_holds_a_word_pychess_refuses() {
    let mut s = Session::new(false);
    gui(&mut s, "uci");
    let out = engine(&mut s, "uciok");
    let lines = to_gui(&out);
    assert_eq!(lines.len(), 8, "{lines:?}");
    for line in lines {
        let lower = line.to_ascii_lowercase();
        for word in ["error", "illegal", "invalid"] {
            assert!(!lower.contains(word), "{line:?} holds {word:?}");
        }
    }
}

#[test]
fn on_bad_position_is_announced_and_on_invalid_still_accepted() {
    let mut s = Session::new(false);
    gui(&mut s, "uci");
    let out = engine(&mut s, "uciok");
    assert_eq!(
        to_gui(&out)[0],
        "option name fenguard OnBadPosition type combo default repair var repair var reject var forward\n"
    );
    gui(&mut s, "setoption name fenguard OnInvalid value reject");
    assert_eq!(
        s.settings().positions.on_invalid,
        crate::config::OnInvalid::Reject
    );
    gui(
        &mut s,
        "setoption name fenguard OnBadPosition value forward",
    );
    assert_eq!(
        s.settings().positions.on_invalid,
        crate::config::OnInvalid::Forward
    );
}

#[test]
fn unchecked_position_is_restored_after_a_restart() {
    let mut s = unmodelled().with_restart(RestartPolicy {
        enabled: true,
        ..RestartPolicy::default()
    });
    gui(&mut s, ZH_START);
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
    let replay = engine(&mut s, "uciok");
    assert_eq!(
        to_engine(&replay),
        [
            "setoption name UCI_Variant value loop\n".to_owned(),
            format!("{ZH_START}\n"),
            "isready\n".to_owned()
        ]
    );
}
