//! The FEN of an 8x8 variant: the variant's extras split off a chess FEN, and written back.
//!
//! Extras, read as python-chess 1.11.2 `chess.variant` reads them:
//! - crazyhouse pockets: `RNBQKBNR[Pp]` (python-chess, lichess, Fairy-Stockfish) or a ninth
//!   rank `RNBQKBNR/Pp`; white pieces upper case, black lower case, `[]` empty;
//! - promoted pieces: `Q~` (any variant; written back only in crazyhouse);
//! - three-check counters: the checks each side may still give, `3+3`, in the field after the
//!   en passant square (python-chess, Fairy-Stockfish, shakmaty write this), or the checks each
//!   side has given, `+0+0`, after the fullmove number (lichess; read, never written).
//!
//! What is left is a chess FEN, analyzed for syntax by the `fen` core; spans are mapped back
//! to the input.

use std::num::NonZeroU32;
use std::ops::Range;

use shakmaty::{
    Bitboard, Board, ByColor, ByRole, Color, File, Piece, Rank, RemainingChecks, Setup, Square,
};

use crate::fen::{Code, Diagnostic, Severity};

/// A variant FEN with its extras split off: a chess FEN and where its bytes came from.
#[derive(Debug, Clone)]
pub(crate) struct Split {
    /// The chess FEN (fields joined by single spaces).
    pub text: Vec<u8>,
    /// For each byte of `text`, its offset in the input.
    map: Vec<usize>,
    /// Length of the input.
    input_len: usize,
    /// Crazyhouse pockets, when the placement had them.
    pub pockets: Option<ByColor<ByRole<u8>>>,
    /// Three-check counters (remaining checks), when given.
    pub checks: Option<ByColor<RemainingChecks>>,
    /// Where the three-check counters are in the input.
    pub checks_span: Option<Range<usize>>,
    /// Findings about the extras (spans into the input).
    pub diagnostics: Vec<Diagnostic>,
}

impl Split {
    /// The input range of `span`, a range of `text`.
    pub fn input_span(&self, span: &Range<usize>) -> Range<usize> {
        let start = self.map.get(span.start).copied().unwrap_or(self.input_len);
        let end = match span.end {
            0 => start,
            e => self.map.get(e - 1).map_or(self.input_len, |&o| o + 1),
        };
        start..end.max(start)
    }

    fn push_field(&mut self, input: &[u8], span: Range<usize>) {
        if !self.text.is_empty() {
            self.text.push(b' ');
            self.map.push(span.start.saturating_sub(1));
        }
        self.text.extend_from_slice(&input[span.clone()]);
        self.map.extend(span);
    }
}

/// Fields of `input` separated by ASCII whitespace, as byte ranges.
/// The span of each field of a chess FEN `text` (index 0 the placement, 1-5 the active color,
/// castling, en passant square, halfmove clock, fullmove number), the values after the
/// placement lined up with their fields by what they look like, as the chess core reads them
/// (`crate::fen::fields`): `w - 0 120` has no en passant field, not a halfmove clock of 120.
pub(crate) fn field_spans(text: &[u8]) -> [Option<Range<usize>>; 6] {
    let spans = fields(text);
    let mut out: [Option<Range<usize>>; 6] = Default::default();
    let Some((placement, values)) = spans.split_first() else {
        return out;
    };
    out[0] = Some(placement.clone());
    let (_, which) = crate::fen::fields::align(text, values);
    for (field, value) in which.iter().enumerate().skip(1) {
        out[field] = value.and_then(|v| values.get(v).cloned());
    }
    out
}

fn fields(input: &[u8]) -> Vec<Range<usize>> {
    let mut out = Vec::new();
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
        out.push(start..i);
    }
    out
}

/// Splits the variant extras off `input` (pockets when `pockets`, check counters when
/// `checks`).
pub(crate) fn split(input: &[u8], pockets: bool, checks: bool) -> Split {
    let mut fields = fields(input);
    let mut split = Split {
        text: Vec::with_capacity(input.len()),
        map: Vec::with_capacity(input.len()),
        input_len: input.len(),
        pockets: None,
        checks: None,
        checks_span: None,
        diagnostics: Vec::new(),
    };
    if checks {
        let lichess = fields.len() >= 7 && input[fields[6].start] == b'+';
        let remaining = !lichess && fields.len() >= 5 && input[fields[4].clone()].contains(&b'+');
        if lichess || remaining {
            let at = if lichess { 6 } else { 4 };
            let span = fields.remove(at);
            split.checks = read_checks(&input[span.clone()], lichess);
            split.checks_span = Some(span.clone());
            if split.checks.is_none() {
                split.diagnostics.push(Diagnostic::new(
                    Code::BadCheckCounters,
                    Severity::Error,
                    Some(span),
                    if lichess {
                        "three-check counters; expected the checks given, `+W+B` after the fullmove number, each 0 to 3".to_owned()
                    } else {
                        "three-check counters; expected the checks remaining, `W+B` before the halfmove clock, each 0 to 3".to_owned()
                    },
                ));
            }
        }
    }
    for (n, span) in fields.into_iter().enumerate() {
        if n == 0 && pockets {
            let (board, pocket) = split_pocket(input, span.clone(), &mut split.diagnostics);
            split.push_field(input, board);
            if let Some(pocket) = pocket {
                split.pockets = read_pocket(input, pocket, &mut split.diagnostics);
            }
        } else {
            split.push_field(input, span);
        }
    }
    split
}

