//! Which field is which when a FEN has fewer than six: read from what the values look like,
//! never from their count alone (SPEC sections 6 and 7, `missing-field`).
//!
//! A castling field looks like `-` or letters, an en passant field like `-` or a square, the
//! move counters like digits. `w - 0 120` is active color `w`, castling `-`, en passant missing,
//! halfmove clock 0, fullmove number 120; reading it by position instead would make the
//! fullmove number the halfmove clock (a fifty-move draw). Every order-keeping reading of the
//! values that fits their shapes is tried; when all give the same six values, the one that
//! keeps each value as early as possible is used (for trailing missing fields: the plain
//! positional reading, as python-chess reads them); when two give different values (a lone
//! counter `5`: halfmove clock or fullmove number?) the input is ambiguous and rejected.
//! The active color is never inferred: a first value that is not a color while later fields
//! follow is an error.
//!
//! ```text
//! w - 0 120   -> castling `-`, en passant missing, halfmove 0, fullmove 120   (warning)
//! w KQkq e3   -> counters missing                                            (warning)
//! w KQkq - 7  -> `7` is the halfmove clock or the fullmove number            (error)
//! KQkq - 0 1  -> the active color is missing                                 (error)
//! ```

use std::ops::Range;

use super::diagnostic::{Code, Severity};
use super::sink::Sink;
use super::text::quote;

/// Field indices after the placement: 1 active color, 2 castling, 3 en passant, 4 halfmove
/// clock, 5 fullmove number.
const COLOR: usize = 1;
const CASTLING: usize = 2;
const EP: usize = 3;
const HALFMOVE: usize = 4;
const FULLMOVE: usize = 5;

/// How the values after the placement line up with the fields.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Alignment {
    /// Every value in its place; fields after the last value are missing (or none is).
    InOrder,
    /// The values fit only with a field missing before a later value; `missing` lists the
    /// missing fields (1-5) in order. The returned spans put each value in its field.
    Shifted {
        /// Missing field indices (1-5), ascending.
        missing: Vec<usize>,
    },
    /// Two readings give different values: `token` (index into the values) can be field
    /// `first` or field `second`.
    Ambiguous {
        /// Index of the value read two ways.
        token: usize,
        /// The field of the earliest reading.
        first: usize,
        /// Another field it can be.
        second: usize,
    },
    /// The values fit no order of the fields (`w e3 KQkq 0`): `token` looks like field
    /// `looks_like` but stands where field `stands` belongs.
    Misaligned {
        /// Index of the first value out of place.
        token: usize,
        /// The field its shape fits.
        looks_like: usize,
        /// The field whose place it stands in.
        stands: usize,
    },
    /// The first value is no active color but later values follow: the side to move is never
    /// guessed. `looks_like` is the field its shape fits.
    ColorMissing {
        /// The field the first value looks like.
        looks_like: usize,
    },
}

/// The field names, indexed 0 (placement) to 5.
pub(crate) const FIELD_NAMES: [&str; 6] = [
    "piece placement",
    "active color",
    "castling",
    "en passant",
    "halfmove clock",
    "fullmove number",
];

/// The fields as nouns for messages ("looks like the en passant square"), indexed like
/// [`FIELD_NAMES`].
const FIELD_NOUNS: [&str; 6] = [
    "piece placement",
    "active color",
    "castling field",
    "en passant square",
    "halfmove clock",
    "fullmove number",
];

/// The defaults of fields 1-5, indexed like [`FIELD_NAMES`].
pub(crate) const DEFAULTS: [&str; 6] = ["", "w", "-", "-", "0", "1"];

/// The fields (bit `1 << field`) a value's shape fits.
fn shape(text: &[u8]) -> u8 {
    const ALL: u8 = 1 << CASTLING | 1 << EP | 1 << HALFMOVE | 1 << FULLMOVE;
    match text {
        // `-` for a counter is malformed but seen (public case R16: `- - -`); it means the
        // default, like a missing counter.
        b"-" => ALL,
        [a, digits @ ..]
            if a.is_ascii_alphabetic()
                && (1..=2).contains(&digits.len())
                && digits.iter().all(u8::is_ascii_digit) =>
        {
            1 << EP
        }
        _ if text.iter().all(u8::is_ascii_alphabetic) => 1 << CASTLING,
        [b'+' | b'-', d, ..] | [d, ..] if d.is_ascii_digit() => 1 << HALFMOVE | 1 << FULLMOVE,
        // Fits no shape: a malformed value of any field.
        _ => ALL,
    }
}

/// Whether the first value after the placement is the active color: `w`/`b` in any case,
/// or anything that does not look like another field (a malformed color).
fn is_color(text: &[u8]) -> bool {
    if matches!(text, [b'w' | b'b' | b'W' | b'B']) {
        return true;
    }
    let castling_like = !text.is_empty()
        && text
            .iter()
            .all(|c| matches!(c, b'K' | b'Q' | b'k' | b'q' | b'A'..=b'J' | b'a'..=b'j'));
    let fits = shape(text);
    !(text == b"-" || castling_like || fits == 1 << EP || fits == 1 << HALFMOVE | 1 << FULLMOVE)
}

