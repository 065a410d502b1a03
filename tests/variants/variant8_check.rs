//! `fenguard check --variant NAME` for the 8x8 variants, as a process: the three formats,
//! `--repair`, `--legal-moves`, exit statuses, one output line per input line.

use crate::common;

use std::process::Output;

use common::check::{check, stdout};

fn json_lines(o: &Output) -> Vec<serde_json::Value> {
    stdout(o)
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object a line"))
        .collect()
}

#[test]
fn crazyhouse_fen_format_normalizes_pockets_and_keeps_line_count() {
    let input = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/Pp w KQkq - 0 1\n\n4k3/8/8/8/8/8/8/4K3[Qx] w - - 0 1\n";
    let o = check(&["--variant", "crazyhouse", "--format", "fen", "-"], input);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stdout(&o),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Pp] w KQkq - 0 1\ninvalid\ninvalid\n"
    );
}

#[test]
fn json_carries_variant_diagnostics_and_legal_moves_with_drops() {
    let o = check(
        &[
            "--variant",
            "crazyhouse",
            "--format",
            "json",
            "--legal-moves",
            "4k3/8/8/8/8/8/8/4K3[n] b - - 0 1",
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(0));
    let records = json_lines(&o);
    assert_eq!(records.len(), 1);
    let r = &records[0];
    assert_eq!(r["variant"], "crazyhouse");
    assert_eq!(r["valid"], true);
    assert_eq!(r["fen"], "4k3/8/8/8/8/8/8/4K3[n] b - - 0 1");
    let moves: Vec<&str> = r["legal_moves"]
        .as_array()
        .expect("legal_moves")
        .iter()
        .map(|m| m.as_str().expect("string"))
        .collect();
    assert!(moves.contains(&"N@e2"), "{moves:?}");
    assert!(moves.contains(&"e8d7"), "{moves:?}");
    assert_eq!(moves.len(), 5 + 62, "{moves:?}");
}

#[test]
fn three_check_json_reports_the_bad_counter_span() {
    let input = "4k3/8/8/8/8/8/8/4K3 w - - 4+3 0 1";
    let o = check(&["--variant", "3check", "--format", "json", input], "");
    assert_eq!(o.status.code(), Some(1));
    let r = &json_lines(&o)[0];
    assert_eq!(r["valid"], false);
    assert_eq!(r["fen"], serde_json::Value::Null);
    assert_eq!(r["diagnostics"][0]["code"], "bad-check-counters");
    assert_eq!(r["diagnostics"][0]["span"], serde_json::json!([26, 29]));
}

#[test]
fn repair_drops_antichess_castling_rights_and_exits_0() {
    let input = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let plain = check(&["--variant", "antichess", "--format", "fen", input], "");
    assert_eq!(plain.status.code(), Some(1));
    assert_eq!(stdout(&plain), "invalid\n");
    let o = check(
        &[
            "--variant",
            "antichess",
            "--repair",
            "--format",
            "json",
            input,
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(0));
    let r = &json_lines(&o)[0];
    assert_eq!(r["valid"], false);
    assert_eq!(r["repaired"], true);
    assert_eq!(
        r["fen"],
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"
    );
    assert_eq!(r["diagnostics"][0]["code"], "variant-rule");
}

#[test]
fn human_format_puts_carets_under_a_racing_kings_check() {
    let input = "8/8/8/8/8/8/k6R/7K b - - 0 1";
    let o = check(&["--variant", "racingkings", "--board", "never", input], "");
    assert_eq!(o.status.code(), Some(1));
    let text = stdout(&o);
    assert!(
        text.starts_with("line 1 (racingkings): invalid\n  error[variant-rule]: a king is in check; in racingkings no move may give check\n"),
        "{text}"
    );
    assert!(text.ends_with("   | ^^^^^^^^^^^^^^^^^^\n"), "{text}");
}

#[test]
fn horde_without_white_king_is_valid_where_chess_refuses_it() {
    let input = "4k3/8/8/8/8/8/PPPPPPPP/PPPPPPPP w - - 0 1";
    let horde = check(&["--variant", "horde", "--format", "fen", input], "");
    assert_eq!(horde.status.code(), Some(0));
    assert_eq!(stdout(&horde), format!("{input}\n"));
    let chess = check(&["--format", "fen", input], "");
    assert_eq!(chess.status.code(), Some(1));
    assert_eq!(stdout(&chess), "invalid\n");
}

#[test]
fn shredder_castling_and_standard_notation_moves() {
    let input = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    let o = check(
        &[
            "--variant",
            "atomic",
            "--castling",
            "shredder",
            "--standard",
            "--legal-moves",
            "--format",
            "fen",
            input,
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(0));
    let text = stdout(&o);
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1"));
    let moves = lines.next().expect("moves line");
    assert!(moves.starts_with("moves: "), "{moves}");
    assert!(moves.split(' ').any(|m| m == "e1g1"), "{moves}");
    assert!(!moves.split(' ').any(|m| m == "e1h1"), "{moves}");
}

/// Issue 21: cutechess writes an empty crazyhouse pocket `[-]`; `check` reads it as `[]`.
#[test]
fn crazyhouse_cutechess_dash_pocket_is_valid_and_written_empty() {
    let o = check(
        &[
            "--variant",
            "crazyhouse",
            "--format",
            "fen",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[-] w KQkq - 0 1",
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert_eq!(
        stdout(&o),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1\n"
    );
}
