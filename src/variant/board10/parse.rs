//! The 10x8 X-FEN reader: fields, piece placement (counts `10` and `9` read as one number),
//! active color, en passant square and counters, each fault a diagnostic in the board's own
//! terms with a byte span into the input. Castling is read in `castling.rs`.

use std::ops::Range;

use shakmaty::Color;

use super::piece::{Piece10, Variant10};
use super::square::{FILES, RANKS, SQUARES, Square10};
use crate::fen::fields::line_up;
use crate::fen::sink::Sink;
use crate::fen::{Code, Diagnostic, Severity};

/// The six fields' names, for messages.
pub(crate) const FIELD_NAMES: [&str; 6] = [
    "piece placement",
    "active color",
    "castling",
    "en passant",
    "halfmove clock",
    "fullmove number",
];

/// What the reader found, field by field (`None`: missing or malformed).
#[derive(Debug, Clone)]
pub(crate) struct Parsed {
    pub squares: Option<[Option<Piece10>; SQUARES]>,
    /// Byte offset of the character that put a piece on each square.
    pub piece_at: [u32; SQUARES],
    pub spans: [Option<Range<usize>>; 6],
    pub turn: Option<Color>,
    /// The en passant square; `Err(())` when the field is malformed.
    pub ep: Result<Option<Square10>, ()>,
    pub halfmove: Option<u32>,
    pub fullmove: Option<u32>,
}

pub(crate) fn error(code: Code, span: Option<Range<usize>>, message: String) -> Diagnostic {
    Diagnostic::new(code, Severity::Error, span, message)
}

pub(crate) fn quote(bytes: &[u8]) -> String {
    format!("`{}`", String::from_utf8_lossy(bytes).escape_debug())
}

/// Splits `input` at ASCII whitespace into at most six fields and reads them.
pub(crate) fn parse(input: &[u8], variant: Variant10, diags: &mut Vec<Diagnostic>) -> Parsed {
    let mut spans: [Option<Range<usize>>; 6] = Default::default();
    let mut count = 0;
    let mut i = 0;
    while i < input.len() {
        if input[i].is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        while i < input.len() && !input[i].is_ascii_whitespace() {
            i += 1;
        }
        if count < 6 {
            spans[count] = Some(start..i);
        } else if count == 6 {
            diags.push(error(
                Code::ExtraField,
                Some(start..input.trim_ascii_end().len()),
                format!(
                    "more than six fields: {} after the fullmove number",
                    quote(input[start..].trim_ascii_end())
                ),
            ));
        }
        count += 1;
    }
    let mut parsed = Parsed {
        squares: None,
        piece_at: [0; SQUARES],
        spans: spans.clone(),
        turn: None,
        ep: Ok(None),
        halfmove: Some(0),
        fullmove: Some(1),
    };
    if count == 0 {
        diags.push(error(
            Code::EmptyInput,
            None,
            format!("empty input; expected a {variant} X-FEN (ranks of 10 files)"),
        ));
        return parsed;
    }
    if count < 6 {
        // The values after the placement are lined up with their fields by their shapes, as
        // the chess core reads them (docs/positions.md, "Missing fields"): `w - 0 120` lacks its en
        // passant field (not a halfmove clock of 120), a lone counter `w KQkq - 7` has two
        // readings and is an error, and so are values out of order or a missing active color.
        let mut sink = Sink::detailed();
        spans = line_up(input, spans, count.min(6), &mut sink);
        parsed.spans = spans.clone();
        diags.extend(sink.into_list());
    }
    let field = |n: usize| spans[n].clone().map(|s| (&input[s.clone()], s));
    if let Some((text, span)) = field(0) {
        parsed.squares = placement(text, span.start, variant, &mut parsed.piece_at, diags);
    }
    parsed.turn = match field(1) {
        None => Some(Color::White),
        Some((b"w", _)) => Some(Color::White),
        Some((b"b", _)) => Some(Color::Black),
        Some((text, span)) => {
            diags.push(error(
                Code::BadActiveColor,
                Some(span),
                format!("active color {}; expected `w` or `b`", quote(text)),
            ));
            None
        }
    };
    if let Some((text, span)) = field(3) {
        parsed.ep = match text {
            b"-" => Ok(None),
            _ => match Square10::from_ascii(text) {
                Some(sq) => Ok(Some(sq)),
                None => {
                    diags.push(error(
                        Code::BadEpSquare,
                        Some(span),
                        format!(
                            "en passant field {}; expected `-` or a square of the 10x8 board (a1 to j8)",
                            quote(text)
                        ),
                    ).with_fix("drop the en passant square"));
                    Err(())
                }
            },
        };
    }
    parsed.halfmove = counter(field(4), 4, diags);
    parsed.fullmove = counter(field(5), 5, diags).map(|n| n.max(1));
    if let Some((b"0", span)) = field(5) {
        diags.push(
            Diagnostic::new(
                Code::FullmoveZero,
                Severity::Warning,
                Some(span),
                "fullmove number 0; it starts at 1".to_owned(),
            )
            .with_fix("read as 1"),
        );
    }
    parsed
}

