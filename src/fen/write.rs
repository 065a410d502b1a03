//! Writing positions: the normalized FEN in a chosen castling style and en passant mode,
//! single-spaced, counters canonical. Mirrors python-chess 1.11.2 `Board.fen(en_passant=...)`
//! and `Board.shredder_fen(en_passant=...)`.

use std::fmt;

use shakmaty::{Chess, EnPassantMode, Position};

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

impl fmt::Display for FenDisplay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pos = self.position;
        let castling = CastlingField {
            board: pos.board(),
            rights: pos.castles().castling_rights(),
            style: self.castling,
        };
        write!(f, "{} {} {} ", pos.board(), pos.turn().char(), castling)?;
        match pos.ep_square(self.ep.shakmaty()) {
            Some(sq) => write!(f, "{sq}")?,
            None => f.write_str("-")?,
        }
        write!(f, " {} {}", pos.halfmoves(), pos.fullmoves())
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
