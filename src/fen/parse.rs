//! The tolerant tokenizer and field parser: bytes in, fields and syntax diagnostics out.
//!
//! Runs of ASCII whitespace separate fields; surrounding whitespace is ignored. Missing
//! fields take their defaults `w - - 0 1` (a `missing-field` warning); which fields are
//! missing is read from what the others look like (`super::fields`), and an input with two
//! readings is rejected (a `missing-field` error). Every diagnostic carries a byte span into
//! the input.

use std::ops::Range;

use shakmaty::{Bitboard, Board, ByColor, ByRole, Color, File, Rank, Square};

use super::diagnostic::{Code, Severity};
use super::epd::{extra_message, is_epd_operations};
use super::fields::line_up;
use super::geometry::Geometry;
use super::placement::{parse_placement, parse_standard_fast};
use super::sink::Sink;
use super::text::{char_len, quote, space_len};

/// The en passant field as written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum EpField {
    /// `-` or missing.
    None,
    /// A square.
    Square(Square),
    /// Not a square (`bad-ep-square`).
    Bad,
}

/// The fields of one FEN, as far as they could be read.
#[derive(Debug, Clone)]
pub(crate) struct Parsed {
    /// The board, when the placement is well-formed.
    pub board: Option<Board>,
    /// Byte offset of the character that put a piece on each square (index: `Square as usize`).
    pub piece_at: [u32; 64],
    /// Pieces marked promoted with `~`; a promoted king is no king for checks and castling,
    /// as in python-chess.
    pub promoted: Bitboard,
    /// Spans of the six fields; `None` for a missing field.
    pub spans: [Option<Range<usize>>; 6],
    /// Side to move; `None` when malformed.
    pub turn: Option<Color>,
    /// The en passant field.
    pub ep: EpField,
    /// Halfmove clock; `None` when malformed.
    pub halfmove: Option<u32>,
    /// Fullmove number (0 already read as 1); `None` when malformed.
    pub fullmove: Option<u32>,
}

/// Splits `input` into fields and parses each; records syntax diagnostics. Returns `None` for
/// blank input (after recording `empty-input`), and in lean mode when an error in the
/// fields or placement already makes the input invalid.
pub(crate) fn parse(input: &[u8], geometry: Geometry, diags: &mut Sink) -> Option<Parsed> {
    let mut spans: [Option<Range<usize>>; 6] = Default::default();
    let mut count = 0usize;
    let mut extra: Option<Range<usize>> = None;
    let mut i = 0usize;
    while i < input.len() {
        let space = match input[i] {
            b' ' => 1, // the common separator
            _ => space_len(input, i),
        };
        if space > 0 {
            i += space;
            continue;
        }
        let start = i;
        while i < input.len() {
            let b = input[i];
            if b > b' ' && b < 0x80 {
                i += 1; // the common case: a printable ASCII byte
            } else if b == b' ' {
                break;
            } else if space_len(input, i) == 0 {
                i += char_len(input, i);
            } else {
                break;
            }
        }
        if count < 6 {
            spans[count] = Some(start..i);
        } else {
            extra = Some(extra.map_or(start, |e| e.start)..i);
        }
        count += 1;
    }
    // EPD (`<four fields> bm Kg2; id "x";`): operations where a FEN has its move counters are
    // not misread as counters; they and anything after them are the extra field.
    let epd = (4..count.min(6)).find(|&n| {
        spans[n]
            .clone()
            .is_some_and(|s| is_epd_operations(&input[s.start..]))
    });
    if let Some(n) = epd {
        let start = spans[n].as_ref().map_or(0, |s| s.start);
        extra = Some(
            start
                ..extra.map_or_else(
                    || spans[count.min(6) - 1].as_ref().map_or(start, |s| s.end),
                    |e| e.end,
                ),
        );
        for span in &mut spans[n..] {
            *span = None;
        }
    }
    if count == 0 {
        diags.add(Code::EmptyInput, Severity::Error, None, || {
            "empty input; expected a FEN: placement, active color, castling, en passant, halfmove clock, fullmove number".to_owned()
        });
        return None;
    }
    if let Some(span) = extra {
        diags.add(
            Code::ExtraField,
            Severity::Error,
            Some(span.clone()),
            || extra_message(&input[span], epd),
        );
        if diags.done() {
            return None;
        }
    }
    let startpos = spans[0]
        .clone()
        .is_some_and(|s| input[s].eq_ignore_ascii_case(b"startpos"));
    if count < 6 && epd.is_none() && !startpos {
        spans = line_up(input, spans, count, diags);
        if diags.done() {
            return None;
        }
    }

    let field = |n: usize| spans[n].clone().map(|s| (&input[s.clone()], s));

    let mut piece_at = [0u32; 64];
    let mut promoted = Bitboard::EMPTY;
    let mut tildes = Vec::new();
    let placement = spans[0].clone().unwrap_or(0..0);
    let field0 = &input[placement.clone()];
    // Only the 8x8 board is stored; other geometries are checked for syntax alone.
    let standard = geometry == Geometry::STANDARD;
    if startpos {
        diags.add(Code::UnknownPiece, Severity::Error, Some(placement), || {
            "`startpos` is a UCI keyword, not a piece placement; expected `position startpos` or `position fen <FEN>`".to_owned()
        });
        if diags.done() {
            return None;
        }
        return Some(Parsed {
            board: None,
            piece_at,
            promoted,
            spans,
            turn: None,
            ep: EpField::None,
            halfmove: None,
            fullmove: None,
        });
    }
    let fast = if standard {
        parse_standard_fast(field0, placement.start, &mut piece_at)
    } else {
        None
    };
    let (board_ok, (roles, colors)) = match fast {
        Some(bitboards) => (true, bitboards),
        None => {
            let mut roles = [0u64; 6]; // pawn, knight, bishop, rook, queen, king
            let mut colors = [0u64; 2]; // white, black
            let ok = parse_placement(
                field0,
                placement.start,
                geometry,
                diags,
                |file, rank, c, at| {
                    if !standard {
                        return;
                    }
                    let sq = usize::from(rank & 7) * 8 + usize::from(file & 7);
                    let bit = 1u64 << sq;
                    let role = match c.to_ascii_lowercase() {
                        b'p' => 0,
                        b'n' => 1,
                        b'b' => 2,
                        b'r' => 3,
                        b'q' => 4,
                        b'k' => 5,
                        _ => {
                            promoted |= Bitboard(bit);
                            tildes.push(at);
                            return;
                        }
                    };
                    roles[role] |= bit;
                    colors[usize::from(c.is_ascii_lowercase())] |= bit;
                    piece_at[sq] = at as u32;
                },
            );
            (ok, (roles, colors))
        }
    };
    let by_role = ByRole {
        pawn: Bitboard(roles[0]),
        knight: Bitboard(roles[1]),
        bishop: Bitboard(roles[2]),
        rook: Bitboard(roles[3]),
        queen: Bitboard(roles[4]),
        king: Bitboard(roles[5]),
    };
    let by_color = ByColor {
        white: Bitboard(colors[0]),
        black: Bitboard(colors[1]),
    };
    let board = Board::try_from_bitboards(by_role, by_color)
        .ok()
        .filter(|_| board_ok && standard);
    if diags.done() {
        return None;
    }

    for at in tildes {
        diags.add(
            Code::PromotedMarker,
            Severity::Warning,
            Some(at..at + 1),
            || "`~` marks a promoted piece (crazyhouse); not written in chess".to_owned(),
        );
    }

    let turn = match field(1) {
        None | Some((b"w", _)) => Some(Color::White),
        Some((b"b", _)) => Some(Color::Black),
        Some((text, span)) => {
            diags.add(Code::BadActiveColor, Severity::Error, Some(span), || {
                format!("active color {}; expected `w` or `b`", quote(text))
            });
            None
        }
    };

    let ep = match field(3) {
        None | Some((b"-", _)) => EpField::None,
        Some((text, span)) => match parse_square(text) {
            Some(sq) => EpField::Square(sq),
            None => {
                diags
                    .add(Code::BadEpSquare, Severity::Error, Some(span), || {
                        format!(
                            "en passant square {}; expected `-` or a square like `e3`",
                            quote(text)
                        )
                    })
                    .fix("drop the en passant square");
                EpField::Bad
            }
        },
    };

    let halfmove = match field(4) {
        None => Some(0),
        Some((text, span)) => parse_counter(
            text,
            span,
            Code::BadHalfmoveClock,
            "halfmove clock",
            "0",
            diags,
        ),
    };
    let fullmove = match field(5) {
        None => Some(1),
        Some((text, span)) => match parse_counter(
            text,
            span.clone(),
            Code::BadFullmoveNumber,
            "fullmove number",
            "1",
            diags,
        ) {
            Some(0) => {
                diags
                    .add(Code::FullmoveZero, Severity::Warning, Some(span), || {
                        "fullmove number 0; it starts at 1".to_owned()
                    })
                    .fix("write 1");
                Some(1)
            }
            other => other,
        },
    };

    Some(Parsed {
        board,
        piece_at,
        promoted,
        spans,
        turn,
        ep,
        halfmove,
        fullmove,
    })
}

