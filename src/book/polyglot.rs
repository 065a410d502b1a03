//! PolyGlot opening books (the `.bin` format of PolyGlot 1.4, read by every GUI that reads
//! books): 16-byte entries, big-endian `key: u64, move: u16, weight: u16, learn: u32`, sorted
//! by key. The key is the position's PolyGlot Zobrist hash, which shakmaty's
//! [`Zobrist64`] computes (with [`EnPassantMode::Legal`], as python-chess's
//! `chess.polyglot.zobrist_hash`).
//!
//! ```
//! use fenguard::book::Book;
//! use shakmaty::Chess;
//!
//! // One entry: the start position, e2e4, weight 10.
//! let mut bin = 0x463b_9618_1691_fc9c_u64.to_be_bytes().to_vec();
//! bin.extend(0x031c_u16.to_be_bytes()); // from e2 (row 1, file 4), to e4 (row 3, file 4)
//! bin.extend(10_u16.to_be_bytes());
//! bin.extend(0_u32.to_be_bytes());
//! let book = Book::from_bytes(&bin).unwrap();
//! let pos = Chess::default();
//! let moves = book.moves(&pos);
//! assert_eq!(moves.len(), 1);
//! assert_eq!(moves[0].0.to_string(), "e2-e4");
//! ```
//!
//! A move is `to file` (bits 0-2), `to row` (3-5), `from file` (6-8), `from row` (9-11) and
//! the promotion piece (12-14: 1 knight, 2 bishop, 3 rook, 4 queen). Castling is written as
//! the king taking its own rook (`e1h1`), as shakmaty's [`Move::Castle`] holds it.

use shakmaty::zobrist::Zobrist64;
use shakmaty::{Chess, EnPassantMode, Move, Position, Role, Square};

/// One book entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry {
    /// The position's PolyGlot key.
    pub key: u64,
    /// The move, encoded as above.
    pub mv: u16,
    /// Its weight (PolyGlot: how good, relative to the position's other entries).
    pub weight: u16,
    /// PolyGlot's learning field (not used).
    pub learn: u32,
}

/// A book that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BookError {
    /// The length is not a multiple of 16 bytes.
    #[error(
        "not a PolyGlot book: {len} bytes is not a whole number of 16-byte entries (the last one starts at byte {last})"
    )]
    Truncated {
        /// The file's length.
        len: usize,
        /// Offset of the incomplete entry.
        last: usize,
    },
}

/// A PolyGlot book in memory, its entries sorted by key (stable: a file's order among one
/// key's entries is kept).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Book {
    entries: Vec<Entry>,
}