/// The board part and the pocket part of a crazyhouse placement field.
fn split_pocket(
    input: &[u8],
    span: Range<usize>,
    diags: &mut Vec<Diagnostic>,
) -> (Range<usize>, Option<Range<usize>>) {
    let field = &input[span.clone()];
    if field.last() == Some(&b']') {
        return match field.iter().position(|&c| c == b'[') {
            Some(open) => (
                span.start..span.start + open,
                Some(span.start + open + 1..span.end - 1),
            ),
            None => {
                // python-chess reads `...R]` as an empty pocket.
                diags.push(
                    Diagnostic::new(
                        Code::BadPocket,
                        Severity::Warning,
                        Some(span.end - 1..span.end),
                        "`]` closes a pocket that no `[` opens; read as an empty pocket `[]`"
                            .to_owned(),
                    )
                    .with_fix("write `[]`"),
                );
                (span.start..span.end - 1, Some(span.end - 1..span.end - 1))
            }
        };
    }
    let slashes: Vec<usize> = field
        .iter()
        .enumerate()
        .filter_map(|(i, &c)| (c == b'/').then_some(i))
        .collect();
    if slashes.len() == 8 {
        let at = span.start + slashes[7];
        return (span.start..at, Some(at + 1..span.end));
    }
    (span, None)
}

/// Counts the pieces of a pocket; `bad-pocket` for anything else. A lone `-` is an empty
/// pocket: cutechess writes `[-]` for one (its `CrazyhouseBoard` FEN, sent whenever a game
/// starts from a position), and Fairy-Stockfish reads it so (SPEC 15).
fn read_pocket(
    input: &[u8],
    span: Range<usize>,
    diags: &mut Vec<Diagnostic>,
) -> Option<ByColor<ByRole<u8>>> {
    let mut pockets = ByColor::<ByRole<u8>>::default();
    if input[span.clone()] == *b"-" {
        return Some(pockets);
    }
    let mut ok = true;
    for at in span {
        match Piece::from_char(char::from(input[at])) {
            Some(piece) => {
                let n = pockets.piece_mut(piece);
                *n = n.saturating_add(1);
            }
            None => {
                ok = false;
                diags.push(Diagnostic::new(
                    Code::BadPocket,
                    Severity::Error,
                    Some(at..at + 1),
                    format!(
                        "`{}` in the pocket; expected piece letters PNBRQ (white) or pnbrq (black)",
                        char::from(input[at]).escape_default()
                    ),
                ));
            }
        }
    }
    ok.then_some(pockets)
}

/// Reads `3+3` (remaining) or `+0+0` (given, when `given`); each count 0 to 3.
fn read_checks(text: &[u8], given: bool) -> Option<ByColor<RemainingChecks>> {
    let text = if given {
        text.strip_prefix(b"+")?
    } else {
        text
    };
    let plus = text.iter().position(|&c| c == b'+')?;
    let number = |t: &[u8]| -> Option<u32> {
        let t = t.strip_prefix(b"+").unwrap_or(t);
        if t.is_empty() || t.len() > 2 || !t.iter().all(u8::is_ascii_digit) {
            return None;
        }
        let n = t.iter().fold(0u32, |n, &d| n * 10 + u32::from(d - b'0'));
        let n = if given { 3u32.checked_sub(n)? } else { n };
        (n <= 3).then_some(n)
    };
    let white = number(&text[..plus])?;
    let black = number(&text[plus + 1..])?;
    Some(ByColor {
        white: RemainingChecks::new(white),
        black: RemainingChecks::new(black),
    })
}

/// The fields of a chess FEN whose syntax the `fen` core found sound, as a shakmaty setup;
/// `piece_at` gets the text offset of each piece.
pub(crate) fn setup(text: &[u8], piece_at: &mut [usize; 64]) -> Setup {
    let fields = field_spans(text);
    let field = |n: usize| fields[n].clone().map(|s| &text[s]);
    let mut setup = Setup::empty();
    if let Some(span) = fields[0].clone() {
        read_board(text, span, &mut setup, piece_at);
    }
    setup.turn = match field(1) {
        Some(b"b") => Color::Black,
        _ => Color::White,
    };
    if let Some(castling) = field(2).filter(|c| *c != b"-") {
        for &c in castling {
            let color = Color::from_white(c.is_ascii_uppercase());
            if let Some(sq) = resolve_castling(c.to_ascii_lowercase(), color, &setup.board) {
                setup.castling_rights.add(sq);
            }
        }
    }
    setup.ep_square = field(3).and_then(|t| Square::from_ascii(t).ok());
    setup.halfmoves = field(4).and_then(python_int).unwrap_or(0);
    setup.fullmoves = field(5)
        .and_then(python_int)
        .and_then(NonZeroU32::new)
        .unwrap_or(NonZeroU32::MIN);
    setup
}

