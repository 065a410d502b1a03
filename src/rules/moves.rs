//! Play and translate move lists under any [`GameRules`]: `position ... moves` played with the
//! same checks and repairs in every variant, `go searchmoves` translated, the engine's
//! `bestmove` / `ponder` checked (the engine's `info` / `bestmove` castling rewrite is
//! [`super::rewrite`]). One implementation for chess, the 8x8 variants and the 10x8 boards:
//! generic, so `shakmaty::Chess` runs it monomorphized and [`super::Game`] by dispatch.
//!
//! ```
//! use fenguard::rules::play_moves;
//! use fenguard::uci::{Notation, parse_position};
//! use shakmaty::{CastlingMode, Chess, fen::Fen};
//!
//! let line = b"position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 4 1 moves e1h1";
//! let cmd = parse_position(line).unwrap();
//! let start: Chess = Fen::from_ascii(cmd.fen().unwrap()).unwrap()
//!     .into_position(CastlingMode::Chess960).unwrap();
//! let out = play_moves(start, &cmd.moves, Notation::Standard, Notation::Standard, false);
//! assert_eq!(out.moves[0].to_string(), "e1g1");
//! assert!(out.is_complete());
//! ```

use std::borrow::Cow;
use std::ops::Range;

use shakmaty::Chess;

use super::{GameRules, ReadError};
use crate::uci::{Code, MoveDiagnostic, Notation, Token, parse_go, splice, tokens};

/// The diagnostic for a move that could not be read; `what` names the list ("move",
/// "searchmoves move", "pv move", "bestmove"). A missing promotion names its repair.
fn read_error_diag<R: GameRules>(
    err: ReadError<R::Move>,
    what: &str,
    index: usize,
    tok: &Token<'_>,
    pos: &R,
    code_override: Option<Code>,
    to: Notation,
) -> MoveDiagnostic {
    let text = String::from_utf8_lossy(tok.text);
    let fen = pos.message_fen();
    let (code, message, fix) = match err {
        ReadError::Syntax => (
            Code::BadMoveSyntax,
            format!(
                "{what} {index} `{text}` is not a UCI move{}; position before it: {fen}",
                pos.syntax_hint()
            ),
            None,
        ),
        ReadError::Null => (
            Code::NullMove,
            format!(
                "{what} {index} `0000` is a null move, which engines do not accept here; position before it: {fen}"
            ),
            None,
        ),
        ReadError::Illegal => (
            Code::IllegalMove,
            format!("{what} {index} `{text}` is illegal in {fen}"),
            None,
        ),
        ReadError::MissingPromotion(mv) => {
            let fix = pos.write(mv, to).0.to_string();
            (
                Code::MissingPromotion,
                format!(
                    "{what} {index} `{text}` moves a pawn to the last rank without naming a piece in {fen}; repair: `{fix}`"
                ),
                Some(fix),
            )
        }
    };
    let code = code_override.unwrap_or(code);
    let mut d = MoveDiagnostic::new(code, index, tok.text, Some(tok.span.clone()), message);
    d.fix = fix;
    d
}

/// An `ambiguous-castling-move` warning; `why` completes "{what} {index} `{text}` ...".
fn ambiguous_diag(what: &str, index: usize, tok: &Token<'_>, why: &str) -> MoveDiagnostic {
    let text = String::from_utf8_lossy(tok.text);
    let message = format!("{what} {index} `{text}` {why}");
    MoveDiagnostic::new(
        Code::AmbiguousCastlingMove,
        index,
        tok.text,
        Some(tok.span.clone()),
        message,
    )
}

