//! Move lists on a [`Game`]: `position ... moves` played with the same checks and repairs in
//! every variant, `go searchmoves` translated, the engine's `bestmove` checked and its
//! `bestmove` / `info` castling rewritten into the GUI's notation.
//!
//! The chess arm goes to the `uci` module's functions unchanged (its fast paths: the relay
//! speed of chess is not touched); the 8x8 variants and 10x8 boards go through one generic
//! loop on [`Game::read`] / [`Game::write`] / [`Game::play`] (a full replay per line).

use std::borrow::Cow;
use std::ops::Range;

use shakmaty::uci::UciMove;

use super::game::{Game, GameMove, ReadFail, Written};
use crate::uci::{
    self, Code, MoveDiagnostic, Notation, Token, engine_move_sequences, parse_go, splice, tokens,
};

/// The result of playing a `moves` list on a [`Game`].
#[derive(Debug, Clone)]
pub struct Played {
    /// The position after the moves played.
    pub position: Game,
    /// The moves played, in the engine's notation.
    pub moves: Vec<Written>,
    /// Everything found, in order (ambiguity warnings, repaired promotions, the stopping error).
    pub diagnostics: Vec<MoveDiagnostic>,
    /// 1-based index of the move that could not be played; `None` when all were played.
    pub stopped_at: Option<usize>,
}

impl Played {
    /// Whether every move was played (possibly after repairs).
    pub fn is_complete(&self) -> bool {
        self.stopped_at.is_none()
    }
}

/// Appends a written move (`e2e4`, `P@e4`, `f1i1`, `e7e8c`).
pub fn append_written(buf: &mut Vec<u8>, m: &Written) {
    match m {
        Written::Uci(UciMove::Normal {
            from,
            to,
            promotion,
        }) => {
            for sq in [from, to] {
                buf.push(sq.file().char() as u8);
                buf.push(sq.rank().char() as u8);
            }
            if let Some(role) = promotion {
                buf.push(role.char() as u8);
            }
        }
        Written::Uci(other) => buf.extend_from_slice(other.to_string().as_bytes()),
        Written::Text(t) => buf.extend_from_slice(t.as_bytes()),
    }
}

/// Plays `moves` (GUI text in `gui` notation) from `start`, writing each in `engine` notation;
/// stops at the first move that cannot be played. With `repair`, a missing promotion is
/// played as a queen promotion (the error is still reported, with its fix). `first` is the
/// 1-based number of the first of `moves` in its list (diagnostics and
/// [`Played::stopped_at`] count from it): 1 for a whole list, more when `start` is the
/// position after the list's earlier moves.
pub fn play_moves(
    start: Game,
    moves: &[Token<'_>],
    first: usize,
    gui: Notation,
    engine: Notation,
    repair: bool,
) -> Played {
    if let Game::Chess(c) = start {
        let out = uci::play_moves_from(c, moves, first, gui, engine, repair);
        return Played {
            position: Game::Chess(out.position),
            moves: out.moves.into_iter().map(Written::Uci).collect(),
            diagnostics: out.diagnostics,
            stopped_at: out.stopped_at,
        };
    }
    let mut pos = start;
    let mut played = Vec::with_capacity(moves.len());
    let mut diagnostics = Vec::new();
    for (i, tok) in moves.iter().enumerate() {
        let step = translate_one(&pos, tok, first + i, "move", (gui, engine), repair);
        match step {
            Ok((mv, written, diags)) => {
                diagnostics.extend(diags);
                pos.play(&mv);
                played.push(written);
            }
            Err(d) => {
                diagnostics.push(d);
                return Played {
                    position: pos,
                    moves: played,
                    diagnostics,
                    stopped_at: Some(first + i),
                };
            }
        }
    }
    Played {
        position: pos,
        moves: played,
        diagnostics,
        stopped_at: None,
    }
}

type Step = (GameMove, Written, Vec<MoveDiagnostic>);

/// Reads one move in `from` notation and writes it in `to` notation.
fn translate_one(
    pos: &Game,
    tok: &Token<'_>,
    index: usize,
    what: &str,
    (from, to): (Notation, Notation),
    repair: bool,
) -> Result<Step, MoveDiagnostic> {
    let mut diags = Vec::new();
    let mv = match pos.read(tok.text, from) {
        Ok((mv, ambiguous)) => {
            if ambiguous {
                let why = format!(
                    "reads both as a king move and as castling in {}; taken as the king move",
                    pos.xfen()
                );
                diags.push(warning(what, index, tok, &why));
            }
            mv
        }
        Err(ReadFail::MissingPromotion(mv)) if repair => {
            let fix = Some(pos.write(&mv, to).0);
            diags.push(fail_diag(
                ReadFail::Illegal,
                what,
                index,
                tok,
                pos,
                None,
                fix,
            ));
            mv
        }
        Err(e) => return Err(fail_diag(e, what, index, tok, pos, None, None)),
    };
    let (written, ambiguous) = pos.write_uci(&mv, to);
    if ambiguous {
        let why = format!(
            "is castling; sent king-takes-rook because its standard form would read as a king move in {}",
            pos.xfen()
        );
        diags.push(warning(what, index, tok, &why));
    }
    Ok((mv, written, diags))
}

fn warning(what: &str, index: usize, tok: &Token<'_>, why: &str) -> MoveDiagnostic {
    let text = String::from_utf8_lossy(tok.text);
    MoveDiagnostic::new(
        Code::AmbiguousCastlingMove,
        index,
        tok.text,
        Some(tok.span.clone()),
        format!("{what} {index} `{text}` {why}"),
    )
}

/// The diagnostic for a move that could not be read (a `fix` makes it the repaired
/// `missing-promotion`).
fn fail_diag(
    err: ReadFail,
    what: &str,
    index: usize,
    tok: &Token<'_>,
    pos: &Game,
    code: Option<Code>,
    fix: Option<String>,
) -> MoveDiagnostic {
    let text = String::from_utf8_lossy(tok.text);
    let fen = pos.xfen();
    let (own, message) = match (&err, &fix) {
        (_, Some(fix)) => (
            Code::MissingPromotion,
            format!(
                "{what} {index} `{text}` moves a pawn to the last rank without naming a piece in {fen}; repair: `{fix}`"
            ),
        ),
        (ReadFail::Syntax, _) => (
            Code::BadMoveSyntax,
            format!(
                "{what} {index} `{text}` is not a UCI move of this board; position before it: {fen}"
            ),
        ),
        (ReadFail::Null, _) => (
            Code::NullMove,
            format!(
                "{what} {index} `0000` is a null move, which engines do not accept here; position before it: {fen}"
            ),
        ),
        (ReadFail::Illegal, _) => (
            Code::IllegalMove,
            format!("{what} {index} `{text}` is illegal in {fen}"),
        ),
        (ReadFail::MissingPromotion(_), _) => (
            Code::MissingPromotion,
            format!(
                "{what} {index} `{text}` moves a pawn to the last rank without naming a piece in {fen}"
            ),
        ),
    };
    let mut d = MoveDiagnostic::new(
        code.unwrap_or(own),
        index,
        tok.text,
        Some(tok.span.clone()),
        message,
    );
    d.fix = fix;
    d
}

/// Translates a `go` line's `searchmoves` from `gui` to `engine` notation, each read in
/// `root`; unreadable moves are left as sent and reported.
pub fn translate_searchmoves<'a>(
    line: &'a [u8],
    root: &Game,
    gui: Notation,
    engine: Notation,
    repair: bool,
) -> (Cow<'a, [u8]>, Vec<MoveDiagnostic>) {
    if let Game::Chess(c) = root {
        return uci::translate_searchmoves(line, c, gui, engine, repair);
    }
    let mut diags = Vec::new();
    let mut reps = Vec::new();
    let Some(go) = parse_go(line) else {
        return (Cow::Borrowed(line), diags);
    };
    for (i, tok) in go.searchmoves.iter().enumerate() {
        let what = "searchmoves move";
        match translate_one(root, tok, i + 1, what, (gui, engine), repair) {
            Ok((_, written, found)) => {
                diags.extend(found);
                push_if_changed(&mut reps, tok, &written);
            }
            Err(d) => diags.push(d),
        }
    }
    (splice(line, &reps), diags)
}

