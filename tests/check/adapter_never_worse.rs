//! Issue 21, "never worse: fix these first", through the binary: what a GUI sees for
//! `bestmove ... ponder 0000` and for `go searchmoves 0000`; `fenguard check` on two stepping
//! checkers.

use crate::common;

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

/// Issue 21: a stale right on an inner rook is valid under Chess960 but repaired by the proxy in
/// a standard game: `check` says both (human and JSON; the existing JSON names unchanged).
#[test]
fn check_gives_both_verdicts_when_the_mode_decides() {
    let fen = "r3k2r/8/8/8/8/8/8/R3K1R1 w Gkq - 0 1";
    let o = check(&["--format", "json", fen], "");
    assert_eq!(o.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).expect("json");
    assert_eq!(v["valid"], true, "{v}");
    assert_eq!(v["fen"], "r3k2r/8/8/8/8/8/8/R3K1R1 w Kkq - 0 1", "{v}");
    assert_eq!(v["chess960"], true, "{v}");
    assert_eq!(v["standard_valid"], false, "{v}");
    assert_eq!(v["standard_repaired"], true, "{v}");
    assert_eq!(
        v["standard_fen"], "r3k2r/8/8/8/8/8/8/R3K1R1 w kq - 0 1",
        "{v}"
    );
    assert_eq!(
        v["standard_codes"],
        serde_json::json!(["castling-needs-chess960"]),
        "{v}"
    );
    let o = check(&["--board", "never", fen], "");
    assert_eq!(
        stdout(&o),
        "line 1: valid: r3k2r/8/8/8/8/8/8/R3K1R1 w Kkq - 0 1\n  in a standard game \
         (UCI_Chess960 off): repaired: r3k2r/8/8/8/8/8/8/R3K1R1 w kq - 0 1 \
         (castling-needs-chess960)\n"
    );
    // Four rights of one kind name their code once.
    let o = check(
        &[
            "--board",
            "never",
            "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1",
        ],
        "",
    );
    assert!(
        stdout(&o).ends_with(" (castling-needs-chess960)\n"),
        "{}",
        stdout(&o)
    );
    // No mode decides a standard position: no extra fields.
    let o = check(&["--format", "json", "4k3/8/8/8/8/8/8/4K2R w K - 0 1"], "");
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).expect("json");
    assert!(v.get("standard_valid").is_none(), "{v}");
}

/// `--perft` for the 8x8 variants (it was a usage error): python-chess 1.11.2's counts by
/// recursion over `legal_moves`.
#[test]
fn check_perft_works_for_the_8x8_variants() {
    for (variant, fen, depth, nodes) in [
        (
            "racingkings",
            "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1",
            "3",
            11264,
        ),
        (
            "crazyhouse",
            "rnbqkbnr/ppp1pppp/8/3P4/8/8/PPPP1PPP/RNBQKBNR[P] b KQkq - 0 2",
            "3",
            52302,
        ),
        (
            "atomic",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "3",
            8902,
        ),
    ] {
        let o = check(
            &[
                "--variant",
                variant,
                "--format",
                "json",
                "--perft",
                depth,
                fen,
            ],
            "",
        );
        assert_eq!(o.status.code(), Some(0), "{variant}: {}", stdout(&o));
        let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).expect("json");
        assert_eq!(v["perft"], nodes, "{variant}: {v}");
    }
}

/// Issue 21: `--legal-moves` and `--perft` for chess, as for the 10x8 variants.
#[test]
fn check_legal_moves_and_perft_work_for_chess() {
    let o = check(
        &[
            "--format",
            "json",
            "--legal-moves",
            "--perft",
            "3",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).expect("json");
    assert_eq!(v["perft"], 8902, "{v}");
    let moves = v["legal_moves"].as_array().expect("legal moves");
    assert_eq!(moves.len(), 20);
    assert!(moves.contains(&serde_json::json!([
        "e2e4",
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    ])));
    let o = check(
        &[
            "--format",
            "json",
            "--legal-moves",
            "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
        ],
        "",
    );
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).expect("json");
    let moves = v["legal_moves"].as_array().expect("legal moves");
    assert!(moves.contains(&serde_json::json!([
        "e1g1",
        "4k3/8/8/8/8/8/8/5RK1 b - - 1 1"
    ])));
}

/// `--legal-moves` prints a `moves:` line in the human and fen formats for the 10x8 variants
/// too (it did for the 8x8 ones only), the same moves as the JSON list.
#[test]
fn check_legal_moves_line_for_10x8_matches_the_json_list() {
    let fen = "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1";
    let base = ["--variant", "capablanca", "--legal-moves"];
    let json = check(&[&base[..], &["--format", "json", fen]].concat(), "");
    let v: serde_json::Value = serde_json::from_str(stdout(&json).trim()).expect("json");
    let listed: Vec<&str> = v["legal_moves"]
        .as_array()
        .expect("legal moves")
        .iter()
        .map(|m| m[0].as_str().unwrap())
        .collect();
    assert_eq!(listed.len(), 28);
    for format in ["human", "fen"] {
        let o = check(&[&base[..], &["--format", format, fen]].concat(), "");
        let line = stdout(&o)
            .lines()
            .find_map(|l| l.strip_prefix("moves: ").map(str::to_owned))
            .unwrap_or_else(|| panic!("{format}: {}", stdout(&o)));
        assert_eq!(line.split(' ').collect::<Vec<_>>(), listed, "{format}");
    }
}
