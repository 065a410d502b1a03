//! See a position: boards drawn from FENs for the terminal ([`term`]), as SVG ([`svg`]) and in
//! a self-contained HTML page ([`html`]), with the squares and fields a diagnostic is about
//! marked ([`marks`]) (SPEC section 14). Pure: no I/O; the callers (`fenguard check`,
//! `fenguard log`) say whether stdout is a terminal and whether `NO_COLOR` is set.
//!
//! ```
//! use fenguard::view::{Finding, Shape, Style, terminal_block};
//!
//! let input = b"4k3/8/8/8/8/8/8/4K3 w K - 0 1";
//! let finding = Finding {
//!     code: "castling-without-rook".into(),
//!     severity: "error".into(),
//!     message: "castling right for a white rook on h1, but it is empty".into(),
//!     span: Some(22..23),
//! };
//! let lines = terminal_block(input, Shape::EIGHT, &[finding], None, false, Style::default());
//! assert_eq!(lines[8], " 1  .  .  .  .  K  .  . [.]");
//! assert_eq!(lines[9], "    w to move  [castling K]");
//! assert_eq!(lines[10], "    ep -  halfmove 0  fullmove 1");
//! assert_eq!(lines[11], "    [h1 castling] castling-without-rook");
//! ```

pub mod args;
pub mod board;
pub mod html;
pub mod marks;
pub mod svg;
pub mod term;

pub use args::{BoardWhen, ColorWhen, ViewArgs};
pub use board::{Board, Cell, Field, Shape, Square};
pub use marks::{Finding, MarkKind, Marks, move_squares};
pub use term::Style;

/// The terminal lines drawn under a checked FEN: nothing when there is nothing to show (no
/// finding, no change, and not `always`); one board with the findings marked; or, when
/// `after` (the repaired or normalized FEN) draws differently from `input`, the two boards
/// side by side (`as given` and `after`'s title), the changed squares and fields marked.
/// `after` is (FEN, title).
pub fn terminal_block(
    input: &[u8],
    shape: Shape,
    findings: &[Finding],
    after: Option<(&str, &str)>,
    always: bool,
    style: Style,
) -> Vec<String> {
    let Some(before) = Board::from_bytes(input, shape) else {
        return Vec::new();
    };
    let mut marks = Marks::default();
    for f in findings {
        marks.finding(&before, f, 0);
    }
    if let Some((fen, title)) = after
        && let Some(after) = Board::from_fen(fen, shape)
        && before != after
        && (!before.changed_squares(&after).is_empty() || !before.changed_fields(&after).is_empty())
    {
        let mut changed = Marks::default();
        changed.changes(&before, &after);
        marks.merge(&changed);
        let left = term::board_lines(&before, &marks, style);
        let right = term::board_lines(&after, &changed, style);
        return term::side_by_side(("as given", &left), (title, &right), 4);
    }
    if findings.is_empty() && !always {
        return Vec::new();
    }
    term::board_lines(&before, &marks, style)
}
