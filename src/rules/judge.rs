//! How the chess readers ([`super::chess`]) ask a position about legality: [`Judge`], with
//! [`Shakmaty`] asking the shakmaty position itself (`is_legal`, `castling_moves`,
//! `UciMove::to_move`: every shakmaty position, the 8x8 variants included) and [`Tables`]
//! answering chess from the attack tables ([`legality`]: the same answers without move
//! lists); and [`plain_text`], the parse of the plainest UCI texts for the move lists' fast
//! path.

use shakmaty::uci::UciMove;
use shakmaty::{CastlingSide, Chess, File, Move, Position, Rank, Role, Square};

use super::chess::{back_rank, read_by};
use super::legality;
use crate::uci::Notation;

/// The questions reading a move asks of a position: [`Shakmaty`] asks the position itself
/// (every shakmaty position, the 8x8 variants included); [`Tables`] answers chess from the
/// attack tables ([`legality`], the same answers without move lists).
pub(super) trait Judge<P: Position> {
    /// Whether `m` is legal (`Position::is_legal`).
    fn is_legal(pos: &P, m: Move) -> bool;
    /// The legal castle of the king on `king` on `side` (from `Position::castling_moves`).
    fn castle(pos: &P, side: CastlingSide, king: Square) -> Option<Move>;
    /// The legal move a UCI move names (`UciMove::to_move`).
    fn to_move(pos: &P, uci: UciMove) -> Option<Move>;
    /// Whether `standard`, the two-square text of the legal castle `castle` (its king moves),
    /// reads back in standard notation as that castle.
    fn reads_back(pos: &P, castle: Move, standard: UciMove) -> bool
    where
        Self: Sized,
    {
        matches!(read_by::<P, Self>(pos, standard, Notation::Standard), Ok(r) if r.mv == castle)
    }
}

/// Legality asked of the shakmaty position.
pub(super) struct Shakmaty;

impl<P: Position> Judge<P> for Shakmaty {
    fn is_legal(pos: &P, m: Move) -> bool {
        pos.is_legal(m)
    }

    fn castle(pos: &P, side: CastlingSide, king: Square) -> Option<Move> {
        pos.castling_moves(side)
            .into_iter()
            .find(|m| matches!(m, Move::Castle { king: k, .. } if *k == king))
    }

    fn to_move(pos: &P, uci: UciMove) -> Option<Move> {
        uci.to_move(pos).ok()
    }
}

/// Chess legality from the attack tables ([`legality`]).
pub(super) struct Tables;

impl Judge<Chess> for Tables {
    fn is_legal(pos: &Chess, m: Move) -> bool {
        legality::is_legal(pos, m)
    }

    fn castle(pos: &Chess, side: CastlingSide, king: Square) -> Option<Move> {
        legality::castle(pos, side)
            .filter(|m| matches!(m, Move::Castle { king: k, .. } if *k == king))
    }

    fn to_move(pos: &Chess, uci: UciMove) -> Option<Move> {
        let candidate = match uci {
            UciMove::Normal {
                from,
                to,
                promotion,
            } => candidate(pos, from, to, promotion)?,
            UciMove::Put { .. } | UciMove::Null => return uci.to_move(pos).ok(),
        };
        legality::is_legal(pos, candidate).then_some(candidate)
    }

    /// The reading of `read_king_move` without asking what `castle`'s legality already
    /// answers: the text names a square with a castling rook of ours (then it reads as the
    /// castle onto that rook), or it reads as the castle toward that square (the one legal
    /// castle of that side, `castle`) unless it is also a legal king move.
    fn reads_back(pos: &Chess, castle: Move, standard: UciMove) -> bool {
        let (Move::Castle { king, rook }, Some(to)) = (castle, standard.to()) else {
            return false;
        };
        if (pos.castles().castling_rights() & pos.us()).contains(to) {
            return to == rook;
        }
        let ordinary = Move::Normal {
            role: Role::King,
            from: king,
            capture: pos.board().role_at(to),
            to,
            promotion: None,
        };
        !legality::is_legal(pos, ordinary)
    }
}

/// The move shakmaty's `UciMove::to_move` judges for `from` `to` `promotion` (its code): a king
/// taking its own rook with that right or making the two-square move from its e-file square
/// is a castle, a pawn moving diagonally to an empty square en passant, anything else a normal
/// move; `None` for an empty `from` or a promotion of a piece.
fn candidate(pos: &Chess, from: Square, to: Square, promotion: Option<Role>) -> Option<Move> {
    let role = pos.board().role_at(from)?;
    if promotion.is_some() && role != Role::Pawn {
        return None;
    }
    let turn = pos.turn();
    Some(
        if role == Role::King && (pos.castles().castling_rights() & pos.us()).contains(to) {
            Move::Castle {
                king: from,
                rook: to,
            }
        } else if role == Role::King
            && from == turn.fold_wb(Square::E1, Square::E8)
            && to.rank() == back_rank(pos)
            && from.distance(to) == 2
        {
            let rook = if from.file() < to.file() {
                turn.fold_wb(Square::H1, Square::H8)
            } else {
                turn.fold_wb(Square::A1, Square::A8)
            };
            Move::Castle { king: from, rook }
        } else if role == Role::Pawn
            && from.file() != to.file()
            && !pos.board().occupied().contains(to)
        {
            Move::EnPassant { from, to }
        } else {
            Move::Normal {
                role,
                from,
                capture: pos.board().role_at(to),
                to,
                promotion,
            }
        },
    )
}

/// The squares and piece of a UCI text of the plainest form, `[a-h][1-8][a-h][1-8]` and
/// perhaps a promotion letter (`qrbn`, either case), as `UciMove::from_ascii` reads it;
/// `None` for any other text (the full reading parses it).
pub(super) fn plain_text(text: &[u8]) -> Option<(Square, Square, Option<Role>)> {
    let square = |file: u8, rank: u8| {
        let (file, rank) = (file.wrapping_sub(b'a'), rank.wrapping_sub(b'1'));
        (file < 8 && rank < 8)
            .then(|| Square::from_coords(File::new(file.into()), Rank::new(rank.into())))
    };
    let promotion = match text {
        [_, _, _, _] => None,
        [_, _, _, _, letter] => Some(match letter.to_ascii_lowercase() {
            b'q' => Role::Queen,
            b'r' => Role::Rook,
            b'b' => Role::Bishop,
            b'n' => Role::Knight,
            _ => return None,
        }),
        _ => return None,
    };
    Some((
        square(text[0], text[1])?,
        square(text[2], text[3])?,
        promotion,
    ))
}
