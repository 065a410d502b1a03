//! Writing positions: the normalized FEN in a chosen castling style and en passant mode,
//! single-spaced, counters canonical. Mirrors python-chess 1.11.2 `Board.fen(en_passant=...)`
//! and `Board.shredder_fen(en_passant=...)`.

use std::fmt;

use shakmaty::{Board, Chess, Color, EnPassantMode, Position, Role};

use super::castling::{CastlingField, CastlingStyle};

/// Which en passant squares are written (SPEC section 7, python-chess's `en_passant=`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum EpMode {
    /// Only when a legal en passant capture exists (python-chess `legal`).
    #[default]
    Legal,
    /// When an enemy pawn could capture pseudo-legally (X-FEN; python-chess `xfen`).
    XFen,
    /// Every valid en passant square as given (the PGN standard; python-chess `fen`).
    Fen,
}

impl EpMode {
    fn shakmaty(self) -> EnPassantMode {
        match self {
            EpMode::Legal => EnPassantMode::Legal,
            EpMode::XFen => EnPassantMode::PseudoLegal,
            EpMode::Fen => EnPassantMode::Always,
        }
    }
}

/// A position written as FEN: `Display` gives the six single-spaced fields.
///
/// ```
/// use fenguard::fen::{CastlingStyle, EpMode, FenDisplay};
/// let pos = shakmaty::Chess::default();
/// let fen = FenDisplay { position: &pos, castling: CastlingStyle::Shredder, ep: EpMode::Legal };
/// assert_eq!(fen.to_string(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1");
/// ```
#[derive(Debug, Clone, Copy)]
pub struct FenDisplay<'a> {
    /// The position (its castling rights are rook squares, any [`shakmaty::CastlingMode`]).
    pub position: &'a Chess,
    /// How castling rights are written.
    pub castling: CastlingStyle,
    /// Which en passant squares are written.
    pub ep: EpMode,
}

impl FenDisplay<'_> {
    /// Appends the FEN to `buf` (ASCII, no line end); the fast path for bulk output.
    pub fn append_to(&self, buf: &mut Vec<u8>) {
        let pos = self.position;
        append_board(buf, pos.board());
        buf.push(b' ');
        buf.push(pos.turn().char() as u8);
        buf.push(b' ');
        CastlingField {
            board: pos.board(),
            rights: pos.castles().castling_rights(),
            style: self.castling,
        }
        .append_to(buf);
        buf.push(b' ');
        match pos.ep_square(self.ep.shakmaty()) {
            Some(sq) => {
                buf.push(sq.file().char() as u8);
                buf.push(sq.rank().char() as u8);
            }
            None => buf.push(b'-'),
        }
        buf.push(b' ');
        append_number(buf, pos.halfmoves());
        buf.push(b' ');
        append_number(buf, pos.fullmoves().get());
    }
}

/// Appends the piece placement: a mailbox filled from the bitboards, then one branch-free
/// pass over the squares into a stack buffer (at most 71 bytes), copied once. Every square
/// writes a pending count and its piece, and advances past what applies.
fn append_board(buf: &mut Vec<u8>, board: &Board) {
    let mut mailbox = [0u8; 64];
    for color in Color::ALL {
        for role in Role::ALL {
            let piece = role.of(color);
            let c = piece.char() as u8;
            for sq in board.by_piece(piece) {
                mailbox[sq as usize] = c;
            }
        }
    }
    let mut text = [0u8; 80];
    let mut n = 0;
    for rank in (0..8).rev() {
        let mut empty = 0u8;
        for &c in &mailbox[rank * 8..rank * 8 + 8] {
            let piece = c != 0;
            text[n] = b'0' + empty;
            n += usize::from(piece & (empty > 0));
            text[n] = c;
            n += usize::from(piece);
            empty = if piece { 0 } else { empty + 1 };
        }
        text[n] = b'0' + empty;
        n += usize::from(empty > 0);
        text[n] = b'/';
        n += 1;
    }
    buf.extend_from_slice(&text[..n - 1]);
}

fn append_number(buf: &mut Vec<u8>, n: u32) {
    let mut digits = [0u8; 10];
    let mut i = digits.len();
    let mut n = n;
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    buf.extend_from_slice(&digits[i..]);
}

impl fmt::Display for FenDisplay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut buf = Vec::with_capacity(90);
        self.append_to(&mut buf);
        f.write_str(std::str::from_utf8(&buf).map_err(|_| fmt::Error)?)
    }
}

/// The FEN of `position` in the given castling style and en passant mode.
pub fn write_fen(position: &Chess, castling: CastlingStyle, ep: EpMode) -> String {
    FenDisplay {
        position,
        castling,
        ep,
    }
    .to_string()
}

/// A mode name that is not one of the accepted values.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown {what} `{found}` (expected {expected})")]
pub struct UnknownMode {
    /// What was being named (`en passant mode`, `castling style`).
    pub what: &'static str,
    /// The text given.
    pub found: String,
    /// The accepted values.
    pub expected: &'static str,
}

impl EpMode {
    /// The name used by `--ep` and `positions.en_passant`: `legal`, `xfen`, `fen`.
    pub const fn as_str(self) -> &'static str {
        match self {
            EpMode::Legal => "legal",
            EpMode::XFen => "xfen",
            EpMode::Fen => "fen",
        }
    }
}

impl std::str::FromStr for EpMode {
    type Err = UnknownMode;

    /// Reads `legal`, `xfen` or `fen`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "legal" => Ok(EpMode::Legal),
            "xfen" => Ok(EpMode::XFen),
            "fen" => Ok(EpMode::Fen),
            _ => Err(UnknownMode {
                what: "en passant mode",
                found: s.to_owned(),
                expected: "legal, xfen or fen",
            }),
        }
    }
}

impl CastlingStyle {
    /// The name used by `--castling` and `positions.castling`: `xfen`, `shredder`.
    pub const fn as_str(self) -> &'static str {
        match self {
            CastlingStyle::XFen => "xfen",
            CastlingStyle::Shredder => "shredder",
        }
    }
}

impl std::str::FromStr for CastlingStyle {
    type Err = UnknownMode;

    /// Reads `xfen` or `shredder`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "xfen" => Ok(CastlingStyle::XFen),
            "shredder" => Ok(CastlingStyle::Shredder),
            _ => Err(UnknownMode {
                what: "castling style",
                found: s.to_owned(),
                expected: "xfen or shredder",
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::append_board;
    use proptest::prelude::*;
    use shakmaty::{Board, Color, Piece, Role, Square};

    proptest! {
        /// The placement written is shakmaty's (`Board` as FEN) for any board.
        #[test]
        fn placement_is_shakmatys(cells in prop::collection::vec(0u8..24, 64)) {
            let mut board = Board::empty();
            for (i, &c) in cells.iter().enumerate() {
                if c < 12 {
                    let color = if c % 2 == 0 { Color::White } else { Color::Black };
                    let role = Role::ALL[usize::from(c / 2)];
                    board.set_piece_at(Square::new(i as u32), Piece { color, role });
                }
            }
            let mut buf = Vec::new();
            append_board(&mut buf, &board);
            prop_assert_eq!(String::from_utf8(buf).unwrap(), board.to_string());
        }
    }
}
