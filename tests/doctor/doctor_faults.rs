//! The python-chess fault engine (`tests/doctor/fault_engine.py`): clean, no check fails and
//! doctor exits 0; each fault is found by the check named for it; `--fail-on`, `--skip` and
//! `--baseline` change the exit status as documented. Groups a test does not look at are
//! skipped (`--skip`) to keep each run short. No test here bounds a time from above.

use std::collections::BTreeSet;

use crate::common::{FENGUARD, test_dir};
use crate::support::{Run, doctor_faults, fault_engine, python_chess};

/// The timed checks, whose verdict on a loaded machine is the unit tests' (a controlled
/// clock): skipped (run, not judged) where a test asserts what fails.
const TIMED: &str = "search.movetime,search.go-wtime-only,search.go-btime-only";

/// The ids with status `status`.
fn with_status(run: &Run, status: &str) -> BTreeSet<String> {
    run.report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["status"] == status)
        .map(|c| c["id"].as_str().unwrap().to_owned())
        .collect()
}

fn detail(run: &Run, id: &str) -> String {
    run.check(id)["detail"].as_str().unwrap().to_owned()
}

fn ids(items: &[&str]) -> BTreeSet<String> {
    items.iter().map(|s| (*s).to_owned()).collect()
}

#[test]
fn clean_fault_engine_fails_nothing_and_exits_0() {
    let Some(py) = python_chess() else { return };
    // search.movetime is timed: its verdict on a loaded machine is the unit tests' (a
    // controlled clock), not this run's.
    let run = doctor_faults(&py, &["--skip", TIMED], "");
    assert_eq!(
        with_status(&run, "fail"),
        BTreeSet::new(),
        "{:#?}",
        run.flagged()
    );
    assert_eq!(
        with_status(&run, "skip"),
        ids(&[
            "search.movetime",
            "search.go-wtime-only",
            "search.go-btime-only"
        ])
    );
    assert_eq!(run.code, Some(0));
    assert_eq!(run.report["engine"]["name"], "FaultEngine");
    assert_eq!(
        run.report["summary"]["fail_on"],
        serde_json::json!(["crash", "protocol"])
    );
    assert!(run.report["summary"]["pass"].as_u64().unwrap() >= 48);
}

#[test]
fn an_illegal_move_in_the_divide_fails_perft_by_name_though_the_total_is_right() {
    let Some(py) = python_chess() else { return };
    let run = doctor_faults(
        &py,
        &["--skip", "search", "hostile", "chess960"],
        "divide-illegal",
    );
    let fails = with_status(&run, "fail");
    assert!(fails.contains("movegen.perft-start"), "{fails:?}");
    // Every divide lists it: the perft checks and castle-played's `go perft 1`.
    assert!(
        fails.iter().all(|id| id.starts_with("movegen.")),
        "{fails:?}"
    );
    let d = detail(&run, "movegen.perft-start");
    assert!(
        d.contains("= 8902, but the divide is not the legal moves'"),
        "{d}"
    );
    assert!(d.ends_with("extra (illegal) z9z9"), "{d}");
    assert_eq!(run.check("movegen.perft-start")["class"], "protocol");
    assert_eq!(run.code, Some(1));
}

#[test]
fn a_legal_move_left_out_of_the_divide_fails_perft_by_name() {
    let Some(py) = python_chess() else { return };
    let run = doctor_faults(
        &py,
        &["--skip", "search", "hostile", "chess960"],
        "divide-missing",
    );
    let d = detail(&run, "movegen.perft-start");
    assert!(d.contains("= 8902, but the divide"), "{d}");
    assert!(d.contains("missing a2a4"), "{d}");
    assert_eq!(run.code, Some(1));
}

#[test]
fn a_king_to_target_castle_under_chess960_fails_the_chess960_perft_by_name() {
    let Some(py) = python_chess() else { return };
    let run = doctor_faults(
        &py,
        &["--skip", "search", "hostile", "movegen"],
        "castle-king-target",
    );
    let d = detail(&run, "chess960.perft-x-fen-inner-rook");
    assert_eq!(
        run.check("chess960.perft-x-fen-inner-rook")["status"],
        "fail"
    );
    assert!(d.contains("missing e1b1; extra (illegal) e1c1"), "{d}");
    // Played: told to search the castle, it writes it king-to-target.
    let c = run.check("chess960.castle-played");
    assert_eq!(c["status"], "fail", "{c}");
    let d = c["detail"].as_str().unwrap();
    assert!(
        d.contains("`e1c1` for the castle `e1b1` is not a legal move"),
        "{d}"
    );
    assert!(d.contains("`e8c8` for the castle `e8b8`"), "{d}");
}

