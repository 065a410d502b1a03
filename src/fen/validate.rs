//! Semantic validation of a parsed 8x8 position, mirroring python-chess 1.11.2
//! `Board.status()` (with `chess960=True`): kings, pawns on the back rank, material, castling
//! rights, the en passant square, the side not to move in check, impossible checks.
//! shakmaty supplies the attack tables.

use std::ops::Range;

use shakmaty::{Bitboard, Board, Color, Rank, Role, Square, attacks};

use super::castling::{self, Requested};
use super::diagnostic::{Code, Severity};
use super::sink::Sink;

/// What validation keeps of a position.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Checked {
    /// The castling rights the position can have.
    pub rights: Bitboard,
    /// The en passant square, when it is valid and explains any check.
    pub ep: Option<Square>,
}

/// Where things are in the input, for spans.
pub(crate) struct Places<'a> {
    pub piece_at: &'a [u32; 64],
    pub placement: Range<usize>,
    pub ep: Option<Range<usize>>,
    /// Pieces marked promoted (`~`); a promoted king is not a king for checks and castling.
    pub promoted: Bitboard,
}

impl Places<'_> {
    fn square(&self, sq: Square) -> Option<Range<usize>> {
        let at = self.piece_at[sq as usize] as usize;
        Some(at..at + 1)
    }
}

/// Validates; records diagnostics and returns what survives. In lean mode it may stop at the
/// first error (the result is then meaningless: the input is invalid).
pub(crate) fn validate(
    board: &Board,
    turn: Color,
    req: &Requested,
    ep: Option<Square>,
    standard: bool,
    places: &Places<'_>,
    diags: &mut Sink,
) -> Checked {
    let mut kings_ok = true;
    for color in Color::ALL {
        let kings = board.kings() & board.by_color(color);
        if kings.is_empty() {
            kings_ok = false;
            diags.add(
                Code::MissingKing,
                Severity::Error,
                Some(places.placement.clone()),
                || format!("there is no {color} king; expected exactly one"),
            );
        } else if kings.more_than_one() {
            kings_ok = false;
            for sq in kings.into_iter().skip(1) {
                diags.add(
                    Code::TooManyKings,
                    Severity::Error,
                    places.square(sq),
                    || {
                        format!(
                            "{} {color} kings; expected exactly one (another on {sq})",
                            kings.count()
                        )
                    },
                );
            }
        }
        let pieces = board.by_color(color).count();
        let pawns = (board.pawns() & board.by_color(color)).count();
        if pieces > 16 || pawns > 8 {
            diags.add(
                Code::TooMuchMaterial,
                Severity::Error,
                Some(places.placement.clone()),
                || format!("{color} has {pieces} pieces and {pawns} pawns; expected at most 16 pieces and 8 pawns"),
            );
        }
    }
    for sq in board.pawns() & Bitboard::BACKRANKS {
        diags.add(
            Code::PawnOnBackRank,
            Severity::Error,
            places.square(sq),
            || format!("pawn on {sq}; pawns cannot stand on rank 1 or 8"),
        );
    }
    let stopped = Checked {
        rights: Bitboard::EMPTY,
        ep: None,
    };
    if diags.done() {
        return stopped;
    }

    let rights = castling::clean(req, board, places.promoted, standard, diags);
    let mut valid_ep = ep.filter(|&sq| check_ep(board, turn, sq, places, diags));
    if diags.done() {
        return stopped;
    }

    if kings_ok {
        let them = board.kings() & board.by_color(!turn) & !places.promoted;
        if let Some(their_king) = them.last()
            && board.attacks_to(their_king, turn, board.occupied()).any()
        {
            diags.add(
                Code::OppositeCheck,
                Severity::Error,
                places.square(their_king),
                || {
                    format!(
                        "the {} king on {their_king} is in check, but {turn} is to move",
                        !turn
                    )
                },
            );
            if diags.done() {
                return stopped;
            }
        }
        if let Some(our_king) = (board.kings() & board.by_color(turn) & !places.promoted).last() {
            let checkers = board.attacks_to(our_king, !turn, board.occupied());
            let without_ep = impossible_check(board, turn, our_king, checkers, None);
            let with_ep =
                valid_ep.is_some() && impossible_check(board, turn, our_king, checkers, valid_ep);
            if without_ep {
                diags.add(
                    Code::ImpossibleCheck,
                    Severity::Error,
                    places.square(our_king),
                    || {
                        format!(
                            "the {turn} king on {our_king} is checked by {} pieces that no single move can have uncovered",
                            checkers.count()
                        )
                    },
                );
            } else if with_ep {
                diags
                    .add(Code::ImpossibleCheck, Severity::Error, places.ep.clone(), || {
                        format!(
                            "the {turn} king on {our_king} is in check, which the double pawn push the en passant square implies cannot have given"
                        )
                    })
                    .fix("drop the en passant square");
                valid_ep = None;
            }
        }
    }
    Checked {
        rights,
        ep: valid_ep,
    }
}

/// python-chess `_valid_ep_square`; pushes the reason when the square is not valid.
fn check_ep(board: &Board, turn: Color, sq: Square, places: &Places<'_>, diags: &mut Sink) -> bool {
    let expected = turn.fold_wb(Rank::Sixth, Rank::Third);
    let mut fail = |code: Code, message: &dyn Fn() -> String| {
        diags
            .add(code, Severity::Error, places.ep.clone(), message)
            .fix("drop the en passant square");
        false
    };
    if sq.rank() != expected {
        return fail(Code::EpSquareWrongRank, &|| {
            format!(
                "en passant square {sq} with {turn} to move; expected a square on rank {}",
                expected.char()
            )
        });
    }
    let pushed_to = sq.xor(Square::A2);
    let pushed_from = sq.xor(Square::A4);
    if !board.by_piece(Role::Pawn.of(!turn)).contains(pushed_to) {
        return fail(Code::EpWithoutPawn, &|| {
            format!(
                "en passant square {sq}, but no {} pawn stands on {pushed_to}",
                !turn
            )
        });
    }
    for occupied in [sq, pushed_from] {
        if board.occupied().contains(occupied) {
            return fail(Code::EpSquareOccupied, &|| {
                format!(
                    "en passant square {sq}, but {occupied} is occupied; the pawn cannot have just passed it"
                )
            });
        }
    }
    true
}

/// python-chess `status()` `STATUS_IMPOSSIBLE_CHECK` (and too many checkers), and, stricter
/// than python-chess 1.11.2 as its later versions and shakmaty's `validate` are, two stepping
/// checkers (knights, pawns, kings): no single move gives that check (SPEC 15, the rule of
/// every 8x8 variant).
fn impossible_check(
    board: &Board,
    turn: Color,
    king: Square,
    checkers: Bitboard,
    ep: Option<Square>,
) -> bool {
    let (Some(first), Some(last)) = (checkers.first(), checkers.last()) else {
        return false;
    };
    let count = checkers.count();
    match ep {
        Some(ep) => {
            let pushed_to = ep.xor(Square::A2);
            let pushed_from = ep.xor(Square::A4);
            let before = board.occupied().without(pushed_to).with(pushed_from);
            count > 1 || (last != pushed_to && board.attacks_to(king, !turn, before).any())
        }
        None => {
            count > 2
                || (count == 2 && attacks::ray(first, last).contains(king))
                || (checkers & board.steppers()).more_than_one()
        }
    }
}
