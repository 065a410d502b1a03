//! What a drawn board marks: the squares and fields a diagnostic is about (the placement bytes
//! its span covers, the field its span is in, the squares its message names), the squares and
//! fields a repair changed, and moves (a bestmove arrow, an illegal move's squares).

use std::ops::Range;

use super::board::{Board, Square};
use crate::fen::Diagnostic;

/// Why a square or field is marked, in rising order of precedence.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum MarkKind {
    /// A move's squares (the bestmove, the last move).
    Move,
    /// A repair or normalization changed it.
    Changed,
    /// A note names it.
    Note,
    /// A warning names it.
    Warning,
    /// An error names it.
    Error,
}

impl MarkKind {
    /// The mark of a diagnostic of severity `severity` (`error`, `warning`, `note`).
    pub fn of_severity(severity: &str) -> MarkKind {
        match severity {
            "error" => MarkKind::Error,
            "warning" => MarkKind::Warning,
            _ => MarkKind::Note,
        }
    }

    /// The CSS class and legend name: `error`, `warning`, `note`, `changed`, `move`.
    pub fn as_str(self) -> &'static str {
        match self {
            MarkKind::Move => "move",
            MarkKind::Changed => "changed",
            MarkKind::Note => "note",
            MarkKind::Warning => "warning",
            MarkKind::Error => "error",
        }
    }
}

/// A diagnostic as the views read it (from a [`Diagnostic`] or a log record's JSON object).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// The code: `missing-king`.
    pub code: String,
    /// `error`, `warning` or `note`.
    pub severity: String,
    /// The message.
    pub message: String,
    /// The span, into the text it was found in.
    pub span: Option<Range<usize>>,
}

impl From<&Diagnostic> for Finding {
    fn from(d: &Diagnostic) -> Finding {
        Finding {
            code: d.code.as_str().to_owned(),
            severity: d.severity.as_str().to_owned(),
            message: d.message.clone(),
            span: d.span.clone(),
        }
    }
}

impl Finding {
    /// The finding of a record's diagnostic object (missing fields empty).
    pub fn from_json(d: &serde_json::Value) -> Finding {
        let text = |k: &str| d[k].as_str().unwrap_or_default().to_owned();
        let span = d["span"].as_array().and_then(|s| {
            let start = usize::try_from(s.first()?.as_u64()?).ok()?;
            let end = usize::try_from(s.get(1)?.as_u64()?).ok()?;
            Some(start..end.max(start))
        });
        Finding {
            code: text("code"),
            severity: text("severity"),
            message: text("message"),
            span,
        }
    }
}

/// The marks of one drawn board.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Marks {
    /// Marked squares (the strongest kind kept when marked twice).
    pub squares: Vec<(Square, MarkKind)>,
    /// Marked fields by name (`castling`, `pocket`, ...).
    pub fields: Vec<(String, MarkKind)>,
    /// Move arrows (from, to); a drop has its target as both.
    pub arrows: Vec<(Square, Square)>,
    /// One line per diagnostic that marked something: `h1 castling-without-rook`.
    pub legend: Vec<(String, MarkKind)>,
}

impl Marks {
    /// Marks `sq` as `kind` (keeping a stronger mark already there).
    pub fn square(&mut self, sq: Square, kind: MarkKind) {
        match self.squares.iter_mut().find(|(s, _)| *s == sq) {
            Some((_, k)) => *k = (*k).max(kind),
            None => self.squares.push((sq, kind)),
        }
    }

    /// Marks the field `name` as `kind`.
    pub fn field(&mut self, name: &str, kind: MarkKind) {
        match self.fields.iter_mut().find(|(n, _)| n == name) {
            Some((_, k)) => *k = (*k).max(kind),
            None => self.fields.push((name.to_owned(), kind)),
        }
    }

    /// Adds `other`'s square and field marks (the stronger kind kept where both mark).
    pub fn merge(&mut self, other: &Marks) {
        for (sq, k) in &other.squares {
            self.square(*sq, *k);
        }
        for (f, k) in &other.fields {
            self.field(f, *k);
        }
    }

    /// The mark of `sq`, if any.
    pub fn square_kind(&self, sq: Square) -> Option<MarkKind> {
        self.squares.iter().find(|(s, _)| *s == sq).map(|(_, k)| *k)
    }

    /// The mark of field `name`, if any.
    pub fn field_kind(&self, name: &str) -> Option<MarkKind> {
        self.fields.iter().find(|(n, _)| n == name).map(|(_, k)| *k)
    }

