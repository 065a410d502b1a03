//! Perft of the 10x8 move generator against Fairy-Stockfish's `go perft`.

use fenguard::variant::board10::{Board10, Options, Variant10};

fn perft(variant: Variant10, fen: &str, depth: u32) -> u64 {
    let analysis = Board10::from_fen(fen.as_bytes(), &Options::new(variant));
    let board = analysis
        .board()
        .unwrap_or_else(|| panic!("{fen}: {:?}", analysis.diagnostics()));
    board.perft(depth)
}

#[test]
fn start_positions_match_fairy_stockfish_at_depth_3() {
    for (variant, nodes) in [
        (Variant10::Capablanca, 25228),
        (Variant10::Gothic, 25283),
        (Variant10::Janus, 24747),
        (Variant10::Embassy, 25281),
        (Variant10::CapaRandom, 25228),
    ] {
        assert_eq!(perft(variant, variant.start_fen(), 3), nodes, "{variant}");
    }
}
