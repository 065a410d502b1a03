//! Chess move legality from the attack tables, without move lists: [`is_legal`] gives
//! `shakmaty::Position::is_legal`'s answer for `shakmaty::Chess`, and [`castle`] its legal
//! castle on one side. The `position ... moves` hot path (SPEC 9, issue 17): shakmaty answers
//! `is_legal` by generating the candidate moves of the role to the square into a 256-entry
//! list; here a normal move or a castle is judged by the rules those generators apply, square
//! by square (en passant and drops are still asked of shakmaty). The answers are shakmaty's
//! for every move: `legality_tests` compares them over the moves of random games and
//! positions with checks, pins and castling rights, and the readers built on them against the
//! old `to_move` reading.
//!
//! ```
//! use fenguard::rules::legality;
//! use shakmaty::{Chess, Move, Position, Role, Square};
//!
//! let pos = Chess::default();
//! let e4 = Move::Normal {
//!     role: Role::Pawn,
//!     from: Square::E2,
//!     capture: None,
//!     to: Square::E4,
//!     promotion: None,
//! };
//! assert!(legality::is_legal(&pos, e4));
//! assert_eq!(legality::is_legal(&pos, e4), pos.is_legal(e4));
//! ```

use shakmaty::{Bitboard, Board, CastlingSide, Chess, Move, Position, Role, Square, attacks};

/// Whether `m` is legal in `pos`: exactly `pos.is_legal(m)` (shakmaty's generators'
/// answer), computed from the attack tables for normal moves and castles. (A `Chess` value
/// always has one king a side; without one, where shakmaty's generators would panic, no
/// normal move or castle is legal here.)
pub fn is_legal(pos: &Chess, m: Move) -> bool {
    match m {
        Move::Normal {
            role,
            from,
            capture,
            to,
            promotion,
        } => normal(pos, role, from, capture, to, promotion),
        Move::Castle { king, rook } => {
            let side = if king.file() < rook.file() {
                CastlingSide::KingSide
            } else {
                CastlingSide::QueenSide
            };
            castle(pos, side) == Some(m)
        }
        Move::EnPassant { .. } | Move::Put { .. } => pos.is_legal(m),
    }
}

/// The legal castle of the side to move on `side`, if any: what
/// `pos.castling_moves(side)` holds (at most one move).
pub fn castle(pos: &Chess, side: CastlingSide) -> Option<Move> {
    let board = pos.board();
    let turn = pos.turn();
    let king = board.king_of(turn)?;
    let rook = pos.castles().rook(turn, side)?;
    let occupied = board.occupied();
    if (pos.castles().path(turn, side) & occupied).any() {
        return None;
    }
    let king_to = side.king_to(turn);
    let after = occupied ^ king ^ rook ^ side.rook_to(turn);
    if board.attacks_to(king_to, !turn, after).any() {
        return None;
    }
    let without_king = occupied ^ king;
    let path = attacks::between(king, king_to).with(king);
    if path
        .into_iter()
        .any(|sq| board.attacks_to(sq, !turn, without_king).any())
    {
        return None;
    }
    Some(Move::Castle { king, rook })
}

/// The legal normal move of the piece on `from` (not a king) to `to` with `promotion`, as
/// shakmaty's `UciMove::to_move` reads it (the capture is what stands on `to`), when the side
/// to move is not in check. `None` when it is not legal, and whenever the answer needs more
/// than this: the side to move is in check, or shakmaty would read the text as another kind
/// of move (a king's move, which may be a castle; a pawn's diagonal step to an empty square,
/// en passant). The move lists' fast path: `None` sends the text to the full reading.
pub(crate) fn plain_move(
    pos: &Chess,
    from: Square,
    to: Square,
    promotion: Option<Role>,
) -> Option<Move> {
    let board = pos.board();
    let turn = pos.turn();
    let us = board.by_color(turn);
    if !us.contains(from) || us.contains(to) {
        return None;
    }
    let role = board.role_at(from)?;
    let capture = board.role_at(to);
    let occupied = board.occupied();
    let reaches = match role {
        Role::King => return None,
        Role::Pawn if from.file() != to.file() && capture.is_none() => return None,
        Role::Pawn => pawn_reaches(pos, from, to, promotion, occupied),
        _ if promotion.is_some() => false,
        Role::Knight => attacks::knight_attacks(from).contains(to),
        Role::Bishop => attacks::bishop_attacks(from, occupied).contains(to),
        Role::Rook => attacks::rook_attacks(from, occupied).contains(to),
        Role::Queen => attacks::queen_attacks(from, occupied).contains(to),
    };
    if !reaches {
        return None;
    }
    let king = board.king_of(turn)?;
    if board.attacks_to(king, !turn, occupied).any()
        || (pinned(board, pos.them(), king, from) && !attacks::aligned(from, to, king))
    {
        return None;
    }
    Some(Move::Normal {
        role,
        from,
        capture,
        to,
        promotion,
    })
}

