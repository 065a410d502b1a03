//! Writing a 10x8 position as X-FEN or Shredder-FEN: counts up to `10`, the castling field in
//! the chosen style, the en passant square by mode (as for chess: `legal`, `xfen`, `fen`).

use super::castling;
use super::movegen::{ep_legal, ep_pseudo_legal};
use super::position::Board10;
use super::square::{FILES, RANKS};
use crate::fen::{CastlingStyle, EpMode};

impl Board10 {
    /// The FEN: castling rights in `castling` style, the en passant square when `ep` says so
    /// (`Legal`: a legal capture exists; `XFen`: a pawn of the side to move stands beside the
    /// pushed pawn; `Fen`: every valid en passant square).
    pub fn fen(&self, castling: CastlingStyle, ep: EpMode) -> String {
        let mut buf = Vec::with_capacity(96);
        self.append_fen(castling, ep, &mut buf);
        String::from_utf8(buf).expect("FEN text is ASCII")
    }

    /// Appends the FEN to `buf` (ASCII, no line end).
    pub fn append_fen(&self, style: CastlingStyle, ep: EpMode, buf: &mut Vec<u8>) {
        for rank in (0..RANKS as usize).rev() {
            let mut empty = 0u8;
            for file in 0..FILES as usize {
                match self.squares[rank * FILES as usize + file] {
                    Some(piece) => {
                        push_count(buf, empty);
                        empty = 0;
                        buf.push(self.variant.char(piece));
                    }
                    None => empty += 1,
                }
            }
            push_count(buf, empty);
            if rank > 0 {
                buf.push(b'/');
            }
        }
        buf.push(b' ');
        buf.push(self.turn.char() as u8);
        buf.push(b' ');
        castling::write(&self.squares, &self.castles, style, buf);
        buf.push(b' ');
        let written = self.ep.filter(|&sq| match ep {
            EpMode::Fen => true,
            EpMode::XFen => ep_pseudo_legal(self, sq),
            EpMode::Legal => ep_pseudo_legal(self, sq) && ep_legal(self, sq),
        });
        match written {
            Some(sq) => buf.extend_from_slice(sq.to_string().as_bytes()),
            None => buf.push(b'-'),
        }
        buf.extend_from_slice(format!(" {} {}", self.halfmoves, self.fullmoves).as_bytes());
    }
}

fn push_count(buf: &mut Vec<u8>, n: u8) {
    match n {
        0 => {}
        10 => buf.extend_from_slice(b"10"),
        n => buf.push(b'0' + n),
    }
}
