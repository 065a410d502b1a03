//! The 8x8 variants of shakmaty under the rules trait: [`Position8`] (the giveaway model of
//! `variant::giveaway` included), reading and writing moves by the chess rules of
//! [`super::chess`], drops included.

use shakmaty::uci::UciMove;
use shakmaty::{Move, Position};

use super::{GameRules, ReadError, Reading, chess};
use crate::fen::{CastlingStyle, EpMode};
use crate::uci::Notation;
use crate::variant::eight::Position8;

impl GameRules for Position8 {
    type Move = Move;
    type Uci = UciMove;

    fn read(&self, text: &[u8], notation: Notation) -> Result<Reading, ReadError> {
        self.read_move(text, notation)
    }

    fn write(&self, mv: Move, notation: Notation) -> (UciMove, bool) {
        self.write_move(mv, notation)
    }

    fn append_uci(uci: &UciMove, buf: &mut Vec<u8>) {
        chess::append_uci(uci, buf);
    }

    fn uci_is(uci: &UciMove, text: &[u8]) -> bool {
        chess::uci_is(uci, text)
    }

    fn play(&mut self, mv: Move) {
        Position8::play(self, mv);
    }

    fn legal_moves(&self) -> Vec<Move> {
        let pos = self.position();
        if pos.is_variant_end() {
            return Vec::new();
        }
        pos.legal_moves().into_iter().collect()
    }

    fn has_legal_moves(&self) -> bool {
        let pos = self.position();
        !pos.is_variant_end() && !pos.legal_moves().is_empty()
    }

    fn append_fen(&self, castling: CastlingStyle, ep: EpMode, buf: &mut Vec<u8>) {
        buf.extend_from_slice(self.fen(castling, ep).as_bytes());
    }

    fn needs_chess960(&self) -> bool {
        Position8::needs_chess960(self)
    }

    fn reads_like(&self, other: &Position8) -> bool {
        self == other
    }
}
