//! Unit tests of the pv rewriter's fast paths (`rewrite.rs`).

use super::*;
use crate::rules::chess::end_of_interest;
use crate::uci::tokens;
use shakmaty::Bitboard;

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

fn chess960(fen: &str) -> shakmaty::Chess {
    use shakmaty::{CastlingMode, fen::Fen};
    Fen::from_ascii(fen.as_bytes())
        .unwrap()
        .into_position(CastlingMode::Chess960)
        .unwrap()
}

#[test]
fn a_repeated_pv_tail_gives_the_full_replay_s_result_with_its_spans_moved() {
    // King f1, rook h1: O-O in standard notation would read as Kg1, so it is written
    // king-takes-rook with an ambiguity warning; the warning's span must follow the line.
    let root = chess960("4k3/8/8/8/8/8/8/5K1R w K - 0 1");
    let (engine, gui) = (Notation::Chess960, Notation::Standard);
    let mut rewriter = LineRewriter::default();
    for line in [
        "info depth 1 nodes 10 pv f1h1 e8d8",
        "info depth 2 seldepth 12 nodes 12345 time 5 pv f1h1 e8d8",
        "info depth 2 nodes 7 pv f1h1 e8d8",
        "info depth 3 currmove f1h1 pv f1h1 e8d8",
        "info string x pv f1h1 e8d8",
        "info depth 3 pv f1h1 e8d8 g1g2",
    ] {
        let want = rewrite_engine_line_full(line.as_bytes(), &root, engine, gui);
        let got = rewriter.rewrite(line.as_bytes(), &root, engine, gui);
        assert_eq!(got, want, "{line}");
    }
}

#[test]
fn the_tail_starts_at_the_first_move_field_when_it_is_the_pv() {
    use crate::uci::engine_line::pv_tail;
    assert_eq!(pv_tail(b"info depth 3 nodes 9 pv e2e4"), Some(21));
    assert_eq!(pv_tail(b"info depth pv e2e4"), Some(11));
    assert_eq!(pv_tail(b"info currmove e2e4 pv e2e4"), None);
    assert_eq!(pv_tail(b"info string pv e2e4"), None);
    assert_eq!(pv_tail(b"bestmove e2e4"), None);
}
