//! Unit tests of the 8x8 variants: start positions, FEN extras, validity, repair, moves.

use super::Variant;
use super::eight::{Position8, analyze};
use crate::fen::{CastlingStyle, Code, EpMode, Options};
use crate::rules::ReadError;
use crate::uci::Notation;

const XFEN: CastlingStyle = CastlingStyle::XFen;
const LEGAL: EpMode = EpMode::Legal;

fn valid(variant: &Variant, fen: &str) -> Position8 {
    let a = analyze(variant, fen.as_bytes(), &Options::default());
    assert!(a.is_valid(), "{fen}: {:?}", a.diagnostics());
    a.position().expect("valid").clone()
}

fn error_codes(variant: &Variant, fen: &str) -> Vec<Code> {
    analyze(variant, fen.as_bytes(), &Options::default())
        .diagnostics()
        .iter()
        .filter(|d| d.is_error())
        .map(|d| d.code)
        .collect()
}

fn play(pos: &mut Position8, moves: &[&str], notation: Notation) {
    for m in moves {
        let mv = pos.read_move(m.as_bytes(), notation).expect(m).mv;
        pos.play(mv);
    }
}

#[test]
fn start_positions_are_python_chess_start_fens() {
    let cases = [
        (
            Variant::Crazyhouse,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1",
        ),
        (
            Variant::ThreeCheck,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3+3 0 1",
        ),
        (
            Variant::Horde,
            "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1",
        ),
        (
            Variant::RacingKings,
            "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1",
        ),
        (
            Variant::Antichess,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
        ),
        (
            Variant::Atomic,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        ),
    ];
    for (variant, fen) in cases {
        let start = Position8::startpos(&variant).expect("8x8 variant");
        assert_eq!(start.fen(XFEN, LEGAL), fen, "{variant:?}");
    }
    assert!(Position8::startpos(&Variant::Chess).is_none());
    assert!(Position8::startpos(&Variant::Capablanca).is_none());
}

#[test]
fn crazyhouse_capture_goes_to_the_pocket_and_drops_back() {
    let mut pos = Position8::startpos(&Variant::Crazyhouse).expect("zh");
    play(
        &mut pos,
        &["e2e4", "d7d5", "e4d5", "d8d5", "b1c3"],
        Notation::Standard,
    );
    assert_eq!(
        pos.fen(XFEN, LEGAL),
        "rnb1kbnr/ppp1pppp/8/3q4/8/2N5/PPPP1PPP/R1BQKBNR[Pp] b KQkq - 1 3"
    );
    play(&mut pos, &["P@e4"], Notation::Standard);
    assert!(pos.fen(XFEN, LEGAL).contains("[P]"));
    assert!(
        pos.legal_moves(Notation::Standard)
            .contains(&"P@e6".to_owned())
    );
}

#[test]
fn crazyhouse_ninth_rank_pocket_is_written_in_brackets() {
    let pos = valid(&Variant::Crazyhouse, "4k3/8/8/8/8/8/8/4K3/QNp w - - 0 1");
    assert_eq!(pos.fen(XFEN, LEGAL), "4k3/8/8/8/8/8/8/4K3[QNp] w - - 0 1");
}

#[test]
fn crazyhouse_keeps_promoted_markers_and_other_variants_drop_them() {
    let pos = valid(&Variant::Crazyhouse, "4k3/8/8/8/8/8/8/Q~3K3[] w - - 0 1");
    assert_eq!(pos.fen(XFEN, LEGAL), "4k3/8/8/8/8/8/8/Q~3K3[] w - - 0 1");
    let a = analyze(
        &Variant::Atomic,
        b"4k3/8/8/8/8/8/8/Q~3K3 w - - 0 1",
        &Options::default(),
    );
    assert_eq!(a.diagnostics()[0].code, Code::PromotedMarker);
    assert_eq!(
        a.position().expect("valid").fen(XFEN, LEGAL),
        "4k3/8/8/8/8/8/8/Q3K3 w - - 0 1"
    );
}

#[test]
fn bad_pocket_letter_is_an_error_at_its_byte() {
    let a = analyze(
        &Variant::Crazyhouse,
        b"4k3/8/8/8/8/8/8/4K3[Qx] w - - 0 1",
        &Options::default(),
    );
    assert!(!a.is_valid());
    assert_eq!(a.diagnostics()[0].code, Code::BadPocket);
    assert_eq!(a.diagnostics()[0].span, Some(21..22));
}

