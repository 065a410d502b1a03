//! Rewrite the castling moves of the engine's `bestmove` / `info` lines into the GUI's notation,
//! fast enough for a burst of `info ... pv` lines (SPEC 9: at most 1.5x the byte relay).
//!
//! Each sequence (pv, currmove, ...) is interpreted by replaying it from the searched position,
//! up to its first move that cannot be read, as [`rewrite_engine_line_full`] (the reference)
//! does. Three things make it cheap, none changing the result:
//! - The replay stops once no later token can change: only a token shaped like a move along a
//!   back rank (`[a-h]1[a-h]1`, `[a-h]8[a-h]8`) can be a castle, and only while its side still
//!   has a castling right; any other well-formed lower-case token is written back as it came.
//! - [`LineRewriter`] remembers the last pv it replayed from a root (the positions after each
//!   move, the replacements and diagnostics): the next pv of the same search shares a prefix
//!   with it (engines deepen the same line), so only the new tail is replayed.
//! - No allocation for moves whose text does not change.

use std::borrow::Cow;
use std::cell::RefCell;
use std::ops::Range;

use shakmaty::{Bitboard, Chess, Color, Position, Rank};

use super::{MoveField, MoveSequence, engine_move_sequences, may_hold_castle, splice};
use crate::uci::Token;
use crate::uci::castling::Notation;
use crate::uci::diag::MoveDiagnostic;
use crate::uci::moves::{push_if_changed, translate_one};
#[cfg(test)]
use crate::uci::tokens;

/// Most pv moves [`LineRewriter`] remembers.
const CACHED_PLIES: usize = 256;

fn what(field: MoveField) -> &'static str {
    match field {
        MoveField::BestMove => "bestmove/ponder move",
        MoveField::Pv => "pv move",
        MoveField::CurrMove => "currmove",
        MoveField::Refutation => "refutation move",
        MoveField::CurrLine => "currline move",
    }
}

/// What a token may need: a back-rank shape (maybe a castle of that rank's side), or a text
/// that might be rewritten even when it is not a castle (upper-case promotion, odd bytes).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Plain,
    BackRank(Color),
    Odd,
}

fn kind(text: &[u8]) -> Kind {
    let file = |b: u8| (b'a'..=b'h').contains(&b);
    let rank = |b: u8| (b'1'..=b'8').contains(&b);
    match *text {
        [f1, r1, f2, r2] if file(f1) && file(f2) && rank(r1) && r1 == r2 && r1 == b'1' => {
            Kind::BackRank(Color::White)
        }
        [f1, r1, f2, r2] if file(f1) && file(f2) && rank(r1) && r1 == r2 && r1 == b'8' => {
            Kind::BackRank(Color::Black)
        }
        [f1, r1, f2, r2] if file(f1) && file(f2) && rank(r1) && rank(r2) => Kind::Plain,
        [f1, r1, f2, r2, p]
            if file(f1) && file(f2) && rank(r1) && rank(r2) && b"qrbn".contains(&p) =>
        {
            Kind::Plain
        }
        _ => Kind::Odd,
    }
}

/// From which index on no token of `kinds` can change, given the castling rights `rights`.
fn end_of_interest(kinds: &[Kind], rights: Bitboard) -> usize {
    let white = (rights & Bitboard::from_rank(Rank::First)).any();
    let black = (rights & Bitboard::from_rank(Rank::Eighth)).any();
    kinds
        .iter()
        .rposition(|k| match k {
            Kind::Plain => false,
            Kind::Odd => true,
            Kind::BackRank(Color::White) => white,
            Kind::BackRank(Color::Black) => black,
        })
        .map_or(0, |i| i + 1)
}

/// One pv move replayed: its text, the position after it, its replacement and diagnostics.
#[derive(Debug, Clone)]
struct Ply {
    text: Vec<u8>,
    after: Chess,
    replacement: Option<Vec<u8>>,
    diags: Vec<MoveDiagnostic>,
}

/// Rewrites engine lines like [`rewrite_engine_line_full`], remembering the last pv replayed
/// (see the module docs). Keep one per search, or per session: it checks that the root and the
/// notations are the ones it remembers and starts afresh when not.
#[derive(Debug, Clone, Default)]
pub struct LineRewriter {
    root: Option<Chess>,
    notations: Option<(Notation, Notation)>,
    plies: Vec<Ply>,
    /// The last pv's bytes (first move to last) and its result, spans relative to its start:
    /// an engine repeats a pv unchanged across many `info` lines.
    memo: Option<Memo>,
}

#[derive(Debug, Clone)]
struct Memo {
    text: Vec<u8>,
    reps: Vec<(Range<usize>, Vec<u8>)>,
    diags: Vec<MoveDiagnostic>,
}

fn shift(range: &Range<usize>, from: usize, to: usize) -> Range<usize> {
    range.start - from + to..range.end - from + to
}

