//! The fake engine in rules mode: clean, nothing is flagged; each deliberate fault of
//! `FAKE_ENGINE_FAULTS` is found by the check named for it, and nothing else is.

use std::collections::BTreeSet;
use std::process::Command;

use crate::common::{FAKE_ENGINE, FENGUARD};
use crate::support::{Run, fake};

/// The ids flagged (not pass) in `run`, with their status.
fn flagged(run: &Run) -> BTreeSet<(String, String)> {
    run.flagged()
        .into_iter()
        .map(|(id, (status, _))| (id, status))
        .collect()
}

fn set(items: &[(&str, &str)]) -> BTreeSet<(String, String)> {
    items
        .iter()
        .map(|(a, b)| ((*a).to_owned(), (*b).to_owned()))
        .collect()
}

#[test]
fn well_behaved_fake_engine_passes_every_check_and_exits_0() {
    // search.movetime is timed: judged by the unit tests' controlled samples, not on a loaded
    // machine's clock (run, reported as skipped).
    let run = crate::support::doctor(
        &["--quick", "--skip", "search.movetime"],
        &[crate::common::FAKE_ENGINE],
        &[("FAKE_ENGINE_RULES", "1")],
    );
    assert_eq!(
        flagged(&run),
        set(&[("search.movetime", "skip")]),
        "{:#?}",
        run.flagged()
    );
    assert_eq!(run.code, Some(0));
    let s = &run.report["summary"];
    assert_eq!(s["fail"], 0);
    assert!(s["pass"].as_u64().unwrap() >= 45, "{s}");
    assert_eq!(run.report["engine"]["name"], "FakeEngine");
    assert_eq!(run.report["engine"]["perft"], true);
    assert_eq!(run.report["engine"]["chess960"], true);
}

#[test]
fn ponder_early_fails_the_waiting_searches_only() {
    let run = fake("ponder-early");
    let expected = set(&[
        ("search.go-infinite", "fail"),
        ("search.ponder-ponderhit", "fail"),
        ("search.ponder-stop", "fail"),
    ]);
    assert_eq!(flagged(&run), expected, "{:#?}", run.flagged());
    let detail = run.check("search.ponder-ponderhit")["detail"]
        .as_str()
        .unwrap();
    assert!(detail.contains("while pondering"), "{detail}");
    assert_eq!(run.code, Some(1));
}

#[test]
fn wrong_perft_at_depth_3_is_divided_down_to_the_missing_move() {
    let run = fake("perft-wrong");
    assert_eq!(
        flagged(&run),
        set(&[("movegen.perft-kiwipete", "fail")]),
        "{:#?}",
        run.flagged()
    );
    let detail = run.check("movegen.perft-kiwipete")["detail"]
        .as_str()
        .unwrap();
    assert!(
        detail.contains("the engine counts 97861, fenguard 97862"),
        "{detail}"
    );
    assert!(detail.contains("after `e1g1 e8c8`"), "{detail}");
    assert!(detail.ends_with("missing a2a3"), "{detail}");
}

#[test]
fn blank_line_in_the_uci_reply_is_found_by_reply_lines() {
    let run = fake("uci-blank-line");
    assert_eq!(
        flagged(&run),
        set(&[("handshake.reply-lines", "warn")]),
        "{:#?}",
        run.flagged()
    );
    let c = run.check("handshake.reply-lines");
    assert!(c["detail"].as_str().unwrap().contains("line 3"), "{c}");
    assert!(
        c["transcript"]
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l == "< "),
        "{c}"
    );
    assert_eq!(run.code, Some(0), "a warn is not a fail");
}

#[test]
fn crash_on_one_hostile_class_is_reported_with_its_line_and_the_engine_restarted() {
    let run = fake("crash-no-kings");
    assert_eq!(
        flagged(&run),
        set(&[("hostile.no-kings", "fail")]),
        "{:#?}",
        run.flagged()
    );
    let c = run.check("hostile.no-kings");
    let detail = c["detail"].as_str().unwrap();
    assert!(
        detail.starts_with("`position fen 8/8/8/8/8/8/8/8 w - - 0 1`: crashed (signal 6"),
        "{detail}"
    );
    let transcript: Vec<&str> = c["transcript"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap())
        .collect();
    assert!(
        transcript.contains(&"> position fen 8/8/8/8/8/8/8/8 w - - 0 1"),
        "{transcript:?}"
    );
    assert_eq!(
        run.report["summary"]["not_survived"],
        serde_json::json!(["no-kings"])
    );
}

#[test]
fn movetime_overshoot_is_reported_as_a_number() {
    let run = fake("movetime-overshoot");
    assert_eq!(
        flagged(&run),
        set(&[("search.movetime", "fail")]),
        "{:#?}",
        run.flagged()
    );
    let detail = run.check("search.movetime")["detail"].as_str().unwrap();
    // The fault adds 1000 ms: a lower bound only (a loaded machine adds more).
    assert!(detail.contains("fail: p90 above 50 ms"), "{detail}");
}