#[test]
fn spans_after_a_pocket_point_into_the_input() {
    let input = b"4k3/8/8/8/8/8/8/4K3[Qp] x - - 0 1";
    let a = analyze(&Variant::Crazyhouse, input, &Options::default());
    let d = &a.diagnostics()[0];
    assert_eq!(d.code, Code::BadActiveColor);
    assert_eq!(&input[d.span.clone().expect("span")], b"x");
}

#[test]
fn three_check_lichess_counters_are_written_as_remaining_checks() {
    let pos = valid(
        &Variant::ThreeCheck,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 +1+2",
    );
    assert_eq!(
        pos.fen(XFEN, LEGAL),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 2+1 0 1"
    );
}

#[test]
fn three_check_counts_a_check() {
    let mut pos = Position8::startpos(&Variant::ThreeCheck).expect("3check");
    play(&mut pos, &["e2e4", "d7d5", "f1b5"], Notation::Standard);
    assert_eq!(
        pos.fen(XFEN, LEGAL),
        "rnbqkbnr/ppp1pppp/8/1B1p4/4P3/8/PPPP1PPP/RNBQK1NR b KQkq - 2+3 1 2"
    );
}

#[test]
fn three_check_counter_above_three_is_refused() {
    assert_eq!(
        error_codes(&Variant::ThreeCheck, "4k3/8/8/8/8/8/8/4K3 w - - 4+3 0 1"),
        vec![Code::BadCheckCounters]
    );
}

#[test]
fn atomic_capture_explodes_the_neighbours() {
    let mut pos = valid(&Variant::Atomic, "4k3/8/8/3np3/4P3/8/8/4K3 w - - 0 1");
    play(&mut pos, &["e4d5"], Notation::Standard);
    assert_eq!(pos.fen(XFEN, LEGAL), "4k3/8/8/4p3/8/8/8/4K3 b - - 0 1");
}

#[test]
fn horde_has_no_white_king_and_a_white_king_is_refused() {
    valid(&Variant::Horde, "4k3/8/8/8/8/8/PPPPPPPP/PPPPPPPP w - - 0 1");
    assert_eq!(
        error_codes(&Variant::Horde, "4k3/8/8/8/8/8/PPPPPPPP/PPPPKPPP w - - 0 1"),
        vec![Code::TooManyKings]
    );
}

#[test]
fn racing_kings_check_breaks_the_variant_rule() {
    assert_eq!(
        error_codes(&Variant::RacingKings, "8/8/8/8/8/8/k6R/7K b - - 0 1"),
        vec![Code::VariantRule]
    );
}

#[test]
fn antichess_castling_rights_are_refused_and_repaired_by_dropping_them() {
    let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let a = analyze(&Variant::Antichess, fen.as_bytes(), &Options::default());
    assert!(!a.is_valid());
    assert_eq!(a.diagnostics()[0].code, Code::VariantRule);
    assert_eq!(a.diagnostics()[0].span, Some(46..50));
    assert_eq!(
        a.repair().expect("repairable").fen(XFEN, LEGAL),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"
    );
    assert!(error_codes(&Variant::Giveaway, fen).is_empty());
}

#[test]
fn antichess_captures_are_compulsory_and_kings_promote() {
    let pos = valid(&Variant::Antichess, "8/4P3/8/8/3p4/2N5/8/8 b - - 0 1");
    assert_eq!(pos.legal_moves(Notation::Standard), vec!["d4c3".to_owned()]);
    let pos = valid(&Variant::Antichess, "8/4P3/8/8/8/8/8/k7 w - - 0 1");
    let moves = pos.legal_moves(Notation::Standard);
    assert!(moves.contains(&"e7e8k".to_owned()), "{moves:?}");
}

#[test]
fn castling_reads_in_both_notations_and_writes_in_each() {
    let pos = valid(
        &Variant::Crazyhouse,
        "r3k2r/8/8/8/8/8/8/R3K2R[] w KQkq - 0 1",
    );
    let standard = pos.read_move(b"e1g1", Notation::Standard).expect("O-O");
    let chess960 = pos.read_move(b"e1h1", Notation::Chess960).expect("O-O");
    assert_eq!(standard.mv, chess960.mv);
    assert_eq!(
        pos.write_move(standard.mv, Notation::Chess960)
            .0
            .to_string(),
        "e1h1"
    );
    assert_eq!(
        pos.write_move(standard.mv, Notation::Standard)
            .0
            .to_string(),
        "e1g1"
    );
}