/// Whether two positions are the same for reading moves (board, side, castling rights and
/// mode, en passant square); counters do not matter.
fn same_root(a: &Chess, b: &Chess) -> bool {
    a.board() == b.board()
        && a.turn() == b.turn()
        && a.castles().castling_rights() == b.castles().castling_rights()
        && a.castles().mode() == b.castles().mode()
        && a.maybe_ep_square() == b.maybe_ep_square()
}

impl LineRewriter {
    /// Rewrites `line` as [`rewrite_engine_line_full`] does, with the same result.
    pub fn rewrite<'a>(
        &mut self,
        line: &'a [u8],
        root: &Chess,
        engine: Notation,
        gui: Notation,
    ) -> (Cow<'a, [u8]>, Vec<MoveDiagnostic>) {
        let mut diags = Vec::new();
        if engine == gui || !may_hold_castle(line) {
            return (Cow::Borrowed(line), diags);
        }
        let fresh = self.notations != Some((engine, gui))
            || !self.root.as_ref().is_some_and(|r| same_root(r, root));
        if fresh {
            self.root = Some(root.clone());
            self.notations = Some((engine, gui));
            self.plies.clear();
            self.memo = None;
        }
        let mut reps = Vec::new();
        for seq in engine_move_sequences(line) {
            if seq.field == MoveField::Pv {
                self.replay_pv(line, &seq, root, (engine, gui), &mut reps, &mut diags);
            } else {
                replay(
                    &seq.moves,
                    0,
                    root,
                    (engine, gui),
                    what(seq.field),
                    &mut reps,
                    &mut diags,
                    None,
                );
            }
        }
        reps.sort_by_key(|(r, _)| r.start);
        (splice(line, &reps), diags)
    }

    fn replay_pv(
        &mut self,
        line: &[u8],
        seq: &MoveSequence<'_>,
        root: &Chess,
        notations: (Notation, Notation),
        reps: &mut Vec<(Range<usize>, Vec<u8>)>,
        diags: &mut Vec<MoveDiagnostic>,
    ) {
        let (Some(first), Some(last)) = (seq.moves.first(), seq.moves.last()) else {
            return;
        };
        let base = first.span.start;
        let text = &line[base..last.span.end];
        if let Some(memo) = self.memo.as_ref().filter(|m| m.text == text) {
            reps.extend(
                memo.reps
                    .iter()
                    .map(|(r, t)| (shift(r, 0, base), t.clone())),
            );
            diags.extend(
                memo.diags
                    .iter()
                    .map(|d| d.clone().map_span(|r| shift(&r, 0, base))),
            );
            return;
        }
        let (reps_from, diags_from) = (reps.len(), diags.len());
        self.replay_plies(seq, root, notations, reps, diags);
        self.memo = Some(Memo {
            text: text.to_vec(),
            reps: reps[reps_from..]
                .iter()
                .map(|(r, t)| (shift(r, base, 0), t.clone()))
                .collect(),
            diags: diags[diags_from..]
                .iter()
                .map(|d| d.clone().map_span(|r| shift(&r, base, 0)))
                .collect(),
        });
    }

    fn replay_plies(
        &mut self,
        seq: &MoveSequence<'_>,
        root: &Chess,
        notations: (Notation, Notation),
        reps: &mut Vec<(Range<usize>, Vec<u8>)>,
        diags: &mut Vec<MoveDiagnostic>,
    ) {
        let shared = self
            .plies
            .iter()
            .zip(&seq.moves)
            .take_while(|(ply, tok)| ply.text == tok.text)
            .count();
        self.plies.truncate(shared);
        for (ply, tok) in self.plies.iter().zip(&seq.moves) {
            if let Some(text) = &ply.replacement {
                reps.push((tok.span.clone(), text.clone()));
            }
            // Its diagnostics point at the token's place in this line.
            diags.extend(
                ply.diags
                    .iter()
                    .map(|d| d.clone().map_span(|_| tok.span.clone())),
            );
        }
        let start = self.plies.last().map_or(root, |p| &p.after);
        let start = start.clone();
        let cache = (self.plies.len() < CACHED_PLIES).then_some(&mut self.plies);
        replay(
            &seq.moves, shared, &start, notations, "pv move", reps, diags, cache,
        );
    }
}

