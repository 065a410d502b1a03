//! Property tests of the FEN core: no panics on any bytes, normalization is idempotent, and
//! X-FEN and Shredder-FEN of one position read back as the same position.

use fenguard::fen::{CastlingStyle, EpMode, Options, analyze, write_fen};
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
