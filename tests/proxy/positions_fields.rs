//! Rows R12–R18 of `shared/cases/public-reports.md` and issue 9's missing fields (R19) end to
//! end (en passant, missing and malformed fields, counters): the built fenguard in front of
//! real Stockfish, driven through pipes like a GUI. Under CI (`CI=true`) a missing Stockfish fails these tests.

use crate::common;

use common::{Gui, codes, rejected, repaired, starting_with};
use serde_json::Value;

/// The syntax group of SPEC section 7 (plus `trailing-slash`, which the FEN core adds).
const SYNTAX_CODES: [&str; 18] = [
    "empty-input",
    "missing-field",
    "extra-field",
    "too-many-ranks",
    "too-few-ranks",
    "rank-too-long",
    "rank-too-short",
    "unknown-piece",
    "bad-digit",
    "bad-active-color",
    "bad-castling-char",
    "duplicate-castling-right",
    "castling-order",
    "bad-ep-square",
    "bad-halfmove-clock",
    "bad-fullmove-number",
    "fullmove-zero",
    "trailing-slash",
];

#[test]
fn r12_ep_square_implying_an_impossible_check_is_dropped() {
    let Some(mut gui) = Gui::stockfish_ready("r12", "") else {
        return;
    };
    let (lines, _) = gui.expect_sent(
        "position fen k7/8/8/3pP3/8/7n/5K2/8 w - d6 0 1",
        "repaired",
        "position fen k7/8/8/3pP3/8/7n/5K2/8 w - - 0 1",
    );
    assert_eq!(
        starting_with(&lines, &repaired("impossible-check")).len(),
        1,
        "{lines:#?}"
    );
    let lines = gui.go("go depth 3");
    assert!(
        lines.last().unwrap().starts_with("bestmove f2"),
        "{lines:#?}"
    );
}

#[test]
fn r13_ep_square_without_the_pushed_pawn_is_dropped() {
    let Some(mut gui) = Gui::stockfish_ready("r13-no-pawn", "") else {
        return;
    };
    let (lines, _) = gui.expect_sent(
        "position fen rnbqkb1r/ppp3pp/3p1n2/3P4/8/2P5/PP3PPP/RNBQKB1R w KQkq e6",
        "repaired",
        "position fen rnbqkb1r/ppp3pp/3p1n2/3P4/8/2P5/PP3PPP/RNBQKB1R w KQkq - 0 1",
    );
    assert_eq!(
        starting_with(&lines, &repaired("ep-without-pawn")).len(),
        1,
        "{lines:#?}"
    );
}

#[test]
fn r13_ep_capture_exposing_the_king_is_not_sent() {
    let Some(mut gui) = Gui::stockfish_ready("r13-pinned", "") else {
        return;
    };
    gui.expect_sent(
        "position fen 8/5bk1/8/2Pp4/8/1K6/8/8 w - d6",
        "valid",
        "position fen 8/5bk1/8/2Pp4/8/1K6/8/8 w - - 0 1",
    );
}

/// Sends `raw` (R14); checks it is rejected with a syntax code whose message says what was
/// expected, and that `go` is answered `bestmove 0000`.
fn expect_syntax_rejection(name: &str, raw: &str) {
    let Some(mut gui) = Gui::stockfish_ready(name, "") else {
        return;
    };
    let (lines, record) = gui.position(raw);
    // One report per error; every one names a syntax code and says what was expected.
    let reports = starting_with(&lines, "info string fenguard: rejected position: ");
    assert!(!reports.is_empty(), "{lines:#?}");
    for report in &reports {
        let code = SYNTAX_CODES
            .iter()
            .find(|c| report.starts_with(&rejected(c)))
            .unwrap_or_else(|| panic!("not a syntax code: {report}"));
        assert!(report.contains("expected"), "{report}");
        assert!(
            codes(&record, "error").iter().any(|c| c == code),
            "{record}"
        );
    }
    assert_eq!(record["sent"], Value::Null, "{record}");
    assert_eq!(gui.go("go depth 1"), ["bestmove 0000"]);
}

