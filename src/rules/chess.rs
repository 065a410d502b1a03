//! Chess and Chess960 (`shakmaty::Chess`) under the rules trait: read and write UCI moves in
//! the two castling notations ([`Notation`]), finding the legal move a text means. The reading
//! and writing functions are generic over shakmaty positions: the 8x8 variants use them too.
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

use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{
    Bitboard, CastlingSide, Chess, EnPassantMode, File, Move, Position, Rank, Role, Square,
};

use super::judge::{Judge, Shakmaty, Tables, plain_text};
use super::{GameRules, Kind, legality};
use crate::fen::{self, CastlingStyle, EpMode, FenDisplay};
use crate::uci::Notation;

pub use super::{ReadError, Reading};

pub(super) fn back_rank<P: Position>(pos: &P) -> Rank {
    pos.turn().fold_wb(Rank::First, Rank::Eighth)
}

/// The legal castle of the king on `from` toward the castling square `to`, if `to` is one.
fn castle_toward<P: Position, J: Judge<P>>(pos: &P, from: Square, to: Square) -> Option<Move> {
    if to.rank() != back_rank(pos) || from.rank() != to.rank() {
        return None;
    }
    let side = match to.file() {
        File::G => CastlingSide::KingSide,
        File::C => CastlingSide::QueenSide,
        _ => return None,
    };
    J::castle(pos, side, from)
}

