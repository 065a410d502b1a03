//! `valid_position`, the lean path of `fenguard check --format fen`, gives exactly the verdict
//! and position of the full `analyze` on every input: valid FENs, each kind of fault, mutated
//! FENs and arbitrary bytes, under Chess960 and standard rules.

use fenguard::fen::{CastlingStyle, EpMode, Options, analyze, valid_position, write_fen};
use proptest::prelude::*;
use shakmaty::{Chess, Position};

const STANDARD: Options = Options {
    chess960_allowed: false,
    geometry: fenguard::fen::Geometry::STANDARD,
};

/// Asserts that the lean and the full analysis agree on `input` under `opts`.
fn assert_same(input: &[u8], opts: &Options) {
    let full = analyze(input, opts);
    let lean = valid_position(input, opts);
    assert_eq!(
        lean.is_some(),
        full.is_valid(),
        "verdict of {:?}",
        String::from_utf8_lossy(input)
    );
    if let (Some(lean), Some(full)) = (lean, full.position()) {
        for ep in [EpMode::Legal, EpMode::XFen, EpMode::Fen] {
            for castling in [CastlingStyle::XFen, CastlingStyle::Shredder] {
                assert_eq!(
                    write_fen(&lean, castling, ep),
                    write_fen(full, castling, ep)
                );
            }
        }
    }
}

#[test]
fn lean_accepts_a_valid_fen_with_its_normalized_position() {
    let lean = valid_position(b"  r3k2r/8/8/8/8/8/8/R3K2R  w KQkq -", &Options::default());
    let written = lean.map(|p| write_fen(&p, CastlingStyle::Shredder, EpMode::Legal));
    assert_eq!(
        written.as_deref(),
        Some("r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1")
    );
}

#[test]
fn lean_rejects_a_position_without_black_king() {
    assert_eq!(
        valid_position(b"8/8/8/8/8/8/8/4K3 w - - 0 1", &Options::default()),
        None
    );
}

#[test]
fn lean_rejects_a_chess960_right_under_standard_rules() {
    let input = b"4k3/8/8/8/8/8/8/1R2K3 w B - 0 1";
    assert!(valid_position(input, &Options::default()).is_some());
    assert_eq!(valid_position(input, &STANDARD), None);
}

#[test]
fn lean_keeps_a_checkmated_position_valid() {
    let input = b"rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
    let lean = valid_position(input, &Options::default()).map(|p: Chess| p.is_checkmate());
    assert_eq!(lean, Some(true));
}

#[test]
fn lean_agrees_with_analyze_on_every_kind_of_fault() {
    let inputs: &[&[u8]] = &[
        b"",
        b"   ",
        b"startpos",
        b"startpos moves e2e4",
        b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 moves e2e4",
        b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
        b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/8 w - - 0 1",
        b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w - - 0 1",
        b"rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
        b"rnbqkbnr/pppppppp/7/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
        b"rnbqkbnr/pppppppp/44/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
        b"rnbqkbnr/pppppppp/08/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
        b"rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
        b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/ w KQkq - 0 1",
        b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
        b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkz - 0 1",
        b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w kqKQ - 0 1",
        b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KKQkq - 0 1",
        b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1",
        b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1",
        b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 -3",
        b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0",
        b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 150 99999999999",
        b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w KQkq - 0 1",
        b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w KQkq - 0 1",
        b"rnbqkbnP/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1",
        b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq e3 0 1",
        b"rnbqkbnr/pppp1ppp/8/4p3/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 2",
        b"rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 3 2",
        b"4k3/8/8/8/8/8/8/4K2R w KQ - 0 1",
        b"4k3/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
        b"4k3/8/8/8/8/8/4K3/R6R w KQ - 0 1",
        b"4k3/8/8/8/8/8/8/RR2K3 w AB - 0 1",
        b"4k3/8/8/8/8/8/8/Q~3K3 w - - 0 1",
        b"4k3/4Q3/8/8/8/8/8/4K3 w - - 0 1",
        b"4k3/8/8/8/8/8/8/4K3 w - - 0 1",
        b"3rkr2/8/8/8/8/8/8/4K3 w - - 0 1",
        b"4k3/8/8/8/8/8/8/R3K2R w - - 0 1\xff",
        b"4k3/8/8/8/8/8/8/R3K2R\xc2\xa0w - - 0 1",
        b"QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/8/8/8/8/k3K3 w - - 0 1",
        b"7k/8/8/8/8/8/8/K6r w - - 0 1",
        b"k7/8/8/8/8/8/8/1r5K w - - 0 1",
        b"k7/8/8/8/8/8/r7/1r5K w - - 0 1",
        b"4k3/8/8/2Pp4/8/8/8/4K2r w - d6 0 1",
        b"4k3/8/8/3pP3/8/8/8/r3K3 w - d6 0 1",
    ];
    for input in inputs {
        assert_same(input, &Options::default());
        assert_same(input, &STANDARD);
    }
}

/// A FEN of a position reached by `plies` pseudo-random legal moves from the start.
fn played_fen(plies: &[usize], castling: CastlingStyle) -> String {
    let mut pos = Chess::default();
    for &choice in plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[choice % moves.len()];
        pos.play_unchecked(m);
    }
    write_fen(&pos, castling, EpMode::Fen)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1024))]

    #[test]
    fn lean_agrees_with_analyze_on_mutated_fens(
        plies in proptest::collection::vec(any::<usize>(), 0..60),
        shredder in any::<bool>(),
        edits in proptest::collection::vec((any::<usize>(), 0usize..3, "[KQRBNPkqrbnp0-9/ wb\\-a-hA-H~x+]"), 0..4),
        standard in any::<bool>(),
    ) {
        let castling = if shredder { CastlingStyle::Shredder } else { CastlingStyle::XFen };
        let mut fen = played_fen(&plies, castling).into_bytes();
        for (at, kind, text) in edits {
            let at = at % (fen.len() + 1);
            match kind {
                0 if at < fen.len() => { fen.remove(at); }
                1 if at < fen.len() => fen[at] = text.as_bytes()[0],
                _ => fen.splice(at..at, text.bytes()).for_each(drop),
            }
        }
        let opts = if standard { STANDARD } else { Options::default() };
        assert_same(&fen, &opts);
    }

    #[test]
    fn lean_agrees_with_analyze_on_arbitrary_bytes(input in proptest::collection::vec(any::<u8>(), 0..100)) {
        assert_same(&input, &Options::default());
    }
}
