//! One failing input for every position diagnostic code: code, severity and span.

use crate::support;

use fenguard::fen::{Code, Options, Severity, analyze};
use support::{KINGS, assert_diag, only};

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

/// Issue 21: two knights give check; no single move uncovers that (shakmaty, python-chess
/// after 1.11.2, and every 8x8 variant here agree). The king's square is the span.
#[test]
fn two_stepping_checkers_are_an_impossible_check() {
    assert_diag(
        "8/8/N7/2k5/N7/8/8/3K4 b - - 0 1",
        Code::ImpossibleCheck,
        Severity::Error,
        Some(8..9),
    );
    let a = analyze(b"4k3/8/3N4/8/8/8/8/4K3 b - - 0 1", &Options::default());
    assert!(a.is_valid(), "one knight checking is fine");
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
fn promoted_king_cannot_castle_as_in_python_chess() {
    assert_diag(
        "4k3/8/8/8/8/8/8/4K~2R w K - 0 1",
        Code::CastlingWithoutKing,
        Severity::Error,
        Some(24..25),
    );
}