#[test]
fn r14_fen_startpos_is_rejected_with_a_syntax_code() {
    expect_syntax_rejection("r14-startpos", "position fen startpos");
}

#[test]
fn r14_fen_blah_is_rejected_with_a_syntax_code() {
    expect_syntax_rejection("r14-blah", "position fen blah");
}

#[test]
fn r14_fen_1_is_rejected_with_a_syntax_code() {
    expect_syntax_rejection("r14-one", "position fen 1");
}

#[test]
fn r15_four_fields_and_empty_moves_get_counters_and_no_moves() {
    let Some(mut gui) = Gui::stockfish_ready("r15", "") else {
        return;
    };
    let (_, record) = gui.expect_sent(
        "position fen 5rk1/2p4p/2p4r/3P4/4p1b1/1Q2NqPp/PP3P1K/R4R2 b - - moves",
        "valid",
        "position fen 5rk1/2p4p/2p4r/3P4/4p1b1/1Q2NqPp/PP3P1K/R4R2 b - - 0 1",
    );
    assert_eq!(record["moves_out"], serde_json::json!([]), "{record}");
}

const R16_BOARD: &str = "r1bqkbnr/pp1ppppp/2n5/2p5/2P1PP2/8/PP1P2PP/RNBQKBNR";

#[test]
fn r16_four_fields_are_padded_with_counters() {
    let Some(mut gui) = Gui::stockfish_ready("r16-four", "") else {
        return;
    };
    let (_, record) = gui.expect_sent(
        &format!("position fen {R16_BOARD} b KQkq -"),
        "valid",
        &format!("position fen {R16_BOARD} b KQkq - 0 1"),
    );
    assert_eq!(codes(&record, "warning"), ["missing-field"], "{record}");
}

#[test]
fn r16_trailing_slash_and_fullmove_zero_are_repaired_with_warnings() {
    let Some(mut gui) = Gui::stockfish_ready("r16-slash", "") else {
        return;
    };
    let raw = format!("position fen {R16_BOARD}/ b KQkq - 0 0");
    gui.send(&raw);
    gui.sync();
    let record = gui.position_record(&raw);
    assert_eq!(
        record["sent"],
        format!("position fen {R16_BOARD} b KQkq - 0 1"),
        "{record}"
    );
    let warnings = codes(&record, "warning");
    assert_eq!(warnings.len(), 2, "{record}");
    assert!(warnings.contains(&"fullmove-zero".to_owned()), "{record}");
    assert!(codes(&record, "error").is_empty(), "{record}");
}

#[test]
fn r16_dash_counters_become_0_and_1() {
    let Some(mut gui) = Gui::stockfish_ready("r16-dashes", "") else {
        return;
    };
    let (lines, _) = gui.expect_sent(
        &format!("position fen {R16_BOARD} b KQkq - - -"),
        "repaired",
        &format!("position fen {R16_BOARD} b KQkq - 0 1"),
    );
    assert_eq!(
        starting_with(&lines, &repaired("bad-halfmove-clock")).len(),
        1,
        "{lines:#?}"
    );
    assert_eq!(
        starting_with(&lines, &repaired("bad-fullmove-number")).len(),
        1,
        "{lines:#?}"
    );
}

#[test]
fn r16_epd_operations_are_rejected_extra_field() {
    let Some(mut gui) = Gui::stockfish_ready("r16-epd", "") else {
        return;
    };
    let raw = format!("position fen {R16_BOARD} b KQkq - bm Kg2; id \"x\";");
    let (lines, record) = gui.position(&raw);
    assert_eq!(
        starting_with(&lines, &rejected("extra-field")).len(),
        1,
        "{lines:#?}"
    );
    assert_eq!(record["verdict"], "rejected", "{record}");
    assert_eq!(record["sent"], Value::Null, "{record}");
}