/// The value a field takes in one reading, for comparing readings: counters by number
/// (fullmove 0 reads as 1; `-` as the default), everything else by text.
fn value(field: usize, text: Option<&[u8]>) -> Vec<u8> {
    let text = text.unwrap_or(DEFAULTS[field].as_bytes());
    if field < HALFMOVE {
        return text.to_vec();
    }
    let text = if text == b"-" {
        DEFAULTS[field].as_bytes()
    } else {
        text
    };
    let digits = text.strip_prefix(b"+").unwrap_or(text);
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return text.to_vec();
    }
    let trimmed = match digits.iter().position(|&d| d != b'0') {
        Some(at) => &digits[at..],
        None if field == FULLMOVE => b"1",
        None => b"0",
    };
    trimmed.to_vec()
}

/// Lines up `tokens` (the spans of the values after the placement, at most five, in input
/// order) with fields 1-5. Returns the alignment and, for each field 1-5 (index 1-5; index
/// 0 unused), the index of the value read as that field.
pub(crate) fn align(input: &[u8], tokens: &[Range<usize>]) -> (Alignment, [Option<usize>; 6]) {
    let n = tokens.len().min(5);
    let text = |t: usize| &input[tokens[t].clone()];
    let mut positional = [None; 6];
    for (t, slot) in positional.iter_mut().skip(1).take(n).enumerate() {
        *slot = Some(t);
    }
    if n == 0 || n == 5 {
        return (Alignment::InOrder, positional);
    }
    if !is_color(text(0)) {
        let fits = shape(text(0));
        let looks_like = (CASTLING..=FULLMOVE)
            .find(|f| fits & (1 << f) != 0)
            .unwrap_or(CASTLING);
        return (Alignment::ColorMissing { looks_like }, positional);
    }
    // Every choice of n fields among 1-5, in order, with the color first and each value
    // fitting its field; masks in increasing order of the field sequence are not needed, the
    // earliest reading is picked by comparison.
    let mut readings: Vec<[Option<usize>; 6]> = Vec::new();
    for mask in 0u8..32 {
        if mask.count_ones() as usize != n || mask & 1 == 0 {
            continue; // bit 0 is field 1, the color: always the first value
        }
        let mut reading = [None; 6];
        let mut t = 0;
        let mut fits = true;
        for (field, slot) in reading.iter_mut().enumerate().skip(COLOR) {
            if mask & (1 << (field - 1)) != 0 {
                fits &= field == COLOR || shape(text(t)) & (1 << field) != 0;
                *slot = Some(t);
                t += 1;
            }
        }
        if fits {
            readings.push(reading);
        }
    }
    let order = |r: &[Option<usize>; 6]| {
        let mut fields = [0usize; 5];
        for (f, t) in r.iter().enumerate() {
            if let Some(t) = t {
                fields[*t] = f;
            }
        }
        fields
    };
    readings.sort_by_key(order);
    let Some(first) = readings.first().copied() else {
        return (misaligned(input, tokens, n), positional);
    };
    let values = |r: &[Option<usize>; 6]| {
        (COLOR..=FULLMOVE)
            .map(|f| value(f, r[f].map(text)))
            .collect::<Vec<_>>()
    };
    let want = values(&first);
    if let Some(other) = readings.iter().find(|r| values(r) != want) {
        let (a, b) = (order(&first), order(other));
        let token = (0..n).find(|&t| a[t] != b[t]).unwrap_or(0);
        return (
            Alignment::Ambiguous {
                token,
                first: a[token],
                second: b[token],
            },
            first,
        );
    }
    if first == positional {
        return (Alignment::InOrder, positional);
    }
    let missing = (COLOR..=FULLMOVE)
        .filter(|&f| first[f].is_none() && (f..=FULLMOVE).any(|g| first[g].is_some()))
        .collect();
    (Alignment::Shifted { missing }, first)
}

/// The first value whose shape does not fit the place it stands in.
fn misaligned(input: &[u8], tokens: &[Range<usize>], n: usize) -> Alignment {
    for t in 1..n {
        let fits = shape(&input[tokens[t].clone()]);
        let stands = t + 1;
        if fits & (1 << stands) == 0 {
            let looks_like = (CASTLING..=FULLMOVE)
                .find(|f| fits & (1 << f) != 0)
                .unwrap_or(stands);
            return Alignment::Misaligned {
                token: t,
                looks_like,
                stands,
            };
        }
    }
    // Every value fits its own place, so the positional reading fits: not reached.
    Alignment::InOrder
}