/// A move counter; `None` (after a diagnostic with its repair) when malformed.
fn counter(
    field: Option<(&[u8], Range<usize>)>,
    n: usize,
    diags: &mut Vec<Diagnostic>,
) -> Option<u32> {
    let default = if n == 4 { 0 } else { 1 };
    let Some((text, span)) = field else {
        return Some(default);
    };
    if !text.is_empty() && text.iter().all(u8::is_ascii_digit) {
        if let Some(v) = std::str::from_utf8(text).ok().and_then(|t| t.parse().ok()) {
            return Some(v);
        }
        diags.push(
            error(
                Code::CounterTooLarge,
                Some(span),
                format!(
                    "{} {}: too large (at most 4294967295)",
                    FIELD_NAMES[n],
                    quote(text)
                ),
            )
            .with_fix(format!("set to {default}")),
        );
        return None;
    }
    let code = if n == 4 {
        Code::BadHalfmoveClock
    } else {
        Code::BadFullmoveNumber
    };
    diags.push(
        error(
            code,
            Some(span),
            format!(
                "{} {}; expected a non-negative number",
                FIELD_NAMES[n],
                quote(text)
            ),
        )
        .with_fix(format!("set to {default}")),
    );
    None
}

/// Reads the piece placement: eight ranks of ten squares, eighth rank first.
fn placement(
    text: &[u8],
    offset: usize,
    variant: Variant10,
    piece_at: &mut [u32; SQUARES],
    diags: &mut Vec<Diagnostic>,
) -> Option<[Option<Piece10>; SQUARES]> {
    let errors_before = diags.iter().filter(|d| d.is_error()).count();
    let mut squares = [None; SQUARES];
    let mut ranks: Vec<Range<usize>> = Vec::with_capacity(8);
    let mut start = 0;
    for (i, &b) in text.iter().enumerate() {
        if b == b'/' {
            ranks.push(start..i);
            start = i + 1;
        }
    }
    ranks.push(start..text.len());
    if ranks.len() == RANKS as usize + 1 && ranks[RANKS as usize].is_empty() {
        ranks.pop();
        diags.push(
            Diagnostic::new(
                Code::TrailingSlash,
                Severity::Warning,
                Some(offset + text.len() - 1..offset + text.len()),
                "`/` after the last rank".to_owned(),
            )
            .with_fix("ignored"),
        );
    }
    if ranks.len() > RANKS as usize {
        let from = ranks[RANKS as usize].start;
        diags.push(error(
            Code::TooManyRanks,
            Some(offset + from - 1..offset + text.len()),
            format!("{} ranks; a 10x8 board has 8", ranks.len()),
        ));
    } else if ranks.len() < RANKS as usize {
        diags.push(error(
            Code::TooFewRanks,
            Some(offset..offset + text.len()),
            format!("{} ranks; a 10x8 board has 8", ranks.len()),
        ));
    }
    for (k, range) in ranks.iter().take(RANKS as usize).enumerate() {
        let rank_number = RANKS as usize - k;
        let rank = &text[range.clone()];
        let mut file = 0usize;
        let mut bad = false;
        let mut i = 0;
        while i < rank.len() {
            let at = offset + range.start + i;
            let c = rank[i];
            if c.is_ascii_digit() {
                let end = i + rank[i..].iter().take_while(|b| b.is_ascii_digit()).count();
                let digits = &rank[i..end];
                let n: usize = std::str::from_utf8(digits)
                    .ok()
                    .and_then(|t| t.parse().ok())
                    .unwrap_or(usize::MAX);
                if n == 0 || n > FILES as usize || digits[0] == b'0' {
                    bad = true;
                    diags.push(error(
                        Code::BadDigit,
                        Some(at..at + digits.len()),
                        format!(
                            "empty-square count {} on rank {rank_number}; expected 1 to 10 (a rank has 10 files)",
                            quote(digits)
                        ),
                    ));
                } else {
                    file += n;
                }
                i = end;
                continue;
            }
            match variant.piece(c).filter(|_| c.is_ascii_alphabetic()) {
                Some(piece) => {
                    if file < FILES as usize {
                        let sq = (RANKS as usize - 1 - k) * FILES as usize + file;
                        squares[sq] = Some(piece);
                        piece_at[sq] = at as u32;
                    }
                    file += 1;
                }
                None => {
                    bad = true;
                    let len = std::str::from_utf8(&rank[i..])
                        .ok()
                        .and_then(|s| s.chars().next())
                        .map_or(1, char::len_utf8);
                    diags.push(error(
                        Code::UnknownPiece,
                        Some(at..at + len),
                        format!(
                            "{} on rank {rank_number} is no {variant} piece; expected one of {} or a count",
                            quote(&rank[i..i + len]),
                            variant.piece_letters()
                        ),
                    ));
                    i += len;
                    continue;
                }
            }
            i += 1;
        }
        if !bad && file != FILES as usize {
            let code = if file > FILES as usize {
                Code::RankTooLong
            } else {
                Code::RankTooShort
            };
            diags.push(error(
                code,
                Some(offset + range.start..offset + range.end.max(range.start)),
                format!("rank {rank_number} has {file} squares, expected 10"),
            ));
        }
    }
    let errors_after = diags.iter().filter(|d| d.is_error()).count();
    (errors_after == errors_before).then_some(squares)
}
