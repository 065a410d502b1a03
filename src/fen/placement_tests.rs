//! Unit tests of the placement parsers (`placement.rs`): the fast path against the general
//! one.

use super::*;

fn general(field: &[u8]) -> (bool, Bitboards, [u32; 64]) {
    let mut roles = [0u64; 6];
    let mut colors = [0u64; 2];
    let mut piece_at = [0u32; 64];
    let mut diags = Sink::detailed();
    let ok = parse_placement(
        field,
        3,
        Geometry::STANDARD,
        &mut diags,
        |file, rank, c, at| {
            let sq = usize::from(rank) * 8 + usize::from(file);
            let code = usize::from(CLASSES[usize::from(c)] - 1);
            roles[code >> 1] |= 1 << sq;
            colors[code & 1] |= 1 << sq;
            piece_at[sq] = at as u32;
        },
    );
    (ok, (roles, colors), piece_at)
}

#[test]
fn fast_path_reads_well_formed_placements_like_the_general_parser() {
    for field in [
        &b"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR"[..],
        b"rn2k1r1/ppp1pp1p/3p2p1/5bn1/P7/2N2B2/1PPPPP2/2BNK1RR",
        b"8/8/8/8/8/8/8/8",
    ] {
        let mut piece_at = [0u32; 64];
        let fast = parse_standard_fast(field, 3, &mut piece_at);
        let (ok, bitboards, general_at) = general(field);
        assert!(ok);
        assert_eq!(fast, Some(bitboards));
        let occupied = bitboards.1[0] | bitboards.1[1];
        for sq in (0..64).filter(|sq| occupied >> sq & 1 == 1) {
            assert_eq!(piece_at[sq], general_at[sq], "square {sq} of {field:?}");
        }
    }
}

proptest::proptest! {
    /// Every placement shakmaty writes, the fast path reads as the general parser does;
    /// after one byte of it is changed, inserted or removed, whatever the fast path still
    /// reads, the general parser reads alike.
    #[test]
    fn fast_path_agrees_with_the_general_parser(
        cells in proptest::collection::vec(0u8..24, 64),
        at in 0usize..80,
        byte in proptest::sample::select(b"pnbrqkPNBRQK012345678/~x ".to_vec()),
        edit in 0u8..3,
    ) {
        let mut board = shakmaty::Board::empty();
        for (i, &c) in cells.iter().enumerate() {
            if c < 12 {
                let color = if c % 2 == 0 {
                    shakmaty::Color::White
                } else {
                    shakmaty::Color::Black
                };
                let role = shakmaty::Role::ALL[usize::from(c / 2)];
                let square = shakmaty::Square::new(i as u32);
                board.set_piece_at(square, shakmaty::Piece { color, role });
            }
        }
        let mut text = board.to_string().into_bytes();
        let mut piece_at = [0u32; 64];
        let (ok, bitboards, _) = general(&text);
        proptest::prop_assert!(ok);
        proptest::prop_assert_eq!(parse_standard_fast(&text, 3, &mut piece_at), Some(bitboards));
        let at = at % (text.len() + 1);
        match edit {
            0 if at < text.len() => text[at] = byte,
            1 => text.insert(at, byte),
            _ if at < text.len() => {
                text.remove(at);
            }
            _ => {}
        }
        if let Some(fast) = parse_standard_fast(&text, 3, &mut piece_at) {
            let (ok, bitboards, general_at) = general(&text);
            proptest::prop_assert!(ok);
            proptest::prop_assert_eq!(fast, bitboards);
            let occupied = bitboards.1[0] | bitboards.1[1];
            for sq in (0..64).filter(|sq| occupied >> sq & 1 == 1) {
                proptest::prop_assert_eq!(piece_at[sq], general_at[sq]);
            }
        }
    }
}

#[test]
fn fast_path_gives_up_on_what_the_general_parser_diagnoses() {
    for field in [
        &b"8/8/8/8/8/8/8"[..],
        b"9/8/8/8/8/8/8/8",
        b"44/8/8/8/8/8/8/8",
        b"8/8/8/8/8/8/8/8/",
        b"Q~7/8/8/8/8/8/8/8",
        b"8/8/8/8/8/8/8/8/8",
        b"7/8/8/8/8/8/8/9",
        b"8/8/8/8/8/8/8/71",
        b"8/8/8/8/8/8/8/17",
        b"8/8/8/8/8/8/8/P7P",
        b"8/8/8/8/8/8/8/8P",
        b"8/8/8/8/8/8/8/08",
        b"8/8/8/8/8/8/8//8",
        b"8/8/8/8/8/8/8/7x",
        b"8/8/8/8/8/8/8/k6",
        b"",
    ] {
        assert_eq!(parse_standard_fast(field, 0, &mut [0; 64]), None);
    }
}
