//! One failing input for every syntax diagnostic code: code, severity and span.

use crate::support;

use fenguard::fen::{Code, Options, Severity, analyze};
use support::{KINGS, assert_diag, only};

#[test]
fn empty_input_is_an_error_without_span() {
    assert_diag("   \t ", Code::EmptyInput, Severity::Error, None);
}

#[test]
fn missing_fields_warn_at_the_end_of_input() {
    assert_diag(
        "4k3/8/8/8/8/8/8/4K3 w",
        Code::MissingField,
        Severity::Warning,
        Some(21..21),
    );
}

#[test]
fn epd_operations_are_an_extra_field() {
    let input = "4k3/8/8/8/8/8/8/4K3 w - - 0 1 bm Kg2; id \"x\";";
    assert_diag(
        input,
        Code::ExtraField,
        Severity::Error,
        Some(30..input.len()),
    );
}

#[test]
fn nine_ranks_are_too_many() {
    assert_diag(
        "4k3/8/8/8/8/8/8/8/4K3 w - - 0 1",
        Code::TooManyRanks,
        Severity::Error,
        Some(18..21),
    );
}

#[test]
fn seven_ranks_are_too_few() {
    assert_diag(
        "4k3/8/8/8/8/8/4K3 w - - 0 1",
        Code::TooFewRanks,
        Severity::Error,
        Some(0..17),
    );
}

#[test]
fn rank_of_nine_squares_is_too_long() {
    let d = only(
        "4k3/8/9/8/8/8/8/4K3 w - - 0 1",
        Code::RankTooLong,
        &Options::default(),
    );
    assert_eq!(
        (d.severity, d.span, d.message.as_str()),
        (
            Severity::Error,
            Some(6..7),
            "rank 6 has 9 squares, expected 8"
        )
    );
}

#[test]
fn rank_of_seven_squares_is_too_short() {
    let d = only(
        "4k3/8/7/8/8/8/8/4K3 w - - 0 1",
        Code::RankTooShort,
        &Options::default(),
    );
    assert_eq!(
        (d.severity, d.span, d.message.as_str()),
        (
            Severity::Error,
            Some(6..7),
            "rank 6 has 7 squares, expected 8"
        )
    );
}

#[test]
fn letter_x_is_an_unknown_piece() {
    assert_diag(
        "4k3/8/8/3x4/8/8/8/4K3 w - - 0 1",
        Code::UnknownPiece,
        Severity::Error,
        Some(9..10),
    );
}

#[test]
fn non_utf8_byte_is_an_unknown_piece_with_its_span() {
    let analysis = analyze(b"4k3/8/8/3\xff4/8/8/8/4K3 w - - 0 1", &Options::default());
    let d = &analysis.diagnostics()[0];
    assert_eq!((d.code, d.span.clone()), (Code::UnknownPiece, Some(9..10)));
}

#[test]
fn two_counts_in_a_row_are_a_bad_digit() {
    assert_diag(
        "4k3/8/44/8/8/8/8/4K3 w - - 0 1",
        Code::BadDigit,
        Severity::Error,
        Some(6..8),
    );
}

#[test]
fn zero_count_is_a_bad_digit() {
    assert_diag(
        "4k3/8/08/8/8/8/8/4K3 w - - 0 1",
        Code::BadDigit,
        Severity::Error,
        Some(6..8),
    );
}

#[test]
fn active_color_x_is_bad() {
    assert_diag(
        &format!("{KINGS} x - - 0 1"),
        Code::BadActiveColor,
        Severity::Error,
        Some(20..21),
    );
}

#[test]
fn castling_letter_z_is_bad() {
    assert_diag(
        "4k3/8/8/8/8/8/8/4K2R w Kz - 0 1",
        Code::BadCastlingChar,
        Severity::Error,
        Some(24..25),
    );
}

#[test]
fn repeated_castling_letter_warns_on_the_repeat() {
    assert_diag(
        "4k3/8/8/8/8/8/8/4K2R w KK - 0 1",
        Code::DuplicateCastlingRight,
        Severity::Warning,
        Some(24..25),
    );
}

#[test]
fn black_before_white_castling_warns() {
    assert_diag(
        "r3k3/8/8/8/8/8/8/4K2R w qK - 0 1",
        Code::CastlingOrder,
        Severity::Warning,
        Some(24..26),
    );
}

#[test]
fn ep_square_e9_is_bad() {
    assert_diag(
        &format!("{KINGS} w - e9 0 1"),
        Code::BadEpSquare,
        Severity::Error,
        Some(24..26),
    );
}

#[test]
fn halfmove_clock_x_is_bad() {
    assert_diag(
        &format!("{KINGS} w - - x 1"),
        Code::BadHalfmoveClock,
        Severity::Error,
        Some(26..27),
    );
}

#[test]
fn negative_fullmove_number_is_bad() {
    assert_diag(
        &format!("{KINGS} w - - 0 -3"),
        Code::BadFullmoveNumber,
        Severity::Error,
        Some(28..30),
    );
}

#[test]
fn fullmove_zero_warns() {
    assert_diag(
        &format!("{KINGS} w - - 0 0"),
        Code::FullmoveZero,
        Severity::Warning,
        Some(28..29),
    );
}

#[test]
fn huge_counter_is_too_large() {
    assert_diag(
        &format!("{KINGS} w - - 4294967296 1"),
        Code::CounterTooLarge,
        Severity::Error,
        Some(26..36),
    );
}

#[test]
fn trailing_slash_warns() {
    assert_diag(
        "4k3/8/8/8/8/8/8/4K3/ w - - 0 1",
        Code::TrailingSlash,
        Severity::Warning,
        Some(19..20),
    );
}

#[test]
fn every_code_has_a_distinct_kebab_case_name() {
    for code in Code::ALL {
        assert_eq!(Code::from_name(code.as_str()), Some(*code));
        assert!(
            code.as_str()
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b == b'-' || b.is_ascii_digit())
        );
    }
}

#[test]
fn ten_file_placement_is_read_by_a_ten_file_geometry() {
    let opts = Options {
        geometry: fenguard::fen::Geometry {
            files: 10,
            ranks: 8,
        },
        ..Options::default()
    };
    let analysis = analyze(
        b"rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1",
        &opts,
    );
    assert_eq!(
        analysis
            .diagnostics()
            .iter()
            .filter(|d| d.is_error())
            .count(),
        0
    );
}

#[test]
fn count_10_is_a_bad_digit_on_the_standard_board() {
    assert_diag(
        "4k3/8/10/8/8/8/8/4K3 w - - 0 1",
        Code::BadDigit,
        Severity::Error,
        Some(6..8),
    );
}

#[test]
fn promoted_marker_warns() {
    assert_diag(
        "4k3/8/8/8/8/8/8/Q~3K3 w - - 0 1",
        Code::PromotedMarker,
        Severity::Warning,
        Some(17..18),
    );
}

#[test]
fn unicode_spaces_separate_fields_as_in_python() {
    let analysis = analyze(
        "4k3/8/8/8/8/8/8/4K3\u{a0}w\u{3000}- \t - 0 1".as_bytes(),
        &Options::default(),
    );
    assert_eq!(analysis.diagnostics(), &[]);
    assert_eq!(
        analysis
            .fen(
                fenguard::fen::CastlingStyle::XFen,
                fenguard::fen::EpMode::Legal
            )
            .as_deref(),
        Some("4k3/8/8/8/8/8/8/4K3 w - - 0 1")
    );
}
