//! Boards as inline SVG for the HTML report: one square unit per square (`viewBox="0 0 files
//! ranks"`), the squares one pattern, each piece a `<use>` of a shape defined once per page
//! ([`defs`]), marked squares tinted by kind, moves as arrows. A board of 32 pieces is about a
//! kilobyte.
//!
//! ```
//! use fenguard::view::{Board, Marks, Shape, svg};
//!
//! let board = Board::from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1", Shape::EIGHT).unwrap();
//! let mut marks = Marks::default();
//! marks.arrow(&board, "e1e2");
//! let s = svg::board(&board, &marks);
//! assert!(s.starts_with("<svg class=\"board\" viewBox=\"0 0 8 8\""));
//! assert!(s.contains("<text class=\"pw\" x=\"4\" y=\"7\">♚</text>"));
//! assert!(s.contains("<line class=\"ar\" x1=\"4.5\" y1=\"7.5\" x2=\"4.5\" y2=\"6.5\""));
//! ```

use std::fmt::Write as _;

use super::board::{Board, Cell, Square};
use super::marks::Marks;

/// Pixels a square is drawn at.
pub const SQUARE_PX: usize = 36;

/// The piece letters [`defs`] defines (`#pK`, `#pk`, ...); any other letter is drawn as
/// `#p-` (a question mark).
const PIECES: &str = "KQRBNPkqrbnpACJacjX";

fn solid(c: char) -> Option<char> {
    Some(match c.to_ascii_lowercase() {
        'k' => '♚',
        'q' => '♛',
        'r' => '♜',
        'b' => '♝',
        'n' => '♞',
        'p' => '♟',
        _ => return None,
    })
}

/// The page's shared SVG definitions: the square pattern, every piece shape, the arrow head.
/// Put once in the page, before the boards (an `<svg>` of no size).
pub fn defs() -> String {
    let mut s = String::from(
        "<svg width=\"0\" height=\"0\" style=\"position:absolute\" aria-hidden=\"true\"><defs>\
         <pattern id=\"sq\" width=\"2\" height=\"2\" patternUnits=\"userSpaceOnUse\">\
         <rect width=\"2\" height=\"2\" fill=\"#f0d9b5\"/><rect x=\"1\" width=\"1\" height=\"1\" fill=\"#b58863\"/>\
         <rect y=\"1\" width=\"1\" height=\"1\" fill=\"#b58863\"/></pattern>\
         <marker id=\"ah\" viewBox=\"0 0 10 10\" refX=\"5\" refY=\"5\" markerWidth=\"3\" markerHeight=\"3\" orient=\"auto-start-reverse\">\
         <path d=\"M0 0L10 5L0 10z\" fill=\"#15781b\"/></marker>",
    );
    for (files, ranks) in COORDS {
        let _ = write!(s, "<g id=\"c{files}x{ranks}\">{}</g>", coords(files, ranks));
    }
    for c in PIECES.chars().chain(['-']).filter(|c| solid(*c).is_none()) {
        let white = c.is_ascii_uppercase();
        let (fill, stroke) = match white {
            true => ("#fff", "#000"),
            false => ("#000", "#fff"),
        };
        let (letter, fill, stroke) = match c {
            '-' => ('?', "#fff", "#c00"),
            c => (c.to_ascii_uppercase(), fill, stroke),
        };
        let _ = write!(
            s,
            "<g id=\"p{c}\"><circle cx=\".5\" cy=\".5\" r=\".4\" fill=\"{fill}\" stroke=\"#000\" stroke-width=\".04\"/>\
             <text x=\".5\" y=\".68\" font-size=\".5\" font-weight=\"bold\" text-anchor=\"middle\" fill=\"{stroke}\">{letter}</text></g>"
        );
    }
    s.push_str("</defs></svg>");
    s
}

/// The board sizes whose file letters and rank numbers [`defs`] defines once (`#c8x8`).
const COORDS: [(usize, usize); 2] = [(8, 8), (10, 8)];

/// The file letters and rank numbers of a board, as a group.
fn coords(files: usize, ranks: usize) -> String {
    let mut s = String::from("<g class=\"co\" text-anchor=\"end\">");
    for file in 0..files {
        let _ = write!(
            s,
            "<text x=\"{}.93\" y=\"{}.97\">{}</text>",
            file,
            ranks - 1,
            char::from(b'a' + file as u8)
        );
    }
    s.push_str("</g><g class=\"co\">");
    for rank in 0..ranks {
        let _ = write!(
            s,
            "<text x=\".04\" y=\"{}.22\">{}</text>",
            ranks - 1 - rank,
            rank + 1
        );
    }
    s.push_str("</g>");
    s
}

