//! The castling field of a 10x8 X-FEN: `K`/`Q` (the outermost rook on that side of the king),
//! a rook's file letter `a`-`j` (an inner rook, X-FEN; any rook, Shredder-FEN), `-`. The
//! seed's `s` and `m` prefixes are recognized and refused (`unsupported-castling-prefix`).
//! Also the writer of the field in X-FEN and Shredder-FEN style.

use shakmaty::Color;

use super::parse::{error, quote};
use super::piece::{Piece10, Role10, Variant10};
use super::position::{back_rank, color_index};
use super::square::{FILES, SQUARES, Square10, file_char};
use crate::fen::{CastlingStyle, Code, Diagnostic, Severity};

/// The castling rights kept: `[color][side]` -> the rook's square (side 0 queenside).
pub(crate) type Rights = [[Option<Square10>; 2]; 2];

/// How the field is judged.
pub(crate) struct Rules {
    pub variant: Variant10,
    /// Standard rules (`--standard`, no Chess960): a right must use the variant's king file
    /// and a corner rook.
    pub standard: bool,
}

/// The king of `color` when it is alone and on its back rank.
pub(crate) fn castling_king(
    squares: &[Option<Piece10>; SQUARES],
    color: Color,
) -> Option<Square10> {
    let king = Piece10 {
        color,
        role: Role10::King,
    };
    let mut kings = Square10::all().filter(|s| squares[s.index()] == Some(king));
    match (kings.next(), kings.next()) {
        (Some(k), None) if k.rank() == back_rank(color) => Some(k),
        _ => None,
    }
}

fn is_rook(squares: &[Option<Piece10>; SQUARES], sq: Square10, color: Color) -> bool {
    squares[sq.index()]
        == Some(Piece10 {
            color,
            role: Role10::Rook,
        })
}

/// Reads the castling field `text` (at byte `offset`) against the board; returns the rights
/// that stand (each fault recorded, with its repair where dropping the right is safe), or
/// `None` when the field itself is malformed.
pub(crate) fn read(
    text: &[u8],
    offset: usize,
    squares: &[Option<Piece10>; SQUARES],
    rules: &Rules,
    diags: &mut Vec<Diagnostic>,
) -> Option<Rights> {
    let mut rights: Rights = [[None; 2]; 2];
    if text == b"-" {
        return Some(rights);
    }
    if let Some(i) = text
        .iter()
        .position(|&c| matches!(c, b's' | b'S' | b'm' | b'M'))
    {
        diags.push(error(
            Code::UnsupportedCastlingPrefix,
            Some(offset + i..offset + i + 1),
            format!(
                "castling prefix {} ({}): the X-FEN seed defines it, but no engine or GUI implements it",
                quote(&text[i..i + 1]),
                if text[i].eq_ignore_ascii_case(&b's') { "symmetric castling" } else { "modern castling" },
            ),
        ));
        return None;
    }
    if let Some(i) = text.iter().position(|&c| {
        !(matches!(c.to_ascii_lowercase(), b'k' | b'q')
            || (b'a'..b'a' + FILES).contains(&c.to_ascii_lowercase()))
    }) {
        diags.push(error(
            Code::BadCastlingChar,
            Some(offset + i..offset + i + 1),
            format!(
                "castling character {}; expected `-`, `KQkq` or a rook's file letter `A`-`J`/`a`-`j`",
                quote(&text[i..i + 1])
            ),
        ));
        return None;
    }
    for (i, &c) in text.iter().enumerate() {
        let span = Some(offset + i..offset + i + 1);
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let rank = back_rank(color);
        let lower = c.to_ascii_lowercase();
        let Some(king) = castling_king(squares, color) else {
            diags.push(
                error(
                    Code::CastlingWithoutKing,
                    span,
                    format!(
                        "castling right {} but the {color} king is not alone on its back rank",
                        quote(&[c])
                    ),
                )
                .with_fix("drop the castling right"),
            );
            continue;
        };
        let rook = match lower {
            b'k' => (king.file() + 1..FILES as i8)
                .rev()
                .map(|f| Square10::new(f, rank).expect("on the board"))
                .find(|&s| is_rook(squares, s, color)),
            b'q' => (0..king.file())
                .map(|f| Square10::new(f, rank).expect("on the board"))
                .find(|&s| is_rook(squares, s, color)),
            f => Square10::new((f - b'a') as i8, rank).filter(|&s| is_rook(squares, s, color)),
        };
        let Some(rook) = rook else {
            diags.push(
                error(
                    Code::CastlingWithoutRook,
                    span,
                    format!(
                        "castling right {} but no {color} rook stands {}",
                        quote(&[c]),
                        match lower {
                            b'k' => format!("on rank {} right of the king on {king}", rank + 1),
                            b'q' => format!("on rank {} left of the king on {king}", rank + 1),
                            f => format!("on {}{}", f as char, rank + 1),
                        }
                    ),
                )
                .with_fix("drop the castling right"),
            );
            continue;
        };
        let side = usize::from(rook.file() > king.file());
        if rules.standard
            && !rules.variant.is_random()
            && (king.file() != rules.variant.king_file() || !matches!(rook.file(), 0 | 9))
        {
            diags.push(
                error(
                    Code::CastlingNeedsChess960,
                    span,
                    format!(
                        "castling right {} (king {king}, rook {rook}) needs Chess960 rules; {} castles with the king on {}{} and a corner rook",
                        quote(&[c]),
                        rules.variant,
                        file_char(rules.variant.king_file()),
                        rank + 1
                    ),
                )
                .with_fix("drop the castling right"),
            );
            continue;
        }
        let slot = &mut rights[color_index(color)][side];
        match *slot {
            Some(existing) if existing == rook => {
                diags.push(
                    Diagnostic::new(
                        Code::DuplicateCastlingRight,
                        Severity::Warning,
                        span,
                        format!("castling right {} written twice (rook {rook})", quote(&[c])),
                    )
                    .with_fix("written once"),
                );
            }
            Some(existing) => {
                diags.push(error(
                    Code::ConflictingCastlingRights,
                    span,
                    format!(
                        "castling right {} (rook {rook}) and another right on the same side of the {color} king (rook {existing})",
                        quote(&[c])
                    ),
                ));
            }
            None => *slot = Some(rook),
        }
    }
    Some(rights)
}

/// Appends the castling field of `rights` on `squares` in `style`: X-FEN writes `K`/`Q` for
/// the outermost rook of a side and the file letter for an inner one; Shredder-FEN always
/// the file letter. White first, each color's rights from the j-file side, as python-chess
/// orders them; `-` when there are none.
pub(crate) fn write(
    squares: &[Option<Piece10>; SQUARES],
    rights: &Rights,
    style: CastlingStyle,
    buf: &mut Vec<u8>,
) {
    let start = buf.len();
    for color in [Color::White, Color::Black] {
        for side in [1, 0] {
            let Some(rook) = rights[color_index(color)][side] else {
                continue;
            };
            let rank = rook.rank();
            let outermost = match side {
                1 => rook.file() + 1..FILES as i8,
                _ => 0..rook.file(),
            }
            .all(|f| {
                !is_rook(
                    squares,
                    Square10::new(f, rank).expect("on the board"),
                    color,
                )
            });
            let c = match (style, outermost, side) {
                (CastlingStyle::XFen, true, 1) => b'k',
                (CastlingStyle::XFen, true, _) => b'q',
                _ => file_char(rook.file()) as u8,
            };
            buf.push(match color {
                Color::White => c.to_ascii_uppercase(),
                Color::Black => c,
            });
        }
    }
    if buf.len() == start {
        buf.push(b'-');
    }
}
