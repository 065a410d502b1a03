//! The piece-placement field: ranks from the top, files from the left, `/` between ranks.
//!
//! The geometry is a parameter ([`Geometry`]); pieces are handed to a callback as
//! `(file, rank, piece byte, byte offset)` with rank 0 the bottom rank, so the caller decides
//! how to store them; a promoted-piece marker `~` comes as byte `~` with its piece's square.

use std::ops::Range;

use super::diagnostic::{Code, Severity};
use super::geometry::Geometry;
use super::sink::Sink;
use super::text::{char_len, plural, quote};

/// Parses the placement `field` found at byte offset `at` of the input. Calls `place` for
/// every piece on the board and records syntax diagnostics; returns whether the placement is
/// well-formed (a trailing `/` is only a warning). In lean mode it stops at the first error.
pub(crate) fn parse_placement(
    field: &[u8],
    at: usize,
    geometry: Geometry,
    diags: &mut Sink,
    mut place: impl FnMut(u8, u8, u8, usize),
) -> bool {
    let files = usize::from(geometry.files);
    let ranks = usize::from(geometry.ranks);
    let errors_before = diags.errors();
    let mut rank_index = 0usize; // 0 = top rank
    let mut rank_start = 0usize;
    let mut width = 0usize;
    let mut i = 0usize;
    let mut last_was_piece = false;
    // Unknown characters of the current rank: (first byte, end byte, count).
    let mut unknown: Option<(usize, usize, usize)> = None;
    let text = Text {
        field,
        at,
        geometry,
    };
    while i < field.len() {
        if diags.done() {
            return false;
        }
        let c = field[i];
        if geometry.is_piece(c) {
            if width < files && rank_index < ranks {
                let rank = (ranks - 1 - rank_index) as u8;
                place(width as u8, rank, c, at + i);
            }
            width += 1;
            i += 1;
            last_was_piece = true;
        } else if c == b'/' {
            if i + 1 == field.len() && rank_index + 1 == ranks {
                finish_rank(&text, rank_index, width, rank_start..i, &mut unknown, diags);
                diags
                    .add(
                        Code::TrailingSlash,
                        Severity::Warning,
                        Some(at + i..at + i + 1),
                        || format!("`/` after the last rank; the board has {ranks} ranks"),
                    )
                    .fix("drop the trailing `/`");
                return diags.errors() == errors_before;
            }
            finish_rank(&text, rank_index, width, rank_start..i, &mut unknown, diags);
            rank_index += 1;
            rank_start = i + 1;
            width = 0;
            i += 1;
            last_was_piece = false;
        } else if c.is_ascii_digit() {
            let start = i;
            while i < field.len() && field[i].is_ascii_digit() {
                i += 1;
            }
            let run = &field[start..i];
            let span = Some(at + start..at + i);
            if run.len() > 1 && !geometry.multi_digit_counts() {
                diags.add(Code::BadDigit, Severity::Error, span, || {
                    format!(
                        "two empty-square counts in a row {}; expected one count from 1 to {files}",
                        quote(run)
                    )
                });
                width += run.iter().map(|d| usize::from(d - b'0')).sum::<usize>();
            } else {
                let n = run.iter().fold(0usize, |n, d| {
                    n.saturating_mul(10).saturating_add(usize::from(d - b'0'))
                });
                if n == 0 {
                    diags.add(Code::BadDigit, Severity::Error, span, || {
                        format!("empty-square count {}; expected 1 to {files}", quote(run))
                    });
                }
                width = width.saturating_add(n);
            }
            last_was_piece = false;
        } else if c == b'~' && last_was_piece {
            // python-chess's promoted-piece marker (`Q~`): reported with the previous square.
            if width <= files && rank_index < ranks {
                let rank = (ranks - 1 - rank_index) as u8;
                place(width as u8 - 1, rank, c, at + i);
            }
            i += 1;
            last_was_piece = false;
        } else {
            let len = char_len(field, i);
            unknown = Some(match unknown {
                None => (i, i + len, 1),
                Some((start, _, count)) => (start, i + len, count + 1),
            });
            i += len;
            width += 1;
            last_was_piece = false;
        }
    }
    finish_rank(
        &text,
        rank_index,
        width,
        rank_start..field.len(),
        &mut unknown,
        diags,
    );
    let count = rank_index + 1;
    if count > ranks {
        let extra_start = nth_rank_start(field, ranks);
        diags.add(
            Code::TooManyRanks,
            Severity::Error,
            Some(at + extra_start..at + field.len()),
            || format!("the board has {count} ranks, expected {ranks}"),
        );
    } else if count < ranks {
        diags.add(
            Code::TooFewRanks,
            Severity::Error,
            Some(at..at + field.len()),
            || {
                format!(
                    "the board has {count} rank{}, expected {ranks} separated by `/`",
                    plural(count)
                )
            },
        );
    }
    diags.errors() == errors_before
}

/// Reports the unknown characters of one rank as one diagnostic spanning them all.
fn flush_unknown(
    text: &Text<'_>,
    unknown: &mut Option<(usize, usize, usize)>,
    rank: usize,
    diags: &mut Sink,
) {
    let (field, at) = (text.field, text.at);
    let Some((start, end, count)) = unknown.take() else {
        return;
    };
    diags.add(
        Code::UnknownPiece,
        Severity::Error,
        Some(at + start..at + end),
        || {
            let found = match count {
                1 => format!("unknown piece {}", quote(&field[start..end])),
                n => format!("{n} unknown pieces in {}", quote(&field[start..end])),
            };
            format!(
                "{found} on rank {rank}; expected KQRBNP (White), kqrbnp (Black), a count of empty squares, or `/`"
            )
        },
    );
}

