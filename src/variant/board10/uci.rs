//! UCI moves on the 10x8 board: `f1i1`, `e7e8c`. Castling is written king-to-target outside
//! Chess960 mode and king-takes-rook in Chess960 mode and in caparandom, as Fairy-Stockfish
//! writes them; both forms are read.

use std::fmt;

use super::piece::Role10;
use super::position::{Board10, Move10, MoveKind};
use super::square::Square10;

/// How castling moves are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Notation {
    /// The king's move to its target square (`f1i1` in capablanca, `e1h1` in embassy).
    KingToTarget,
    /// The king takes its own rook (`f1j1`): Chess960 mode, and caparandom always.
    KingTakesRook,
}

impl Notation {
    /// The notation Fairy-Stockfish uses for `variant` with `UCI_Chess960` = `chess960`.
    pub fn for_engine(variant: super::Variant10, chess960: bool) -> Notation {
        if chess960 || variant.is_random() {
            Notation::KingTakesRook
        } else {
            Notation::KingToTarget
        }
    }
}

/// Why a UCI move was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UciError10 {
    /// Not `<from><to>[promotion]` with squares `a1`-`j8`.
    #[error("`{0}` is not a 10x8 UCI move (expected e.g. `e2e4`, `f1i1`, `e7e8c`)")]
    Syntax(String),
    /// A pawn move to the last rank without a promotion piece.
    #[error("`{0}` moves a pawn to the last rank without a promotion piece")]
    MissingPromotion(String),
    /// Well-formed but not legal here.
    #[error("`{0}` is not a legal move in this position")]
    Illegal(String),
}

impl Board10 {
    /// The UCI text of `m` (a legal move here) in `notation`.
    pub fn write_uci(&self, m: Move10, notation: Notation) -> String {
        let to = match (m.kind, notation) {
            (MoveKind::Castle { rook }, Notation::KingTakesRook) => rook,
            _ => m.to,
        };
        let mut s = format!("{}{}", m.from, to);
        if let Some(role) = m.promotion {
            s.push(self.variant.letter(role) as char);
        }
        s
    }

    /// Reads a UCI move and finds it among the legal moves. Castles are read in `notation`, and the
    /// other are read as SPEC section 7 says for chess: king-takes-own-rook always means castling
    /// when that right exists; a king move to its castling target means castling only in
    /// [`Notation::KingToTarget`], and only when it is not also a legal ordinary king move.
    pub fn parse_uci(&self, text: &str, notation: Notation) -> Result<Move10, UciError10> {
        let b = text.as_bytes();
        let syntax = || UciError10::Syntax(text.to_owned());
        if !(4..=5).contains(&b.len()) {
            return Err(syntax());
        }
        let from = Square10::from_ascii(&b[0..2]).ok_or_else(syntax)?;
        let to = Square10::from_ascii(&b[2..4]).ok_or_else(syntax)?;
        let promotion: Option<Role10> = match b.get(4) {
            None => None,
            Some(&c) => Some(
                self.variant
                    .role(c)
                    .filter(|r| self.variant.promotions().contains(r))
                    .ok_or_else(syntax)?,
            ),
        };
        let moves = self.legal_moves();
        let castle_to = |m: &Move10, n: Notation| match (m.kind, n) {
            (MoveKind::Castle { rook }, Notation::KingTakesRook) => Some(rook),
            (MoveKind::Castle { .. }, Notation::KingToTarget) => Some(m.to),
            _ => None,
        };
        let ordinary = moves.iter().find(|m| {
            m.from == from && m.to == to && castle_to(m, notation).is_none() && !self.is_castle(**m)
        });
        let castle = |n: Notation| {
            moves
                .iter()
                .find(|m| m.from == from && castle_to(m, n) == Some(to) && promotion.is_none())
        };
        let found = match ordinary {
            Some(m) if m.promotion == promotion => Some(m),
            Some(_) if promotion.is_none() => {
                return Err(UciError10::MissingPromotion(text.to_owned()));
            }
            Some(_) => moves
                .iter()
                .find(|m| m.from == from && m.to == to && m.promotion == promotion),
            None => castle(Notation::KingTakesRook).or(match notation {
                Notation::KingToTarget => castle(Notation::KingToTarget),
                Notation::KingTakesRook => None,
            }),
        };
        found
            .copied()
            .ok_or_else(|| UciError10::Illegal(text.to_owned()))
    }
}

impl fmt::Display for Move10 {
    /// King-to-target notation with `a`/`c` promotion letters (use
    /// [`Board10::write_uci`] for janus letters and Chess960 castling).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)?;
        if let Some(role) = self.promotion {
            let c = super::Variant10::Capablanca.letter(role) as char;
            write!(f, "{c}")?;
        }
        Ok(())
    }
}
