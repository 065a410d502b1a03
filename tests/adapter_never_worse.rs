//! Issue 21, "never worse: fix these first", through the binary: what a GUI sees for
//! `bestmove ... ponder 0000` and for `go searchmoves 0000`; `fenguard check` on two stepping
//! checkers.

mod common;

use common::Gui;
use common::check::{check, stdout};

#[test]
fn ponder_0000_reaches_the_gui_unjudged() {
    let mut gui = Gui::fake(
        "nw-ponder-0000",
        "",
        &[("FAKE_ENGINE_BESTMOVE", "e2e4 ponder 0000")],
    );
    gui.handshake();
    gui.position("position startpos");
    let lines = gui.go("go depth 1");
    assert_eq!(lines, ["bestmove e2e4 ponder 0000"], "{lines:#?}");
    let search = gui.wait_record(|r| r["kind"] == "search");
    assert_eq!(search["diagnostics"], serde_json::json!([]), "{search}");
    assert_eq!(search["ponder"], "0000", "{search}");
}

#[test]
fn searchmoves_0000_is_answered_as_stockfish_answers_it() {
    let Some(mut gui) = Gui::stockfish_ready("nw-searchmoves-0000", "") else {
        return;
    };
    gui.position("position startpos");
    // Stockfish 15.1 alone: `info depth 0 score cp 0`, `bestmove (none)`.
    let lines = gui.go("go depth 1 searchmoves 0000");
    assert_eq!(lines.last().map(String::as_str), Some("bestmove (none)"));
    assert!(!lines.iter().any(|l| l.contains("fenguard")), "{lines:#?}");
    let lines = gui.go("go depth 2 searchmoves 0000 e2e4");
    assert_eq!(
        lines.last().map(String::as_str),
        Some("bestmove e2e4"),
        "{lines:#?}"
    );
    assert!(!lines.iter().any(|l| l.contains("fenguard")), "{lines:#?}");
}

#[test]
fn check_calls_two_stepping_checkers_impossible_in_chess_as_in_variants() {
    for variant in ["chess", "3check", "kingofthehill"] {
        let o = check(
            &[
                "--variant",
                variant,
                "--format",
                "json",
                "8/8/N7/2k5/N7/8/8/3K4 b - - 0 1",
            ],
            "",
        );
        assert_eq!(o.status.code(), Some(1), "{variant}: {}", stdout(&o));
        let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).expect("json");
        assert_eq!(v["valid"], false, "{variant}: {v}");
        assert_eq!(
            v["diagnostics"][0]["code"], "impossible-check",
            "{variant}: {v}"
        );
    }
}

/// Issue 21: an unknown `--verdict` / `--kind` is a usage error naming the accepted values,
/// not an empty listing.
#[test]
fn log_filters_refuse_unknown_values_as_usage_errors() {
    let dir = common::test_dir("nw-log-filters");
    let file = dir.join("positions.jsonl");
    std::fs::write(&file, "").expect("empty log");
    for (flag, accepted) in [
        (
            "--verdict",
            "valid, repaired, rejected, forwarded-invalid, unchecked",
        ),
        (
            "--kind",
            "position, search, engine-start, engine-exit, chess960-enabled",
        ),
    ] {
        let o = std::process::Command::new(common::FENGUARD)
            .args(["log", file.to_str().expect("UTF-8"), flag, "bogus"])
            .output()
            .expect("fenguard log");
        assert_eq!(o.status.code(), Some(2), "{flag}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains("invalid value 'bogus'"), "{flag}: {err}");
        assert!(err.contains(accepted), "{flag}: {err}");
        assert!(o.stdout.is_empty(), "{flag}");
    }
}
