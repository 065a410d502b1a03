//! `fenguard doctor --quick` against Debian's Ethereal, Glaurung and Toga II: the quirks
//! confirmed by piping the one line into each bare engine (docs/doctor.md) are found. Only the
//! deterministic ones are asserted (not movetime, which depends on the machine's load).

use crate::support::{Run, doctor, require_engine};

fn status_detail(run: &Run, id: &str) -> (String, String) {
    let c = run.check(id);
    (
        c["status"].as_str().unwrap().to_owned(),
        c["detail"].as_str().unwrap().to_owned(),
    )
}

#[test]
fn ethereal_aborts_on_a_kingless_fen_ignores_searchmoves_and_has_no_perft() {
    let Some(engine) = require_engine("/usr/games/ethereal-chess", "ethereal-chess") else {
        return;
    };
    let run = doctor(&["--quick"], &[&engine], &[]);
    assert_eq!(run.code, Some(1));
    let (s, d) = status_detail(&run, "hostile.no-kings");
    assert_eq!(s, "fail");
    assert!(d.contains("crashed (signal 6 (SIGABRT))"), "{d}");
    let (s, d) = status_detail(&run, "search.searchmoves");
    assert_eq!(s, "fail");
    assert!(d.contains("is not among `searchmoves a2a3 b2b3`"), "{d}");
    assert_eq!(status_detail(&run, "movegen.perft").0, "skip");
    assert_eq!(status_detail(&run, "movegen.bestmove-legal").0, "pass");
    assert_eq!(status_detail(&run, "search.pv-legal").0, "pass");
}

#[test]
fn glaurung_answers_no_isready_while_searching_and_crashes_on_a_long_moves_line() {
    let Some(engine) = require_engine("/usr/games/glaurung", "glaurung") else {
        return;
    };
    let run = doctor(&["--quick"], &[&engine], &[]);
    assert_eq!(status_detail(&run, "handshake.isready-searching").0, "fail");
    let (s, d) = status_detail(&run, "hostile.overlong-line");
    assert_eq!(s, "fail");
    assert!(d.contains("crashed (signal 11 (SIGSEGV))"), "{d}");
    assert_eq!(status_detail(&run, "handshake.isready").0, "pass");
}

#[test]
fn toga_ignores_go_nodes_and_exits_on_an_illegal_position() {
    let Some(engine) = require_engine("/usr/games/toga2", "toga2") else {
        return;
    };
    let run = doctor(&["--quick"], &[&engine], &[]);
    let (s, d) = status_detail(&run, "search.go-nodes");
    assert_eq!(s, "fail");
    assert!(d.contains("only after `stop`"), "{d}");
    let (s, d) = status_detail(&run, "hostile.no-kings");
    assert_eq!(s, "fail");
    assert!(d.contains("ended (status 1)"), "{d}");
    assert_eq!(status_detail(&run, "chess960.option").0, "skip");
    assert_eq!(status_detail(&run, "search.go-depth").0, "pass");
}