/// `e3` to a square (lowercase file `a`-`h`, rank `1`-`8`, as python-chess).
fn parse_square(text: &[u8]) -> Option<Square> {
    match *text {
        [f @ b'a'..=b'h', r @ b'1'..=b'8'] => Some(Square::from_coords(
            File::new(u32::from(f - b'a')),
            Rank::new(u32::from(r - b'1')),
        )),
        _ => None,
    }
}

/// A move counter as Python's `int()` reads it: optional sign, ASCII digits, single `_`
/// between digits; negative values other than `-0` are malformed.
fn parse_counter(
    text: &[u8],
    span: Range<usize>,
    code: Code,
    what: &str,
    default: &str,
    diags: &mut Sink,
) -> Option<u32> {
    let (negative, digits) = match text {
        [b'+', rest @ ..] => (false, rest),
        [b'-', rest @ ..] => (true, rest),
        _ => (false, text),
    };
    let well_formed = !digits.is_empty()
        && digits.first().is_some_and(u8::is_ascii_digit)
        && digits.last().is_some_and(u8::is_ascii_digit)
        && digits.iter().all(|&c| c.is_ascii_digit() || c == b'_')
        && !digits.windows(2).any(|w| w == b"__");
    let value = digits
        .iter()
        .filter(|c| c.is_ascii_digit())
        .try_fold(0u64, |n, &d| {
            n.checked_mul(10)?.checked_add(u64::from(d - b'0'))
        });
    let mut fail = |code: Code, message: &dyn Fn() -> String| {
        diags
            .add(code, Severity::Error, Some(span.clone()), message)
            .fix_with(|| format!("write {default}"));
        None
    };
    match (well_formed, value) {
        (false, _) => fail(code, &|| {
            format!("{what} {}; expected a number like {default}", quote(text))
        }),
        (true, Some(0)) => Some(0),
        (true, _) if negative => fail(code, &|| {
            format!("{what} {} is negative; expected 0 or more", quote(text))
        }),
        (true, Some(n)) if n <= u64::from(u32::MAX) => Some(n as u32),
        (true, _) => fail(Code::CounterTooLarge, &|| {
            format!(
                "{what} {} is too large; expected at most {}",
                quote(text),
                u32::MAX
            )
        }),
    }
}
