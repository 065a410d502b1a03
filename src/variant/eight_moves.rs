//! UCI moves in an 8x8 variant: drops (`P@e4`), king promotions (`e7e8k`, antichess) and
//! castling in both notations, read and written by the rules of `uci::castling` (which works
//! on `shakmaty::Chess`; the same rules here on any shakmaty position).

use shakmaty::uci::UciMove;
use shakmaty::{CastlingSide, File, Move, Position, Rank, Role, Square};

use crate::uci::castling::{Notation, ReadError, Reading};

fn back_rank<P: Position>(pos: &P) -> Rank {
    pos.turn().fold_wb(Rank::First, Rank::Eighth)
}

/// The legal castle of the king on `from` toward the castling square `to`, if `to` is one.
fn castle_toward<P: Position>(pos: &P, from: Square, to: Square) -> Option<Move> {
    if to.rank() != back_rank(pos) || from.rank() != to.rank() {
        return None;
    }
    let side = match to.file() {
        File::G => CastlingSide::KingSide,
        File::C => CastlingSide::QueenSide,
        _ => return None,
    };
    pos.castling_moves(side)
        .into_iter()
        .find(|m| matches!(m, Move::Castle { king, .. } if *king == from))
}

fn read_king_move<P: Position>(
    pos: &P,
    from: Square,
    to: Square,
    notation: Notation,
) -> Option<Reading> {
    if (pos.castles().castling_rights() & pos.us()).contains(to) {
        let castle = Move::Castle {
            king: from,
            rook: to,
        };
        return pos.is_legal(castle).then_some(Reading {
            mv: castle,
            ambiguous: false,
        });
    }
    let ordinary = Move::Normal {
        role: Role::King,
        from,
        capture: pos.board().role_at(to),
        to,
        promotion: None,
    };
    let ordinary = (from != to && pos.is_legal(ordinary)).then_some(ordinary);
    let castle = castle_toward(pos, from, to);
    let castle = match notation {
        Notation::Standard => castle,
        Notation::Chess960 => castle.filter(|m| match *m {
            Move::Castle { king, rook } => {
                king.file() == File::E
                    && king.distance(to) == 2
                    && matches!(rook.file(), File::A | File::H)
            }
            _ => false,
        }),
    };
    match (ordinary, castle) {
        (Some(mv), Some(_)) => Some(Reading {
            mv,
            ambiguous: notation == Notation::Standard,
        }),
        (Some(mv), None) | (None, Some(mv)) => Some(Reading {
            mv,
            ambiguous: false,
        }),
        (None, None) => None,
    }
}

/// Finds the legal move `uci` means in `pos`, read in `notation` (the rules of
/// [`crate::uci::castling`]); drops are legal where the variant allows them.
///
/// # Errors
/// [`ReadError`]: `Null` for `0000`, `MissingPromotion` for a pawn move to the last rank
/// without a piece (holding the queen promotion), `Illegal` otherwise.
pub(crate) fn read_uci<P: Position>(
    pos: &P,
    uci: UciMove,
    notation: Notation,
) -> Result<Reading, ReadError> {
    let (from, to, promotion) = match uci {
        UciMove::Normal {
            from,
            to,
            promotion,
        } => (from, to, promotion),
        UciMove::Null => return Err(ReadError::Null),
        UciMove::Put { .. } => {
            return uci
                .to_move(pos)
                .map(|mv| Reading {
                    mv,
                    ambiguous: false,
                })
                .map_err(|_| ReadError::Illegal);
        }
    };
    let role = pos.board().role_at(from).ok_or(ReadError::Illegal)?;
    if role == Role::King && promotion.is_none() && pos.us().contains(from) {
        return read_king_move(pos, from, to, notation).ok_or(ReadError::Illegal);
    }
    match uci.to_move(pos) {
        Ok(mv) => Ok(Reading {
            mv,
            ambiguous: false,
        }),
        Err(_) => {
            let last = pos.turn().fold_wb(Rank::Eighth, Rank::First);
            if role == Role::Pawn && promotion.is_none() && to.rank() == last {
                let queen = UciMove::Normal {
                    from,
                    to,
                    promotion: Some(Role::Queen),
                };
                if let Ok(mv) = queen.to_move(pos) {
                    return Err(ReadError::MissingPromotion(mv));
                }
            }
            Err(ReadError::Illegal)
        }
    }
}

/// Writes the legal move `mv` of `pos` in `notation`; the flag says a castle was written as
/// king-takes-rook in standard notation because its standard form reads as another move.
pub(crate) fn write_uci<P: Position>(pos: &P, mv: Move, notation: Notation) -> (UciMove, bool) {
    let chess960 = UciMove::from_chess960(mv);
    match (mv, notation) {
        (Move::Castle { king, .. }, Notation::Standard) => {
            let standard = UciMove::from_standard(mv);
            if standard.to() == Some(king) {
                return (chess960, true);
            }
            match read_uci(pos, standard, Notation::Standard) {
                Ok(r) if r.mv == mv => (standard, false),
                _ => (chess960, true),
            }
        }
        _ => (chess960, false),
    }
}
