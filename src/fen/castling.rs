//! The castling field: reading `-`, X-FEN (`KQkq`, outermost rook) and Shredder-FEN (rook file
//! letters) in any mix, cleaning rights the position cannot have, and writing both styles.
//!
//! Reading and cleaning mirror python-chess 1.11.2 (`Board._set_castling_fen`,
//! `Board.clean_castling_rights` with `chess960=True`); writing mirrors `castling_xfen` and
//! `castling_shredder_fen`. A right is the square of its rook.

use std::fmt;
use std::ops::Range;

use shakmaty::{Bitboard, Board, Color, File, Rank, Role, Square};

use super::diagnostic::{Code, Severity};
use super::sink::Sink;
use super::text::{char_len, quote};

/// How castling rights are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CastlingStyle {
    /// X-FEN: `KQkq` for the outermost rooks, the rook's file letter for an inner rook. For
    /// standard positions this is plain FEN `KQkq`. Mirrors python-chess `castling_xfen()`.
    #[default]
    XFen,
    /// Shredder-FEN: always rook file letters, White first, files from h to a (`HAha`).
    /// Mirrors python-chess `castling_shredder_fen()`.
    Shredder,
}

/// The castling letters as read: the requested rook squares and which letter asked for each.
#[derive(Debug, Clone)]
pub(crate) struct Requested {
    /// Requested rights (rook squares on the back ranks).
    pub rights: Bitboard,
    /// Byte offset of the letter that requested each back-rank square: index `file` for rank
    /// 1, `8 + file` for rank 8.
    letter_at: [u32; 16],
}

impl Requested {
    /// No rights.
    pub const NONE: Requested = Requested {
        rights: Bitboard::EMPTY,
        letter_at: [0; 16],
    };

    /// Span of the letter that requested the right on `sq`.
    pub fn span(&self, sq: Square) -> Option<Range<usize>> {
        let at = self.letter_at[index(sq)?] as usize;
        Some(at..at + 1)
    }
}

fn index(sq: Square) -> Option<usize> {
    match sq.rank() {
        Rank::First => Some(sq.file() as usize),
        Rank::Eighth => Some(8 + sq.file() as usize),
        _ => None,
    }
}

const fn backrank(color: Color) -> Rank {
    match color {
        Color::White => Rank::First,
        Color::Black => Rank::Eighth,
    }
}

/// Reads the castling `field` (at byte offset `at`) against `board`. Pushes
/// `bad-castling-char`, `duplicate-castling-right`, `castling-order` and
/// `castling-without-any-rook`; returns `None` when a character is not a castling letter.
pub(crate) fn read(
    field: &[u8],
    at: usize,
    board: &Board,
    promoted: Bitboard,
    diags: &mut Sink,
) -> Option<Requested> {
    let mut req = Requested::NONE;
    if field == b"-" {
        return Some(req);
    }
    let mut ok = true;
    let mut i = 0;
    while i < field.len() {
        let c = field[i];
        if !matches!(c.to_ascii_lowercase(), b'a'..=b'h' | b'k' | b'q') {
            let len = char_len(field, i);
            diags.add(
                Code::BadCastlingChar,
                Severity::Error,
                Some(at + i..at + i + len),
                || {
                    format!(
                        "castling character {}; expected `-` alone, or letters from KQkq and rook files A-H / a-h",
                        quote(&field[i..i + len])
                    )
                },
            );
            ok = false;
            i += len;
            continue;
        }
        i += 1;
    }
    if !ok || diags.done() {
        return None;
    }
    // Canonical order: White before Black, each from the h-side to the a-side.
    let mut previous: Option<(Color, Square)> = None;
    let mut order_reported = false;
    let mut seen_black = false;
    for (i, &c) in field.iter().enumerate() {
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        if !order_reported && seen_black && color == Color::White {
            order_diagnostic(field, at, diags);
            order_reported = true;
        }
        seen_black |= color == Color::Black;
        let Some(sq) = resolve(c.to_ascii_lowercase(), color, board, promoted) else {
            diags
                .add(
                    Code::CastlingWithoutAnyRook,
                    Severity::Warning,
                    Some(at + i..at + i + 1),
                    || {
                        format!(
                            "`{}`: {color} has no rook on rank {}; the right is ignored",
                            char::from(c),
                            backrank(color).char()
                        )
                    },
                )
                .fix("drop the castling right");
            continue;
        };
        if req.rights.contains(sq) {
            diags
                .add(
                    Code::DuplicateCastlingRight,
                    Severity::Warning,
                    Some(at + i..at + i + 1),
                    || {
                        format!(
                            "`{}` repeats the castling right of the rook on {sq}",
                            char::from(c)
                        )
                    },
                )
                .fix("write each right once");
            continue;
        }
        if !order_reported && matches!(previous, Some((pc, psq)) if pc == color && psq < sq) {
            order_diagnostic(field, at, diags);
            order_reported = true;
        }
        previous = Some((color, sq));
        req.rights.add(sq);
        if let Some(n) = index(sq) {
            req.letter_at[n] = (at + i) as u32;
        }
    }
    Some(req)
}