/// Puts the values of a FEN with fewer than six fields (`count`, the placement included) into
/// their fields by their shapes (`super::fields`) and records the `missing-field` finding:
/// a warning naming the missing fields, each at its place, when one reading remains; an
/// error, with no repair, when the values fit two readings, no order, or the active color is
/// missing. Returns the spans of the six fields as read.
pub(crate) fn line_up(
    input: &[u8],
    spans: [Option<Range<usize>>; 6],
    count: usize,
    diags: &mut Sink,
) -> [Option<Range<usize>>; 6] {
    let tokens: Vec<Range<usize>> = spans[1..count].iter().flatten().cloned().collect();
    let (alignment, chosen) = align(input, &tokens);
    let mut lined = spans.clone();
    for (field, slot) in lined.iter_mut().enumerate().skip(1) {
        *slot = chosen[field].map(|t| tokens[t].clone());
    }
    let text = |t: usize| quote(&input[tokens[t].clone()]);
    match alignment {
        Alignment::InOrder => {
            let end = spans[count - 1].as_ref().map_or(input.len(), |s| s.end);
            diags
                .add(
                    Code::MissingField,
                    Severity::Warning,
                    Some(end..end),
                    || {
                        format!(
                            "missing {}; expected six fields",
                            FIELD_NAMES[count..].join(", ")
                        )
                    },
                )
                .fix_with(|| format!("append the defaults `{}`", DEFAULTS[count..].join(" ")));
            spans
        }
        Alignment::Shifted { missing } => {
            // One warning a gap, at the place where the missing fields belong.
            let mut i = 0;
            while i < missing.len() {
                let mut j = i;
                while j + 1 < missing.len() && missing[j + 1] == missing[j] + 1 {
                    j += 1;
                }
                let gap = &missing[i..=j];
                let next = (gap[gap.len() - 1] + 1..6).find_map(|f| lined[f].clone());
                let at = next.as_ref().map_or(input.len(), |s| s.start);
                diags
                    .add(Code::MissingField, Severity::Warning, Some(at..at), || {
                        let names: Vec<&str> = gap.iter().map(|&f| FIELD_NAMES[f]).collect();
                        let read: Vec<String> = (gap[gap.len() - 1] + 1..6)
                            .filter_map(|f| {
                                lined[f].clone().map(|s| {
                                    format!("{} as the {}", quote(&input[s]), FIELD_NAMES[f])
                                })
                            })
                            .collect();
                        format!(
                            "missing {} (the values after it read {}); expected six fields",
                            names.join(", "),
                            read.join(", ")
                        )
                    })
                    .fix_with(|| {
                        let defaults: Vec<&str> = gap.iter().map(|&f| DEFAULTS[f]).collect();
                        format!("insert the defaults `{}` here", defaults.join(" "))
                    });
                i = j + 1;
            }
            lined
        }
        Alignment::Ambiguous {
            token,
            first,
            second,
        } => {
            diags.add(
                Code::MissingField,
                Severity::Error,
                Some(tokens[token].clone()),
                || {
                    format!(
                        "a field is missing and {} reads as the {} or the {}; expected six fields, written out (e.g. `{}`)",
                        text(token),
                        FIELD_NAMES[first],
                        FIELD_NAMES[second],
                        example(input, &lined),
                    )
                },
            );
            // Neither reading is used: no counter diagnostics on the value read two ways.
            lined[first] = None;
            lined
        }
        Alignment::Misaligned {
            token,
            looks_like,
            stands,
        } => {
            diags.add(
                Code::MissingField,
                Severity::Error,
                Some(tokens[token].clone()),
                || {
                    format!(
                        "the fields do not line up: {} looks like the {} but stands where the {} belongs; expected six fields in order: active color, castling, en passant, halfmove clock, fullmove number",
                        text(token),
                        FIELD_NOUNS[looks_like],
                        FIELD_NOUNS[stands],
                    )
                },
            );
            // No field after the color is read: each would be read from another's value.
            [spans[0].clone(), spans[1].clone(), None, None, None, None]
        }
        Alignment::ColorMissing { looks_like } => {
            diags.add(
                Code::MissingField,
                Severity::Error,
                Some(tokens[0].clone()),
                || {
                    format!(
                        "missing active color: {} looks like the {}; expected `w` or `b` after the piece placement (the side to move is never guessed)",
                        text(0),
                        FIELD_NOUNS[looks_like],
                    )
                },
            );
            [spans[0].clone(), None, None, None, None, None]
        }
    }
}

/// The fields of the earliest reading written out with defaults, for the ambiguity message.
fn example(input: &[u8], lined: &[Option<Range<usize>>; 6]) -> String {
    (1..6)
        .map(|f| {
            lined[f].clone().map_or(DEFAULTS[f].to_owned(), |s| {
                String::from_utf8_lossy(&input[s]).into_owned()
            })
        })
        .collect::<Vec<_>>()
        .join(" ")
}
