//! Read and write UCI moves in the two castling notations, finding the legal move a text means.
//!
//! UCI writes castling two ways (SPEC 3 and 7):
//! - [`Notation::Standard`] (`UCI_Chess960` false): the king's two-square move, `e1g1`.
//! - [`Notation::Chess960`] (`UCI_Chess960` true): the king takes its own rook, `e1h1`.
//!
//! Reading rules ([`read_move`]), for a position set up in `CastlingMode::Chess960`:
//! - King takes own rook, with that castling right, is always castling (both notations).
//! - Standard notation: a king move to its castling square (g- or c-file of its back rank) is
//!   castling when it is not also a legal ordinary king move; when it is both, it is the
//!   ordinary move and [`Reading::ambiguous`] is set (`ambiguous-castling-move`). In standard
//!   chess this is exactly "`e1g1` is O-O"; it is also the `chess960 = "detect"` rule (GUI in
//!   standard notation, engine in Chess960). The target may be the king's own square (king on
//!   g1, rook h1: `g1g1`).
//! - Chess960 notation: a king move to the g- or c-file is an ordinary king move unless it is
//!   king-takes-rook (king b1, rook a1: `b1c1` is Kc1, O-O-O is `b1a1`). As in python-chess
//!   1.11.2 (`Board.parse_uci` with `chess960=True`), the two-square form is still accepted
//!   from a king on the e-file whose castling rook stands in the corner (standard layout),
//!   where it cannot be a king move.
//!
//! Writing ([`write_move`]): Chess960 notation is always king-takes-rook. Standard notation is
//! the two-square form, except where that text would read back (by the rule above) as
//! something else — king f1, rook h1: O-O as `f1g1` would be Kg1 — or where the king does not
//! move; then the king-takes-rook form is written and the result is flagged ambiguous.

use shakmaty::uci::UciMove;
use shakmaty::{CastlingSide, Chess, File, Move, Position, Rank, Role, Square};

/// A UCI castling notation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Notation {
    /// `UCI_Chess960` false: castling as the king's two-square move (`e1g1`).
    Standard,
    /// `UCI_Chess960` true: castling as the king taking its own rook (`e1h1`).
    Chess960,
}

impl Notation {
    /// The notation for a `UCI_Chess960` value.
    pub const fn from_chess960(chess960: bool) -> Notation {
        if chess960 {
            Notation::Chess960
        } else {
            Notation::Standard
        }
    }
}

/// The legal move a UCI text means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reading {
    /// The legal move.
    pub mv: Move,
    /// The text also reads as castling (standard notation only): `ambiguous-castling-move`.
    pub ambiguous: bool,
}

/// Why a UCI text is not a legal move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReadError {
    /// Not UCI long algebraic (`bad-move-syntax`).
    Syntax,
    /// `0000` (`null-move`).
    Null,
    /// Well-formed but not legal (`illegal-move`); also piece drops (`Q@f7`).
    Illegal,
    /// A pawn move to the last rank without a piece (`missing-promotion`); holds the legal
    /// queen promotion that repairs it.
    MissingPromotion(Move),
}

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

/// A king move `from` `to` read in `notation` (SPEC 7): king-takes-own-rook is castling when
/// that right exists; a two-square king move from the e-file is castling in standard notation
/// and an ordinary king move unless it is only a castle in Chess960 notation. Generic over the
/// shakmaty position, so the 8x8 variants read castles by the same rules.
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

/// Finds the legal move a parsed UCI move means in `pos`, read in `notation`: a king move by
/// [`read_king_move`], anything else as shakmaty reads it, and a pawn move to the last rank
/// without a piece is `MissingPromotion` holding its queen promotion. Generic over shakmaty
/// positions, so the 8x8 variants read moves by the same rules; a drop (`P@e4`) is legal where
/// the variant allows it (never in chess).
///
/// # Errors
/// [`ReadError`]: `Null` for `0000`, `Illegal` or `MissingPromotion` otherwise.
pub fn read_uci<P: Position>(
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

/// Finds the legal move the UCI text `text` means in `pos`, read in `notation` (rules in the
/// module docs). `text` is one token without whitespace; promotion letters may be upper case.
///
/// # Errors
/// [`ReadError`] says why it is not a legal move.
pub fn read_move(pos: &Chess, text: &[u8], notation: Notation) -> Result<Reading, ReadError> {
    let uci = UciMove::from_ascii(text).map_err(|_| ReadError::Syntax)?;
    read_uci(pos, uci, notation)
}

/// Writes the legal move `mv` of `pos` in `notation`. The flag is true when a castle is
/// written in king-takes-rook form in standard notation because its standard form would read
/// as another move, or the king does not move (`ambiguous-castling-move`). Generic over
/// shakmaty positions (chess and the 8x8 variants).
pub fn write_move<P: Position>(pos: &P, mv: Move, notation: Notation) -> (UciMove, bool) {
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
