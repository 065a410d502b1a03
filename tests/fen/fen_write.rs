//! Writing castling rights in X-FEN and Shredder-FEN (SPEC section 2's examples).

use fenguard::fen::{CastlingStyle, EpMode, Options, analyze, position_needs_chess960, write_fen};

const SCHARNAGL: &str = "rn2k1r1/ppp1pp1p/3p2p1/5bn1/P7/2N2B2/1PPPPP2/2BNK1RR w Gkq - 4 11";

fn normalized(fen: &str, castling: CastlingStyle) -> Option<String> {
    analyze(fen.as_bytes(), &Options::default()).fen(castling, EpMode::Legal)
}

#[test]
fn xfen_inner_rook_keeps_its_file_letter() {
    assert_eq!(
        normalized(SCHARNAGL, CastlingStyle::XFen).as_deref(),
        Some(SCHARNAGL)
    );
}

#[test]
fn shredder_writes_file_letters_for_every_right() {
    let expected = "rn2k1r1/ppp1pp1p/3p2p1/5bn1/P7/2N2B2/1PPPPP2/2BNK1RR w Gga - 4 11";
    assert_eq!(
        normalized(SCHARNAGL, CastlingStyle::Shredder).as_deref(),
        Some(expected)
    );
}

#[test]
fn shredder_input_reads_back_as_xfen() {
    let shredder = "rn2k1r1/ppp1pp1p/3p2p1/5bn1/P7/2N2B2/1PPPPP2/2BNK1RR w Gga - 4 11";
    assert_eq!(
        normalized(shredder, CastlingStyle::XFen).as_deref(),
        Some(SCHARNAGL)
    );
}

#[test]
fn inner_rook_position_needs_chess960() {
    let analysis = analyze(SCHARNAGL.as_bytes(), &Options::default());
    let position = analysis.position().expect("valid");
    assert!(position_needs_chess960(position));
}

#[test]
fn start_position_in_shredder_fen_is_haha_and_needs_no_chess960() {
    let start = shakmaty::Chess::default();
    assert_eq!(
        write_fen(&start, CastlingStyle::Shredder, EpMode::Legal),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1"
    );
    assert!(!position_needs_chess960(&start));
}

#[test]
fn mixed_xfen_and_shredder_letters_read_as_one_set_of_rights() {
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R w HqkA - 0 1";
    let analysis = analyze(fen.as_bytes(), &Options::default());
    let codes: Vec<&str> = analysis
        .diagnostics()
        .iter()
        .map(|d| d.code.as_str())
        .collect();
    assert_eq!(codes, vec!["castling-order"]);
    assert_eq!(
        analysis.fen(CastlingStyle::XFen, EpMode::Legal).as_deref(),
        Some("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    );
}

#[test]
fn mode_names_read_back() {
    for ep in [EpMode::Legal, EpMode::XFen, EpMode::Fen] {
        assert_eq!(ep.as_str().parse::<EpMode>(), Ok(ep));
    }
    for style in [CastlingStyle::XFen, CastlingStyle::Shredder] {
        assert_eq!(style.as_str().parse::<CastlingStyle>(), Ok(style));
    }
}

#[test]
fn unknown_ep_mode_names_the_expected_values() {
    let err = "pseudo".parse::<EpMode>().expect_err("not a mode");
    assert_eq!(
        err.to_string(),
        "unknown en passant mode `pseudo` (expected legal, xfen or fen)"
    );
}
