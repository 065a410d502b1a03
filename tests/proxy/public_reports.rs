//! Every row of `shared/cases/public-reports.md` (R01–R18, and issue 9's missing fields, R19)
//! end to end, as one table: the built fenguard in front of real Stockfish, driven through pipes
//! like a GUI. A case is the GUI's `position` line (after a config and `UCI_Chess960`), the
//! record fenguard logs for it (verdict, the line sent to the engine, final FEN, codes), the
//! `info string` reports the GUI reads, and the answer to a `go`; a few cases add assertions of
//! their own. The same rows are asserted on the FEN core alone (`tests/fen/fen_reports.rs`)
//! and on the session without I/O (`src/session/tests/reports.rs`); this layer checks the
//! wiring: what reaches Stockfish and the GUI. Under CI (`CI=true`) a missing Stockfish fails.

use std::panic::{AssertUnwindSafe, catch_unwind};

use crate::common::{
    self, Gui, STARTPOS, assert_legal_bestmove, bestmove_of, codes, pv_of, rejected, repaired,
    require_stockfish, starting_with,
};
use serde_json::{Value, json};

/// A count of GUI lines read after the `position` line.
enum Report {
    /// `info string fenguard: rejected position: CODE...`
    Rejected(&'static str),
    /// `info string fenguard: repaired position: CODE...`
    Repaired(&'static str),
    /// Lines starting with this text.
    Prefix(&'static str),
}

/// The `go` after the position, and what answers it.
enum Go {
    /// No `go`.
    No,
    /// Answered with exactly `bestmove 0000` (a rejected position).
    Nothing(&'static str),
    /// A legal move of the FEN (castles in king-takes-rook form when the flag is set).
    Legal(&'static str, &'static str, bool),
    /// This very bestmove.
    Bestmove(&'static str, &'static str),
    /// A bestmove starting with this text.
    BestmoveFrom(&'static str, &'static str),
}

/// The record's `sent`: the line forwarded to the engine.
enum Sent {
    /// Not asserted.
    Any,
    /// Nothing forwarded (`null`).
    Nothing,
    Line(&'static str),
}

/// What a case saw: the GUI lines after `position`, its record, the `go` answer.
struct Seen {
    lines: Vec<String>,
    record: Value,
    go: Vec<String>,
}

/// One case of a row.
struct Case {
    /// The row and what it shows (the name its test had before the table).
    name: &'static str,
    /// `fenguard.toml` (empty: the defaults).
    config: &'static str,
    /// `setoption name UCI_Chess960 value true` first.
    chess960: bool,
    position: &'static str,
    /// The record's `verdict` (`None`: not asserted).
    verdict: Option<&'static str>,
    /// The record's `sent`.
    sent: Sent,
    final_fen: Option<&'static str>,
    reports: &'static [(Report, usize)],
    /// The record's warning codes, exactly.
    warnings: Option<&'static [&'static str]>,
    /// Codes among the record's errors.
    errors: &'static [&'static str],
    go: Go,
    /// The case's own assertions, last.
    more: Option<fn(&mut Gui, &Seen)>,
}

/// A case's defaults: every field not given is not asserted.
const CASE: Case = Case {
    name: "",
    config: "",
    chess960: false,
    position: "",
    verdict: None,
    sent: Sent::Any,
    final_fen: None,
    reports: &[],
    warnings: None,
    errors: &[],
    go: Go::No,
    more: None,
};

const DETECT: &str = "[positions]\nchess960 = \"detect\"\n";
const NO_REJECTION: (Report, usize) = (Report::Prefix("info string fenguard: rejected"), 0);
const NO_REPORT: (Report, usize) = (Report::Prefix("info string fenguard:"), 0);

const R01: &str = "position fen 4k3/8/8/8/8/8/8/8 w - - 0 1";
const R07: &str = "position fen 4rkr1/4p1p1/8/8/8/8/8/5K1R w K - 0 1";
const R08_FINAL: &str = "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 5 1";
const R10: &str = "position startpos moves e2e4 e7e6 d2d4 d7d5 c1e3 d5e4 b1d2 g8f6 c2c3 f8e7 \
                   d1c2 f6d5 d2e4 f7f5 e4g3 f5f4 e3d2 f4g3 h2g3 g7g6";

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

/// R14: every report names a syntax code the record lists as an error, and says what was
/// expected.
fn syntax_reports(_: &mut Gui, seen: &Seen) {
    let reports = starting_with(&seen.lines, "info string fenguard: rejected position: ");
    assert!(!reports.is_empty(), "{:#?}", seen.lines);
    for report in &reports {
        let code = SYNTAX_CODES
            .iter()
            .find(|c| report.starts_with(&rejected(c)))
            .unwrap_or_else(|| panic!("not a syntax code: {report}"));
        assert!(report.contains("expected"), "{report}");
        assert!(
            codes(&seen.record, "error").iter().any(|c| c == code),
            "{}",
            seen.record
        );
    }
}

/// The table. Cases of one row and one config that the tests before the table ran on separate
/// fenguards (R01, R03, R05, R07 detect, R08, R10) are one case here: one position, every
/// assertion of each.
const CASES: &[Case] = &[
    Case {
        name: "r01_missing_king_is_rejected_go_answered_0000_and_the_engine_survives",
        position: R01,
        sent: Sent::Nothing,
        verdict: Some("rejected"),
        reports: &[(Report::Rejected("missing-king"), 1)],
        errors: &["missing-king"],
        go: Go::Nothing("go depth 1"),
        more: Some(|gui, _| {
            gui.expect_sent(
                "position startpos moves e2e4",
                "valid",
                "position startpos moves e2e4",
            );
            let lines = gui.go("go depth 5");
            assert_legal_bestmove(&lines, STARTPOS, &["e2e4"], false);
            assert!(
                lines.iter().any(|l| l.starts_with("info depth 5 ")),
                "the engine searched: {lines:#?}"
            );
        }),
        ..CASE
    },
    Case {
        name: "r02_side_not_to_move_in_check_is_rejected_opposite_check",
        position: "position fen 5k1r/2q3p1/p3p2p/1B3p1Q/n4P2/6P1/bbP2N1P/1K1RR3 b - - 0 1",
        sent: Sent::Nothing,
        verdict: Some("rejected"),
        reports: &[(Report::Rejected("opposite-check"), 1)],
        errors: &["opposite-check"],
        go: Go::Nothing("go depth 1"),
        ..CASE
    },
    Case {
        name: "r03_rights_of_missing_kings_and_rooks_are_dropped_and_the_position_searched",
        position: "position fen 2k5/8/3K4/1p6/p7/P7/1B6/8 b KQkq - 0 1 moves",
        verdict: Some("repaired"),
        sent: Sent::Line("position fen 2k5/8/3K4/1p6/p7/P7/1B6/8 b - - 0 1"),
        // K and k have no rook on h1/h8 (errors, repaired); Q and q have no rook at all on
        // their side (warnings: the right is ignored).
        reports: &[(Report::Repaired("castling-without-rook"), 2)],
        go: Go::Legal("go depth 5", "2k5/8/3K4/1p6/p7/P7/1B6/8 b - - 0 1", false),
        more: Some(|_, seen| {
            let reports = seen
                .lines
                .iter()
                .filter(|l| {
                    l.starts_with("info string fenguard: ") && l.contains(": castling-without-")
                })
                .count();
            assert_eq!(
                reports, 4,
                "one report per dropped right: {:#?}",
                seen.lines
            );
        }),
        ..CASE
    },
    Case {
        name: "r04_right_whose_rook_square_holds_a_bishop_is_dropped",
        position: "position fen 3qk1nb/1p3p2/p1r1p1p1/3p4/3P4/2N1BP2/PPPQ1P2/R3K3 w Qk - 0 15",
        verdict: Some("repaired"),
        sent: Sent::Line(
            "position fen 3qk1nb/1p3p2/p1r1p1p1/3p4/3P4/2N1BP2/PPPQ1P2/R3K3 w Q - 0 15",
        ),
        reports: &[(Report::Repaired("castling-without-rook"), 1)],
        ..CASE
    },
    Case {
        // The engine answers `go` (one engine never did).
        name: "r05_right_whose_rook_square_holds_a_white_queen_is_dropped",
        position: "position fen rnb1kb1Q/1p1qp2p/p3p1p1/2pp4/8/8/PPPP1PPP/RNB1K1NR b KQkq - 1 10",
        verdict: Some("repaired"),
        sent: Sent::Line(
            "position fen rnb1kb1Q/1p1qp2p/p3p1p1/2pp4/8/8/PPPP1PPP/RNB1K1NR b KQq - 1 10",
        ),
        reports: &[(Report::Repaired("castling-without-rook"), 1)],
        go: Go::Legal(
            "go depth 3",
            "rnb1kb1Q/1p1qp2p/p3p1p1/2pp4/8/8/PPPP1PPP/RNB1K1NR b KQq - 1 10",
            false,
        ),
        ..CASE
    },
    Case {
        name: "r06_chess960_q_is_the_b1_rook_and_is_sent_in_shredder_form",
        chess960: true,
        position: "position fen 4k3/pppppppp/8/8/8/8/PPPPPPPP/rR2K3 w Q - 0 1",
        verdict: Some("valid"),
        sent: Sent::Line("position fen 4k3/pppppppp/8/8/8/8/PPPPPPPP/rR2K3 w B - 0 1"),
        final_fen: Some("4k3/pppppppp/8/8/8/8/PPPPPPPP/rR2K3 w Q - 0 1"),
        reports: &[NO_REPORT],
        more: Some(|_, seen| assert_eq!(seen.record["chess960"], true, "{}", seen.record)),
        ..CASE
    },
    Case {
        name: "r07_chess960_right_without_uci_chess960_is_dropped",
        position: R07,
        verdict: Some("repaired"),
        sent: Sent::Line("position fen 4rkr1/4p1p1/8/8/8/8/8/5K1R w - - 0 1"),
        reports: &[(Report::Repaired("castling-needs-chess960"), 1)],
        ..CASE
    },
    Case {
        name: "r07_detect_switches_to_chess960_and_the_castling_mate_comes_back_king_takes_rook",
        config: DETECT,
        position: R07,
        verdict: Some("valid"),
        sent: Sent::Line("position fen 4rkr1/4p1p1/8/8/8/8/8/5K1R w H - 0 1"),
        go: Go::Bestmove("go depth 5", "f1h1"),
        more: Some(|gui, seen| {
            gui.wait_record(|r| r["kind"] == "chess960-enabled");
            // The mate is found at depth 1: every pv starts with it, in king-takes-rook form
            // (`f1g1` would read as Kg1).
            let pvs: Vec<Vec<&str>> = seen
                .go
                .iter()
                .map(|l| pv_of(l))
                .filter(|pv| !pv.is_empty())
                .collect();
            assert!(!pvs.is_empty(), "{:#?}", seen.go);
            for pv in &pvs {
                assert_eq!(pv[0], "f1h1", "{:#?}", seen.go);
            }
            let logged = common::wait_until(|| {
                let logs = gui.proxy.log("positions.jsonl") + &gui.proxy.log("fenguard.log");
                logs.contains("ambiguous-castling-move").then_some(())
            });
            assert!(
                logged.is_some(),
                "ambiguous-castling-move in neither positions.jsonl nor fenguard.log: {}",
                gui.proxy.log("positions.jsonl")
            );
        }),
        ..CASE
    },
    Case {
        // Kg1 and the standard form of O-O are the same text: it is the king move (SPEC 7).
        name: "r07_detect_searchmoves_f1g1_is_the_ordinary_king_move",
        config: DETECT,
        position: R07,
        go: Go::Bestmove("go depth 3 searchmoves f1g1", "f1g1"),
        ..CASE
    },
    Case {
        name: "r08_king_takes_rook_castle_is_sent_as_the_kings_two_square_move_and_searched",
        position: "position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 4 1 moves e1h1",
        verdict: Some("valid"),
        sent: Sent::Line("position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 4 1 moves e1g1"),
        final_fen: Some(R08_FINAL),
        reports: &[NO_REJECTION],
        go: Go::Legal("go depth 5", R08_FINAL, false),
        ..CASE
    },
    Case {
        name: "r09_chess960_castle_with_the_king_staying_on_g1",
        chess960: true,
        position: "position fen 4k3/8/8/8/8/8/8/6KR w K - 0 1 moves g1h1",
        verdict: Some("valid"),
        sent: Sent::Line("position fen 4k3/8/8/8/8/8/8/6KR w H - 0 1 moves g1h1"),
        final_fen: Some("4k3/8/8/8/8/8/8/5RK1 b - - 1 1"),
        reports: &[NO_REJECTION],
        go: Go::Legal("go depth 5", "4k3/8/8/8/8/8/8/5RK1 b - - 1 1", true),
        ..CASE
    },
    Case {
        name: "r09_chess960_king_b1_to_c1_is_a_king_move",
        chess960: true,
        position: "position fen 4k3/8/8/8/8/8/8/RK6 w Q - 0 1 moves b1c1",
        verdict: Some("valid"),
        sent: Sent::Line("position fen 4k3/8/8/8/8/8/8/RK6 w A - 0 1 moves b1c1"),
        final_fen: Some("4k3/8/8/8/8/8/8/R1K5 b - - 1 1"),
        reports: &[NO_REJECTION],
        ..CASE
    },
    Case {
        name: "r09_chess960_king_b1_takes_a1_is_queenside_castling",
        chess960: true,
        position: "position fen 4k3/8/8/8/8/8/8/RK6 w Q - 0 1 moves b1a1",
        verdict: Some("valid"),
        sent: Sent::Line("position fen 4k3/8/8/8/8/8/8/RK6 w A - 0 1 moves b1a1"),
        final_fen: Some("4k3/8/8/8/8/8/8/2KR4 b - - 1 1"),
        reports: &[NO_REJECTION],
        ..CASE
    },
    Case {
        name: "r09_chess960_king_e1_takes_f1_is_kingside_castling",
        chess960: true,
        position: "position fen 4k3/8/8/8/8/8/8/4KR2 w K - 0 1 moves e1f1",
        verdict: Some("valid"),
        sent: Sent::Line("position fen 4k3/8/8/8/8/8/8/4KR2 w F - 0 1 moves e1f1"),
        final_fen: Some("4k3/8/8/8/8/8/8/5RK1 b - - 1 1"),
        reports: &[NO_REJECTION],
        ..CASE
    },
    Case {
        name: "r10_move_list_is_forwarded_as_given_and_searchmoves_e1c1_is_the_bestmove",
        position: R10,
        verdict: Some("valid"),
        sent: Sent::Line(R10),
        final_fen: Some("rnbqk2r/ppp1b2p/4p1p1/3n4/3P4/2P3P1/PPQB1PP1/R3KBNR w KQkq - 0 11"),
        reports: &[NO_REJECTION],
        go: Go::Bestmove("go nodes 1 searchmoves e1c1", "e1c1"),
        more: Some(|gui, seen| {
            let search = gui.wait_record(|r| r["kind"] == "search" && r["bestmove"] != Value::Null);
            assert_eq!(search["position_seq"], seen.record["seq"], "{search}");
            assert_eq!(search["bestmove"], "e1c1", "{search}");
        }),
        ..CASE
    },
    Case {
        name: "r10_searchmoves_king_takes_rook_is_translated_for_the_standard_engine",
        position: R10,
        go: Go::Bestmove("go nodes 1 searchmoves e1a1", "e1c1"),
        ..CASE
    },
    Case {
        name: "r11_move_from_an_empty_square_is_rejected_naming_the_move_and_position",
        position: "position fen r4rk1/1R5p/3p1q2/p1pP4/P7/7P/6P1/1R1Q3K b - - 0 24 moves b8e8",
        sent: Sent::Nothing,
        verdict: Some("rejected"),
        reports: &[(Report::Rejected("illegal-move"), 1)],
        go: Go::Nothing("go depth 1"),
        more: Some(|_, seen| {
            let message = starting_with(&seen.lines, &rejected("illegal-move"))[0];
            assert!(message.contains("move 1"), "{message}");
            assert!(message.contains("b8e8"), "{message}");
            assert!(
                message.contains("r4rk1/1R5p/3p1q2/p1pP4/P7/7P/6P1/1R1Q3K b - - 0 24"),
                "{message}"
            );
        }),
        ..CASE
    },
    Case {
        // An illegal move later in the list is still a rejection: cutting the list would have
        // the engine search a position the GUI does not have.
        name: "r11_illegal_move_is_not_cut_under_repair",
        position: "position startpos moves e2e4 e7e5 e2e5",
        sent: Sent::Nothing,
        reports: &[(Report::Rejected("illegal-move"), 1)],
        ..CASE
    },
    Case {
        name: "r12_ep_square_implying_an_impossible_check_is_dropped",
        position: "position fen k7/8/8/3pP3/8/7n/5K2/8 w - d6 0 1",
        verdict: Some("repaired"),
        sent: Sent::Line("position fen k7/8/8/3pP3/8/7n/5K2/8 w - - 0 1"),
        reports: &[(Report::Repaired("impossible-check"), 1)],
        go: Go::BestmoveFrom("go depth 3", "f2"),
        ..CASE
    },
    Case {
        name: "r13_ep_square_without_the_pushed_pawn_is_dropped",
        position: "position fen rnbqkb1r/ppp3pp/3p1n2/3P4/8/2P5/PP3PPP/RNBQKB1R w KQkq e6",
        verdict: Some("repaired"),
        sent: Sent::Line(
            "position fen rnbqkb1r/ppp3pp/3p1n2/3P4/8/2P5/PP3PPP/RNBQKB1R w KQkq - 0 1",
        ),
        reports: &[(Report::Repaired("ep-without-pawn"), 1)],
        ..CASE
    },
    Case {
        name: "r13_ep_capture_exposing_the_king_is_not_sent",
        position: "position fen 8/5bk1/8/2Pp4/8/1K6/8/8 w - d6",
        verdict: Some("valid"),
        sent: Sent::Line("position fen 8/5bk1/8/2Pp4/8/1K6/8/8 w - - 0 1"),
        ..CASE
    },
    Case {
        name: "r14_fen_startpos_is_rejected_with_a_syntax_code",
        position: "position fen startpos",
        sent: Sent::Nothing,
        go: Go::Nothing("go depth 1"),
        more: Some(syntax_reports),
        ..CASE
    },
    Case {
        name: "r14_fen_blah_is_rejected_with_a_syntax_code",
        position: "position fen blah",
        sent: Sent::Nothing,
        go: Go::Nothing("go depth 1"),
        more: Some(syntax_reports),
        ..CASE
    },
    Case {
        name: "r14_fen_1_is_rejected_with_a_syntax_code",
        position: "position fen 1",
        sent: Sent::Nothing,
        go: Go::Nothing("go depth 1"),
        more: Some(syntax_reports),
        ..CASE
    },
    Case {
        name: "r15_four_fields_and_empty_moves_get_counters_and_no_moves",
        position: "position fen 5rk1/2p4p/2p4r/3P4/4p1b1/1Q2NqPp/PP3P1K/R4R2 b - - moves",
        verdict: Some("valid"),
        sent: Sent::Line("position fen 5rk1/2p4p/2p4r/3P4/4p1b1/1Q2NqPp/PP3P1K/R4R2 b - - 0 1"),
        more: Some(|_, seen| assert_eq!(seen.record["moves_out"], json!([]), "{}", seen.record)),
        ..CASE
    },
    Case {
        name: "r16_four_fields_are_padded_with_counters",
        position: "position fen r1bqkbnr/pp1ppppp/2n5/2p5/2P1PP2/8/PP1P2PP/RNBQKBNR b KQkq -",
        verdict: Some("valid"),
        sent: Sent::Line(
            "position fen r1bqkbnr/pp1ppppp/2n5/2p5/2P1PP2/8/PP1P2PP/RNBQKBNR b KQkq - 0 1",
        ),
        warnings: Some(&["missing-field"]),
        ..CASE
    },
    Case {
        name: "r16_trailing_slash_and_fullmove_zero_are_repaired_with_warnings",
        position: "position fen r1bqkbnr/pp1ppppp/2n5/2p5/2P1PP2/8/PP1P2PP/RNBQKBNR/ b KQkq - 0 0",
        sent: Sent::Line(
            "position fen r1bqkbnr/pp1ppppp/2n5/2p5/2P1PP2/8/PP1P2PP/RNBQKBNR b KQkq - 0 1",
        ),
        more: Some(|_, seen| {
            let warnings = codes(&seen.record, "warning");
            assert_eq!(warnings.len(), 2, "{}", seen.record);
            assert!(
                warnings.contains(&"fullmove-zero".to_owned()),
                "{}",
                seen.record
            );
            assert!(codes(&seen.record, "error").is_empty(), "{}", seen.record);
        }),
        ..CASE
    },
    Case {
        name: "r16_dash_counters_become_0_and_1",
        position: "position fen r1bqkbnr/pp1ppppp/2n5/2p5/2P1PP2/8/PP1P2PP/RNBQKBNR b KQkq - - -",
        verdict: Some("repaired"),
        sent: Sent::Line(
            "position fen r1bqkbnr/pp1ppppp/2n5/2p5/2P1PP2/8/PP1P2PP/RNBQKBNR b KQkq - 0 1",
        ),
        reports: &[
            (Report::Repaired("bad-halfmove-clock"), 1),
            (Report::Repaired("bad-fullmove-number"), 1),
        ],
        ..CASE
    },
    Case {
        name: "r16_epd_operations_are_rejected_extra_field",
        position: "position fen r1bqkbnr/pp1ppppp/2n5/2p5/2P1PP2/8/PP1P2PP/RNBQKBNR b KQkq - bm Kg2; id \"x\";",
        sent: Sent::Nothing,
        verdict: Some("rejected"),
        reports: &[(Report::Rejected("extra-field"), 1)],
        ..CASE
    },
    Case {
        name: "r17_fullmove_zero_is_valid_with_a_warning_and_sent_as_1",
        position: "position fen 3r4/p2nrpkp/2B1p3/2P2pP1/3R3Q/q7/6PP/6RK w - - 0 0",
        verdict: Some("valid"),
        sent: Sent::Line("position fen 3r4/p2nrpkp/2B1p3/2P2pP1/3R3Q/q7/6PP/6RK w - - 0 1"),
        warnings: Some(&["fullmove-zero"]),
        ..CASE
    },
    Case {
        name: "r18_halfmove_clock_100_is_kept_with_a_warning",
        position: "position fen 4kr2/8/8/8/8/8/8/3RK3 b - - 100 1",
        verdict: Some("valid"),
        sent: Sent::Line("position fen 4kr2/8/8/8/8/8/8/3RK3 b - - 100 1"),
        final_fen: Some("4kr2/8/8/8/8/8/8/3RK3 b - - 100 1"),
        more: Some(|_, seen| {
            assert_eq!(codes(&seen.record, "warning").len(), 1, "{}", seen.record)
        }),
        ..CASE
    },
    Case {
        name: "r18_halfmove_clock_99_is_kept_without_a_warning",
        position: "position fen 8/8/2p5/3b1K1k/4p3/4PpR1/5P2/8 w - - 99 113",
        verdict: Some("valid"),
        sent: Sent::Line("position fen 8/8/2p5/3b1K1k/4p3/4PpR1/5P2/8 w - - 99 113"),
        reports: &[NO_REPORT],
        more: Some(|_, seen| assert_eq!(seen.record["diagnostics"], json!([]), "{}", seen.record)),
        ..CASE
    },
    Case {
        // Issue 9 class 4: the en passant field is missing (`w - 0 120`); the counters stay
        // where they are (halfmove clock 0, fullmove number 120), not shifted into a
        // fifty-move draw.
        name: "r19_missing_ep_field_keeps_the_counters_in_place",
        position: "position fen 4k3/8/8/8/8/8/8/Q3K3 w - 0 120",
        verdict: Some("valid"),
        sent: Sent::Line("position fen 4k3/8/8/8/8/8/8/Q3K3 w - - 0 120"),
        warnings: Some(&["missing-field"]),
        more: Some(|gui, seen| {
            let warning = starting_with(
                &seen.lines,
                "info string fenguard: warning: missing-field: ",
            );
            assert_eq!(warning.len(), 1, "{:#?}", seen.lines);
            assert!(
                warning[0].contains("missing en passant"),
                "{:#?}",
                seen.lines
            );
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
        }),
        ..CASE
    },
    Case {
        // Issue 9 class 4: a lone counter after the en passant field could be either counter:
        // the position is rejected, and `go` answered `bestmove 0000`.
        name: "r19_lone_counter_is_rejected_as_ambiguous",
        position: "position fen 4k3/8/8/8/8/8/8/Q3K3 w - - 120",
        sent: Sent::Nothing,
        verdict: Some("rejected"),
        reports: &[(Report::Rejected("missing-field"), 1)],
        go: Go::Nothing("go depth 1"),
        more: Some(|_, seen| {
            let report = starting_with(&seen.lines, &rejected("missing-field"))[0];
            assert!(
                report.contains("`120` reads as the halfmove clock or the fullmove number"),
                "{:#?}",
                seen.lines
            );
        }),
        ..CASE
    },
];

/// Plays `case` on a fresh fenguard in front of Stockfish and asserts all it expects.
fn play(case: &Case) {
    let mut gui = Gui::stockfish_ready(case.name, case.config).expect("Stockfish found");
    if case.chess960 {
        gui.send("setoption name UCI_Chess960 value true");
    }
    let (lines, record) = gui.position(case.position);
    if let Some(verdict) = case.verdict {
        assert_eq!(record["verdict"], verdict, "{record}");
    }
    match case.sent {
        Sent::Any => {}
        Sent::Nothing => assert_eq!(record["sent"], Value::Null, "{record}"),
        Sent::Line(sent) => assert_eq!(record["sent"], sent, "{record}"),
    }
    if let Some(fen) = case.final_fen {
        assert_eq!(record["final_fen"], fen, "{record}");
    }
    for (report, count) in case.reports {
        let prefix = match report {
            Report::Rejected(code) => rejected(code),
            Report::Repaired(code) => repaired(code),
            Report::Prefix(text) => (*text).to_owned(),
        };
        let found = starting_with(&lines, &prefix).len();
        assert_eq!(found, *count, "lines starting {prefix:?}: {lines:#?}");
    }
    if let Some(warnings) = case.warnings {
        assert_eq!(codes(&record, "warning"), warnings, "{record}");
    }
    for code in case.errors {
        assert!(
            codes(&record, "error").iter().any(|c| c == code),
            "{record}"
        );
    }
    let go = match case.go {
        Go::No => Vec::new(),
        Go::Nothing(go) => {
            let answer = gui.go(go);
            assert_eq!(answer, ["bestmove 0000"]);
            answer
        }
        Go::Legal(go, fen, chess960) => {
            let answer = gui.go(go);
            assert_legal_bestmove(&answer, fen, &[], chess960);
            answer
        }
        Go::Bestmove(go, best) => {
            let answer = gui.go(go);
            let last = answer.last().map(|l| bestmove_of(l));
            assert_eq!(last, Some(best), "{answer:#?}");
            answer
        }
        Go::BestmoveFrom(go, from) => {
            let answer = gui.go(go);
            assert!(
                answer
                    .last()
                    .unwrap()
                    .starts_with(&format!("bestmove {from}")),
                "{answer:#?}"
            );
            answer
        }
    };
    if let Some(more) = case.more {
        more(&mut gui, &Seen { lines, record, go });
    }
}

#[test]
fn public_report_rows_end_to_end() {
    if require_stockfish().is_none() {
        return;
    }
    // Every case runs; the failures are listed together, by name.
    let failed: Vec<&str> = CASES
        .iter()
        .filter(|case| catch_unwind(AssertUnwindSafe(|| play(case))).is_err())
        .map(|case| case.name)
        .collect();
    assert!(
        failed.is_empty(),
        "{} of {} cases failed: {failed:#?}",
        failed.len(),
        CASES.len()
    );
}
