//! Playing `position ... moves` lists and `go searchmoves`: validation, translation, diagnostics.

use fenguard::uci::{
    Code, MovesOutcome, Notation, Severity, parse_position, play_moves, tokens,
    translate_searchmoves,
};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, EnPassantMode};

fn pos(fen: &str) -> Chess {
    Fen::from_ascii(fen.as_bytes())
        .unwrap()
        .into_position(CastlingMode::Chess960)
        .unwrap()
}

fn fen(p: &Chess) -> String {
    Fen::from_position(p, EnPassantMode::Legal).to_string()
}

fn joined(moves: &[shakmaty::uci::UciMove]) -> String {
    moves
        .iter()
        .map(|m| m.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Plays the whitespace-separated `moves` from `start`.
fn play(start: Chess, moves: &str, gui: Notation, engine: Notation, repair: bool) -> MovesOutcome {
    let toks: Vec<_> = tokens(moves.as_bytes()).collect();
    play_moves(start, &toks, gui, engine, repair)
}

const R10: &str = "position startpos moves e2e4 e7e6 d2d4 d7d5 c1e3 d5e4 b1d2 g8f6 c2c3 f8e7 d1c2 f6d5 d2e4 f7f5 e4g3 f5f4 e3d2 f4g3 h2g3 g7g6";

#[test]
fn r08_position_line_translated_for_standard_engine() {
    let line = b"position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 4 1 moves e1h1";
    let cmd = parse_position(line).unwrap();
    let start = pos(std::str::from_utf8(cmd.fen().unwrap()).unwrap());
    let out = play_moves(
        start,
        &cmd.moves,
        Notation::Standard,
        Notation::Standard,
        false,
    );
    assert_eq!(joined(&out.moves), "e1g1");
    assert_eq!(fen(&out.position), "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 5 1");
    assert!(out.diagnostics.is_empty());
}

#[test]
fn standard_gui_castle_goes_to_chess960_engine_as_king_takes_rook() {
    let line = b"position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 4 1 moves e1g1 e8c8";
    let cmd = parse_position(line).unwrap();
    let out = play_moves(
        pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 4 1"),
        &cmd.moves,
        Notation::Standard,
        Notation::Chess960,
        false,
    );
    assert_eq!(joined(&out.moves), "e1h1 e8a8");
}

/// Translates a `go` line from a standard-notation GUI, without repair.
fn searchmoves<'a>(
    line: &'a [u8],
    pos: &Chess,
    engine: Notation,
) -> (
    std::borrow::Cow<'a, [u8]>,
    Vec<fenguard::uci::MoveDiagnostic>,
) {
    translate_searchmoves(line, pos, Notation::Standard, engine, false)
}

/// R10's `position startpos moves ...` played in standard notation.
fn r10_game() -> MovesOutcome {
    let cmd = parse_position(R10.as_bytes()).unwrap();
    play_moves(
        Chess::default(),
        &cmd.moves,
        Notation::Standard,
        Notation::Standard,
        false,
    )
}

#[test]
fn r10_startpos_game_plays_to_expected_position() {
    let out = r10_game();
    assert!(out.is_complete());
    assert_eq!(out.moves.len(), 20);
    assert_eq!(
        fen(&out.position),
        "rnbqk2r/ppp1b2p/4p1p1/3n4/3P4/2P3P1/PPQB1PP1/R3KBNR w KQkq - 0 11"
    );
}

#[test]
fn r10_searchmoves_long_castle_is_legal_and_kept_for_standard_engine() {
    let out = r10_game();
    let (line, diags) = searchmoves(
        b"go nodes 1 searchmoves e1c1",
        &out.position,
        Notation::Standard,
    );
    assert_eq!(&line[..], b"go nodes 1 searchmoves e1c1");
    assert!(diags.is_empty());
}

#[test]
fn searchmoves_translated_for_chess960_engine_other_bytes_kept() {
    let out = r10_game();
    let (line, diags) = searchmoves(
        b"go  nodes 1 searchmoves e1c1\tc2c1 movetime 5\r\n",
        &out.position,
        Notation::Chess960,
    );
    assert_eq!(
        &line[..],
        b"go  nodes 1 searchmoves e1a1\tc2c1 movetime 5\r\n"
    );
    assert!(diags.is_empty());
}

#[test]
fn illegal_searchmove_is_reported_and_left_as_sent() {
    let (line, diags) = translate_searchmoves(
        b"go searchmoves e2e5 e2e4",
        &Chess::default(),
        Notation::Standard,
        Notation::Chess960,
        false,
    );
    assert_eq!(&line[..], b"go searchmoves e2e5 e2e4");
    assert_eq!(diags.len(), 1);
    assert_eq!(diags[0].code, Code::IllegalMove);
    assert_eq!(diags[0].index, 1);
    assert_eq!(diags[0].span, Some(15..19));
}

#[test]
fn r11_illegal_move_names_index_text_and_position() {
    let line = b"position fen r4rk1/1R5p/3p1q2/p1pP4/P7/7P/6P1/1R1Q3K b - - 0 24 moves b8e8";
    let cmd = parse_position(line).unwrap();
    let start = pos("r4rk1/1R5p/3p1q2/p1pP4/P7/7P/6P1/1R1Q3K b - - 0 24");
    let out = play_moves(
        start,
        &cmd.moves,
        Notation::Standard,
        Notation::Standard,
        false,
    );
    assert_eq!(out.stopped_at, Some(1));
    let d = &out.diagnostics[0];
    assert_eq!(d.code.as_str(), "illegal-move");
    assert_eq!(d.severity, Severity::Error);
    assert_eq!(d.span, Some(70..74));
    assert_eq!(
        d.message,
        "move 1 `b8e8` is illegal in r4rk1/1R5p/3p1q2/p1pP4/P7/7P/6P1/1R1Q3K b - - 0 24"
    );
}

#[test]
fn list_stops_at_first_illegal_move_and_keeps_earlier_ones() {
    let out = play(
        Chess::default(),
        "e2e4 e7e5 e2e5 g1f3",
        Notation::Standard,
        Notation::Standard,
        false,
    );
    assert_eq!(out.stopped_at, Some(3));
    assert_eq!(joined(&out.moves), "e2e4 e7e5");
    assert_eq!(
        fen(&out.position),
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    );
}

#[test]
fn null_move_in_list_is_null_move_error() {
    let out = play(
        Chess::default(),
        "e2e4 0000",
        Notation::Standard,
        Notation::Standard,
        false,
    );
    assert_eq!(out.stopped_at, Some(2));
    assert_eq!(out.diagnostics[0].code.as_str(), "null-move");
}

#[test]
fn bad_syntax_is_bad_move_syntax_with_span() {
    let out = play(
        Chess::default(),
        "e2e4  e7e9",
        Notation::Standard,
        Notation::Standard,
        false,
    );
    let d = &out.diagnostics[0];
    assert_eq!(d.code.as_str(), "bad-move-syntax");
    assert_eq!(d.span, Some(6..10));
    assert_eq!(d.text, "e7e9");
}

#[test]
fn missing_promotion_stops_without_repair() {
    let out = play(
        pos("4k3/P7/8/8/8/8/8/4K3 w - - 0 1"),
        "a7a8",
        Notation::Standard,
        Notation::Standard,
        false,
    );
    assert_eq!(out.stopped_at, Some(1));
    assert_eq!(out.diagnostics[0].code.as_str(), "missing-promotion");
    assert_eq!(out.diagnostics[0].fix.as_deref(), Some("a7a8q"));
}

#[test]
fn missing_promotion_repaired_with_queen() {
    let out = play(
        pos("4k3/P7/8/8/8/8/8/4K3 w - - 0 1"),
        "a7a8 e8e7",
        Notation::Standard,
        Notation::Standard,
        true,
    );
    assert!(out.is_complete());
    assert_eq!(joined(&out.moves), "a7a8q e8e7");
    assert_eq!(out.diagnostics.len(), 1);
    assert_eq!(out.diagnostics[0].code, Code::MissingPromotion);
    assert_eq!(fen(&out.position), "Q7/4k3/8/8/8/8/8/4K3 w - - 1 2");
}

#[test]
fn r09_chess960_gui_king_stays_castle_forwarded_unchanged() {
    let out = play(
        pos("4k3/8/8/8/8/8/8/6KR w K - 0 1"),
        "g1h1",
        Notation::Chess960,
        Notation::Chess960,
        false,
    );
    assert_eq!(joined(&out.moves), "g1h1");
    assert_eq!(fen(&out.position), "4k3/8/8/8/8/8/8/5RK1 b - - 1 1");
}

#[test]
fn detect_mode_ambiguous_gui_king_move_played_as_king_move_with_warning() {
    let out = play(
        pos("4rkr1/4p1p1/8/8/8/8/8/5K1R w K - 0 1"),
        "f1g1",
        Notation::Standard,
        Notation::Chess960,
        false,
    );
    assert!(out.is_complete());
    assert_eq!(joined(&out.moves), "f1g1");
    assert_eq!(out.diagnostics[0].code.as_str(), "ambiguous-castling-move");
    assert_eq!(out.diagnostics[0].severity, Severity::Warning);
    assert_eq!(fen(&out.position), "4rkr1/4p1p1/8/8/8/8/8/6KR b - - 1 1");
}

#[test]
fn ten_thousand_moves_play_in_linear_time() {
    let text = "g1f3 g8f6 f3g1 f6g8 ".repeat(2500);
    let toks: Vec<_> = tokens(text.as_bytes()).collect();
    let t = std::time::Instant::now();
    let out = play_moves(
        Chess::default(),
        &toks,
        Notation::Standard,
        Notation::Chess960,
        false,
    );
    let elapsed = t.elapsed();
    assert!(out.is_complete());
    assert_eq!(out.moves.len(), 10_000);
    assert_eq!(
        fen(&out.position),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 10000 5001"
    );
    eprintln!("10,000 moves played in {elapsed:?}");
}