#[test]
fn all_faults_at_once_are_each_found_and_nothing_else() {
    let run = fake("ponder-early,perft-wrong,uci-blank-line,crash-no-kings,movetime-overshoot");
    let expected = set(&[
        ("handshake.reply-lines", "warn"),
        ("search.go-infinite", "fail"),
        ("search.ponder-ponderhit", "fail"),
        ("search.ponder-stop", "fail"),
        ("search.movetime", "fail"),
        ("movegen.perft-kiwipete", "fail"),
        ("hostile.no-kings", "fail"),
    ]);
    assert_eq!(flagged(&run), expected, "{:#?}", run.flagged());
    assert_eq!(run.report["summary"]["fail"], 6);
}

#[test]
fn json_has_spec_14_shape() {
    let run = fake("");
    let r = &run.report;
    for key in ["engine", "checks", "summary"] {
        assert!(r.get(key).is_some(), "no {key}");
    }
    for c in r["checks"].as_array().unwrap() {
        for key in ["id", "group", "status", "detail", "transcript"] {
            assert!(c.get(key).is_some(), "{c} lacks {key}");
        }
        assert!(["pass", "warn", "fail", "skip"].contains(&c["status"].as_str().unwrap()));
        let id = c["id"].as_str().unwrap();
        assert!(
            id.starts_with(&format!("{}.", c["group"].as_str().unwrap())),
            "{id}"
        );
    }
    let groups: BTreeSet<&str> = r["checks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["group"].as_str().unwrap())
        .collect();
    assert_eq!(
        groups,
        ["chess960", "handshake", "hostile", "movegen", "search"].into()
    );
}

fn doctor_format(format: &str, faults: &str) -> (Option<i32>, String) {
    let out = Command::new(FENGUARD)
        .args(["doctor", "--quick", "--format", format, "--", FAKE_ENGINE])
        .env("FAKE_ENGINE_RULES", "1")
        .env("FAKE_ENGINE_FAULTS", faults)
        .output()
        .expect("run doctor");
    (
        out.status.code(),
        String::from_utf8(out.stdout).expect("UTF-8"),
    )
}

#[test]
fn text_report_card_lists_each_check_and_the_fails_at_the_end() {
    let (code, text) = doctor_format("text", "crash-no-kings");
    assert_eq!(code, Some(1));
    assert!(
        text.starts_with("fenguard doctor: FakeEngine (fenguard tests)"),
        "{text}"
    );
    assert!(text.contains("\n  pass  handshake.uci "), "{text}");
    let tail = text.split("\nsummary (quick, ").nth(1).expect("a summary");
    assert!(tail.contains("0 warn, 1 fail, 0 skip"), "{tail}");
    assert!(tail.contains("  fail hostile.no-kings: "), "{tail}");
    assert!(
        tail.contains("the engine does not survive: no-kings."),
        "{tail}"
    );
}

#[test]
fn html_report_is_one_self_contained_page() {
    let (code, html) = doctor_format("html", "perft-wrong");
    assert_eq!(code, Some(1));
    assert!(html.starts_with("<!DOCTYPE html>"), "{html}");
    assert!(html.contains("<td class=\"fail\">fail</td><td><code>movegen.perft-kiwipete</code>"));
    assert!(html.trim_end().ends_with("</html>"));
    // The failing position (Kiwipete) is drawn as the session report draws boards.
    assert!(html.contains("<svg class=\"board\""), "no board: {html}");
    assert!(
        !html.contains("src=") && !html.contains("http"),
        "external resources"
    );
}

#[test]
fn missing_engine_is_exit_2_with_one_line() {
    let out = Command::new(FENGUARD)
        .args(["doctor", "--", "/nonexistent/engine"])
        .output()
        .expect("run doctor");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.starts_with("fenguard doctor: "), "{err}");
    assert!(err.contains("/nonexistent/engine"), "{err}");
    assert!(out.stdout.is_empty());
}

#[test]
fn html_boards_have_their_svg_definitions_and_a_hostile_board_is_the_failing_line() {
    let (code, html) = doctor_format("html", "crash-no-kings");
    assert_eq!(code, Some(1));
    // The boards `use` the squares and the coordinates the page defines once.
    assert!(html.contains("fill=\"url(#sq)\""), "no board: {html}");
    assert!(
        html.contains("id=\"sq\"") && html.contains("id=\"c8x8\""),
        "{html}"
    );
    // hostile.no-kings: the king-less position that crashed it, not the marker before it.
    let row = html
        .split("<tr>")
        .find(|r| r.contains("<code>hostile.no-kings</code>"))
        .expect("the row");
    assert!(
        row.contains("<figcaption>8/8/8/8/8/8/8/8 w - - 0 1"),
        "{row}"
    );
    assert!(!row.contains("<figcaption>7k/8/8/8/8/8/8/K6N"), "{row}");
}
