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
//! - An `info` line whose bytes from its `pv` keyword on are the last line's
//!   ([`crate::uci::engine_line::pv_tail`]: no other move field before it) gets the last
//!   line's result for them: only the counters before the pv are copied, nothing replayed.
//!
//! Generic over [`GameRules`]: the castle filter ([`GameRules::may_hold_castle`]) and the
//! horizon ([`GameRules::horizon`]) are chess's (8x8 shapes, castling rights); other rules
//! replay every sequence in full, with the same caches.

use std::borrow::Cow;
use std::ops::Range;

use shakmaty::Color;

use super::GameRules;
use super::moves::{push_if_changed, translate_one};
use crate::uci::engine_line::{MoveField, MoveSequence, engine_move_sequences, pv_tail, splice};
use crate::uci::{MoveDiagnostic, Notation, Token};

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

/// What a pv token may need, by its shape on the 8x8 board: a back-rank move (maybe a castle of
/// that rank's side), or a text that might be rewritten even when it is not a castle
/// (upper-case promotion, odd bytes). [`GameRules::horizon`] reads them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// An ordinary 8x8 move shape (`e2e4`, `e7e8q`): written back as it came unless a castle.
    Plain,
    /// `[a-h]1[a-h]1` (White's) or `[a-h]8[a-h]8` (Black's).
    BackRank(Color),
    /// Anything else.
    Odd,
}