#[test]
fn no_score_and_no_author_fail_as_fastchess_compliance_does() {
    let Some(py) = python_chess() else { return };
    let run = doctor_faults(
        &py,
        &["--skip", "movegen", "hostile", "chess960", TIMED],
        "no-score,no-author",
    );
    assert_eq!(
        with_status(&run, "fail"),
        ids(&["handshake.uci", "search.info-before-bestmove"]),
        "{:#?}",
        run.flagged()
    );
    assert!(detail(&run, "handshake.uci").contains("no `id author`"));
    let d = detail(&run, "search.info-before-bestmove");
    assert!(
        d.contains("go-wtime-only") && d.contains("fastchess"),
        "{d}"
    );
    assert_eq!(run.code, Some(1));
}

#[test]
fn a_policy_fail_warns_by_default_and_fails_with_fail_on_policy() {
    let Some(py) = python_chess() else { return };
    let skip = ["--skip", "search", "movegen", "chess960"];
    let run = doctor_faults(&py, &skip, "leading-space");
    let c = run.check("hostile.whitespace");
    assert_eq!(
        (&c["status"], &c["class"], &c["demoted"]),
        (&"warn".into(), &"policy".into(), &true.into()),
        "{c}"
    );
    assert!(with_status(&run, "fail").is_empty(), "{:#?}", run.flagged());
    assert_eq!(run.code, Some(0));

    let mut args = skip.to_vec();
    args.extend(["--fail-on", "policy"]);
    let run = doctor_faults(&py, &args, "leading-space");
    assert_eq!(with_status(&run, "fail"), ids(&["hostile.whitespace"]));
    assert_eq!(run.code, Some(1));
}

#[test]
fn fail_on_crash_lets_protocol_fails_warn_and_still_fails_a_crash() {
    let Some(py) = python_chess() else { return };
    let args = [
        "--skip",
        "search",
        "movegen",
        "chess960",
        "--fail-on",
        "crash",
    ];
    let run = doctor_faults(&py, &args, "no-author");
    assert_eq!(run.check("handshake.uci")["status"], "warn");
    assert_eq!(run.code, Some(0));
    let run = doctor_faults(&py, &args, "no-author,crash-no-kings");
    assert_eq!(with_status(&run, "fail"), ids(&["hostile.no-kings"]));
    assert_eq!(run.check("hostile.no-kings")["class"], "crash");
    assert_eq!(run.code, Some(1));
}

#[test]
fn a_baseline_accepts_known_fails_fails_new_ones_and_lists_fixed_ones() {
    let Some(py) = python_chess() else { return };
    let dir = test_dir("doctor-baseline");
    let skip = ["--skip", "search", "movegen", "chess960"];
    // The first run's JSON report is the baseline: its one fail, the crash.
    let engine = fault_engine(&py, "crash-no-kings");
    let out = std::process::Command::new(FENGUARD)
        .args(["doctor", "--quick", "--format", "json"])
        .args(skip)
        .arg("--")
        .args(&engine)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let baseline = dir.join("baseline.json");
    std::fs::write(&baseline, &out.stdout).unwrap();
    let b = baseline.to_str().unwrap();

    let mut args = skip.to_vec();
    args.extend(["--baseline", b]);
    let run = doctor_faults(&py, &args, "crash-no-kings");
    assert_eq!(run.code, Some(0), "a known fail does not fail the run");
    assert_eq!(run.check("hostile.no-kings")["baseline"], "known");
    let s = &run.report["summary"]["baseline"];
    assert_eq!(s["known"], serde_json::json!(["hostile.no-kings"]));
    assert_eq!(s["new"], serde_json::json!([]));

    let run = doctor_faults(&py, &args, "crash-no-kings,no-author");
    assert_eq!(run.code, Some(1), "a new fail fails the run");
    assert_eq!(
        run.report["summary"]["baseline"]["new"],
        serde_json::json!(["handshake.uci"])
    );

    // A text baseline, and the crash fixed.
    let text = dir.join("accepted.txt");
    std::fs::write(&text, "# accepted fails\nhostile.no-kings\n").unwrap();
    let mut args = skip.to_vec();
    args.extend(["--baseline", text.to_str().unwrap()]);
    let run = doctor_faults(&py, &args, "");
    assert_eq!(run.code, Some(0));
    assert_eq!(
        run.report["summary"]["baseline"]["fixed"],
        serde_json::json!(["hostile.no-kings"])
    );
}

