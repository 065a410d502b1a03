//! One failing input for every diagnostic code the FEN core emits: code, severity and span.

use std::ops::Range;

use fenguard::fen::{Code, Diagnostic, Options, Severity, analyze};

const KINGS: &str = "4k3/8/8/8/8/8/8/4K3";

fn only(input: &str, code: Code, opts: &Options) -> Diagnostic {
    let analysis = analyze(input.as_bytes(), opts);
    let found: Vec<&Diagnostic> = analysis
        .diagnostics()
        .iter()
        .filter(|d| d.code == code)
        .collect();
    assert_eq!(found.len(), 1, "{input:?}: {:#?}", analysis.diagnostics());
    found[0].clone()
}

fn assert_diag(input: &str, code: Code, severity: Severity, span: Option<Range<usize>>) {
    let d = only(input, code, &Options::default());
    assert_eq!(
        (d.severity, d.span),
        (severity, span),
        "{input:?}: {}",
        d.message
    );
}

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
fn stalemate_is_a_note() {
    assert_diag(
        "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
        Code::NoLegalMoves,
        Severity::Note,
        None,
    );
}

#[test]
fn board_without_white_king_misses_a_king() {
    assert_diag(
        "4k3/8/8/8/8/8/8/8 w - - 0 1",
        Code::MissingKing,
        Severity::Error,
        Some(0..17),
    );
}

#[test]
fn second_white_king_is_too_many() {
    assert_diag(
        "4k3/8/8/8/8/8/8/3KK3 w - - 0 1",
        Code::TooManyKings,
        Severity::Error,
        Some(18..19),
    );
}

#[test]
fn pawn_on_rank_1_is_on_the_back_rank() {
    assert_diag(
        "4k3/8/8/8/8/8/8/P3K3 w - - 0 1",
        Code::PawnOnBackRank,
        Severity::Error,
        Some(16..17),
    );
}

#[test]
fn king_of_side_not_to_move_in_check_is_opposite_check() {
    assert_diag(
        "4k3/8/8/8/8/8/8/4K2r b - - 0 1",
        Code::OppositeCheck,
        Severity::Error,
        Some(17..18),
    );
}

#[test]
fn two_aligned_checkers_are_an_impossible_check() {
    assert_diag(
        "4k3/8/8/8/8/8/8/r3K2r w - - 0 1",
        Code::ImpossibleCheck,
        Severity::Error,
        Some(18..19),
    );
}

#[test]
fn ninth_white_pawn_is_too_much_material() {
    assert_diag(
        "4k3/8/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1",
        Code::TooMuchMaterial,
        Severity::Error,
        Some(0..27),
    );
}

#[test]
fn castling_with_king_off_the_back_rank_has_no_king() {
    assert_diag(
        "4k3/8/8/8/8/8/4K3/7R w K - 0 1",
        Code::CastlingWithoutKing,
        Severity::Error,
        Some(23..24),
    );
}

#[test]
fn castling_with_empty_h1_has_no_rook() {
    assert_diag(
        "4k3/8/8/8/8/8/8/R3K3 w K - 0 1",
        Code::CastlingWithoutRook,
        Severity::Error,
        Some(23..24),
    );
}

#[test]
fn queen_side_right_without_any_rook_is_ignored_with_a_warning() {
    assert_diag(
        &format!("{KINGS} w Q - 0 1"),
        Code::CastlingWithoutAnyRook,
        Severity::Warning,
        Some(22..23),
    );
}

#[test]
fn inner_rook_right_needs_chess960_under_standard_rules() {
    let opts = Options {
        chess960_allowed: false,
        ..Options::default()
    };
    let d = only(
        "4k3/8/8/8/8/8/8/4K1R1 w G - 0 1",
        Code::CastlingNeedsChess960,
        &opts,
    );
    assert_eq!((d.severity, d.span), (Severity::Error, Some(24..25)));
}

#[test]
fn two_rights_on_one_side_conflict() {
    assert_diag(
        "4k3/8/8/8/8/8/8/4K1RR w GH - 0 1",
        Code::ConflictingCastlingRights,
        Severity::Error,
        Some(24..25),
    );
}

#[test]
fn ep_square_on_rank_4_with_white_to_move_is_the_wrong_rank() {
    assert_diag(
        &format!("{KINGS} w - e4 0 1"),
        Code::EpSquareWrongRank,
        Severity::Error,
        Some(24..26),
    );
}

#[test]
fn ep_square_without_pushed_pawn() {
    assert_diag(
        &format!("{KINGS} w - e6 0 1"),
        Code::EpWithoutPawn,
        Severity::Error,
        Some(24..26),
    );
}

#[test]
fn ep_square_occupied() {
    assert_diag(
        "4k3/8/4n3/4p3/8/8/8/4K3 w - e6 0 1",
        Code::EpSquareOccupied,
        Severity::Error,
        Some(28..30),
    );
}

#[test]
fn ep_square_nobody_can_capture_is_a_note() {
    assert_diag(
        "4k3/8/8/4p3/8/8/8/4K3 w - e6 0 1",
        Code::EpNotCapturable,
        Severity::Note,
        Some(26..28),
    );
}

#[test]
fn halfmove_clock_with_ep_square_warns() {
    assert_diag(
        "4k3/8/8/3Pp3/8/8/8/4K3 w - e6 3 1",
        Code::HalfmoveWithEp,
        Severity::Warning,
        Some(30..31),
    );
}

#[test]
fn halfmove_clock_of_100_warns() {
    assert_diag(
        &format!("{KINGS} w - - 100 1"),
        Code::FiftyMoveDraw,
        Severity::Warning,
        Some(26..29),
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
fn checkmate_is_a_note_naming_checkmate() {
    let d = only(
        "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1",
        Code::NoLegalMoves,
        &Options::default(),
    );
    assert_eq!(
        (d.severity, d.message.as_str()),
        (Severity::Note, "checkmate: black has no legal moves")
    );
}

#[test]
fn boxed_in_king_with_a_pawn_move_has_no_note() {
    let analysis = analyze(b"7k/5Q2/6K1/8/8/8/p7/8 b - - 0 1", &Options::default());
    assert_eq!(analysis.diagnostics(), &[]);
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
fn promoted_king_cannot_castle_as_in_python_chess() {
    assert_diag(
        "4k3/8/8/8/8/8/8/4K~2R w K - 0 1",
        Code::CastlingWithoutKing,
        Severity::Error,
        Some(24..25),
    );
}
