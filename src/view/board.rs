//! [`Board`]: what a FEN shows, read leniently so that a broken FEN still draws (a rank of
//! nine squares is drawn nine wide, an unknown letter as `?`), with each placement byte's
//! squares and each field's byte range kept for marking (SPEC section 14).
//!
//! ```
//! use fenguard::view::{Board, Shape};
//!
//! let b = Board::from_fen("4k3/8/9/8/8/8/8/4K3 w - - 0 1", Shape::EIGHT).unwrap();
//! assert_eq!((b.files(), b.ranks()), (9, 8));
//! // The `9` covers the nine squares of rank 6; the `k` is e8.
//! assert_eq!(b.squares_of_bytes(6..7).len(), 9);
//! assert_eq!(b.squares_of_bytes(1..2), vec![b.square(4, 7)]);
//! ```

use std::ops::Range;

/// The largest board drawn (files and ranks); a FEN beyond it draws nothing.
pub const MAX_SIDE: usize = 16;

/// The board a variant is drawn on: its width, and whether a ninth rank is the crazyhouse
/// pocket.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shape {
    /// Files at least (8, or 10 on a 10x8 board).
    pub files: usize,
    /// A ninth `/` rank is the pocket (crazyhouse).
    pub pocket_rank: bool,
}

impl Shape {
    /// Chess and the 8x8 variants but crazyhouse.
    pub const EIGHT: Shape = Shape {
        files: 8,
        pocket_rank: false,
    };

    /// The shape of a variant by its `UCI_Variant` name (`None`: chess).
    pub fn for_variant(name: Option<&str>) -> Shape {
        let variant = crate::variant::Variant::from_uci_name(name.unwrap_or("chess"));
        Shape {
            files: if variant.is_10x8() { 10 } else { 8 },
            pocket_rank: variant == crate::variant::Variant::Crazyhouse,
        }
    }
}

/// A square: `file` 0 = a, `rank` 0 = the first rank (White's side).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square {
    /// 0-based file (a = 0).
    pub file: usize,
    /// 0-based rank (rank 1 = 0).
    pub rank: usize,
}

impl Square {
    /// The square a name like `e4` or `j10` names on a board of `files` x `ranks`.
    pub fn parse(name: &str, files: usize, ranks: usize) -> Option<Square> {
        let mut chars = name.chars();
        let f = chars.next()?;
        if !f.is_ascii_lowercase() {
            return None;
        }
        let digits = chars.as_str();
        if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let rank: usize = digits.parse().ok()?;
        let file = usize::from(f as u8 - b'a');
        (file < files && (1..=ranks).contains(&rank)).then_some(Square {
            file,
            rank: rank - 1,
        })
    }

    /// The name: `e4`.
    pub fn name(self) -> String {
        format!("{}{}", char::from(b'a' + self.file as u8), self.rank + 1)
    }
}

/// One square's content.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cell {
    /// Empty.
    Empty,
    /// A piece, by its FEN letter (upper case White, lower case Black; `?` for a character
    /// that is no piece).
    Piece(char),
    /// Not described by the FEN (a rank shorter than the board).
    Missing,
}

/// A FEN field after the placement: its name, text and byte range in the FEN.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Field {
    /// `side`, `castling`, `ep`, `halfmove`, `fullmove`, `checks` (a three-check counter), or
    /// `field N` for another extra one.
    pub name: String,
    /// The text as given.
    pub text: String,
    /// Its bytes in the FEN.
    pub span: Range<usize>,
}

/// A board read from a FEN.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Board {
    files: usize,
    ranks: usize,
    /// Row-major from the top rank: `cells[(ranks - 1 - rank) * files + file]`.
    cells: Vec<Cell>,
    /// Placement bytes (FEN offsets) and the squares each covers.
    covers: Vec<(Range<usize>, Vec<Square>)>,
    /// The placement's bytes in the FEN.
    placement: Range<usize>,
    /// Crazyhouse pockets: (White's pieces, Black's pieces), when the FEN has a pocket.
    pockets: Option<(String, String)>,
    fields: Vec<Field>,
}

const FIELD_NAMES: [&str; 5] = ["side", "castling", "ep", "halfmove", "fullmove"];

impl Board {
    /// Reads `fen` leniently under `shape`: the board is at least `shape.files` wide and 8
    /// ranks high, wider or higher when the FEN says so (a rank of nine squares). A `[...]`
    /// part, or a ninth rank when `shape.pocket_rank`, is the crazyhouse pocket. `None` when
    /// the placement has no `/`, or is over [`MAX_SIDE`].
    pub fn from_fen(fen: &str, shape: Shape) -> Option<Board> {
        Board::from_bytes(fen.as_bytes(), shape)
    }