    /// Marks what `finding` is about on `board`, where the FEN the board was read from starts
    /// at byte `fen_at` of the text the finding's span points into: the squares of the
    /// placement bytes its span covers (unless it covers the whole placement), the field its
    /// span is in, and every square its message names (`rook on h1`).
    pub fn finding(&mut self, board: &Board, finding: &Finding, fen_at: usize) {
        let kind = MarkKind::of_severity(&finding.severity);
        let mut named: Vec<Square> = Vec::new();
        let mut fields: Vec<String> = Vec::new();
        if let Some(span) = &finding.span
            && span.start >= fen_at
        {
            let span = span.start - fen_at..span.end - fen_at;
            let placement = board.placement();
            let inside = span.start >= placement.start && span.end <= placement.end;
            if inside && span.len() < placement.len() {
                named.extend(board.squares_of_bytes(span.clone()));
            }
            for f in board.fields() {
                if span.start < f.span.end.max(f.span.start + 1) && f.span.start < span.end {
                    fields.push(f.name.clone());
                }
            }
        }
        for word in finding
            .message
            .split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|w| !w.is_empty())
        {
            if let Some(sq) = Square::parse(word, board.files(), board.ranks())
                && !named.contains(&sq)
            {
                named.push(sq);
            }
        }
        for sq in &named {
            self.square(*sq, kind);
        }
        for f in &fields {
            self.field(f, kind);
        }
        let mut places: Vec<String> = named.iter().map(|s| s.name()).collect();
        places.extend(fields);
        if !places.is_empty() {
            self.legend
                .push((format!("{} {}", places.join(" "), finding.code), kind));
        }
    }

    /// Marks the squares and fields that differ between `before` and `after` as changed.
    pub fn changes(&mut self, before: &Board, after: &Board) {
        let squares = before.changed_squares(after);
        let fields = before.changed_fields(after);
        for sq in &squares {
            self.square(*sq, MarkKind::Changed);
        }
        for f in &fields {
            self.field(f, MarkKind::Changed);
        }
        let mut places: Vec<String> = squares.iter().map(|s| s.name()).collect();
        places.extend(fields);
        if !places.is_empty() {
            self.legend
                .push((format!("{} changed", places.join(" ")), MarkKind::Changed));
        }
    }

    /// Draws the UCI move `text` (`e2e4`, `e7e8q`, `P@e4`, `a10a9`... on 10x8, `e1g1`) as an
    /// arrow and marks its squares; a text that is no move on `board` marks nothing.
    pub fn arrow(&mut self, board: &Board, text: &str) {
        if let Some((from, to)) = move_squares(text, board.files(), board.ranks()) {
            self.arrows.push((from, to));
            self.square(from, MarkKind::Move);
            self.square(to, MarkKind::Move);
        }
    }

    /// Marks a move's squares as `kind` (an illegal move's from and to squares).
    pub fn move_squares(&mut self, board: &Board, text: &str, kind: MarkKind, code: &str) {
        if let Some((from, to)) = move_squares(text, board.files(), board.ranks()) {
            self.square(from, kind);
            self.square(to, kind);
            let places = match from == to {
                true => to.name(),
                false => format!("{} {}", from.name(), to.name()),
            };
            self.legend.push((format!("{places} {code}"), kind));
        }
    }
}

/// The (from, to) squares of a UCI move text; a drop (`P@e4`) is (to, to).
pub fn move_squares(text: &str, files: usize, ranks: usize) -> Option<(Square, Square)> {
    if let Some((piece, to)) = text.split_once('@') {
        if piece.len() != 1 {
            return None;
        }
        let to = Square::parse(to, files, ranks)?;
        return Some((to, to));
    }
    let bytes = text.as_bytes();
    // from: letter + digits; to: letter + digits; then an optional promotion letter.
    let split = |s: &[u8]| -> Option<usize> {
        let digits = s
            .get(1..)?
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
        (digits > 0).then_some(1 + digits)
    };
    let a = split(bytes)?;
    let rest = &text[a..];
    let b = split(rest.as_bytes())?;
    if rest.len() > b + 1 {
        return None;
    }
    let from = Square::parse(&text[..a], files, ranks)?;
    let to = Square::parse(&rest[..b], files, ranks)?;
    Some((from, to))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view::Shape;

    #[test]
    fn move_squares_read_every_move_form() {
        let sq = |n: &str| Square::parse(n, 10, 8).unwrap();
        assert_eq!(move_squares("e2e4", 8, 8), Some((sq("e2"), sq("e4"))));
        assert_eq!(move_squares("e7e8q", 8, 8), Some((sq("e7"), sq("e8"))));
        assert_eq!(move_squares("P@e4", 8, 8), Some((sq("e4"), sq("e4"))));
        assert_eq!(move_squares("j2j4", 10, 8), Some((sq("j2"), sq("j4"))));
        assert_eq!(move_squares("j2j4", 8, 8), None);
        assert_eq!(move_squares("0000", 8, 8), None);
        assert_eq!(move_squares("e2e4qq", 8, 8), None);
    }

    #[test]
    fn a_whole_placement_span_marks_no_square() {
        let board = Board::from_fen("8/8/8/8/8/8/8/4K3 w - - 0 1", Shape::EIGHT).unwrap();
        let mut marks = Marks::default();
        let f = Finding {
            code: "missing-king".into(),
            severity: "error".into(),
            message: "there is no black king; expected exactly one".into(),
            span: Some(0..17),
        };
        marks.finding(&board, &f, 0);
        assert!(marks.squares.is_empty());
        assert!(marks.legend.is_empty());
    }
}
