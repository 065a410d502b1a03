//! `fenguard check --variant NAME` for the 10x8 variants, as a process: formats, repair,
//! exit statuses, diagnostics in the board's own terms; `needs-variant` on the chess path.

use crate::common;

use std::process::Output;

use common::check::check;

fn json(o: &Output) -> Vec<serde_json::Value> {
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object a line"))
        .collect()
}

const CAPA: &str = "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1";

#[test]
fn capablanca_start_position_is_valid_in_every_format() {
    let o = check(&["--variant", "capablanca", "--format", "fen", CAPA], "");
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&o.stdout), format!("{CAPA}\n"));
    let o = check(&["--variant", "Capablanca", "--format", "json", CAPA], "");
    let rec = &json(&o)[0];
    assert_eq!(rec["valid"], true);
    assert_eq!(rec["fen"], CAPA);
    assert_eq!(rec["variant"], "capablanca");
    assert_eq!(rec["chess960"], false);
    let o = check(&["--variant", "capablanca", CAPA], "");
    assert_eq!(
        String::from_utf8_lossy(&o.stdout),
        format!("line 1: valid: {CAPA}\n")
    );
}

#[test]
fn a_rank_of_nine_squares_is_one_error_in_the_boards_terms() {
    let fen = "rnabqkbcnr/ppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1";
    let o = check(&["--variant", "capablanca", "--format", "json", fen], "");
    assert_eq!(o.status.code(), Some(1));
    let rec = &json(&o)[0];
    assert_eq!(rec["valid"], false);
    assert_eq!(rec["fen"], serde_json::Value::Null);
    let diags = rec["diagnostics"].as_array().unwrap();
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert_eq!(diags[0]["code"], "rank-too-short");
    assert_eq!(diags[0]["message"], "rank 7 has 9 squares, expected 10");
    assert_eq!(diags[0]["span"], serde_json::json!([11, 20]));
}

#[test]
fn a_count_of_eleven_is_a_bad_digit_and_ten_is_one_count() {
    let fen = "rnabqkbcnr/pppppppppp/11/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1";
    let o = check(&["--variant", "gothic", "--format", "json", fen], "");
    let rec = &json(&o)[0];
    let codes: Vec<&str> = rec["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap())
        .collect();
    // Gothic's array differs from Capablanca's only in where the pieces stand: the placement
    // is read, and only the count is wrong.
    assert_eq!(codes, ["bad-digit"]);
    assert_eq!(rec["diagnostics"][0]["span"], serde_json::json!([22, 24]));
}

#[test]
fn the_seeds_castling_prefixes_are_unsupported() {
    for (field, at) in [("sKQkq", 58), ("mKQ", 58)] {
        let fen =
            format!("rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w {field} - 0 1");
        let o = check(&["--variant", "capablanca", "--format", "json", &fen], "");
        let rec = &json(&o)[0];
        assert_eq!(rec["diagnostics"][0]["code"], "unsupported-castling-prefix");
        assert_eq!(
            rec["diagnostics"][0]["span"],
            serde_json::json!([at, at + 1])
        );
        assert_eq!(o.status.code(), Some(1));
    }
}

#[test]
fn repair_drops_a_castling_right_without_its_rook_and_exits_0() {
    let fen = "rnabqkbcn1/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1";
    let o = check(
        &[
            "--variant",
            "capablanca",
            "--format",
            "json",
            "--repair",
            fen,
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(0));
    let rec = &json(&o)[0];
    assert_eq!(rec["valid"], false);
    assert_eq!(rec["repaired"], true);
    assert_eq!(
        rec["fen"],
        "rnabqkbcn1/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQq - 0 1"
    );
    assert_eq!(rec["diagnostics"][0]["code"], "castling-without-rook");
    let o = check(&["--variant", "capablanca", "--format", "fen", fen], "");
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(String::from_utf8_lossy(&o.stdout), "invalid\n");
}

#[test]
fn caparandom_rights_are_written_as_shredder_fen_or_x_fen() {
    let fen = "rbqnkcnabr/pppppppppp/10/10/10/10/PPPPPPPPPP/RBQNKCNABR w KQkq - 0 1";
    let o = check(
        &[
            "--variant",
            "caparandom",
            "--format",
            "fen",
            "--castling",
            "shredder",
            fen,
        ],
        "",
    );
    assert_eq!(
        String::from_utf8_lossy(&o.stdout),
        "rbqnkcnabr/pppppppppp/10/10/10/10/PPPPPPPPPP/RBQNKCNABR w JAja - 0 1\n"
    );
    // An inner rook's right is its file letter in X-FEN.
    let inner = "4k4r/10/10/10/10/10/10/R3K1R2R w GQ - 0 1";
    let o = check(&["--variant", "caparandom", "--format", "fen", inner], "");
    assert_eq!(String::from_utf8_lossy(&o.stdout), format!("{inner}\n"));
}

#[test]
fn standard_rules_refuse_a_right_only_chess960_allows() {
    let fen = "4k4r/10/10/10/10/10/10/R3K4R w K - 0 1"; // capablanca's king starts on f1
    let o = check(
        &[
            "--variant",
            "capablanca",
            "--format",
            "json",
            "--standard",
            fen,
        ],
        "",
    );
    let rec = &json(&o)[0];
    assert_eq!(rec["diagnostics"][0]["code"], "castling-needs-chess960");
    let o = check(&["--variant", "capablanca", "--format", "json", fen], "");
    let rec = &json(&o)[0];
    assert_eq!(rec["valid"], true);
    assert_eq!(rec["chess960"], true);
}

#[test]
fn en_passant_is_written_by_mode() {
    // After e2e4 d7d5 e4e5 f7f5: the e5 pawn can take on f6.
    let fen = "rnabqkbcnr/ppp1p1pppp/10/3pPp4/10/10/PPPP1PPPPP/RNABQKBCNR w KQkq f6 0 3";
    let o = check(&["--variant", "capablanca", "--format", "fen", fen], "");
    assert_eq!(String::from_utf8_lossy(&o.stdout), format!("{fen}\n"));
    // After e2e4 nobody can take: kept only by `--ep fen`.
    let fen = "rnabqkbcnr/pppppppppp/10/10/4P5/10/PPPP1PPPPP/RNABQKBCNR b KQkq e3 0 1";
    let o = check(&["--variant", "capablanca", "--format", "fen", fen], "");
    assert_eq!(
        String::from_utf8_lossy(&o.stdout),
        "rnabqkbcnr/pppppppppp/10/10/4P5/10/PPPP1PPPPP/RNABQKBCNR b KQkq - 0 1\n"
    );
    let o = check(
        &[
            "--variant",
            "capablanca",
            "--format",
            "fen",
            "--ep",
            "fen",
            fen,
        ],
        "",
    );
    assert_eq!(String::from_utf8_lossy(&o.stdout), format!("{fen}\n"));
}

#[test]
fn janus_reads_j_and_refuses_a_and_c() {
    let janus = "rjnbkqbnjr/pppppppppp/10/10/10/10/PPPPPPPPPP/RJNBKQBNJR w KQkq - 0 1";
    let o = check(&["--variant", "janus", "--format", "fen", janus], "");
    assert_eq!(o.status.code(), Some(0));
    let o = check(&["--variant", "janus", "--format", "json", CAPA], "");
    let rec = &json(&o)[0];
    assert_eq!(rec["diagnostics"][0]["code"], "unknown-piece");
    assert!(
        rec["diagnostics"][0]["message"]
            .as_str()
            .unwrap()
            .contains("is no janus piece")
    );
}

#[test]
fn a_10x8_fen_under_chess_is_one_needs_variant_error() {
    let o = check(&["--format", "json", CAPA], "");
    assert_eq!(o.status.code(), Some(1));
    let rec = &json(&o)[0];
    let diags = rec["diagnostics"].as_array().unwrap();
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert_eq!(diags[0]["code"], "needs-variant");
    assert!(diags[0]["message"].as_str().unwrap().contains("capablanca"));
}

#[test]
fn unmodelled_variants_are_usage_errors_and_8x8_variants_refuse_a_10x8_board() {
    let o = check(&["--variant", "shogi", CAPA], "");
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("invalid value 'shogi' for '--variant <NAME>'")
    );
    // atomic is modelled (8x8): a 10x8 FEN is an invalid position there, not a usage error.
    let o = check(&["--variant", "atomic", CAPA], "");
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stdout).contains("needs-variant"));
}

