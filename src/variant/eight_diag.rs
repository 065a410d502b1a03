//! shakmaty's verdict on an 8x8 variant position (`PositionErrorKinds`) as diagnostics in
//! the board's own terms, with the repairs SPEC section 6 allows (drop a castling right or
//! the en passant square).

use std::ops::Range;

use shakmaty::{
    Bitboard, Board, Castles, CastlingMode, Color, PositionErrorKinds, Rank, Role, Setup, Square,
};

use super::Variant;
use crate::fen::{Code, Diagnostic, Severity};

/// Where things are in the input, for spans (input offsets).
pub(crate) struct Places {
    /// The placement field.
    pub placement: Range<usize>,
    /// The castling field, when written.
    pub castling: Option<Range<usize>>,
    /// The en passant field, when written.
    pub ep: Option<Range<usize>>,
    /// The three-check counters, when written.
    pub checks: Option<Range<usize>>,
    /// The input offset of the letter of each piece.
    pub piece_at: [usize; 64],
}

impl Places {
    fn square(&self, sq: Square) -> Option<Range<usize>> {
        let at = self.piece_at[sq as usize];
        Some(at..at + 1)
    }
}

/// The diagnostics for shakmaty's `errors` about `setup` in `variant`.
pub(crate) fn diagnose(
    variant: &Variant,
    setup: &Setup,
    errors: PositionErrorKinds,
    places: &Places,
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let board = &setup.board;
    let name = variant.uci_name();
    let mut error = |code: Code, span: Option<Range<usize>>, message: String| {
        out.push(Diagnostic::new(code, Severity::Error, span, message));
    };
    if errors.contains(PositionErrorKinds::EMPTY_BOARD) {
        error(
            Code::VariantRule,
            Some(places.placement.clone()),
            format!("the board is empty; {name} needs pieces on it"),
        );
    }
    if errors.contains(PositionErrorKinds::MISSING_KING) {
        for color in Color::ALL {
            if (board.kings() & board.by_color(color)).is_empty()
                && !(*variant == Variant::Horde && color == Color::White)
            {
                error(
                    Code::MissingKing,
                    Some(places.placement.clone()),
                    format!("there is no {color} king; {name} needs exactly one"),
                );
            }
        }
    }
    if errors.contains(PositionErrorKinds::TOO_MANY_KINGS) {
        for color in Color::ALL {
            let kings = board.kings() & board.by_color(color);
            let in_pocket = setup.pockets.is_some_and(|p| p[color].king > 0);
            if *variant == Variant::Horde && color == Color::White && kings.any() {
                for sq in kings {
                    error(
                        Code::TooManyKings,
                        places.square(sq),
                        format!(
                            "a white king on {sq}; in horde White has pawns and pieces, no king"
                        ),
                    );
                }
            } else if kings.more_than_one() {
                for sq in kings.into_iter().skip(1) {
                    error(
                        Code::TooManyKings,
                        places.square(sq),
                        format!(
                            "{} {color} kings; expected exactly one (another on {sq})",
                            kings.count()
                        ),
                    );
                }
            } else if in_pocket {
                error(
                    Code::BadPocket,
                    Some(places.placement.clone()),
                    format!("a {color} king in the pocket; kings are never captured into a pocket"),
                );
            }
        }
    }
    if errors.contains(PositionErrorKinds::PAWNS_ON_BACKRANK) {
        for sq in board.pawns() & Bitboard::BACKRANKS {
            let white = board.white().contains(sq);
            if *variant == Variant::Horde && white && sq.rank() == Rank::First {
                continue;
            }
            error(
                Code::PawnOnBackRank,
                places.square(sq),
                format!(
                    "pawn on {sq}; pawns cannot stand on rank {}",
                    sq.rank().char()
                ),
            );
        }
    }
    if errors.contains(PositionErrorKinds::INVALID_CASTLING_RIGHTS) {
        castling(variant, setup, places, &mut out);
    }
    if errors.contains(PositionErrorKinds::INVALID_EP_SQUARE) {
        out.push(ep(variant, setup, places));
    }
    let mut error = |code: Code, span: Option<Range<usize>>, message: String| {
        out.push(Diagnostic::new(code, Severity::Error, span, message));
    };
    if errors.contains(PositionErrorKinds::OPPOSITE_CHECK) {
        let them = !setup.turn;
        let king = (board.kings() & board.by_color(them)).first();
        error(
            Code::OppositeCheck,
            king.and_then(|k| places.square(k)),
            format!("the {them} king is in check, but {} is to move", setup.turn),
        );
    }
    if errors.contains(PositionErrorKinds::IMPOSSIBLE_CHECK) {
        let (code, message) = match variant {
            Variant::RacingKings => (
                Code::VariantRule,
                "a king is in check; in racingkings no move may give check".to_owned(),
            ),
            _ => (
                Code::ImpossibleCheck,
                format!(
                    "the {} king is checked by {} pieces that no single move can have uncovered",
                    setup.turn,
                    checkers(setup)
                ),
            ),
        };
        error(code, Some(places.placement.clone()), message);
    }
    if errors.contains(PositionErrorKinds::TOO_MUCH_MATERIAL) {
        let message = match variant {
            Variant::RacingKings => "racingkings allows each side at most one queen and two rooks, bishops and knights".to_owned(),
            Variant::Crazyhouse => "more pieces on the board and in the pockets than two chess sets hold (16 pawns, 4 knights, bishops and rooks, 2 queens; promoted pieces count as pawns)".to_owned(),
            Variant::Horde => "too much material: the horde has at most 36 pieces, Black at most 16 pieces and 8 pawns".to_owned(),
            _ => "too much material: at most 16 pieces and 8 pawns a side, and no more pieces than promotions allow".to_owned(),
        };
        error(
            Code::TooMuchMaterial,
            Some(places.placement.clone()),
            message,
        );
    }
    if errors.contains(PositionErrorKinds::VARIANT) {
        let (span, message) = match variant {
            Variant::RacingKings if board.pawns().any() => (
                Some(places.placement.clone()),
                "racingkings has no pawns".to_owned(),
            ),
            Variant::RacingKings => (
                Some(places.placement.clone()),
                "both kings on rank 8 with Black to move: the race is already over".to_owned(),
            ),
            Variant::ThreeCheck => (
                places.checks.clone(),
                "no checks remaining for either side; one side wins on its third check".to_owned(),
            ),
            Variant::Crazyhouse => (
                Some(places.placement.clone()),
                "more than 64 pieces on the board and in the pockets".to_owned(),
            ),
            _ => (
                Some(places.placement.clone()),
                format!("the position breaks a rule of {name}"),
            ),
        };
        error(Code::VariantRule, span, message);
    }
    out
}