    /// [`Board::from_fen`] of bytes (offsets stay byte offsets of `fen`).
    pub fn from_bytes(fen: &[u8], shape: Shape) -> Option<Board> {
        let min_files = shape.files;
        let words = split_fields(fen);
        let (first, rest) = words.split_first()?;
        let mut placement = first.clone();
        let mut pocket_text = None;
        if let Some(open) = fen[placement.clone()].iter().position(|&b| b == b'[') {
            let start = placement.start + open;
            let close = fen[start..placement.end]
                .iter()
                .position(|&b| b == b']')
                .map_or(placement.end, |c| start + c);
            pocket_text = Some(&fen[start + 1..close]);
            placement = placement.start..start;
        }
        let text = &fen[placement.clone()];
        if !text.contains(&b'/') {
            return None;
        }
        let mut rows: Vec<Range<usize>> = Vec::new();
        let mut at = placement.start;
        for part in text.split(|&b| b == b'/') {
            rows.push(at..at + part.len());
            at += part.len() + 1;
        }
        if rows.last().is_some_and(Range::is_empty) && rows.len() > 8 {
            rows.pop(); // a trailing slash
        }
        if pocket_text.is_none() && rows.len() == 9 && shape.pocket_rank {
            let last = rows.pop()?;
            pocket_text = Some(&fen[last.clone()]);
            placement = placement.start..last.start.saturating_sub(1);
        }
        let parsed: Vec<Vec<(Range<usize>, usize, Cell)>> =
            rows.iter().map(|r| parse_row(fen, r.clone())).collect();
        let width = |row: &Vec<(Range<usize>, usize, Cell)>| row.iter().map(|c| c.1).sum::<usize>();
        let files = parsed.iter().map(width).max()?.max(min_files);
        let ranks = parsed.len().max(8);
        if files > MAX_SIDE || ranks > MAX_SIDE {
            return None;
        }
        let mut cells = vec![Cell::Missing; files * ranks];
        let mut covers = Vec::new();
        for (row, items) in parsed.iter().enumerate() {
            let rank = ranks - 1 - row;
            let mut file = 0;
            for (bytes, count, cell) in items {
                let squares: Vec<Square> = (file..file + count)
                    .map(|f| Square { file: f, rank })
                    .collect();
                for sq in &squares {
                    cells[row * files + sq.file] = *cell;
                }
                file += count;
                covers.push((bytes.clone(), squares));
            }
        }
        let pockets = pocket_text.map(|p| {
            let text = String::from_utf8_lossy(p);
            let white = text.chars().filter(char::is_ascii_uppercase).collect();
            let black = text.chars().filter(char::is_ascii_lowercase).collect();
            (white, black)
        });
        // A three-check counter (`3+3`, or lichess's `+0+0` at the end) is named `checks`;
        // the standard fields keep their names around it.
        let mut names = FIELD_NAMES.iter();
        let fields = rest
            .iter()
            .enumerate()
            .map(|(i, span)| {
                let text = String::from_utf8_lossy(&fen[span.clone()]).into_owned();
                let name = match i > 1 && text.contains('+') {
                    true => "checks".to_owned(),
                    false => names
                        .next()
                        .map_or_else(|| format!("field {}", i + 2), |n| (*n).to_owned()),
                };
                Field {
                    name,
                    text,
                    span: span.clone(),
                }
            })
            .collect();
        Some(Board {
            files,
            ranks,
            cells,
            covers,
            placement,
            pockets,
            fields,
        })
    }

    /// Number of files.
    pub fn files(&self) -> usize {
        self.files
    }

    /// Number of ranks.
    pub fn ranks(&self) -> usize {
        self.ranks
    }

    /// The square at `file`, `rank` (0-based).
    pub fn square(&self, file: usize, rank: usize) -> Square {
        Square { file, rank }
    }

    /// What stands on `sq` ([`Cell::Missing`] off the board).
    pub fn cell(&self, sq: Square) -> Cell {
        if sq.file >= self.files || sq.rank >= self.ranks {
            return Cell::Missing;
        }
        self.cells[(self.ranks - 1 - sq.rank) * self.files + sq.file]
    }

    /// The crazyhouse pockets (White's letters, Black's letters), when the FEN has one.
    pub fn pockets(&self) -> Option<(&str, &str)> {
        self.pockets.as_ref().map(|(w, b)| (w.as_str(), b.as_str()))
    }

    /// The fields after the placement, in order.
    pub fn fields(&self) -> &[Field] {
        &self.fields
    }

    /// The field named `name`.
    pub fn field(&self, name: &str) -> Option<&Field> {
        self.fields.iter().find(|f| f.name == name)
    }

    /// Whether Black is to move (the side field is `b`).
    pub fn black_to_move(&self) -> bool {
        self.field("side").is_some_and(|f| f.text == "b")
    }

    /// The placement's bytes in the FEN.
    pub fn placement(&self) -> Range<usize> {
        self.placement.clone()
    }

    /// The squares the placement bytes in `bytes` describe, in FEN order.
    pub fn squares_of_bytes(&self, bytes: Range<usize>) -> Vec<Square> {
        let mut out = Vec::new();
        for (span, squares) in &self.covers {
            if span.start < bytes.end && bytes.start < span.end {
                out.extend(squares.iter().copied());
            }
        }
        out
    }