/// Reads one move in `from` notation, writes it in `to` notation, collecting ambiguity
/// warnings. With `repair`, a missing promotion becomes a queen (the error is still reported,
/// with its fix). Returns the legal move and its text in `to`, or the blocking diagnostic
/// (then nothing was pushed to `diags`).
pub(super) fn translate_one<R: GameRules>(
    pos: &R,
    tok: &Token<'_>,
    index: usize,
    what: &str,
    (from, to): (Notation, Notation),
    repair: bool,
    diags: &mut Vec<MoveDiagnostic>,
) -> Result<(R::Move, R::Uci), MoveDiagnostic> {
    if let Some(plain) = pos.read_plain(tok.text) {
        return Ok(plain);
    }
    let mv = match pos.read(tok.text, from) {
        Ok(r) => {
            if r.ambiguous {
                let why = format!(
                    "reads both as a king move and as castling in {}; taken as the king move",
                    pos.message_fen()
                );
                diags.push(ambiguous_diag(what, index, tok, &why));
            }
            r.mv
        }
        Err(ReadError::MissingPromotion(mv)) if repair => {
            let err = ReadError::MissingPromotion(mv);
            diags.push(read_error_diag(err, what, index, tok, pos, None, to));
            mv
        }
        Err(e) => return Err(read_error_diag(e, what, index, tok, pos, None, to)),
    };
    let (uci, ambiguous) = pos.write(mv, to);
    if ambiguous {
        let why = format!(
            "is castling; sent as `{uci}` because its standard form would read as a king move in {}",
            pos.message_fen()
        );
        diags.push(ambiguous_diag(what, index, tok, &why));
    }
    Ok((mv, uci))
}

/// The result of playing a move list.
#[derive(Clone, Debug)]
pub struct MovesOutcome<R: GameRules = Chess> {
    /// The moves played, in the engine's notation (one per move played; `Display` writes them).
    pub moves: Vec<R::Uci>,
    /// The position after the moves played.
    pub position: R,
    /// Everything found, in order: ambiguity warnings, repaired promotions (severity error,
    /// with `fix`), and the error that stopped the list, if any (last).
    pub diagnostics: Vec<MoveDiagnostic>,
    /// 1-based index of the move that could not be played; `None` when all were played.
    pub stopped_at: Option<usize>,
}

impl<R: GameRules> MovesOutcome<R> {
    /// Whether every move was played (possibly after repairs).
    pub fn is_complete(&self) -> bool {
        self.stopped_at.is_none()
    }
}