fn push_if_changed(reps: &mut Vec<(Range<usize>, Vec<u8>)>, tok: &Token<'_>, m: &Written) {
    let mut text = Vec::with_capacity(6);
    append_written(&mut text, m);
    if text != tok.text {
        reps.push((tok.span.clone(), text));
    }
}

/// Rewrites the castling moves of an engine `bestmove` / `info` line (read in `engine`
/// notation, each sequence replayed from `root`) into `gui` notation. Only ambiguity warnings
/// are returned: a move that cannot be read ends its sequence, unchanged (the `bestmove` check
/// reports it).
pub fn rewrite_engine_line<'a>(
    line: &'a [u8],
    root: &Game,
    engine: Notation,
    gui: Notation,
) -> (Cow<'a, [u8]>, Vec<MoveDiagnostic>) {
    if let Game::Chess(c) = root {
        return uci::rewrite_engine_line(line, c, engine, gui);
    }
    let mut reps = Vec::new();
    let mut diags = Vec::new();
    for seq in engine_move_sequences(line) {
        let mut pos = root.clone();
        for (i, tok) in seq.moves.iter().enumerate() {
            let Ok((mv, written, found)) =
                translate_one(&pos, tok, i + 1, "pv move", (engine, gui), false)
            else {
                break;
            };
            diags.extend(found);
            push_if_changed(&mut reps, tok, &written);
            pos.play(&mv);
        }
    }
    reps.sort_by_key(|(r, _)| r.start);
    (splice(line, &reps), diags)
}

/// Checks the engine's `bestmove <m> [ponder <p>]` in `root`, read in `engine` notation
/// (`illegal-bestmove`; `(none)` / `0000` only when `root` has no legal move), by the rules of
/// [`uci::check_bestmove`]: a ponder move that is none or follows a game-ending move is not
/// judged.
pub fn check_bestmove(line: &[u8], root: &Game, engine: Notation) -> Vec<MoveDiagnostic> {
    if let Game::Chess(c) = root {
        return uci::check_bestmove(line, c, engine);
    }
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
                root.xfen()
            );
            let span = Some(best.span.clone());
            diags.push(MoveDiagnostic::new(
                Code::IllegalBestmove,
                1,
                best.text,
                span,
                message,
            ));
        }
        return diags;
    }
    let mv = match root.read(best.text, engine) {
        Ok((mv, _)) => mv,
        Err(e) => {
            diags.push(fail_diag(e, "bestmove", 1, &best, root, code, None));
            return diags;
        }
    };
    if let (Some(kw), Some(ponder)) = (toks.next(), toks.next())
        && kw.text == b"ponder"
        && !crate::uci::moves::is_no_ponder_move(ponder.text)
    {
        let mut after = root.clone();
        after.play(&mv);
        // No ponder move after a move that ends the game (racing kings: a king reaches rank 8).
        if !after.has_legal_moves() {
            return diags;
        }
        if let Err(e) = after.read(ponder.text, engine) {
            diags.push(fail_diag(e, "ponder move", 2, &ponder, &after, code, None));
        }
    }
    diags
}