    /// The squares whose content differs between `self` and `other` (same size assumed;
    /// squares off either board count as differing).
    pub fn changed_squares(&self, other: &Board) -> Vec<Square> {
        let (files, ranks) = (self.files.max(other.files), self.ranks.max(other.ranks));
        let mut out = Vec::new();
        for rank in (0..ranks).rev() {
            for file in 0..files {
                let sq = Square { file, rank };
                if self.cell(sq) != other.cell(sq) {
                    out.push(sq);
                }
            }
        }
        out
    }

    /// The names of the fields whose text differs between `self` and `other`, the pocket
    /// as `pocket`.
    pub fn changed_fields(&self, other: &Board) -> Vec<String> {
        let mut out = Vec::new();
        if self.pockets != other.pockets {
            out.push("pocket".to_owned());
        }
        let n = self.fields.len().max(other.fields.len());
        for i in 0..n {
            let (a, b) = (self.fields.get(i), other.fields.get(i));
            if a.map(|f| &f.text) != b.map(|f| &f.text) {
                let name = a.or(b).map(|f| f.name.clone()).unwrap_or_default();
                out.push(name);
            }
        }
        out
    }
}

/// The byte ranges of the whitespace-separated fields of `fen`.
fn split_fields(fen: &[u8]) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, b) in fen.iter().enumerate() {
        match (b.is_ascii_whitespace(), start) {
            (true, Some(s)) => {
                out.push(s..i);
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push(s..fen.len());
    }
    out
}

/// One rank's items: (bytes, squares covered, content). Digits run together as one count
/// (`10`); `~` (promoted marker) covers nothing; any other non-letter is a `?` piece.
fn parse_row(fen: &[u8], row: Range<usize>) -> Vec<(Range<usize>, usize, Cell)> {
    let mut out = Vec::new();
    let mut i = row.start;
    while i < row.end {
        let b = fen[i];
        if b.is_ascii_digit() {
            let start = i;
            while i < row.end && fen[i].is_ascii_digit() {
                i += 1;
            }
            let count: usize = std::str::from_utf8(&fen[start..i])
                .ok()
                .and_then(|s| s.parse().ok())
                .unwrap_or(MAX_SIDE + 1)
                .min(MAX_SIDE + 1);
            out.push((start..i, count, Cell::Empty));
            continue;
        }
        let cell = match b {
            b'~' => None,
            b if b.is_ascii_alphabetic() => Some(Cell::Piece(char::from(b))),
            _ => Some(Cell::Piece('?')),
        };
        // One character (a UTF-8 sequence whole).
        let len = match b {
            0xF0..=0xF7 => 4,
            0xE0..=0xEF => 3,
            0xC0..=0xDF => 2,
            _ => 1,
        };
        let end = (i + len).min(row.end);
        if let Some(cell) = cell {
            out.push((i..end, 1, cell));
        }
        i = end;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn broken_fens_draw_or_not_but_never_panic() {
        for fen in [
            "",
            "/",
            "[",
            "]]/[[",
            "8/8/8/8/8/8/8/8[",
            "99999999999999999999999/8 w",
            "é/ü/\u{0}/\u{ff}",
            "1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1",
            "kkkkkkkkkkkkkkkkkkkkkkkkkkkkk/8",
            "8/8/8/8/8/8/8/8/ w - - 0 1",
        ] {
            let _ = Board::from_fen(fen, Shape::EIGHT);
            let _ = Board::from_fen(fen, Shape::for_variant(Some("crazyhouse")));
        }
        assert!(Board::from_fen("kkkkkkkkkkkkkkkkkkkkkkkkkkkkk/8", Shape::EIGHT).is_none());
    }

    #[test]
    fn three_check_counters_are_named_checks() {
        let b = Board::from_fen("4k3/8/8/8/8/8/8/4K3 w - - 3+3 0 1", Shape::EIGHT).unwrap();
        let names: Vec<&str> = b.fields().iter().map(|f| f.name.as_str()).collect();
        assert_eq!(
            names,
            ["side", "castling", "ep", "checks", "halfmove", "fullmove"]
        );
        let b = Board::from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1 +0+0", Shape::EIGHT).unwrap();
        assert_eq!(b.fields()[5].name, "checks");
    }

    #[test]
    fn pockets_in_brackets_or_a_ninth_rank() {
        let house = Shape::for_variant(Some("crazyhouse"));
        let a = Board::from_fen("8/8/8/8/8/8/8/4K2k[QNp] w - - 0 1", house).unwrap();
        assert_eq!(a.pockets(), Some(("QN", "p")));
        let b = Board::from_fen("8/8/8/8/8/8/8/4K2k/QNp w - - 0 1", house).unwrap();
        assert_eq!((b.pockets(), b.ranks()), (Some(("QN", "p")), 8));
        // In chess a ninth rank is a ninth rank.
        let c = Board::from_fen("8/8/8/8/8/8/8/4K2k/QNp w - - 0 1", Shape::EIGHT).unwrap();
        assert_eq!((c.pockets(), c.ranks()), (None, 9));
    }
}