/// A normal move's legality by the rules of shakmaty's `san_candidates` (no check) and
/// `evasions` (check), then its pin filter.
fn normal(
    pos: &Chess,
    role: Role,
    from: Square,
    capture: Option<Role>,
    to: Square,
    promotion: Option<Role>,
) -> bool {
    // shakmaty's candidates name what stands on the target as the capture.
    let board = pos.board();
    board.role_at(from) == Some(role)
        && board.role_at(to) == capture
        && normal_of_role(pos, role, from, to, promotion)
}

/// [`normal`] for the `role` that stands on `from`.
fn normal_of_role(
    pos: &Chess,
    role: Role,
    from: Square,
    to: Square,
    promotion: Option<Role>,
) -> bool {
    let board = pos.board();
    let turn = pos.turn();
    let us = pos.us();
    // shakmaty's candidates move a piece of ours, never onto one of ours.
    if !us.contains(from) || us.contains(to) {
        return false;
    }
    let Some(king) = board.king_of(turn) else {
        return false;
    };
    if role == Role::King
        && (promotion.is_some() || from != king || !attacks::king_attacks(king).contains(to))
    {
        return false;
    }
    let occupied = board.occupied();
    let checkers = board.attacks_to(king, !turn, occupied);
    if role == Role::King {
        // In check, the squares behind the king on a checking slider's line stay attacked.
        let mut attacked = Bitboard(0);
        (checkers & board.sliders()).for_each(|checker| {
            attacked |= attacks::ray(checker, king) ^ checker;
        });
        return !attacked.contains(to) && board.attacks_to(to, !turn, occupied).is_empty();
    }
    if checkers.more_than_one() {
        return false;
    }
    if let Some(checker) = checkers.single_square()
        && !attacks::between(king, checker).with(checker).contains(to)
    {
        return false;
    }
    let reaches = match role {
        Role::Pawn => pawn_reaches(pos, from, to, promotion, occupied),
        _ if promotion.is_some() => false,
        Role::Knight => attacks::knight_attacks(from).contains(to),
        Role::Bishop => attacks::bishop_attacks(from, occupied).contains(to),
        Role::Rook => attacks::rook_attacks(from, occupied).contains(to),
        Role::Queen => attacks::queen_attacks(from, occupied).contains(to),
        Role::King => false,
    };
    reaches && (!pinned(board, pos.them(), king, from) || attacks::aligned(from, to, king))
}

/// Whether the pawn on `from` moves to `to` with `promotion` as shakmaty's `gen_pawn_moves`
/// generates it: a capture of theirs diagonally forward, a push to an empty square, a double
/// push through an empty square into its own half; a piece (queen, rook, bishop or knight)
/// exactly when the target is a back rank.
fn pawn_reaches(
    pos: &Chess,
    from: Square,
    to: Square,
    promotion: Option<Role>,
    occupied: Bitboard,
) -> bool {
    let promotes = Bitboard::BACKRANKS.contains(to);
    let piece_ok = match promotion {
        None => !promotes,
        Some(Role::Queen | Role::Rook | Role::Bishop | Role::Knight) => promotes,
        Some(_) => false,
    };
    if !piece_ok {
        return false;
    }
    let turn = pos.turn();
    if attacks::pawn_attacks(turn, from).contains(to) {
        return pos.them().contains(to);
    }
    if occupied.contains(to) {
        return false;
    }
    let up = turn.fold_wb(8, -8);
    let Some(one) = from.offset(up) else {
        return false;
    };
    to == one
        || (from.offset(2 * up) == Some(to)
            && !occupied.contains(one)
            && turn.fold_wb(Bitboard::SOUTH, Bitboard::NORTH).contains(to))
}

/// Whether `from` (not the king's square) is in shakmaty's `slider_blockers`: the only piece
/// between `king` and an enemy slider on their common line (rook or queen on a rank or file,
/// bishop or queen on a diagonal).
fn pinned(board: &Board, enemy: Bitboard, king: Square, from: Square) -> bool {
    let line = attacks::ray(king, from);
    if line.is_empty() {
        return false;
    }
    let sliders = if king.file() == from.file() || king.rank() == from.rank() {
        board.rooks_and_queens()
    } else {
        board.bishops_and_queens()
    };
    let alone = Bitboard::from_square(from);
    (line & sliders & enemy)
        .into_iter()
        .any(|sniper| attacks::between(king, sniper) & board.occupied() == alone)
}

#[cfg(test)]
#[path = "legality_tests.rs"]
mod tests;