/// Replays `moves[from..]` from `pos` (the position before `moves[from]`), pushing replacements
/// and diagnostics, until a move cannot be read or no later token can change; with `cache`,
/// each move played is remembered there.
#[allow(clippy::too_many_arguments)]
fn replay(
    moves: &[Token<'_>],
    from: usize,
    pos: &Chess,
    (engine, gui): (Notation, Notation),
    what: &str,
    reps: &mut Vec<(Range<usize>, Vec<u8>)>,
    diags: &mut Vec<MoveDiagnostic>,
    mut cache: Option<&mut Vec<Ply>>,
) {
    let kinds: Vec<Kind> = moves.iter().map(|t| kind(t.text)).collect();
    let mut pos = pos.clone();
    let mut end = end_of_interest(&kinds, pos.castles().castling_rights());
    for (i, tok) in moves.iter().enumerate().skip(from) {
        if i >= end {
            return;
        }
        let (found, replaced) = (diags.len(), reps.len());
        let Ok((mv, uci)) = translate_one(&pos, tok, i + 1, what, (engine, gui), false, diags)
        else {
            diags.truncate(found); // translate_one reports nothing but ambiguities here
            return;
        };
        push_if_changed(reps, tok, uci);
        let rights = pos.castles().castling_rights();
        pos.play_unchecked(mv);
        if pos.castles().castling_rights() != rights {
            end = end_of_interest(&kinds, pos.castles().castling_rights());
        }
        if let Some(cache) = cache.as_deref_mut() {
            if cache.len() >= CACHED_PLIES {
                continue;
            }
            cache.push(Ply {
                text: tok.text.to_vec(),
                after: pos.clone(),
                replacement: reps.get(replaced).map(|(_, text)| text.clone()),
                diags: diags[found..].to_vec(),
            });
        }
    }
}

thread_local! {
    /// The rewriter behind [`rewrite_engine_line`]: one per thread (the proxy relays on one).
    static REWRITER: RefCell<LineRewriter> = RefCell::new(LineRewriter::default());
}

/// Rewrites the castling moves of an engine `bestmove` or `info` line from `engine` to `gui`
/// notation, interpreting each sequence by replaying it from `root` (the searched position).
/// A sequence is translated up to its first move that does not parse or is not legal; the rest
/// stays as sent. Every other byte is kept; the line comes back borrowed (no allocation) when
/// nothing changes, when the notations are equal, or when no token looks like a back-rank move.
/// Diagnostics: `ambiguous-castling-move` warnings for castles written in king-takes-rook form.
///
/// The same result as [`rewrite_engine_line_full`], through a per-thread [`LineRewriter`]
/// (the last pv replayed is remembered: see the module docs).
pub fn rewrite_engine_line<'a>(
    line: &'a [u8],
    root: &Chess,
    engine: Notation,
    gui: Notation,
) -> (Cow<'a, [u8]>, Vec<MoveDiagnostic>) {
    if engine == gui {
        return (Cow::Borrowed(line), Vec::new());
    }
    // `LineRewriter::rewrite` looks for a back-rank token first (`may_hold_castle`).
    REWRITER.with(|r| match r.try_borrow_mut() {
        Ok(mut rewriter) => rewriter.rewrite(line, root, engine, gui),
        Err(_) => LineRewriter::default().rewrite(line, root, engine, gui),
    })
}

/// The reference rewrite (the slow path before issue 12): every sequence replayed from `root`
/// with full legality, move by move, to its end or its first unreadable move. Kept to check
/// the fast path against ([`rewrite_engine_line`] gives the same result).
pub fn rewrite_engine_line_full<'a>(
    line: &'a [u8],
    root: &Chess,
    engine: Notation,
    gui: Notation,
) -> (Cow<'a, [u8]>, Vec<MoveDiagnostic>) {
    let mut diags = Vec::new();
    if engine == gui || !may_hold_castle(line) {
        return (Cow::Borrowed(line), diags);
    }
    let mut reps = Vec::new();
    for seq in engine_move_sequences(line) {
        let mut pos = root.clone();
        for (i, tok) in seq.moves.iter().enumerate() {
            let Ok((mv, uci)) = translate_one(
                &pos,
                tok,
                i + 1,
                what(seq.field),
                (engine, gui),
                false,
                &mut diags,
            ) else {
                break;
            };
            push_if_changed(&mut reps, tok, uci);
            pos.play_unchecked(mv);
        }
    }
    reps.sort_by_key(|(r, _)| r.start);
    (splice(line, &reps), diags)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_of_tokens() {
        assert!(kind(b"e1h1") == Kind::BackRank(Color::White));
        assert!(kind(b"a8b8") == Kind::BackRank(Color::Black));
        assert!(kind(b"e2e4") == Kind::Plain);
        assert!(kind(b"e7e8q") == Kind::Plain);
        assert!(kind(b"e7e8Q") == Kind::Odd);
        assert!(kind(b"0000") == Kind::Odd);
        assert!(kind(b"e1e9") == Kind::Odd);
    }

    #[test]
    fn tokens_after_the_last_back_rank_token_of_a_side_with_rights_are_of_no_interest() {
        let kinds: Vec<Kind> = tokens(b"e1h1 e2e4 a8b8 g1f3")
            .map(|t| kind(t.text))
            .collect();
        assert_eq!(end_of_interest(&kinds, Bitboard::EMPTY), 0);
        assert_eq!(
            end_of_interest(&kinds, Bitboard::from_square(shakmaty::Square::H1)),
            1
        );
        assert_eq!(
            end_of_interest(&kinds, Bitboard::from_square(shakmaty::Square::A8)),
            3
        );
    }
}