#[test]
fn r17_fullmove_zero_is_valid_with_a_warning_and_sent_as_1() {
    let Some(mut gui) = Gui::stockfish_ready("r17", "") else {
        return;
    };
    let (_, record) = gui.expect_sent(
        "position fen 3r4/p2nrpkp/2B1p3/2P2pP1/3R3Q/q7/6PP/6RK w - - 0 0",
        "valid",
        "position fen 3r4/p2nrpkp/2B1p3/2P2pP1/3R3Q/q7/6PP/6RK w - - 0 1",
    );
    assert_eq!(codes(&record, "warning"), ["fullmove-zero"], "{record}");
}

#[test]
fn r18_halfmove_clock_100_is_kept_with_a_warning() {
    let Some(mut gui) = Gui::stockfish_ready("r18-100", "") else {
        return;
    };
    let (_, record) = gui.expect_sent(
        "position fen 4kr2/8/8/8/8/8/8/3RK3 b - - 100 1",
        "valid",
        "position fen 4kr2/8/8/8/8/8/8/3RK3 b - - 100 1",
    );
    assert_eq!(codes(&record, "warning").len(), 1, "{record}");
    assert_eq!(record["final_fen"], "4kr2/8/8/8/8/8/8/3RK3 b - - 100 1");
}

#[test]
fn r18_halfmove_clock_99_is_kept_without_a_warning() {
    let Some(mut gui) = Gui::stockfish_ready("r18-99", "") else {
        return;
    };
    let (lines, record) = gui.expect_sent(
        "position fen 8/8/2p5/3b1K1k/4p3/4PpR1/5P2/8 w - - 99 113",
        "valid",
        "position fen 8/8/2p5/3b1K1k/4p3/4PpR1/5P2/8 w - - 99 113",
    );
    assert_eq!(record["diagnostics"], serde_json::json!([]), "{record}");
    assert!(
        starting_with(&lines, "info string fenguard:").is_empty(),
        "{lines:#?}"
    );
}

/// Issue 9 class 4: the en passant field is missing (`w - 0 120`); the counters stay where they
/// are (halfmove clock 0, fullmove number 120), not shifted into a fifty-move draw.
#[test]
fn r19_missing_ep_field_keeps_the_counters_in_place() {
    let Some(mut gui) = Gui::stockfish_ready("r19-missing-ep", "") else {
        return;
    };
    let (lines, record) = gui.expect_sent(
        "position fen 4k3/8/8/8/8/8/8/Q3K3 w - 0 120",
        "valid",
        "position fen 4k3/8/8/8/8/8/8/Q3K3 w - - 0 120",
    );
    assert_eq!(codes(&record, "warning"), ["missing-field"], "{record}");
    let warning = starting_with(&lines, "info string fenguard: warning: missing-field: ");
    assert_eq!(warning.len(), 1, "{lines:#?}");
    assert!(warning[0].contains("missing en passant"), "{lines:#?}");
    // KQ vs K: Stockfish sees no fifty-move draw; it finds a winning score.
    let lines = gui.go("go depth 12");
    let last_score = lines
        .iter()
        .rev()
        .find_map(|l| l.split(" score ").nth(1))
        .expect("a score");
    assert!(
        last_score.starts_with("mate ")
            || last_score
                .strip_prefix("cp ")
                .and_then(|s| s.split(' ').next()?.parse::<i32>().ok())
                .is_some_and(|cp| cp > 500),
        "score {last_score}: {lines:#?}"
    );
}

/// Issue 9 class 4: a lone counter after the en passant field could be either counter: the
/// position is rejected, and `go` answered `bestmove 0000`.
#[test]
fn r19_lone_counter_is_rejected_as_ambiguous() {
    let Some(mut gui) = Gui::stockfish_ready("r19-lone-counter", "") else {
        return;
    };
    let (lines, record) = gui.position("position fen 4k3/8/8/8/8/8/8/Q3K3 w - - 120");
    assert_eq!(record["verdict"], "rejected", "{record}");
    assert_eq!(record["sent"], Value::Null, "{record}");
    let report = starting_with(&lines, &rejected("missing-field"));
    assert_eq!(report.len(), 1, "{lines:#?}");
    assert!(
        report[0].contains("`120` reads as the halfmove clock or the fullmove number"),
        "{lines:#?}"
    );
    assert_eq!(gui.go("go depth 1"), ["bestmove 0000"]);
}