/// The [`Kind`] of a token.
pub fn kind(text: &[u8]) -> Kind {
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

/// One pv move replayed: its text, the position after it, its replacement and diagnostics.
#[derive(Debug, Clone)]
struct Ply<R> {
    text: Vec<u8>,
    after: R,
    replacement: Option<Vec<u8>>,
    diags: Vec<MoveDiagnostic>,
}

/// Rewrites engine lines like [`rewrite_engine_line_full`], remembering the last pv replayed
/// (see the module docs). Owned by the search it serves (the session keeps one per search):
/// it checks that the root and the notations are the ones it remembers and starts afresh when
/// not.
#[derive(Debug, Clone)]
pub struct LineRewriter<R: GameRules = shakmaty::Chess> {
    root: Option<R>,
    notations: Option<(Notation, Notation)>,
    plies: Vec<Ply<R>>,
    /// The last pv's bytes (first move to last) and its result, spans relative to its start:
    /// an engine repeats a pv unchanged across many `info` lines.
    memo: Option<Memo>,
    /// The last line's tail from its `pv` keyword: the next `info` of the search usually
    /// differs only in its counters before it.
    tail: Option<TailMemo>,
}

#[derive(Debug, Clone)]
struct Memo {
    text: Vec<u8>,
    reps: Vec<(Range<usize>, Vec<u8>)>,
    diags: Vec<MoveDiagnostic>,
}

/// The last `info` line rewritten through [`pv_tail`]: its bytes from `pv` on, and what they
/// became (`None`: unchanged); its diagnostics, spans relative to the tail.
#[derive(Debug, Clone)]
struct TailMemo {
    tail: Vec<u8>,
    out: Option<Vec<u8>>,
    diags: Vec<MoveDiagnostic>,
}

impl<R: GameRules> Default for LineRewriter<R> {
    fn default() -> Self {
        LineRewriter {
            root: None,
            notations: None,
            plies: Vec::new(),
            memo: None,
            tail: None,
        }
    }
}

fn shift(range: &Range<usize>, from: usize, to: usize) -> Range<usize> {
    range.start - from + to..range.end - from + to
}

impl<R: GameRules> LineRewriter<R> {
    /// Rewrites `line` as [`rewrite_engine_line_full`] does, with the same result.
    pub fn rewrite<'a>(
        &mut self,
        line: &'a [u8],
        root: &R,
        engine: Notation,
        gui: Notation,
    ) -> (Cow<'a, [u8]>, Vec<MoveDiagnostic>) {
        if engine == gui {
            return (Cow::Borrowed(line), Vec::new());
        }
        let fresh = self.notations != Some((engine, gui))
            || !self.root.as_ref().is_some_and(|r| r.reads_like(root));
        if fresh {
            self.root = Some(root.clone());
            self.notations = Some((engine, gui));
            self.plies.clear();
            self.memo = None;
            self.tail = None;
        }
        let at = pv_tail(line);
        if let Some(at) = at
            && let Some(memo) = self.tail.as_ref().filter(|m| m.tail == line[at..])
        {
            let diags = memo
                .diags
                .iter()
                .map(|d| d.clone().map_span(|r| shift(&r, 0, at)))
                .collect();
            let Some(out) = &memo.out else {
                return (Cow::Borrowed(line), diags);
            };
            let mut whole = Vec::with_capacity(at + out.len());
            whole.extend_from_slice(&line[..at]);
            whole.extend_from_slice(out);
            return (Cow::Owned(whole), diags);
        }
        let (out, diags) = self.rewrite_sequences(line, root, engine, gui);
        if let Some(at) = at
            && root.may_hold_castle(&line[at..])
        {
            self.tail = Some(TailMemo {
                tail: line[at..].to_vec(),
                out: match &out {
                    Cow::Owned(o) => Some(o[at..].to_vec()),
                    Cow::Borrowed(_) => None,
                },
                diags: diags
                    .iter()
                    .map(|d| d.clone().map_span(|r| shift(&r, at, 0)))
                    .collect(),
            });
        }
        (out, diags)
    }

    /// The rewrite proper: each move sequence of `line` replayed (the pv through the plies
    /// remembered).
    fn rewrite_sequences<'a>(
        &mut self,
        line: &'a [u8],
        root: &R,
        engine: Notation,
        gui: Notation,
    ) -> (Cow<'a, [u8]>, Vec<MoveDiagnostic>) {
        let mut diags = Vec::new();
        if !root.may_hold_castle(line) {
            return (Cow::Borrowed(line), diags);
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
        root: &R,
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
        root: &R,
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
fn replay<R: GameRules>(
    moves: &[Token<'_>],
    from: usize,
    pos: &R,
    (engine, gui): (Notation, Notation),
    what: &str,
    reps: &mut Vec<(Range<usize>, Vec<u8>)>,
    diags: &mut Vec<MoveDiagnostic>,
    mut cache: Option<&mut Vec<Ply<R>>>,
) {
    let kinds: Vec<Kind> = moves.iter().map(|t| kind(t.text)).collect();
    let mut pos = pos.clone();
    let mut end = pos.horizon(&kinds);
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
        push_if_changed::<R>(reps, tok, &uci);
        pos.play(mv);
        end = pos.horizon(&kinds);
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

/// Rewrites the castling moves of an engine `bestmove` or `info` line from `engine` to `gui`
/// notation, interpreting each sequence by replaying it from `root` (the searched position).
/// A sequence is translated up to its first move that does not parse or is not legal; the rest
/// stays as sent. Every other byte is kept; the line comes back borrowed (no allocation) when
/// nothing changes, when the notations are equal, or when no token can be a castle
/// ([`GameRules::may_hold_castle`]). Diagnostics: `ambiguous-castling-move` warnings for
/// castles written in king-takes-rook form.
///
/// The same result as [`rewrite_engine_line_full`], through a fresh [`LineRewriter`]: a search
/// keeps its own to remember the last pv across its lines.
pub fn rewrite_engine_line<'a, R: GameRules>(
    line: &'a [u8],
    root: &R,
    engine: Notation,
    gui: Notation,
) -> (Cow<'a, [u8]>, Vec<MoveDiagnostic>) {
    if engine == gui {
        return (Cow::Borrowed(line), Vec::new());
    }
    LineRewriter::default().rewrite_sequences(line, root, engine, gui)
}

/// The reference rewrite (the slow path before issue 12): every sequence replayed from `root`
/// with full legality, move by move, to its end or its first unreadable move. Kept to check
/// the fast path against ([`rewrite_engine_line`] gives the same result).
pub fn rewrite_engine_line_full<'a, R: GameRules>(
    line: &'a [u8],
    root: &R,
    engine: Notation,
    gui: Notation,
) -> (Cow<'a, [u8]>, Vec<MoveDiagnostic>) {
    let mut diags = Vec::new();
    if engine == gui || !root.may_hold_castle(line) {
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
            push_if_changed::<R>(&mut reps, tok, &uci);
            pos.play(mv);
        }
    }
    reps.sort_by_key(|(r, _)| r.start);
    (splice(line, &reps), diags)
}

#[cfg(test)]
#[path = "rewrite_tests.rs"]
mod tests;