#[test]
fn an_unreadable_baseline_is_exit_2() {
    let out = std::process::Command::new(FENGUARD)
        .args([
            "doctor",
            "--baseline",
            "/nonexistent/baseline.json",
            "--",
            "/bin/true",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("cannot read the baseline `/nonexistent/baseline.json`"),
        "{err}"
    );
}

#[test]
fn a_crash_transcript_has_the_engines_last_stderr_lines() {
    let Some(py) = python_chess() else { return };
    let run = doctor_faults(
        &py,
        &["--skip", "search", "movegen", "chess960"],
        "crash-no-kings",
    );
    let c = run.check("hostile.no-kings");
    let transcript: Vec<&str> = c["transcript"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap())
        .collect();
    let exited = transcript
        .iter()
        .position(|l| l.starts_with("# (engine exited: signal 6"))
        .unwrap_or_else(|| panic!("{transcript:?}"));
    assert!(
        transcript[exited + 1].starts_with("# stderr: fault_engine: Assertion `king_square(WHITE)"),
        "{transcript:?}"
    );
}

#[test]
fn an_engine_that_fails_to_start_shows_its_stderr() {
    // A wrapper script whose engine is not installed (`gnuchess: not found`).
    let run = crate::support::doctor(&[], &["sh", "-c", "exec no-such-engine-here --uci"], &[]);
    let c = run.check("handshake.uci");
    assert_eq!(c["status"], "fail");
    assert!(
        c["detail"]
            .as_str()
            .unwrap()
            .contains("the engine ended (status 127)"),
        "{c}"
    );
    let transcript = c["transcript"].to_string();
    assert!(
        transcript.contains("exec: no-such-engine-here: not found"),
        "{transcript}"
    );
    assert_eq!(c["class"], "crash");
}

#[test]
fn an_xboard_engine_is_named_at_once() {
    let Some(py) = python_chess() else { return };
    let run = doctor_faults(&py, &[], "xboard");
    let c = run.check("handshake.uci");
    assert_eq!(c["status"], "fail");
    let d = c["detail"].as_str().unwrap();
    assert!(
        d.starts_with(
            "not a UCI engine (xboard/CECP?): it answered `uci` with `Error (unknown command): uci`"
        ),
        "{d}"
    );
    assert_eq!(run.report["checks"].as_array().unwrap().len(), 1);
    assert_eq!(run.code, Some(1));
}

#[test]
fn a_movetime_overshoot_fails_on_its_p90() {
    let Some(py) = python_chess() else { return };
    let run = doctor_faults(
        &py,
        &[
            "--skip",
            "movegen",
            "hostile",
            "chess960",
            "search.go-wtime-only,search.go-btime-only",
        ],
        "movetime-overshoot",
    );
    assert_eq!(
        with_status(&run, "fail"),
        ids(&["search.movetime"]),
        "{:#?}",
        run.flagged()
    );
    let d = detail(&run, "search.movetime");
    assert!(d.starts_with("movetime 300 ×8: overshoot p90 "), "{d}");
    assert!(d.contains("fail: p90 above 50 ms"), "{d}");
}

#[test]
fn a_king_takes_rook_castle_in_standard_chess_fails_castle_played() {
    let Some(py) = python_chess() else { return };
    let run = doctor_faults(
        &py,
        &["--skip", "search", "hostile", "chess960"],
        "castle-standard-off",
    );
    let c = run.check("movegen.castle-played");
    assert_eq!(c["status"], "fail", "{c}");
    let d = c["detail"].as_str().unwrap();
    assert!(d.contains("the castle written `e1h1`, not `e1g1`"), "{d}");
    assert!(d.contains("`e1a1` for `e1c1`"), "{d}");
    // The same engine castles right under UCI_Chess960.
    assert!(with_status(&run, "fail").contains("movegen.castle-played"));
}

#[test]
fn an_engine_that_stays_after_its_input_ends_fails_search_eof() {
    let Some(py) = python_chess() else { return };
    let run = doctor_faults(
        &py,
        &["--skip", "movegen", "hostile", "chess960", TIMED],
        "hang-eof",
    );
    assert_eq!(
        with_status(&run, "fail"),
        ids(&["search.eof"]),
        "{:#?}",
        run.flagged()
    );
    assert!(detail(&run, "search.eof").starts_with("still running 5 s after the end of its input"));
    assert_eq!(run.check("search.quit-idle")["status"], "pass");
    assert_eq!(run.check("search.eof")["class"], "crash");
}

#[test]
fn perft_from_the_authors_own_positions_is_compared_and_a_bad_fen_is_exit_2() {
    let Some(py) = python_chess() else { return };
    let skip = ["--skip", "search", "hostile", "chess960"];
    let mut args = skip.to_vec();
    args.extend(["--perft", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1:2"]);
    let run = doctor_faults(&py, &args, "");
    let c = run.check("movegen.perft-user-1");
    assert_eq!(
        (&c["status"], &c["detail"]),
        (&"pass".into(), &"perft 2 = 568".into()),
        "{c}"
    );
    let run = doctor_faults(&py, &args, "divide-missing");
    let d = detail(&run, "movegen.perft-user-1");
    assert!(
        d.contains("= 568, but the divide") && d.contains("missing e1c1"),
        "{d}"
    );

    let out = std::process::Command::new(FENGUARD)
        .args([
            "doctor",
            "--perft",
            "8/8/8/8/8/8/8/8 w - - 0 1",
            "--",
            "/bin/true",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a valid chess position"));
}