/// `castling-order`: letters not in canonical order (White before Black, each from the h-side
/// to the a-side), which python-chess refuses and fenguard accepts with this warning.
fn order_diagnostic(field: &[u8], at: usize, diags: &mut Sink) {
    diags
        .add(
            Code::CastlingOrder,
            Severity::Warning,
            Some(at..at + field.len()),
            || {
                format!(
                    "castling rights {} out of order; expected White before Black, king side first (`KQkq`)",
                    quote(field)
                )
            },
        )
        .fix("write the rights in canonical order");
}

/// The rook square a letter names, as python-chess `_set_castling_fen` reads it: `k` the
/// outermost rook on the h-side of the king (else the h-file), `q` the outermost on the a-side
/// (else the a-file; nothing at all when the side has no back-rank rook and a king), a file
/// letter that file. Square order is compared, like python-chess, not files.
pub(crate) fn resolve(flag: u8, color: Color, board: &Board, promoted: Bitboard) -> Option<Square> {
    let rank = backrank(color);
    let rooks = board.by_piece(Role::Rook.of(color)) & Bitboard::from_rank(rank);
    let king = (board.kings() & board.by_color(color) & !promoted).last();
    let on_file = |f: File| Square::from_coords(f, rank);
    match flag {
        b'q' => match (king, rooks.first()) {
            (Some(_), None) => None,
            (Some(k), Some(r)) if r < k => Some(r),
            _ => Some(on_file(File::A)),
        },
        b'k' => match (king, rooks.last()) {
            (Some(k), Some(r)) if k < r => Some(r),
            _ => Some(on_file(File::H)),
        },
        f => Some(on_file(File::new(u32::from(f - b'a')))),
    }
}