/// Plays `moves` (GUI text, read in `gui` notation) from `start`, validating each and writing
/// each in `engine` notation. Stops at the first move that cannot be played (never cuts the
/// list silently: [`MovesOutcome::stopped_at`]). With `repair`, a pawn move to the last rank
/// without a piece is played as a queen promotion. Linear in the number of moves: the position
/// is updated in place and a FEN is written only for a diagnostic.
pub fn play_moves<R: GameRules>(
    start: R,
    moves: &[Token<'_>],
    gui: Notation,
    engine: Notation,
    repair: bool,
) -> MovesOutcome<R> {
    play_moves_from(start, moves, 1, gui, engine, repair)
}

/// [`play_moves`] for the rest of a list whose first `first - 1` moves led to `start`: move
/// numbers in diagnostics and [`MovesOutcome::stopped_at`] count from `first` (1-based).
pub fn play_moves_from<R: GameRules>(
    start: R,
    moves: &[Token<'_>],
    first: usize,
    gui: Notation,
    engine: Notation,
    repair: bool,
) -> MovesOutcome<R> {
    start.play_list(moves, first, (gui, engine), repair)
}

/// The loop of [`play_moves_from`], one move at a time under `R` (what
/// [`GameRules::play_list`] runs); the outcome is given as an `S` (`position` and `uci` map
/// the position and each move written: [`super::Game`] runs the loop on its arm's rules and
/// gives the game's types).
pub(super) fn play_each<R: GameRules, S: GameRules>(
    start: R,
    moves: &[Token<'_>],
    first: usize,
    notations: (Notation, Notation),
    repair: bool,
    (position, uci): (impl FnOnce(R) -> S, impl Fn(R::Uci) -> S::Uci),
) -> MovesOutcome<S> {
    let mut pos = start;
    let mut out = Vec::with_capacity(moves.len());
    let mut diagnostics = Vec::new();
    let mut stopped_at = None;
    for (i, tok) in moves.iter().enumerate() {
        let index = first + i;
        match translate_one(
            &pos,
            tok,
            index,
            "move",
            notations,
            repair,
            &mut diagnostics,
        ) {
            Ok((mv, written)) => {
                pos.play(mv);
                out.push(uci(written));
            }
            Err(d) => {
                diagnostics.push(d);
                stopped_at = Some(index);
                break;
            }
        }
    }
    MovesOutcome {
        moves: out,
        position: position(pos),
        diagnostics,
        stopped_at,
    }
}

/// Translates the moves after `searchmoves` in a `go` line from `gui` to `engine` notation,
/// each read in `pos` (the position the search starts from). Every other byte stays as sent;
/// the line comes back borrowed when nothing changes (also for lines that are not `go`). A move
/// that cannot be read is left as sent and reported; with `repair` a missing promotion becomes
/// a queen promotion.
pub fn translate_searchmoves<'a, R: GameRules>(
    line: &'a [u8],
    pos: &R,
    gui: Notation,
    engine: Notation,
    repair: bool,
) -> (Cow<'a, [u8]>, Vec<MoveDiagnostic>) {
    let mut diags = Vec::new();
    let mut reps = Vec::new();
    let Some(go) = parse_go(line) else {
        return (Cow::Borrowed(line), diags);
    };
    for (i, tok) in go.searchmoves.iter().enumerate() {
        let what = "searchmoves move";
        match translate_one(pos, tok, i + 1, what, (gui, engine), repair, &mut diags) {
            Ok((_, uci)) => push_if_changed::<R>(&mut reps, tok, &uci),
            Err(d) => diags.push(d),
        }
    }
    (splice(line, &reps), diags)
}

/// Adds a replacement of `tok` by `uci` when its text differs (no allocation when it does not).
pub(super) fn push_if_changed<R: GameRules>(
    reps: &mut Vec<(Range<usize>, Vec<u8>)>,
    tok: &Token<'_>,
    uci: &R::Uci,
) {
    if !R::uci_is(uci, tok.text) {
        let mut text = Vec::with_capacity(8);
        R::append_uci(uci, &mut text);
        reps.push((tok.span.clone(), text));
    }
}

/// Whether the ponder token `text` names no move: `0000` (Komodo's "no ponder move", which
/// cutechess's `UciEngine` reads as none) or Stockfish's `(none)`.
pub fn is_no_ponder_move(text: &[u8]) -> bool {
    text == b"0000" || text == b"(none)"
}

/// Checks the engine's `bestmove <m> [ponder <p>]` in `root` (the searched position), read in
/// `engine` notation: `m` must be legal in `root`, `p` legal after `m`. `bestmove (none)` or
/// `bestmove 0000` is accepted only when `root` has no legal move. A ponder move that is none
/// ([`is_no_ponder_move`]) or follows a move that ends the game (racing kings: a king reaches
/// rank 8) is not judged: there is no position to ponder in (GUIs ignore it, as cutechess
/// does). Returns the `illegal-bestmove` diagnostics (index 1 for `bestmove`, 2 for `ponder`),
/// empty when fine or when the line is not a `bestmove`.
pub fn check_bestmove<R: GameRules>(
    line: &[u8],
    root: &R,
    engine: Notation,
) -> Vec<MoveDiagnostic> {
    let mut diags = Vec::new();
    let mut toks = tokens(line);
    if toks.next().is_none_or(|t| t.text != b"bestmove") {
        return diags;
    }
    let Some(best) = toks.next() else {
        return diags;
    };
    let code = Some(Code::IllegalBestmove);
    if best.text == b"(none)" || best.text == b"0000" {
        if root.has_legal_moves() {
            let message = format!(
                "bestmove `{}` names no move, but {} has legal moves",
                String::from_utf8_lossy(best.text),
                root.message_fen()
            );
            diags.push(MoveDiagnostic::new(
                Code::IllegalBestmove,
                1,
                best.text,
                Some(best.span),
                message,
            ));
        }
        return diags;
    }
    let mv = match root.read(best.text, engine) {
        Ok(r) => r.mv,
        Err(e) => {
            diags.push(read_error_diag(e, "bestmove", 1, &best, root, code, engine));
            return diags;
        }
    };
    if let (Some(kw), Some(ponder)) = (toks.next(), toks.next())
        && kw.text == b"ponder"
        && !is_no_ponder_move(ponder.text)
    {
        let mut after = root.clone();
        after.play(mv);
        if !after.has_legal_moves() {
            return diags;
        }
        if let Err(e) = after.read(ponder.text, engine) {
            let d = read_error_diag(e, "ponder move", 2, &ponder, &after, code, engine);
            diags.push(d);
        }
    }
    diags
}
