//! Engine `bestmove` / `info` lines: finding move fields, rewriting castles, checking bestmove.

use std::borrow::Cow;

use fenguard::uci::engine_line::may_hold_castle;
use fenguard::uci::{
    Code, MoveField, Notation, check_bestmove, engine_move_sequences, rewrite_engine_line,
};
use proptest::prelude::*;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess};

fn pos(fen: &str) -> Chess {
    Fen::from_ascii(fen.as_bytes())
        .unwrap()
        .into_position(CastlingMode::Chess960)
        .unwrap()
}

fn fields(line: &[u8]) -> Vec<(MoveField, Vec<String>)> {
    engine_move_sequences(line)
        .into_iter()
        .map(|s| {
            let moves = s
                .moves
                .iter()
                .map(|t| String::from_utf8_lossy(t.text).into_owned());
            (s.field, moves.collect())
        })
        .collect()
}

fn strs(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

const STD: &str = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 4 1";
const R07: &str = "4rkr1/4p1p1/8/8/8/8/8/5K1R w K - 0 1";

#[test]
fn bestmove_with_ponder_is_one_sequence() {
    assert_eq!(
        fields(b"bestmove e2e4 ponder e7e5\n"),
        vec![(MoveField::BestMove, strs(&["e2e4", "e7e5"]))]
    );
}

#[test]
fn info_pv_after_score_and_counters() {
    let line = b"info depth 12 seldepth 15 multipv 1 score cp -23 lowerbound nodes 100 nps 5 hashfull 3 tbhits 0 time 9 pv e2e4 e7e5 g1f3";
    assert_eq!(
        fields(line),
        vec![(MoveField::Pv, strs(&["e2e4", "e7e5", "g1f3"]))]
    );
}

#[test]
fn info_pv_ends_at_next_keyword() {
    assert_eq!(
        fields(b"info pv e2e4 e7e5 wdl 10 980 10 nps 3"),
        vec![(MoveField::Pv, strs(&["e2e4", "e7e5"]))]
    );
}

#[test]
fn info_currmove_is_one_move() {
    assert_eq!(
        fields(b"info depth 5 currmove e1g1 currmovenumber 3"),
        vec![(MoveField::CurrMove, strs(&["e1g1"]))]
    );
}

#[test]
fn info_currline_skips_cpu_number() {
    assert_eq!(
        fields(b"info currline 1 e2e4 e7e5"),
        vec![(MoveField::CurrLine, strs(&["e2e4", "e7e5"]))]
    );
}

#[test]
fn info_refutation_is_a_sequence() {
    assert_eq!(
        fields(b"info refutation d1h5 g6h5"),
        vec![(MoveField::Refutation, strs(&["d1h5", "g6h5"]))]
    );
}

#[test]
fn info_string_text_holds_no_moves() {
    assert_eq!(fields(b"info string pv e1g1 currmove e1h1"), vec![]);
}

#[test]
fn info_score_mate_negative_value_is_not_a_move() {
    assert_eq!(
        fields(b"info score mate -3 pv e1g1"),
        vec![(MoveField::Pv, strs(&["e1g1"]))]
    );
}

#[test]
fn other_lines_have_no_moves() {
    assert_eq!(fields(b"readyok"), vec![]);
    assert_eq!(fields(b"bestmove"), vec![]);
}

#[test]
fn castle_filter_sees_back_rank_moves_only() {
    assert!(may_hold_castle(b"info pv e1h1"));
    assert!(may_hold_castle(b"bestmove e8c8"));
    assert!(!may_hold_castle(b"info pv e2e4 e7e5 g1f3"));
}

#[test]
fn pv_castle_rewritten_for_standard_gui_other_bytes_kept() {
    let line = b"info depth 3  score cp 10 pv e1h1 e8a8\ta1d1\r\n";
    let (out, diags) = rewrite_engine_line(line, &pos(STD), Notation::Chess960, Notation::Standard);
    assert_eq!(
        &out[..],
        b"info depth 3  score cp 10 pv e1g1 e8c8\ta1d1\r\n"
    );
    assert!(diags.is_empty());
}

#[test]
fn pv_castle_rewritten_for_chess960_gui() {
    let (out, _) = rewrite_engine_line(
        b"info pv e1g1 e8c8",
        &pos(STD),
        Notation::Standard,
        Notation::Chess960,
    );
    assert_eq!(&out[..], b"info pv e1h1 e8a8");
}

#[test]
fn pv_castle_later_in_line_uses_replayed_position() {
    let (out, _) = rewrite_engine_line(
        b"info pv e1e2 e8h8",
        &pos(STD),
        Notation::Chess960,
        Notation::Standard,
    );
    assert_eq!(&out[..], b"info pv e1e2 e8g8");
}

#[test]
fn pv_translation_stops_at_first_illegal_move() {
    let (out, _) = rewrite_engine_line(
        b"info pv e1h1 a1a2 e8h8",
        &pos(STD),
        Notation::Chess960,
        Notation::Standard,
    );
    assert_eq!(&out[..], b"info pv e1g1 a1a2 e8h8");
}

#[test]
fn currmove_and_bestmove_ponder_rewritten() {
    let root = pos(STD);
    let (out, _) = rewrite_engine_line(
        b"info currmove e1a1",
        &root,
        Notation::Chess960,
        Notation::Standard,
    );
    assert_eq!(&out[..], b"info currmove e1c1");
    let (out, _) = rewrite_engine_line(
        b"bestmove e1h1 ponder e8a8",
        &root,
        Notation::Chess960,
        Notation::Standard,
    );
    assert_eq!(&out[..], b"bestmove e1g1 ponder e8c8");
}

#[test]
fn r07_engine_castle_kept_as_king_takes_rook_and_flagged() {
    let (out, diags) = rewrite_engine_line(
        b"bestmove f1h1",
        &pos(R07),
        Notation::Chess960,
        Notation::Standard,
    );
    assert!(matches!(out, Cow::Borrowed(_)));
    assert_eq!(&out[..], b"bestmove f1h1");
    assert_eq!(diags.len(), 1);
    assert_eq!(diags[0].code, Code::AmbiguousCastlingMove);
}

#[test]
fn unchanged_line_is_borrowed() {
    let line = b"info pv e2e4 e7e5 e1e2";
    let (out, _) = rewrite_engine_line(line, &pos(STD), Notation::Chess960, Notation::Standard);
    assert!(matches!(out, Cow::Borrowed(_)));
}

#[test]
fn equal_notations_never_rewrite() {
    let (out, _) = rewrite_engine_line(
        b"info pv e1h1",
        &pos(STD),
        Notation::Chess960,
        Notation::Chess960,
    );
    assert!(matches!(out, Cow::Borrowed(b"info pv e1h1")));
}

#[test]
fn legal_bestmove_and_ponder_pass() {
    assert!(
        check_bestmove(
            b"bestmove e2e4 ponder e7e5",
            &Chess::default(),
            Notation::Standard
        )
        .is_empty()
    );
}

#[test]
fn illegal_bestmove_is_reported() {
    let d = check_bestmove(b"bestmove e2e5", &Chess::default(), Notation::Standard);
    assert_eq!(d.len(), 1);
    assert_eq!(d[0].code.as_str(), "illegal-bestmove");
    assert_eq!(d[0].index, 1);
    assert_eq!(
        d[0].message,
        "bestmove 1 `e2e5` is illegal in rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    );
}

#[test]
fn illegal_ponder_is_checked_after_bestmove() {
    let d = check_bestmove(
        b"bestmove e2e4 ponder e2e4",
        &Chess::default(),
        Notation::Standard,
    );
    assert_eq!(d.len(), 1);
    assert_eq!(d[0].code, Code::IllegalBestmove);
    assert_eq!(d[0].index, 2);
    assert_eq!(d[0].span, Some(21..25));
}

#[test]
fn bestmove_castle_checked_in_engine_notation() {
    let root = pos(STD);
    assert!(check_bestmove(b"bestmove e1h1", &root, Notation::Chess960).is_empty());
    assert!(check_bestmove(b"bestmove e1g1", &root, Notation::Standard).is_empty());
}

#[test]
fn bestmove_none_is_fine_only_without_legal_moves() {
    let mated = pos("k7/1Q6/1K6/8/8/8/8/8 b - - 0 1");
    assert!(check_bestmove(b"bestmove (none)", &mated, Notation::Standard).is_empty());
    let d = check_bestmove(b"bestmove 0000", &Chess::default(), Notation::Standard);
    assert_eq!(d[0].code, Code::IllegalBestmove);
}

proptest! {
    #[test]
    fn rewriting_arbitrary_info_lines_never_panics_and_keeps_untouched_lines(
        words in proptest::collection::vec("(pv|e1h1|e1g1|e8a8|string|score|cp|-3|currline|1|e2e4|x\u{ff})", 0..12)
    ) {
        let line = format!("info {}", words.join(" "));
        let (out, _) = rewrite_engine_line(line.as_bytes(), &pos(STD), Notation::Chess960, Notation::Standard);
        if let Cow::Borrowed(b) = out {
            prop_assert_eq!(b, line.as_bytes());
        } else {
            prop_assert_eq!(out.len(), line.len());
        }
    }
}