#[test]
fn legal_moves_debug_output_lists_castles_in_the_variants_notation() {
    let fen = "r3k4r/10/10/10/10/10/10/R3K4R w KQkq - 0 1";
    let o = check(
        &[
            "--variant",
            "embassy",
            "--format",
            "json",
            "--legal-moves",
            fen,
        ],
        "",
    );
    let moves: Vec<String> = json(&o)[0]["legal_moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m[0].as_str().unwrap().to_owned())
        .collect();
    assert!(moves.contains(&"e1h1".to_owned()) && moves.contains(&"e1b1".to_owned()));
    let o = check(
        &[
            "--variant",
            "caparandom",
            "--format",
            "json",
            "--legal-moves",
            fen,
        ],
        "",
    );
    let moves: Vec<String> = json(&o)[0]["legal_moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m[0].as_str().unwrap().to_owned())
        .collect();
    assert!(moves.contains(&"e1j1".to_owned()) && moves.contains(&"e1a1".to_owned()));
}

/// Missing fields are read by their shape, as for chess (README "Missing fields"): a value never
/// moves into another field's place. Before, the 10x8 reader took fields by their count, so
/// `w - 0 120` was read with `0` as the en passant square and `120` as the halfmove clock, and
/// `--repair` turned a game at move 120 into one whose fifty-move draw can be claimed.
#[test]
fn missing_fields_are_read_by_their_shape_as_for_chess() {
    let board = "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR";
    let cases = [
        // (after the placement, valid, repaired FEN's tail or None when refused)
        ("w - 0 120", true, Some("w - - 0 120")),
        ("w KQkq -", true, Some("w KQkq - 0 1")),
        ("w KQkq - 0", true, Some("w KQkq - 0 1")),
        ("w KQkq - 7", false, None),
        ("b e3 KQ 0", false, None),
        ("KQkq - 0 1", false, None),
    ];
    for (tail, valid, repaired) in cases {
        let fen = format!("{board} {tail}");
        for variant in ["capablanca", "gothic", "embassy"] {
            let o = check(
                &["--variant", variant, "--format", "json", "--repair", &fen],
                "",
            );
            let rec = &json(&o)[0];
            assert_eq!(
                rec["valid"] == true || rec["repaired"] == true,
                valid,
                "{variant} {fen}: {rec}"
            );
            match repaired {
                Some(want) => assert_eq!(rec["fen"], format!("{board} {want}"), "{variant} {fen}"),
                None => {
                    assert!(rec["fen"].is_null(), "{variant} {fen}: {rec}");
                    assert!(
                        rec["diagnostics"]
                            .as_array()
                            .unwrap()
                            .iter()
                            .any(|d| d["code"] == "missing-field" && d["severity"] == "error"),
                        "{variant} {fen}: {rec}"
                    );
                }
            }
        }
    }
}
