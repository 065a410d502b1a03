//! The rows of shared/cases/public-reports.md that concern a FEN alone (R01-R07, R12-R18),
//! under the defaults: standard rules unless the GUI set UCI_Chess960, repair, X-FEN castling
//! (KQkq for standard positions), legal en passant squares.

use fenguard::fen::{CastlingStyle, Code, EpMode, Geometry, Options, Severity, analyze};

const STANDARD: Options = Options {
    chess960_allowed: false,
    geometry: Geometry::STANDARD,
};
const CHESS960: Options = Options {
    chess960_allowed: true,
    geometry: Geometry::STANDARD,
};

use Severity::{Error, Warning};

/// Asserts the diagnostics (code and severity, in input order) and the FEN sent after
/// repair (`None`: rejected).
fn outcome(fen: &str, opts: &Options, codes: &[(Code, Severity)], sent: Option<&str>) {
    let analysis = analyze(fen.as_bytes(), opts);
    let found: Vec<(Code, Severity)> = analysis
        .diagnostics()
        .iter()
        .map(|d| (d.code, d.severity))
        .collect();
    assert_eq!(found, codes, "{fen}");
    let repaired = analysis
        .repair()
        .map(|r| r.fen(CastlingStyle::XFen, EpMode::Legal));
    assert_eq!(repaired.as_deref(), sent, "{fen}");
}

#[test]
fn r01_lone_black_king_is_rejected_as_missing_king() {
    outcome(
        "4k3/8/8/8/8/8/8/8 w - - 0 1",
        &STANDARD,
        &[(Code::MissingKing, Error)],
        None,
    );
}

#[test]
fn r02_white_king_attacked_with_black_to_move_is_opposite_check() {
    let fen = "5k1r/2q3p1/p3p2p/1B3p1Q/n4P2/6P1/bbP2N1P/1K1RR3 b - - 0 1";
    outcome(fen, &STANDARD, &[(Code::OppositeCheck, Error)], None);
}

#[test]
fn r03_rights_of_vanished_kings_and_rooks_are_dropped() {
    let fen = "2k5/8/3K4/1p6/p7/P7/1B6/8 b KQkq - 0 1";
    let repaired = analyze(fen.as_bytes(), &STANDARD)
        .repair()
        .expect("repairable");
    assert_eq!(
        repaired.fen(CastlingStyle::XFen, EpMode::Legal),
        "2k5/8/3K4/1p6/p7/P7/1B6/8 b - - 0 1"
    );
    let dropped: Vec<Code> = repaired.changes.iter().map(|d| d.code).collect();
    assert_eq!(
        dropped,
        vec![Code::CastlingWithoutRook, Code::CastlingWithoutRook]
    );
}

#[test]
fn r04_r05_king_side_right_whose_h8_holds_another_piece_is_dropped() {
    for (fen, sent) in [
        (
            "3qk1nb/1p3p2/p1r1p1p1/3p4/3P4/2N1BP2/PPPQ1P2/R3K3 w Qk - 0 15",
            "3qk1nb/1p3p2/p1r1p1p1/3p4/3P4/2N1BP2/PPPQ1P2/R3K3 w Q - 0 15",
        ),
        (
            "rnb1kb1Q/1p1qp2p/p3p1p1/2pp4/8/8/PPPP1PPP/RNB1K1NR b KQkq - 1 10",
            "rnb1kb1Q/1p1qp2p/p3p1p1/2pp4/8/8/PPPP1PPP/RNB1K1NR b KQq - 1 10",
        ),
    ] {
        outcome(
            fen,
            &STANDARD,
            &[(Code::CastlingWithoutRook, Error)],
            Some(sent),
        );
    }
}

#[test]
fn r06_queen_side_right_binds_the_white_rook_not_the_black_one_on_a1() {
    let fen = "4k3/pppppppp/8/8/8/8/PPPPPPPP/rR2K3 w Q - 0 1";
    let analysis = analyze(fen.as_bytes(), &CHESS960);
    assert!(analysis.needs_chess960());
    assert_eq!(
        analysis
            .fen(CastlingStyle::Shredder, EpMode::Legal)
            .as_deref(),
        Some("4k3/pppppppp/8/8/8/8/PPPPPPPP/rR2K3 w B - 0 1")
    );
}

#[test]
fn r07_right_only_chess960_allows_is_dropped_under_standard_rules() {
    let fen = "4rkr1/4p1p1/8/8/8/8/8/5K1R w K - 0 1";
    let sent = "4rkr1/4p1p1/8/8/8/8/8/5K1R w - - 0 1";
    outcome(
        fen,
        &STANDARD,
        &[(Code::CastlingNeedsChess960, Error)],
        Some(sent),
    );
}

#[test]
fn r12_ep_square_that_explains_nothing_is_dropped() {
    let fen = "k7/8/8/3pP3/8/7n/5K2/8 w - d6 0 1";
    outcome(
        fen,
        &STANDARD,
        &[(Code::ImpossibleCheck, Error)],
        Some("k7/8/8/3pP3/8/7n/5K2/8 w - - 0 1"),
    );
}

#[test]
fn r13_ep_square_without_pushed_pawn_is_dropped_and_fields_padded() {
    let fen = "rnbqkb1r/ppp3pp/3p1n2/3P4/8/2P5/PP3PPP/RNBQKB1R w KQkq e6";
    let sent = "rnbqkb1r/ppp3pp/3p1n2/3P4/8/2P5/PP3PPP/RNBQKB1R w KQkq - 0 1";
    outcome(
        fen,
        &STANDARD,
        &[(Code::EpWithoutPawn, Error), (Code::MissingField, Warning)],
        Some(sent),
    );
}