/// Byte offset of the start of rank number `n` (0-based from the top) in the field.
fn nth_rank_start(field: &[u8], n: usize) -> usize {
    field
        .iter()
        .enumerate()
        .filter(|&(_, &c)| c == b'/')
        .nth(n.saturating_sub(1))
        .map_or(0, |(i, _)| i + 1)
}

/// The placement field being read: its bytes, its offset in the input, the board shape.
struct Text<'a> {
    field: &'a [u8],
    at: usize,
    geometry: Geometry,
}

/// Ends rank `index` (0 = top) covering `range` of the field: reports its unknown pieces and
/// a wrong number of squares.
fn finish_rank(
    text: &Text<'_>,
    index: usize,
    width: usize,
    range: Range<usize>,
    unknown: &mut Option<(usize, usize, usize)>,
    diags: &mut Sink,
) {
    let geometry = text.geometry;
    let span = text.at + range.start..text.at + range.end;
    flush_unknown(
        text,
        unknown,
        usize::from(geometry.ranks).saturating_sub(index).max(1),
        diags,
    );
    let files = usize::from(geometry.files);
    let ranks = usize::from(geometry.ranks);
    if index >= ranks {
        return; // reported once as too-many-ranks
    }
    let number = ranks - index;
    if width > files {
        diags.add(Code::RankTooLong, Severity::Error, Some(span), || {
            format!("rank {number} has {width} squares, expected {files}")
        });
    } else if width < files {
        diags.add(Code::RankTooShort, Severity::Error, Some(span), || {
            format!(
                "rank {number} has {width} square{}, expected {files}",
                plural(width)
            )
        });
    }
}

/// Byte classes for [`parse_standard_fast`]: `1..=12` a piece (`(role << 1 | black) + 1`,
/// roles pawn to king), `0x11..=0x18` a count 1-8, `0x20` a slash, 0 anything else.
const CLASSES: [u8; 256] = {
    let mut t = [0u8; 256];
    let letters = *b"PpNnBbRrQqKk";
    let mut i = 0;
    while i < letters.len() {
        t[letters[i] as usize] = i as u8 + 1;
        i += 1;
    }
    let mut d = 1;
    while d <= 8 {
        t[(b'0' + d) as usize] = 0x10 + d;
        d += 1;
    }
    t[b'/' as usize] = 0x20;
    t
};

/// Per byte for [`parse_standard_fast`], packed in one table: bits 0-3 the squares it covers
/// (piece 1, count 1-8, else 0), bits 4-7 its piece board (`role << 1 | black`; 12 for a
/// count, 13 a slash, 14 anything else: apart, so that they do not wait on each other), bit 8 a count, bit 9 a slash, bit 10 a byte that cannot appear in a placement.
const STEPS: [u16; 256] = {
    let mut t = [0u16; 256];
    let mut c = 0;
    while c < 256 {
        let class = CLASSES[c] as u16;
        t[c] = match class {
            1..=12 => 1 | (class - 1) << 4,
            0x11..=0x18 => (class - 0x10) | 12 << 4 | 1 << 8,
            0x20 => 13 << 4 | 1 << 9,
            _ => 14 << 4 | 1 << 10,
        };
        c += 1;
    }
    t
};

/// Bitboards of an 8x8 placement, as `(roles pawn..king, colors white/black)`.
pub(crate) type Bitboards = ([u64; 6], [u64; 2]);

/// The fast path for a well-formed 8x8 placement (the common case): fills the bitboards and
/// the byte offset of every piece (entries of empty squares are unspecified), or returns
/// `None` when anything is irregular (which the general [`parse_placement`] then diagnoses).
///
/// Branch-free per byte: the squares read so far (`seen`, in reading order from a8) must
/// never pass the end of the current rank (`limit`), a `/` must come exactly at it, two
/// counts must not follow each other; faults are collected and checked once at the end.
pub(crate) fn parse_standard_fast(
    field: &[u8],
    at: usize,
    piece_at: &mut [u32; 64],
) -> Option<Bitboards> {
    let mut boards = [0u64; 15]; // by `role << 1 | black`; 12-14 collect non-pieces
    let mut seen = 0u32;
    let mut limit = 8u32;
    let mut bad = false;
    let mut previous_count = false;
    for (i, &c) in field.iter().enumerate() {
        let step = u32::from(STEPS[usize::from(c)]);
        let count = step & (1 << 8) != 0;
        let slash = step & (1 << 9) != 0;
        let next = seen + (step & 0xf);
        let sq = ((seen ^ 56) & 63) as usize; // reading order to a1 = 0
        boards[(step >> 4 & 0xf) as usize] |= 1 << sq;
        piece_at[sq] = (at + i) as u32;
        bad |= (next > limit)
            | (step & (1 << 10) != 0)
            | (count & previous_count)
            | (slash & (seen != limit));
        limit += u32::from(slash) * 8;
        previous_count = count;
        seen = next;
    }
    if bad || seen != 64 || limit != 64 {
        return None;
    }
    let mut roles = [0u64; 6];
    for (role, pair) in roles.iter_mut().zip(boards.chunks_exact(2)) {
        *role = pair[0] | pair[1];
    }
    let colors = [0, 1].map(|black| {
        boards[..12]
            .iter()
            .skip(black)
            .step_by(2)
            .fold(0, |a, b| a | b)
    });
    Some((roles, colors))
}

#[cfg(test)]
#[path = "placement_tests.rs"]
mod tests;