/// The top-left corner of `sq` in board units (rank 1 at the bottom).
fn corner(board: &Board, sq: Square) -> (usize, usize) {
    (sq.file, board.ranks() - 1 - sq.rank)
}

/// One board as an inline `<svg>`: squares, the marks (`<rect class="k-error">` and the other
/// [`super::MarkKind`] names), the pieces (chess pieces as glyphs of class `pw` / `pb`, one
/// `<text>` a rank and colour; the others as `<use>` of [`defs`]' shapes), file letters and
/// rank numbers, then the arrows. Needs the page's [`defs`] and CSS.
pub fn board(board: &Board, marks: &Marks) -> String {
    let (files, ranks) = (board.files(), board.ranks());
    let mut s = String::with_capacity(1200);
    let _ = write!(
        s,
        "<svg class=\"board\" viewBox=\"0 0 {files} {ranks}\" width=\"{}\" height=\"{}\" role=\"img\">\
         <rect width=\"{files}\" height=\"{ranks}\" fill=\"url(#sq)\"/>",
        files * SQUARE_PX,
        ranks * SQUARE_PX
    );
    for (sq, kind) in &marks.squares {
        let (x, y) = corner(board, *sq);
        let _ = write!(
            s,
            "<rect class=\"k-{}\" x=\"{x}\" y=\"{y}\" width=\"1\" height=\"1\"/>",
            kind.as_str()
        );
    }
    // Chess pieces as glyphs, one `<text>` per rank and colour with a list of x positions;
    // the other pieces (the 10x8 ones, unknown letters) as shapes.
    s.push_str("<g transform=\"translate(.5 .83)\">");
    for row in 0..ranks {
        let rank = ranks - 1 - row;
        for (class, white) in [("pw", true), ("pb", false)] {
            let (mut xs, mut glyphs) = (String::new(), String::new());
            for file in 0..files {
                if let Cell::Piece(c) = board.cell(Square { file, rank })
                    && c.is_ascii_uppercase() == white
                    && let Some(g) = solid(c)
                {
                    if !xs.is_empty() {
                        xs.push(' ');
                    }
                    let _ = write!(xs, "{file}");
                    glyphs.push(g);
                }
            }
            if !glyphs.is_empty() {
                let _ = write!(
                    s,
                    "<text class=\"{class}\" x=\"{xs}\" y=\"{row}\">{glyphs}</text>"
                );
            }
        }
    }
    s.push_str("</g>");
    for rank in 0..ranks {
        for file in 0..files {
            let sq = Square { file, rank };
            if let Cell::Piece(c) = board.cell(sq)
                && solid(c).is_none()
            {
                let id = if PIECES.contains(c) { c } else { '-' };
                let (x, y) = corner(board, sq);
                let _ = write!(s, "<use href=\"#p{id}\" x=\"{x}\" y=\"{y}\"/>");
            }
        }
    }
    match COORDS.contains(&(files, ranks)) {
        true => {
            let _ = write!(s, "<use href=\"#c{files}x{ranks}\"/>");
        }
        false => s.push_str(&coords(files, ranks)),
    }
    for (from, to) in &marks.arrows {
        let (fx, fy) = corner(board, *from);
        let (tx, ty) = corner(board, *to);
        if from == to {
            let _ = write!(
                s,
                "<circle class=\"ar\" cx=\"{tx}.5\" cy=\"{ty}.5\" r=\".35\"/>"
            );
        } else {
            let _ = write!(
                s,
                "<line class=\"ar\" x1=\"{fx}.5\" y1=\"{fy}.5\" x2=\"{tx}.5\" y2=\"{ty}.5\" marker-end=\"url(#ah)\"/>"
            );
        }
    }
    s.push_str("</svg>");
    s
}

/// The pockets of a crazyhouse board as a line of text (`white in hand: QN · black: p`).
pub fn pockets_text(board: &Board) -> Option<String> {
    board.pockets().map(|(w, b)| {
        let show = |p: &str| match p.is_empty() {
            true => "-".to_owned(),
            false => p.to_owned(),
        };
        format!("in hand: white {} · black {}", show(w), show(b))
    })
}