#[test]
fn r13_ep_capture_that_would_expose_the_king_is_not_written() {
    let fen = "8/5bk1/8/2Pp4/8/1K6/8/8 w - d6";
    let notes = [
        (Code::EpNotCapturable, Severity::Note),
        (Code::MissingField, Warning),
    ];
    outcome(
        fen,
        &STANDARD,
        &notes,
        Some("8/5bk1/8/2Pp4/8/1K6/8/8 w - - 0 1"),
    );
}

#[test]
fn r14_startpos_as_fen_is_an_unknown_piece_naming_what_was_expected() {
    let analysis = analyze(b"startpos", &STANDARD);
    let first = &analysis.diagnostics()[0];
    assert_eq!(
        (first.code, first.span.clone()),
        (Code::UnknownPiece, Some(0..8))
    );
    assert!(
        first.message.contains("expected `position startpos`"),
        "{}",
        first.message
    );
    assert!(analysis.repair().is_none());
}

#[test]
fn r14_blah_as_fen_is_rejected() {
    let analysis = analyze(b"blah", &STANDARD);
    let unknown = analysis
        .diagnostics()
        .iter()
        .find(|d| d.code == Code::UnknownPiece)
        .map(|d| d.span.clone());
    assert_eq!(
        unknown,
        Some(Some(1..4)),
        "`b` is a bishop, `lah` are unknown"
    );
    assert!(analysis.repair().is_none());
}

#[test]
fn r14_digit_one_as_fen_is_too_short_and_too_few_ranks() {
    let analysis = analyze(b"1", &STANDARD);
    let found: Vec<(Code, &str)> = analysis
        .diagnostics()
        .iter()
        .filter(|d| d.is_error())
        .map(|d| (d.code, d.message.as_str()))
        .collect();
    assert_eq!(
        found,
        vec![
            (Code::RankTooShort, "rank 8 has 1 square, expected 8"),
            (
                Code::TooFewRanks,
                "the board has 1 rank, expected 8 separated by `/`"
            ),
        ]
    );
    assert!(analysis.repair().is_none());
}

#[test]
fn r15_four_fields_are_padded_with_counters() {
    let fen = "5rk1/2p4p/2p4r/3P4/4p1b1/1Q2NqPp/PP3P1K/R4R2 b - -";
    let sent = "5rk1/2p4p/2p4r/3P4/4p1b1/1Q2NqPp/PP3P1K/R4R2 b - - 0 1";
    outcome(fen, &STANDARD, &[(Code::MissingField, Warning)], Some(sent));
}

const R16: &str = "r1bqkbnr/pp1ppppp/2n5/2p5/2P1PP2/8/PP1P2PP/RNBQKBNR";

#[test]
fn r16_four_fields_are_padded() {
    let sent = format!("{R16} b KQkq - 0 1");
    outcome(
        &format!("{R16} b KQkq -"),
        &STANDARD,
        &[(Code::MissingField, Warning)],
        Some(&sent),
    );
}

#[test]
fn r16_trailing_slash_and_fullmove_zero_are_warnings() {
    let warnings = [
        (Code::TrailingSlash, Warning),
        (Code::FullmoveZero, Warning),
    ];
    outcome(
        &format!("{R16}/ b KQkq - 0 0"),
        &STANDARD,
        &warnings,
        Some(&format!("{R16} b KQkq - 0 1")),
    );
}

#[test]
fn r16_dash_counters_are_repaired_to_0_and_1() {
    let errors = [
        (Code::BadHalfmoveClock, Error),
        (Code::BadFullmoveNumber, Error),
    ];
    outcome(
        &format!("{R16} b KQkq - - -"),
        &STANDARD,
        &errors,
        Some(&format!("{R16} b KQkq - 0 1")),
    );
}

#[test]
fn r16_epd_operations_are_rejected_as_extra_field() {
    let fen = format!("{R16} b KQkq - bm Kg2; id \"x\";");
    let analysis = analyze(fen.as_bytes(), &STANDARD);
    assert!(
        analysis
            .diagnostics()
            .iter()
            .any(|d| d.code == Code::ExtraField)
    );
    assert!(analysis.repair().is_none());
}

#[test]
fn r17_fullmove_zero_is_valid_with_a_warning() {
    let fen = "3r4/p2nrpkp/2B1p3/2P2pP1/3R3Q/q7/6PP/6RK w - - 0 0";
    let sent = "3r4/p2nrpkp/2B1p3/2P2pP1/3R3Q/q7/6PP/6RK w - - 0 1";
    outcome(fen, &STANDARD, &[(Code::FullmoveZero, Warning)], Some(sent));
    assert!(analyze(fen.as_bytes(), &STANDARD).is_valid());
}

#[test]
fn r18_halfmove_clock_100_is_kept_with_a_warning() {
    let fen = "4kr2/8/8/8/8/8/8/3RK3 b - - 100 1";
    outcome(fen, &STANDARD, &[(Code::FiftyMoveDraw, Warning)], Some(fen));
    assert!(analyze(fen.as_bytes(), &STANDARD).is_valid());
}

#[test]
fn r18_halfmove_clock_99_is_kept_silently() {
    let fen = "8/8/2p5/3b1K1k/4p3/4PpR1/5P2/8 w - - 99 113";
    outcome(fen, &STANDARD, &[], Some(fen));
}