/// The PolyGlot key of `pos`.
pub fn key(pos: &Chess) -> u64 {
    pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

impl Book {
    /// Reads the bytes of a `.bin` file.
    ///
    /// # Errors
    /// [`BookError::Truncated`] when the length is not a multiple of 16.
    pub fn from_bytes(bytes: &[u8]) -> Result<Book, BookError> {
        if !bytes.len().is_multiple_of(16) {
            return Err(BookError::Truncated {
                len: bytes.len(),
                last: bytes.len() / 16 * 16,
            });
        }
        let mut entries: Vec<Entry> = bytes
            .chunks_exact(16)
            .map(|c| Entry {
                key: u64::from_be_bytes(c[0..8].try_into().expect("8 bytes")),
                mv: u16::from_be_bytes([c[8], c[9]]),
                weight: u16::from_be_bytes([c[10], c[11]]),
                learn: u32::from_be_bytes(c[12..16].try_into().expect("4 bytes")),
            })
            .collect();
        entries.sort_by_key(|e| e.key);
        Ok(Book { entries })
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the book has no entry.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The entries for `key`, in file order.
    pub fn entries(&self, key: u64) -> &[Entry] {
        let start = self.entries.partition_point(|e| e.key < key);
        let end = self.entries.partition_point(|e| e.key <= key);
        &self.entries[start..end]
    }

    /// The legal moves the book gives for `pos`, with their weights, in file order (entries
    /// whose move is not legal there are skipped: a hash collision or a broken book).
    pub fn moves(&self, pos: &Chess) -> Vec<(Move, u16)> {
        let legal = pos.legal_moves();
        self.entries(key(pos))
            .iter()
            .filter_map(|e| {
                let m = legal.iter().find(|m| matches(e.mv, m))?;
                Some((*m, e.weight))
            })
            .collect()
    }

    /// The move [`Variation`](crate::config::Variation) picks among [`Book::moves`]; `draw`
    /// gives a random number (below its argument, which is never 0) for `weighted` and
    /// `random`. `None` when the position is not in the book (or, for `best` and `weighted`,
    /// every entry has weight 0).
    pub fn pick(
        &self,
        pos: &Chess,
        variation: crate::config::Variation,
        draw: impl FnOnce(u64) -> u64,
    ) -> Option<Move> {
        use crate::config::Variation;
        let moves = self.moves(pos);
        match variation {
            Variation::Best => {
                let top = moves.iter().map(|(_, w)| *w).max().filter(|w| *w > 0)?;
                moves.into_iter().find(|(_, w)| *w == top).map(|(m, _)| m)
            }
            Variation::Weighted => {
                let total: u64 = moves.iter().map(|(_, w)| u64::from(*w)).sum();
                if total == 0 {
                    return None;
                }
                let mut ticket = draw(total);
                for (m, w) in moves {
                    if ticket < u64::from(w) {
                        return Some(m);
                    }
                    ticket -= u64::from(w);
                }
                None
            }
            Variation::Random => {
                if moves.is_empty() {
                    return None;
                }
                let len = u64::try_from(moves.len()).unwrap_or(u64::MAX);
                let i = usize::try_from(draw(len)).unwrap_or(0);
                moves.into_iter().nth(i).map(|(m, _)| m)
            }
        }
    }
}

/// Whether the PolyGlot move `mv` is the legal move `m`.
fn matches(mv: u16, m: &Move) -> bool {
    let square = |file: u16, row: u16| Square::new(u32::from(row * 8 + file));
    let to = square(mv & 7, (mv >> 3) & 7);
    let from = square((mv >> 6) & 7, (mv >> 9) & 7);
    let promotion = match (mv >> 12) & 7 {
        0 => None,
        1 => Some(Role::Knight),
        2 => Some(Role::Bishop),
        3 => Some(Role::Rook),
        4 => Some(Role::Queen),
        _ => return false,
    };
    match m {
        Move::Castle { king, rook } => *king == from && *rook == to && promotion.is_none(),
        _ => m.from() == Some(from) && m.to() == to && m.promotion() == promotion,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Variation;

    fn entry(key: u64, mv: u16, weight: u16) -> Vec<u8> {
        let mut b = key.to_be_bytes().to_vec();
        b.extend(mv.to_be_bytes());
        b.extend(weight.to_be_bytes());
        b.extend(0u32.to_be_bytes());
        b
    }

    const START: u64 = 0x463b_9618_1691_fc9c;
    const E2E4: u16 = (1 << 9) | (4 << 6) | (3 << 3) | 4;
    const D2D4: u16 = (1 << 9) | (3 << 6) | (3 << 3) | 3;

    #[test]
    fn truncated_book_names_its_length() {
        let err = Book::from_bytes(&[0; 20]).unwrap_err();
        assert_eq!(err, BookError::Truncated { len: 20, last: 16 });
    }

    #[test]
    fn best_takes_the_highest_weight_and_random_any() {
        let mut bin = entry(START, E2E4, 5);
        bin.extend(entry(START, D2D4, 9));
        bin.extend(entry(1, E2E4, 100));
        let book = Book::from_bytes(&bin).unwrap();
        let pos = Chess::default();
        let best = book.pick(&pos, Variation::Best, |_| 0).unwrap();
        assert_eq!(best.to_string(), "d2-d4");
        let w = book.pick(&pos, Variation::Weighted, |n| n - 1).unwrap();
        assert_eq!(w.to_string(), "d2-d4");
        let w = book.pick(&pos, Variation::Weighted, |_| 4).unwrap();
        assert_eq!(w.to_string(), "e2-e4");
        let r = book.pick(&pos, Variation::Random, |_| 0).unwrap();
        assert_eq!(r.to_string(), "e2-e4");
    }

    #[test]
    fn castling_is_the_king_taking_its_rook() {
        let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        let pos: Chess = fen
            .parse::<shakmaty::fen::Fen>()
            .unwrap()
            .into_position(shakmaty::CastlingMode::Standard)
            .unwrap();
        let e1h1 = (4 << 6) | 7;
        let book = Book::from_bytes(&entry(key(&pos), e1h1, 1)).unwrap();
        let m = book.pick(&pos, Variation::Best, |_| 0).unwrap();
        assert!(matches!(m, Move::Castle { .. }), "{m:?}");
    }
}
