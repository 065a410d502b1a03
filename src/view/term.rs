//! Boards for the terminal and log files: letters by default (`K` White, `k` Black, `.` an
//! empty square, a marked square in brackets `[k]`, a move's squares in parentheses `(e2)`),
//! ANSI colour (squares, marks by severity) and Unicode pieces when asked.
//!
//! ```text
//!     a  b  c  d  e  f  g  h
//!  8  .  .  .  . [k] .  .  .
//!  7  .  .  .  .  R  .  .  .
//!  ...
//!  1  .  .  .  .  K  .  .  .
//!     w to move  castling -
//!     ep -  halfmove 0  fullmove 1
//!     [e8] opposite-check
//! ```

use super::board::{Board, Cell, Square};
use super::marks::{MarkKind, Marks};
use crate::fen::escape_controls;

/// How boards are drawn.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Style {
    /// ANSI colours (light and dark squares, marks by severity).
    pub color: bool,
    /// Unicode chess pieces (letters for the 10x8 pieces, which have none).
    pub unicode: bool,
}

const RESET: &str = "\x1b[0m";

fn mark_bg(kind: MarkKind) -> &'static str {
    match kind {
        MarkKind::Error => "\x1b[48;5;196m",
        MarkKind::Warning => "\x1b[48;5;214m",
        MarkKind::Note => "\x1b[48;5;75m",
        MarkKind::Changed => "\x1b[48;5;44m",
        MarkKind::Move => "\x1b[48;5;114m",
    }
}

/// The glyph of a piece letter.
fn glyph(c: char, unicode: bool) -> char {
    if !unicode {
        return c;
    }
    match c {
        'K' => '♔',
        'Q' => '♕',
        'R' => '♖',
        'B' => '♗',
        'N' => '♘',
        'P' => '♙',
        'k' => '♚',
        'q' => '♛',
        'r' => '♜',
        'b' => '♝',
        'n' => '♞',
        'p' => '♟',
        other => other,
    }
}

fn cell_text(board: &Board, sq: Square, marks: &Marks, style: Style) -> String {
    let (c, fg) = match board.cell(sq) {
        Cell::Empty => ('.', ""),
        Cell::Missing => (' ', ""),
        Cell::Piece(p) if p.is_ascii_uppercase() => (glyph(p, style.unicode), "\x1b[1;38;5;231m"),
        Cell::Piece(p) => (glyph(p, style.unicode), "\x1b[1;38;5;16m"),
    };
    let kind = marks.square_kind(sq);
    if style.color {
        let bg = match kind {
            Some(k) => mark_bg(k),
            None if (sq.file + sq.rank) % 2 == 1 => "\x1b[48;5;223m",
            None => "\x1b[48;5;137m",
        };
        let c = if c == '.' { ' ' } else { c };
        return format!("{bg}{fg} {c} {RESET}");
    }
    match kind {
        None => format!(" {c} "),
        Some(MarkKind::Move) => format!("({c})"),
        Some(_) => format!("[{c}]"),
    }
}

/// A field shown for people: `w to move`, `castling KQkq`.
/// A field as shown: `w to move`, `castling KQkq`; the FEN's text escaped
/// ([`escape_controls`]).
fn field_label(name: &str, text: &str) -> String {
    let text = escape_controls(text);
    match name {
        "side" => format!("{text} to move"),
        _ => format!("{name} {text}"),
    }
}

fn marked(text: &str, kind: Option<MarkKind>, style: Style) -> String {
    match (kind, style.color) {
        (None, _) => text.to_owned(),
        (Some(k), true) => format!("{}\x1b[1;38;5;16m{text}{RESET}", mark_bg(k)),
        (Some(MarkKind::Move), false) => format!("({text})"),
        (Some(_), false) => format!("[{text}]"),
    }
}

/// The board's lines (no trailing spaces, no line ends): the file letters, each rank from the
/// top with its number, Black's pocket above and White's below when there are pockets, the
/// fields, and the marks' legend. Marked squares and fields show their mark.
pub fn board_lines(board: &Board, marks: &Marks, style: Style) -> Vec<String> {
    let files = board.files();
    let mut lines = Vec::new();
    let letters: String = (0..files)
        .map(|f| format!(" {} ", char::from(b'a' + f as u8)))
        .collect();
    let pocket_line = |who: &str, pieces: &str| {
        let shown: String = match pieces.is_empty() {
            true => "-".to_owned(),
            false => escape_controls(
                &pieces
                    .chars()
                    .map(|c| glyph(c, style.unicode))
                    .collect::<String>(),
            )
            .into_owned(),
        };
        format!(
            "    {who} in hand: {}",
            marked(&shown, marks.field_kind("pocket"), style)
        )
    };
    if let Some((_, black)) = board.pockets() {
        lines.push(pocket_line("black", black));
    }
    lines.push(format!("   {letters}").trim_end().to_owned());
    for rank in (0..board.ranks()).rev() {
        let row: String = (0..files)
            .map(|file| cell_text(board, Square { file, rank }, marks, style))
            .collect();
        lines.push(format!("{:>2} {row}", rank + 1).trim_end().to_owned());
    }
    if let Some((white, _)) = board.pockets() {
        lines.push(pocket_line("white", white));
    }
    // The side and castling on one line, the rest on the next: both fit under an 8x8 board.
    let fields: Vec<String> = board
        .fields()
        .iter()
        .map(|f| {
            marked(
                &field_label(&f.name, &f.text),
                marks.field_kind(&f.name),
                style,
            )
        })
        .collect();
    let split = fields.len().min(2);
    for part in [&fields[..split], &fields[split..]] {
        if !part.is_empty() {
            lines.push(format!("    {}", part.join("  ")));
        }
    }
    for (text, kind) in &marks.legend {
        let (open, close) = match (style.color, kind) {
            (true, _) => (mark_bg(*kind), RESET),
            (false, MarkKind::Move) => ("(", ")"),
            (false, _) => ("[", "]"),
        };
        let text = escape_controls(text);
        let (places, code) = text.rsplit_once(' ').unwrap_or((&text, ""));
        lines.push(format!("    {open}{places}{close} {code}"));
    }
    lines
}

/// How many columns `s` takes on a terminal (ANSI colour sequences take none).
pub fn visible_width(s: &str) -> usize {
    let mut n = 0;
    let mut in_escape = false;
    for c in s.chars() {
        match (in_escape, c) {
            (false, '\x1b') => in_escape = true,
            (true, 'm') => in_escape = false,
            (true, _) => {}
            (false, _) => n += 1,
        }
    }
    n
}

/// Two blocks of lines side by side under their titles, `gap` columns apart.
pub fn side_by_side(left: (&str, &[String]), right: (&str, &[String]), gap: usize) -> Vec<String> {
    let width = left
        .1
        .iter()
        .map(|l| visible_width(l))
        .chain([left.0.len() + 4])
        .max()
        .unwrap_or(0)
        + gap;
    let title = |t: &str| format!("    {t}");
    let l: Vec<String> = std::iter::once(title(left.0))
        .chain(left.1.iter().cloned())
        .collect();
    let r: Vec<String> = std::iter::once(title(right.0))
        .chain(right.1.iter().cloned())
        .collect();
    (0..l.len().max(r.len()))
        .map(|i| {
            let a = l.get(i).map_or("", String::as_str);
            let b = r.get(i).map_or("", String::as_str);
            let pad = width.saturating_sub(visible_width(a));
            format!("{a}{}{b}", " ".repeat(pad)).trim_end().to_owned()
        })
        .collect()
}