#[test]
fn moves_are_read_with_the_chess_errors() {
    let pos = valid(&Variant::KingOfTheHill, "4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    assert!(matches!(
        pos.read_move(b"a7a8", Notation::Standard),
        Err(ReadError::MissingPromotion(_))
    ));
    assert_eq!(
        pos.read_move(b"e1e3", Notation::Standard),
        Err(ReadError::Illegal)
    );
    assert_eq!(
        pos.read_move(b"0000", Notation::Standard),
        Err(ReadError::Null)
    );
    assert_eq!(
        pos.read_move(b"e1", Notation::Standard),
        Err(ReadError::Syntax)
    );
    assert_eq!(
        pos.read_move(b"Q@e4", Notation::Standard),
        Err(ReadError::Illegal)
    );
}

#[test]
fn king_of_the_hill_is_over_with_a_king_in_the_centre() {
    let a = analyze(
        &Variant::KingOfTheHill,
        b"8/8/8/3k4/8/8/8/4K3 w - - 0 1",
        &Options::default(),
    );
    let pos = a.position().expect("valid");
    assert!(pos.is_game_over());
    assert!(pos.legal_moves(Notation::Standard).is_empty());
    assert_eq!(a.diagnostics()[0].code, Code::NoLegalMoves);
}

#[test]
fn standard_rules_refuse_a_chess960_castling_right() {
    let opts = Options {
        chess960_allowed: false,
        ..Options::default()
    };
    let a = analyze(&Variant::Atomic, b"4k3/8/8/8/8/8/8/1R2K3 w B - 0 1", &opts);
    assert_eq!(a.diagnostics()[0].code, Code::CastlingNeedsChess960);
    assert_eq!(
        a.repair().expect("repairable").fen(XFEN, LEGAL),
        "4k3/8/8/8/8/8/8/1R2K3 w - - 0 1"
    );
    let pos = valid(&Variant::Atomic, "4k3/8/8/8/8/8/8/1R2K3 w B - 0 1");
    assert!(pos.needs_chess960());
    assert_eq!(
        pos.fen(CastlingStyle::Shredder, LEGAL),
        "4k3/8/8/8/8/8/8/1R2K3 w B - 0 1"
    );
}

#[test]
fn a_non_8x8_variant_is_refused_without_a_panic() {
    let a = analyze(&Variant::Capablanca, b"whatever", &Options::default());
    assert!(!a.is_valid());
    assert_eq!(a.diagnostics()[0].code, Code::VariantRule);
}

#[test]
fn garbage_never_panics() {
    for input in [
        &b""[..],
        b"[",
        b"]",
        b"/////////",
        b"8/8/8/8/8/8/8/8[ w",
        b"\xff\xfe [] + ++ +1+ 1+",
        b"k7/8/8/8/8/8/8/7K w - - 3+3 0 1 +1+1",
    ] {
        for variant in [
            Variant::Crazyhouse,
            Variant::ThreeCheck,
            Variant::Horde,
            Variant::Antichess,
        ] {
            let a = analyze(&variant, input, &Options::default());
            assert!(!a.is_valid() || a.position().is_some());
        }
    }
}

#[test]
fn three_check_with_no_checks_left_points_at_the_counters() {
    let a = analyze(
        &Variant::ThreeCheck,
        b"4k3/8/8/8/8/8/8/4K3 w - - 0+0 0 1",
        &Options::default(),
    );
    assert!(!a.is_valid());
    assert_eq!(a.diagnostics()[0].code, Code::VariantRule);
    assert_eq!(a.diagnostics()[0].span, Some(26..29));
}

#[test]
fn missing_en_passant_field_keeps_the_counters_in_their_fields() {
    // Issue 9 class 4 in the variant path: `w - 0 120` is castling `-`, no en passant field,
    // halfmove clock 0, fullmove number 120 — never a halfmove clock of 120.
    let pos = valid(&Variant::KingOfTheHill, "4k3/8/8/8/8/8/8/Q3K3 w - 0 120");
    assert_eq!(pos.fen(XFEN, LEGAL), "4k3/8/8/8/8/8/8/Q3K3 w - - 0 120");
    let pos = valid(&Variant::Crazyhouse, "4k3/8/8/8/8/8/8/Q3K3[] w - 0 120");
    assert_eq!(pos.fen(XFEN, LEGAL), "4k3/8/8/8/8/8/8/Q3K3[] w - - 0 120");
    // A lone counter is read two ways: rejected, as for chess.
    assert!(
        error_codes(&Variant::Atomic, "4k3/8/8/8/8/8/8/Q3K3 w - - 120")
            .contains(&Code::MissingField)
    );
}
