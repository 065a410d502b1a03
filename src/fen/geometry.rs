//! Board geometry: how many files and ranks the piece placement describes.
//!
//! The parser takes the geometry as a parameter so that 10x8 X-FEN (Capablanca chess, files
//! a to j, counts up to `10`, archbishop `A` and chancellor `C`) can be added later. Today
//! only [`Geometry::STANDARD`] is analyzed beyond syntax.

/// The shape of the board the piece placement describes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Geometry {
    /// Files per rank (8 for chess, 10 for Capablanca chess).
    pub files: u8,
    /// Ranks on the board (8).
    pub ranks: u8,
}

impl Geometry {
    /// The 8x8 chess board.
    pub const STANDARD: Geometry = Geometry { files: 8, ranks: 8 };

    /// Whether `c` names a piece on this board: `KQRBNP` / `kqrbnp`, plus `A`/`C` (archbishop,
    /// chancellor) on boards of ten files.
    pub const fn is_piece(self, c: u8) -> bool {
        matches!(
            c.to_ascii_lowercase(),
            b'k' | b'q' | b'r' | b'b' | b'n' | b'p'
        ) || (self.files >= 10 && matches!(c.to_ascii_lowercase(), b'a' | b'c'))
    }

    /// Whether an empty-square count may have more than one digit (`10` on 10x8 boards).
    pub const fn multi_digit_counts(self) -> bool {
        self.files >= 10
    }
}

impl Default for Geometry {
    fn default() -> Self {
        Geometry::STANDARD
    }
}
