//! Squares of the 10x8 board: files `a`-`j`, ranks `1`-`8`, indexed rank by rank from a1.

use std::fmt;

/// Files on the board (`a` to `j`).
pub const FILES: u8 = 10;
/// Ranks on the board (`1` to `8`).
pub const RANKS: u8 = 8;
/// Squares on the board.
pub const SQUARES: usize = (FILES as usize) * (RANKS as usize);

/// A square of the 10x8 board: index `rank * 10 + file`, a1 = 0, j1 = 9, j8 = 79.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square10(u8);

impl Square10 {
    /// The square on `file` (0 = a .. 9 = j) and `rank` (0 = first .. 7 = eighth); `None`
    /// off the board.
    pub const fn new(file: i8, rank: i8) -> Option<Square10> {
        if file >= 0 && file < FILES as i8 && rank >= 0 && rank < RANKS as i8 {
            Some(Square10(rank as u8 * FILES + file as u8))
        } else {
            None
        }
    }

    /// The square with index `i` (`0..80`).
    pub(crate) const fn at(i: usize) -> Square10 {
        debug_assert!(i < SQUARES);
        Square10(i as u8)
    }

    /// Its index, `0..80`.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Its file, 0 (a) to 9 (j).
    pub const fn file(self) -> i8 {
        (self.0 % FILES) as i8
    }

    /// Its rank, 0 (first) to 7 (eighth).
    pub const fn rank(self) -> i8 {
        (self.0 / FILES) as i8
    }

    /// The square `df` files and `dr` ranks away, `None` off the board.
    pub const fn offset(self, df: i8, dr: i8) -> Option<Square10> {
        Square10::new(self.file() + df, self.rank() + dr)
    }

    /// Reads a square name (`a1` to `j8`).
    pub fn from_ascii(name: &[u8]) -> Option<Square10> {
        match name {
            [f @ b'a'..=b'j', r @ b'1'..=b'8'] => Square10::new((f - b'a') as i8, (r - b'1') as i8),
            _ => None,
        }
    }

    /// Every square, a1 first.
    pub fn all() -> impl Iterator<Item = Square10> {
        (0..SQUARES as u8).map(Square10)
    }
}

/// The letter of file `file` (0 = `a`).
pub const fn file_char(file: i8) -> char {
    (b'a' + file as u8) as char
}

impl fmt::Display for Square10 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", file_char(self.file()), self.rank() + 1)
    }
}

/// Knight steps.
pub(crate) const KNIGHT: [(i8, i8); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
/// King steps (also the eight ray directions: the first four orthogonal).
pub(crate) const KING: [(i8, i8); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];
/// Rook rays.
pub(crate) const ORTHOGONAL: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
/// Bishop rays.
pub(crate) const DIAGONAL: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_on_all_eighty_squares() {
        let names: Vec<String> = Square10::all().map(|s| s.to_string()).collect();
        assert_eq!(names.len(), 80);
        assert_eq!(names[0], "a1");
        assert_eq!(names[9], "j1");
        assert_eq!(names[79], "j8");
        for (i, name) in names.iter().enumerate() {
            assert_eq!(
                Square10::from_ascii(name.as_bytes()).map(Square10::index),
                Some(i)
            );
        }
        assert_eq!(Square10::from_ascii(b"k1"), None);
        assert_eq!(Square10::from_ascii(b"a9"), None);
    }
}