/// Castling rights shakmaty does not keep: in antichess and racing kings none exist; else
/// each right without its rook or king, or not the outermost rook.
fn castling(variant: &Variant, setup: &Setup, places: &Places, out: &mut Vec<Diagnostic>) {
    let span = places.castling.clone();
    let fix = "drop the castling right";
    match variant {
        Variant::Antichess | Variant::RacingKings => {
            let why = match variant {
                Variant::Antichess => "antichess has no castling",
                _ => "racingkings has no castling",
            };
            out.push(
                Diagnostic::new(
                    Code::VariantRule,
                    Severity::Error,
                    span,
                    format!("castling rights: {why}"),
                )
                .with_fix("drop the castling rights"),
            );
            return;
        }
        _ => {}
    }
    let kept = match variant {
        Variant::Giveaway => super::giveaway::castles(setup),
        _ => Castles::from_setup(setup, CastlingMode::Chess960),
    }
    .unwrap_or_else(|c| c)
    .castling_rights();
    let board = &setup.board;
    for sq in setup.castling_rights & !kept {
        let color = if sq.rank() == Rank::First {
            Color::White
        } else {
            Color::Black
        };
        let (code, message) = rook_fault(board, color, sq);
        out.push(Diagnostic::new(code, Severity::Error, span.clone(), message).with_fix(fix));
    }
}