/// A counter as Python's `int()` reads it (sign, digits, single underscores); negative: none.
fn python_int(text: &[u8]) -> Option<u32> {
    let digits = text.strip_prefix(b"+").unwrap_or(text);
    let mut n: u32 = 0;
    for &d in digits {
        match d {
            b'0'..=b'9' => n = n.checked_mul(10)?.checked_add(u32::from(d - b'0'))?,
            b'_' => {}
            _ => return None,
        }
    }
    Some(n)
}

/// Reads a sound placement (digits, pieces, `~`, `/`, perhaps a trailing `/`).
fn read_board(text: &[u8], span: Range<usize>, setup: &mut Setup, piece_at: &mut [usize; 64]) {
    let mut board = Board::empty();
    let mut rank = 7u32;
    let mut file = 0u32;
    let mut last: Option<Square> = None;
    for at in span {
        match text[at] {
            b'/' => {
                rank = rank.saturating_sub(1);
                file = 0;
            }
            c @ b'1'..=b'8' => file += u32::from(c - b'0'),
            b'~' => {
                if let Some(sq) = last {
                    setup.promoted.add(sq);
                }
            }
            c => {
                if let (Some(piece), true) = (Piece::from_char(char::from(c)), file < 8) {
                    let sq = Square::from_coords(File::new(file), Rank::new(rank));
                    board.set_piece_at(sq, piece);
                    piece_at[sq as usize] = at;
                    last = Some(sq);
                }
                file += 1;
            }
        }
    }
    setup.board = board;
}

/// The rook square a castling letter names, as python-chess `_set_castling_fen` (and the
/// chess core, [`crate::fen::resolve_castling`]) reads it; `None` for a byte that is no
/// castling letter.
fn resolve_castling(flag: u8, color: Color, board: &Board) -> Option<Square> {
    match flag {
        b'k' | b'q' | b'a'..=b'h' => {
            crate::fen::resolve_castling(flag, color, board, Bitboard::EMPTY)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_a_bracket_pocket_and_maps_spans_back() {
        let input = b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Qp] w KQkq - 0 1";
        let s = split(input, true, false);
        assert_eq!(
            s.text,
            b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".to_vec()
        );
        let pockets = s.pockets.expect("pocket");
        assert_eq!(pockets.white.queen, 1);
        assert_eq!(pockets.black.pawn, 1);
        // `w` is at 44 in the text and at 48 in the input.
        assert_eq!(s.input_span(&(44..45)), 48..49);
    }

    #[test]
    fn splits_a_ninth_rank_pocket() {
        let s = split(b"8/8/8/8/8/8/8/4K2k/NNp b - - 0 1", true, false);
        assert_eq!(s.text, b"8/8/8/8/8/8/8/4K2k b - - 0 1".to_vec());
        assert_eq!(s.pockets.expect("pocket").white.knight, 2);
    }

    #[test]
    fn reads_remaining_and_given_check_counters() {
        let s = split(b"4k3/8/8/8/8/8/8/4K3 w - - 2+1 0 1", false, true);
        let c = s.checks.expect("remaining");
        assert_eq!((u32::from(c.white), u32::from(c.black)), (2, 1));
        assert_eq!(s.text, b"4k3/8/8/8/8/8/8/4K3 w - - 0 1".to_vec());
        let s = split(b"4k3/8/8/8/8/8/8/4K3 w - - 0 1 +1+2", false, true);
        let c = s.checks.expect("given");
        assert_eq!((u32::from(c.white), u32::from(c.black)), (2, 1));
    }

    #[test]
    fn rejects_more_than_three_remaining_checks() {
        let s = split(b"4k3/8/8/8/8/8/8/4K3 w - - 4+3 0 1", false, true);
        assert_eq!(s.diagnostics[0].code, Code::BadCheckCounters);
        assert_eq!(s.diagnostics[0].span, Some(26..29));
    }

    #[test]
    fn reads_cutechess_dash_pocket_as_empty() {
        let s = split(b"8/8/8/8/8/8/8/4K2k[-] w - - 0 1", true, false);
        assert_eq!(s.diagnostics, Vec::new());
        assert_eq!(s.pockets, Some(ByColor::<ByRole<u8>>::default()));
        assert_eq!(s.text, b"8/8/8/8/8/8/8/4K2k w - - 0 1".to_vec());
    }

    #[test]
    fn names_a_bad_pocket_letter() {
        let s = split(b"8/8/8/8/8/8/8/4K2k[Px] w - - 0 1", true, false);
        assert_eq!(s.diagnostics[0].code, Code::BadPocket);
        assert_eq!(s.diagnostics[0].span, Some(20..21));
    }
}