/// A king move `from` `to` read in `notation` (SPEC 7): king-takes-own-rook is castling when
/// that right exists; a two-square king move from the e-file is castling in standard notation
/// and an ordinary king move unless it is only a castle in Chess960 notation. Generic over the
/// shakmaty position, so the 8x8 variants read castles by the same rules.
fn read_king_move<P: Position, J: Judge<P>>(
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
        return J::is_legal(pos, castle).then_some(Reading {
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
    let ordinary = (from != to && J::is_legal(pos, ordinary)).then_some(ordinary);
    let castle = castle_toward::<P, J>(pos, from, to);
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
/// `read_king_move`, anything else as shakmaty reads it, and a pawn move to the last rank
/// without a piece is `MissingPromotion` holding its queen promotion. Generic over shakmaty
/// positions, so the 8x8 variants read moves by the same rules; a drop (`P@e4`) is legal where
/// the variant allows it (never in chess). Legality is asked of the position (shakmaty's
/// generators); [`read_move`] reads chess the same way from the attack tables.
///
/// # Errors
/// [`ReadError`]: `Null` for `0000`, `Illegal` or `MissingPromotion` otherwise.
pub fn read_uci<P: Position>(
    pos: &P,
    uci: UciMove,
    notation: Notation,
) -> Result<Reading, ReadError> {
    read_by::<P, Shakmaty>(pos, uci, notation)
}

/// [`read_uci`] with legality asked of `J`.
pub(super) fn read_by<P: Position, J: Judge<P>>(
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
            return J::to_move(pos, uci)
                .map(|mv| Reading {
                    mv,
                    ambiguous: false,
                })
                .ok_or(ReadError::Illegal);
        }
    };
    let role = pos.board().role_at(from).ok_or(ReadError::Illegal)?;
    if role == Role::King && promotion.is_none() && pos.us().contains(from) {
        return read_king_move::<P, J>(pos, from, to, notation).ok_or(ReadError::Illegal);
    }
    match J::to_move(pos, uci) {
        Some(mv) => Ok(Reading {
            mv,
            ambiguous: false,
        }),
        None => {
            let last = pos.turn().fold_wb(Rank::Eighth, Rank::First);
            if role == Role::Pawn && promotion.is_none() && to.rank() == last {
                let queen = UciMove::Normal {
                    from,
                    to,
                    promotion: Some(Role::Queen),
                };
                if let Some(mv) = J::to_move(pos, queen) {
                    return Err(ReadError::MissingPromotion(mv));
                }
            }
            Err(ReadError::Illegal)
        }
    }
}

/// Finds the legal move the UCI text `text` means in `pos`, read in `notation` (rules in the
/// module docs). `text` is one token without whitespace; promotion letters may be upper case.
/// The same reading as [`read_uci`], legality judged from the attack tables
/// ([`super::legality`]) instead of shakmaty's move lists.
///
/// # Errors
/// [`ReadError`] says why it is not a legal move.
pub fn read_move(pos: &Chess, text: &[u8], notation: Notation) -> Result<Reading, ReadError> {
    let uci = UciMove::from_ascii(text).map_err(|_| ReadError::Syntax)?;
    if let UciMove::Normal {
        from,
        to,
        promotion,
    } = uci
        && let Some(mv) = legality::plain_move(pos, from, to, promotion)
    {
        return Ok(Reading {
            mv,
            ambiguous: false,
        });
    }
    read_by::<Chess, Tables>(pos, uci, notation)
}

/// Writes the legal move `mv` of `pos` in `notation`. The flag is true when a castle is
/// written in king-takes-rook form in standard notation because its standard form would read
/// as another move, or the king does not move (`ambiguous-castling-move`). Generic over
/// shakmaty positions (chess and the 8x8 variants).
pub fn write_move<P: Position>(pos: &P, mv: Move, notation: Notation) -> (UciMove, bool) {
    write_by::<P, Shakmaty>(pos, mv, notation)
}

/// [`write_move`] with legality asked of `J`.
fn write_by<P: Position, J: Judge<P>>(pos: &P, mv: Move, notation: Notation) -> (UciMove, bool) {
    let chess960 = UciMove::from_chess960(mv);
    match (mv, notation) {
        (Move::Castle { king, .. }, Notation::Standard) => {
            let standard = UciMove::from_standard(mv);
            if standard.to() == Some(king) {
                return (chess960, true);
            }
            match J::reads_back(pos, mv, standard) {
                true => (standard, false),
                false => (chess960, true),
            }
        }
        _ => (chess960, false),
    }
}

/// A shakmaty UCI move as bytes (`e2e4`, `e7e8q`, `P@e4`, `0000`).
pub(crate) fn append_uci(uci: &UciMove, buf: &mut Vec<u8>) {
    match uci {
        UciMove::Normal {
            from,
            to,
            promotion,
        } => {
            let text = [
                from.file().char() as u8,
                from.rank().char() as u8,
                to.file().char() as u8,
                to.rank().char() as u8,
                promotion.map_or(0, |role| role.char() as u8),
            ];
            buf.extend_from_slice(&text[..4 + usize::from(promotion.is_some())]);
        }
        other => buf.extend_from_slice(other.to_string().as_bytes()),
    }
}

/// Whether `uci` is written `text` (no allocation for ordinary moves).
pub(crate) fn uci_is(uci: &UciMove, text: &[u8]) -> bool {
    if let UciMove::Normal {
        from,
        to,
        promotion,
    } = uci
    {
        let mut own = [
            from.file().char() as u8,
            from.rank().char() as u8,
            to.file().char() as u8,
            to.rank().char() as u8,
            0,
        ];
        let len = match promotion {
            Some(role) => {
                own[4] = role.char() as u8;
                5
            }
            None => 4,
        };
        return &own[..len] == text;
    }
    uci.to_string().as_bytes() == text
}

/// From which index on no token of `kinds` can be a castle, given the castling rights.
pub(crate) fn end_of_interest(kinds: &[Kind], rights: Bitboard) -> usize {
    let white = (rights & Bitboard::from_rank(Rank::First)).any();
    let black = (rights & Bitboard::from_rank(Rank::Eighth)).any();
    kinds
        .iter()
        .rposition(|k| match k {
            Kind::Plain => false,
            Kind::Odd => true,
            Kind::BackRank(shakmaty::Color::White) => white,
            Kind::BackRank(shakmaty::Color::Black) => black,
        })
        .map_or(0, |i| i + 1)
}

/// Chess and Chess960 (castling mode Chess960): the rules of the `fen` core and this module.
impl GameRules for Chess {
    type Move = Move;
    type Uci = UciMove;

    fn read(&self, text: &[u8], notation: Notation) -> Result<Reading, ReadError> {
        read_move(self, text, notation)
    }

    /// Any move but a king's (which may be a castle) and en passant, out of check, read from
    /// the attack tables (`legality::plain_move`); its UCI text is the same in both notations.
    fn read_plain(&self, text: &[u8]) -> Option<(Move, UciMove)> {
        let (from, to, promotion) = plain_text(text)?;
        let uci = UciMove::Normal {
            from,
            to,
            promotion,
        };
        legality::plain_move(self, from, to, promotion).map(|mv| (mv, uci))
    }

    fn write(&self, mv: Move, notation: Notation) -> (UciMove, bool) {
        write_by::<Chess, Tables>(self, mv, notation)
    }

    fn append_uci(uci: &UciMove, buf: &mut Vec<u8>) {
        append_uci(uci, buf);
    }

    fn uci_is(uci: &UciMove, text: &[u8]) -> bool {
        uci_is(uci, text)
    }

    fn play(&mut self, mv: Move) {
        self.play_unchecked(mv);
    }

    fn legal_moves(&self) -> Vec<Move> {
        Position::legal_moves(self).into_iter().collect()
    }

    fn has_legal_moves(&self) -> bool {
        !Position::legal_moves(self).is_empty()
    }

    fn append_fen(&self, castling: CastlingStyle, ep: EpMode, buf: &mut Vec<u8>) {
        FenDisplay {
            position: self,
            castling,
            ep,
        }
        .append_to(buf);
    }

    fn needs_chess960(&self) -> bool {
        fen::position_needs_chess960(self)
    }

    fn message_fen(&self) -> String {
        Fen::from_position(self, EnPassantMode::Legal).to_string()
    }

    fn syntax_hint(&self) -> &'static str {
        " (expected long algebraic like `e2e4` or `e7e8q`)"
    }

    fn may_hold_castle(&self, line: &[u8]) -> bool {
        crate::uci::engine_line::may_hold_castle(line)
    }

    fn horizon(&self, kinds: &[Kind]) -> usize {
        end_of_interest(kinds, self.castles().castling_rights())
    }

    fn reads_like(&self, other: &Chess) -> bool {
        self.board() == other.board()
            && self.turn() == other.turn()
            && self.castles().castling_rights() == other.castles().castling_rights()
            && self.castles().mode() == other.castles().mode()
            && self.maybe_ep_square() == other.maybe_ep_square()
    }
}