fn rook_fault(board: &Board, color: Color, sq: Square) -> (Code, String) {
    if !board.by_piece(Role::Rook.of(color)).contains(sq) {
        let found = board.piece_at(sq).map_or_else(
            || "it is empty".to_owned(),
            |p| format!("it holds a {} {:?}", p.color, p.role).to_lowercase(),
        );
        return (
            Code::CastlingWithoutRook,
            format!("castling right for a {color} rook on {sq}, but {found}"),
        );
    }
    let king =
        (board.kings() & board.by_color(color) & Bitboard::from_rank(color.backrank())).first();
    match king {
        None => (
            Code::CastlingWithoutKing,
            format!(
                "castling right for the rook on {sq}, but the {color} king is not on rank {}",
                color.backrank().char()
            ),
        ),
        Some(_) => (
            Code::ConflictingCastlingRights,
            format!(
                "castling right for the rook on {sq}, but only the outermost rook on each side of the {color} king can castle"
            ),
        ),
    }
}

/// The en passant square shakmaty refuses, diagnosed as the chess core does.
fn ep(variant: &Variant, setup: &Setup, places: &Places) -> Diagnostic {
    let span = places.ep.clone();
    let turn = setup.turn;
    let board = &setup.board;
    let fix = "drop the en passant square";
    let Some(sq) = setup.ep_square else {
        return Diagnostic::new(
            Code::EpWithoutPawn,
            Severity::Error,
            span,
            "en passant square".to_owned(),
        );
    };
    let expected = turn.fold_wb(Rank::Sixth, Rank::Third);
    let pushed_to = sq.xor(Square::A2);
    let pushed_from = sq.xor(Square::A4);
    let (code, message) = if *variant == Variant::RacingKings {
        (
            Code::VariantRule,
            format!("en passant square {sq}; racingkings has no pawns"),
        )
    } else if sq.rank() != expected {
        (
            Code::EpSquareWrongRank,
            format!(
                "en passant square {sq} with {turn} to move; expected a square on rank {}",
                expected.char()
            ),
        )
    } else if !board.by_piece(Role::Pawn.of(!turn)).contains(pushed_to) {
        (
            Code::EpWithoutPawn,
            format!(
                "en passant square {sq}, but no {} pawn stands on {pushed_to}",
                !turn
            ),
        )
    } else {
        (
            Code::EpSquareOccupied,
            format!(
                "en passant square {sq}, but {sq} or {pushed_from} is occupied; the pawn cannot have just passed it"
            ),
        )
    };
    Diagnostic::new(code, Severity::Error, span, message).with_fix(fix)
}

/// How many pieces check the king of the side to move.
fn checkers(setup: &Setup) -> usize {
    let board = &setup.board;
    (board.kings() & board.by_color(setup.turn))
        .first()
        .map_or(0, |k| {
            board.attacks_to(k, !setup.turn, board.occupied()).count()
        })
}

/// python-chess 1.11.2's material rule (`STATUS_TOO_MANY_*`): at most 16 pieces and 8 pawns
/// a side; the horde at most 36 pieces; in crazyhouse only beyond 32 pieces or 16 pawns on
/// the board and in the pockets together.
pub(crate) fn too_much_material(variant: &Variant, setup: &Setup) -> bool {
    let board = &setup.board;
    let (mut pieces_over, mut pawns_over) = (false, false);
    for color in Color::ALL {
        let pieces = board.by_color(color).count();
        let pawns = (board.pawns() & board.by_color(color)).count();
        if *variant == Variant::Horde && color == Color::White {
            pieces_over |= pieces > 36;
        } else {
            pieces_over |= pieces > 16;
            pawns_over |= pawns > 8;
        }
    }
    if let (Variant::Crazyhouse, Some(pockets)) = (variant, &setup.pockets) {
        let in_pockets: usize = Color::ALL
            .into_iter()
            .map(|c| pockets[c].iter().map(|&n| usize::from(n)).sum::<usize>())
            .sum();
        let pawns = usize::from(pockets.white.pawn) + usize::from(pockets.black.pawn);
        pieces_over &= board.occupied().count() + in_pockets > 32;
        pawns_over &= board.pawns().count() + pawns > 16;
    }
    pieces_over || pawns_over
}
