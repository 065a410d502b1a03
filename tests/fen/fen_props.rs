//! Property tests of the FEN core: no panics on any bytes, normalization is idempotent,
//! X-FEN and Shredder-FEN of one position read back as the same position, and the lean
//! `valid_position` (the `check --format fen` path) gives exactly the verdict and position of
//! the full `analyze` on valid FENs, each kind of fault, mutated FENs and arbitrary bytes.

use fenguard::fen::{CastlingStyle, EpMode, Options, analyze, valid_position, write_fen};
use proptest::prelude::*;
use shakmaty::{Bitboard, Board, CastlingMode, Chess, EnPassantMode, FromSetup, Position, Setup};

/// A position reached by playing `choices` (indices into the legal moves) from the standard
/// start or from Chess960 start `scharnagl` (0-959).
fn played(scharnagl: Option<u32>, choices: &[usize]) -> Chess {
    let mut pos = match scharnagl {
        None => Chess::default(),
        Some(n) => {
            let setup = Setup {
                board: Board::chess960(n),
                castling_rights: Bitboard::from_rank(shakmaty::Rank::First)
                    & Board::chess960(n).rooks()
                    | Bitboard::from_rank(shakmaty::Rank::Eighth) & Board::chess960(n).rooks(),
                ..Setup::initial()
            };
            Chess::from_setup(setup, CastlingMode::Chess960).unwrap_or_default()
        }
    };
    for &choice in choices {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[choice % moves.len()];
        pos.play_unchecked(m);
    }
    pos
}

fn style() -> impl Strategy<Value = CastlingStyle> {
    prop_oneof![Just(CastlingStyle::XFen), Just(CastlingStyle::Shredder)]
}

fn ep_mode() -> impl Strategy<Value = EpMode> {
    prop_oneof![Just(EpMode::Legal), Just(EpMode::XFen), Just(EpMode::Fen)]
}

fn start() -> impl Strategy<Value = Option<u32>> {
    prop_oneof![Just(None), (0u32..960).prop_map(Some)]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn parser_never_panics_on_arbitrary_bytes(input in proptest::collection::vec(any::<u8>(), 0..120)) {
        let analysis = analyze(&input, &Options::default());
        for d in analysis.diagnostics() {
            if let Some(span) = &d.span {
                prop_assert!(span.start <= span.end && span.end <= input.len(), "{d:?}");
            }
        }
        let _ = analysis.repair();
    }

    #[test]
    fn parser_never_panics_on_fen_like_text(input in "[KQRBNPkqrbnp1-9/ wb\\-a-hA-H0~+]{0,90}") {
        let analysis = analyze(input.as_bytes(), &Options::default());
        let _ = analysis.repair();
        let _ = analysis.needs_chess960();
    }

    #[test]
    fn normalizing_a_normalized_fen_changes_nothing(
        start in start(),
        choices in proptest::collection::vec(any::<usize>(), 0..80),
        castling in style(),
        ep in ep_mode(),
    ) {
        let pos = played(start, &choices);
        let written = write_fen(&pos, castling, ep);
        let once = analyze(written.as_bytes(), &Options::default());
        let first = once.fen(castling, ep);
        prop_assert_eq!(first.as_deref(), Some(written.as_str()));
        let second = analyze(written.as_bytes(), &Options::default()).fen(castling, ep);
        prop_assert_eq!(second, first);
    }

    #[test]
    fn xfen_and_shredder_fen_of_one_position_read_the_same(
        start in start(),
        choices in proptest::collection::vec(any::<usize>(), 0..80),
        ep in ep_mode(),
    ) {
        let pos = played(start, &choices);
        let xfen = analyze(write_fen(&pos, CastlingStyle::XFen, ep).as_bytes(), &Options::default());
        let shredder = analyze(write_fen(&pos, CastlingStyle::Shredder, ep).as_bytes(), &Options::default());
        let (Some(a), Some(b)) = (xfen.position(), shredder.position()) else {
            return Err(TestCaseError::fail("both must be valid"));
        };
        prop_assert_eq!(a.board(), b.board());
        prop_assert_eq!(a.turn(), b.turn());
        prop_assert_eq!(a.castles().castling_rights(), b.castles().castling_rights());
        prop_assert_eq!(a.castles().castling_rights(), pos.castles().castling_rights());
        prop_assert_eq!(a.ep_square(EnPassantMode::Always), b.ep_square(EnPassantMode::Always));
        prop_assert_eq!(a.halfmoves(), b.halfmoves());
    }
}

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

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1024))]

    #[test]
    fn lean_agrees_with_analyze_on_mutated_fens(
        start in start(),
        plies in proptest::collection::vec(any::<usize>(), 0..60),
        shredder in any::<bool>(),
        edits in proptest::collection::vec((any::<usize>(), 0usize..3, "[KQRBNPkqrbnp0-9/ wb\\-a-hA-H~x+]"), 0..4),
        standard in any::<bool>(),
    ) {
        let castling = if shredder { CastlingStyle::Shredder } else { CastlingStyle::XFen };
        let mut fen = write_fen(&played(start, &plies), castling, EpMode::Fen).into_bytes();
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
