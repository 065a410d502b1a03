//! UCI moves in an 8x8 variant: drops (`P@e4`), king promotions (`e7e8k`, antichess) and
//! castling in both notations, read and written by the rules of `uci::castling` (its king-move
//! reading is generic over shakmaty positions).

use shakmaty::uci::UciMove;
use shakmaty::{Move, Position};

use crate::uci::castling::{Notation, ReadError, Reading, read_board_move};

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
    read_board_move(pos, uci, from, to, promotion, notation)
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