/// Keeps the requested rights the position can have (python-chess `clean_castling_rights`,
/// Chess960 rules; under `standard` also king on the e-file and rook in the corner). Pushes a
/// diagnostic for every dropped right and returns the kept ones.
pub(crate) fn clean(
    req: &Requested,
    board: &Board,
    promoted: Bitboard,
    standard: bool,
    diags: &mut Sink,
) -> Bitboard {
    let mut kept = Bitboard::EMPTY;
    for color in Color::ALL {
        let rank = Bitboard::from_rank(backrank(color));
        let asked = req.rights & rank;
        if asked.is_empty() {
            continue;
        }
        let ours = board.by_piece(Role::Rook.of(color)) & asked;
        for sq in asked & !ours {
            drop_right(diags, Code::CastlingWithoutRook, req.span(sq), || {
                let found = board.piece_at(sq).map_or_else(
                    || "it is empty".to_owned(),
                    |p| format!("it holds a {} {:?}", p.color, p.role).to_lowercase(),
                );
                format!("castling right for a {color} rook on {sq}, but {found}")
            });
        }
        let Some(king) = (board.kings() & board.by_color(color) & rank & !promoted).last() else {
            for sq in ours {
                drop_right(diags, Code::CastlingWithoutKing, req.span(sq), || {
                    format!(
                        "castling right for the rook on {sq}, but the {color} king is not on rank {}",
                        backrank(color).char()
                    )
                });
            }
            continue;
        };
        let a_side = ours.first().filter(|&r| r < king);
        let h_side = ours.last().filter(|&r| r > king);
        for sq in ours {
            if Some(sq) != a_side && Some(sq) != h_side {
                drop_right(diags, Code::ConflictingCastlingRights, req.span(sq), || {
                    format!(
                        "a second castling right on the same side of the {color} king (rook on {sq}); only the outermost can castle"
                    )
                });
                continue;
            }
            if standard && is_chess960_right(king, sq) {
                drop_right(diags, Code::CastlingNeedsChess960, req.span(sq), || {
                    format!(
                        "castling with the king on {king} and the rook on {sq} needs Chess960 rules; standard chess expects king on e-file, rook on a- or h-file"
                    )
                });
                continue;
            }
            kept.add(sq);
        }
    }
    kept
}

fn drop_right(
    diags: &mut Sink,
    code: Code,
    span: Option<Range<usize>>,
    message: impl FnOnce() -> String,
) {
    diags
        .add(code, Severity::Error, span, message)
        .fix("drop the castling right");
}

/// Whether castling with these king and rook squares is outside standard chess.
pub(crate) fn is_chess960_right(king: Square, rook: Square) -> bool {
    king.file() != File::E || !matches!(rook.file(), File::A | File::H)
}

/// Whether any right in `rights` needs Chess960 (SPEC section 7).
pub(crate) fn needs_chess960(board: &Board, rights: Bitboard) -> bool {
    Color::ALL.into_iter().any(|color| {
        let rank = Bitboard::from_rank(backrank(color));
        let king = (board.kings() & board.by_color(color) & rank).last();
        (rights & rank)
            .into_iter()
            .any(|rook| king.is_none_or(|k| is_chess960_right(k, rook)))
    })
}

/// Displays castling rights in a [`CastlingStyle`]; `-` when there are none.
pub(crate) struct CastlingField<'a> {
    pub board: &'a Board,
    pub rights: Bitboard,
    pub style: CastlingStyle,
}

impl CastlingField<'_> {
    /// Appends the field to `buf` (ASCII).
    pub(crate) fn append_to(&self, buf: &mut Vec<u8>) {
        let start = buf.len();
        for color in Color::ALL {
            let rank = Bitboard::from_rank(backrank(color));
            let king = (self.board.kings() & self.board.by_color(color)).last();
            if self.style == CastlingStyle::XFen && king.is_none() {
                continue;
            }
            let rooks = self.board.by_piece(Role::Rook.of(color)) & rank;
            for rook in (self.rights & rank).into_iter().rev() {
                let letter = match (self.style, king) {
                    (CastlingStyle::XFen, Some(k)) => {
                        let a_side = rook.file() < k.file();
                        let outer = rooks
                            .without(rook)
                            .into_iter()
                            .any(|o| (o.file() < rook.file()) == a_side);
                        match (outer, a_side) {
                            (true, _) => rook.file().char(),
                            (false, true) => 'q',
                            (false, false) => 'k',
                        }
                    }
                    _ => rook.file().char(),
                } as u8;
                buf.push(match color {
                    Color::White => letter.to_ascii_uppercase(),
                    Color::Black => letter,
                });
            }
        }
        if buf.len() == start {
            buf.push(b'-');
        }
    }
}

impl fmt::Display for CastlingField<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut buf = Vec::with_capacity(4);
        self.append_to(&mut buf);
        f.write_str(std::str::from_utf8(&buf).map_err(|_| fmt::Error)?)
    }
}
