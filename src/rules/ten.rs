//! The 10x8 boards under the rules trait: [`Board10`], whose UCI notation is its own
//! ([`Notation10::for_engine`]: king-to-target outside Chess960 mode, king-takes-rook in
//! Chess960 mode and always in caparandom, so `e1h1` is a castle in embassy).

use super::{GameRules, ReadError, Reading};
use crate::fen::{CastlingStyle, EpMode};
use crate::uci::Notation;
use crate::variant::board10::{Board10, Move10, Notation as Notation10, UciError10};

/// The 10x8 notation a side with `UCI_Chess960` = `notation` speaks in `b`'s variant.
fn notation10(b: &Board10, notation: Notation) -> Notation10 {
    Notation10::for_engine(b.variant(), notation == Notation::Chess960)
}

impl GameRules for Board10 {
    type Move = Move10;
    type Uci = String;

    fn read(&self, text: &[u8], notation: Notation) -> Result<Reading<Move10>, ReadError<Move10>> {
        if text == b"0000" {
            return Err(ReadError::Null);
        }
        let Ok(text) = std::str::from_utf8(text) else {
            return Err(ReadError::Syntax);
        };
        let ours = notation10(self, notation);
        match self.parse_uci(text, ours) {
            Ok(mv) => Ok(Reading {
                mv,
                ambiguous: false,
            }),
            Err(UciError10::Syntax(_)) => Err(ReadError::Syntax),
            Err(UciError10::Illegal(_)) => Err(ReadError::Illegal),
            Err(UciError10::MissingPromotion(_)) => self
                .parse_uci(&format!("{text}q"), ours)
                .map_or(Err(ReadError::Illegal), |m| {
                    Err(ReadError::MissingPromotion(m))
                }),
        }
    }

    fn write(&self, mv: Move10, notation: Notation) -> (String, bool) {
        (self.write_uci(mv, notation10(self, notation)), false)
    }

    fn append_uci(uci: &String, buf: &mut Vec<u8>) {
        buf.extend_from_slice(uci.as_bytes());
    }

    fn uci_is(uci: &String, text: &[u8]) -> bool {
        uci.as_bytes() == text
    }

    fn play(&mut self, mv: Move10) {
        Board10::play(self, mv);
    }

    fn legal_moves(&self) -> Vec<Move10> {
        Board10::legal_moves(self)
    }

    fn has_legal_moves(&self) -> bool {
        !Board10::legal_moves(self).is_empty()
    }

    fn append_fen(&self, castling: CastlingStyle, ep: EpMode, buf: &mut Vec<u8>) {
        Board10::append_fen(self, castling, ep, buf);
    }

    fn needs_chess960(&self) -> bool {
        Board10::needs_chess960(self)
    }

    fn reads_like(&self, other: &Board10) -> bool {
        self == other
    }
}
