//! Invariants of the UCI line parsers and move translators on arbitrary lines, shared by
//! `tests/props_uci.rs` and the `uci_lines` fuzz target (included with `#[path]`): no panic;
//! every token and span lies within the line and names its bytes; `rewrite_engine_line`
//! returns the line unchanged when the notations are equal and keeps the token count
//! otherwise; `translate_searchmoves` keeps the token count; the moves `play_moves` writes for
//! the engine, read back in the engine's notation, give the same moves and final position.

use std::ops::Range;

use fenguard::rules::{check_bestmove, play_moves, rewrite_engine_line, translate_searchmoves};
use fenguard::uci::{
    self, Notation, PositionStart, engine_move_sequences, parse_check_value, parse_go,
    parse_option, parse_position, parse_setoption, tokens,
};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, EnPassantMode};

/// Start positions: standard start, standard castling both ways, Chess960 layouts where the
/// two notations disagree (king b1 / rook a1, king f1 / rook h1, king e1 / rook f1).
pub const ROOTS: [&str; 6] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 4 1",
    "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R b KQkq - 0 1",
    "1rk5/8/8/8/8/8/8/RK6 w Qb - 0 1",
    "4rkr1/4p1p1/8/8/8/8/8/5K1R w K - 0 1",
    "k7/8/8/8/8/8/8/4KR2 w K - 0 1",
];

const NOTATIONS: [Notation; 2] = [Notation::Standard, Notation::Chess960];

pub fn root(fen: &str) -> Chess {
    Fen::from_ascii(fen.as_bytes())
        .expect("fixed FEN parses")
        .into_position(CastlingMode::Chess960)
        .expect("fixed FEN is legal")
}

fn in_line(span: &Range<usize>, line: &[u8]) {
    assert!(
        span.start <= span.end && span.end <= line.len(),
        "{span:?} out of {}",
        line.len()
    );
}

fn token_in_line(tok: &uci::Token<'_>, line: &[u8]) {
    in_line(&tok.span, line);
    assert_eq!(&line[tok.span.clone()], tok.text);
    assert!(!tok.text.is_empty());
}

fn diags_in_line(diags: &[uci::MoveDiagnostic], line: &[u8]) {
    for d in diags {
        if let Some(span) = &d.span {
            in_line(span, line);
        }
    }
}

pub fn parsers(line: &[u8]) {
    for t in tokens(line) {
        token_in_line(&t, line);
    }
    match parse_position(line) {
        Ok(cmd) => {
            if let PositionStart::Fen(range) = &cmd.start {
                in_line(range, line);
            }
            for t in cmd.moves_keyword.iter().chain(&cmd.moves) {
                token_in_line(t, line);
            }
        }
        Err(e) => {
            if let Some(span) = e.span() {
                in_line(&span, line);
            }
        }
    }
    if let Some(go) = parse_go(line) {
        for t in go.searchmoves_keyword.iter().chain(&go.searchmoves) {
            token_in_line(t, line);
        }
    }
    if let Some(opt) = parse_setoption(line) {
        in_line(&opt.name_span, line);
        assert_eq!(&line[opt.name_span.clone()], opt.name);
        if let (Some(value), Some(span)) = (opt.value, &opt.value_span) {
            in_line(span, line);
            assert_eq!(&line[span.clone()], value);
        }
        let _ = opt.check_value();
    }
    if let Some(opt) = parse_option(line) {
        let _ = opt.name_is("UCI_Chess960");
    }
    let _ = parse_check_value(line);
    for seq in engine_move_sequences(line) {
        for t in &seq.moves {
            token_in_line(t, line);
        }
    }
}

pub fn translators(line: &[u8], root: &Chess) {
    let moves: Vec<_> = tokens(line).collect();
    let count = moves.len();
    for engine in NOTATIONS {
        diags_in_line(&check_bestmove(line, root, engine), line);
        for gui in NOTATIONS {
            let (rewritten, diags) = rewrite_engine_line(line, root, engine, gui);
            diags_in_line(&diags, line);
            if engine == gui {
                assert_eq!(&*rewritten, line);
            }
            assert_eq!(tokens(&rewritten).count(), count);
            for repair in [false, true] {
                let (sent, diags) = translate_searchmoves(line, root, gui, engine, repair);
                diags_in_line(&diags, line);
                assert_eq!(tokens(&sent).count(), count);
                let played = play_moves(root.clone(), &moves, gui, engine, repair);
                diags_in_line(&played.diagnostics, line);
                match played.stopped_at {
                    None => assert_eq!(played.moves.len(), count),
                    Some(at) => assert_eq!(at, played.moves.len() + 1),
                }
                let texts: Vec<String> = played.moves.iter().map(|m| m.to_string()).collect();
                let joined = texts.join(" ");
                let again: Vec<_> = tokens(joined.as_bytes()).collect();
                let replay = play_moves(root.clone(), &again, engine, engine, false);
                assert!(replay.is_complete(), "{joined}: {:?}", replay.diagnostics);
                assert_eq!(replay.moves, played.moves, "{joined}");
                let fen = |p: &Chess| Fen::from_position(p, EnPassantMode::Always).to_string();
                assert_eq!(fen(&replay.position), fen(&played.position));
            }
        }
    }
}

/// Every check on `line`: the parsers, then the translators from each of [`ROOTS`].
pub fn check_line(line: &[u8]) {
    parsers(line);
    for fen in ROOTS {
        translators(line, &root(fen));
    }
}
