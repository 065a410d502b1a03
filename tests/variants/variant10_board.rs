//! The 10x8 board's public API as the session will use it: UCI moves in both castling
//! notations, playing moves, writing FENs.

use fenguard::fen::{CastlingStyle, EpMode};
use fenguard::variant::board10::{Board10, Notation, Options, Role10, UciError10, Variant10};

fn board(variant: Variant10, fen: &str) -> Board10 {
    let a = Board10::from_fen(fen.as_bytes(), &Options::new(variant));
    a.board()
        .unwrap_or_else(|| panic!("{fen}: {:?}", a.diagnostics()))
        .clone()
}

#[test]
fn e1h1_is_a_castle_in_embassy_and_a_king_move_in_chess960_notation() {
    let b = board(
        Variant10::Embassy,
        "r3k4r/10/10/10/10/10/10/R3K4R w KQkq - 0 1",
    );
    let m = b.parse_uci("e1h1", Notation::KingToTarget).unwrap();
    assert!(b.is_castle(m));
    assert_eq!(b.write_uci(m, Notation::KingTakesRook), "e1j1");
    // In Chess960 notation e1h1 is the king walking three squares: illegal.
    assert_eq!(
        b.parse_uci("e1h1", Notation::KingTakesRook),
        Err(UciError10::Illegal("e1h1".to_owned()))
    );
    // King-takes-rook is a castle in either notation.
    let m = b.parse_uci("e1a1", Notation::KingToTarget).unwrap();
    assert!(b.is_castle(m));
    assert_eq!(b.write_uci(m, Notation::KingToTarget), "e1b1");
}

#[test]
fn castling_puts_the_rook_next_to_the_king_on_the_inner_side() {
    let cases = [
        (
            Variant10::Capablanca,
            "r4k3r/10/10/10/10/10/10/R4K3R w KQkq - 0 1",
            "f1i1",
            "r4k3r/10/10/10/10/10/10/R6RK1 b kq - 1 1",
        ),
        (
            Variant10::Capablanca,
            "r4k3r/10/10/10/10/10/10/R4K3R w KQkq - 0 1",
            "f1c1",
            "r4k3r/10/10/10/10/10/10/2KR5R b kq - 1 1",
        ),
        (
            Variant10::Janus,
            "r3k4r/10/10/10/10/10/10/R3K4R w KQkq - 0 1",
            "e1b1",
            "r3k4r/10/10/10/10/10/10/1KR6R b kq - 1 1",
        ),
        (
            Variant10::Janus,
            "r3k4r/10/10/10/10/10/10/R3K4R w KQkq - 0 1",
            "e1i1",
            "r3k4r/10/10/10/10/10/10/R6RK1 b kq - 1 1",
        ),
    ];
    for (variant, fen, uci, after) in cases {
        let mut b = board(variant, fen);
        let m = b.parse_uci(uci, Notation::KingToTarget).unwrap();
        assert!(b.is_castle(m), "{variant} {uci}");
        b.play(m);
        assert_eq!(
            b.fen(CastlingStyle::XFen, EpMode::Legal),
            after,
            "{variant} {uci}"
        );
    }
}

#[test]
fn no_castling_through_an_attacked_square() {
    // Black's rook on h8 attacks h1, which the king crosses on its way to i1.
    let b = board(
        Variant10::Capablanca,
        "k6r2/10/10/10/10/10/10/5K3R w K - 0 1",
    );
    assert_eq!(
        b.parse_uci("f1i1", Notation::KingToTarget),
        Err(UciError10::Illegal("f1i1".to_owned()))
    );
}

#[test]
fn promotion_to_archbishop_chancellor_and_janus() {
    let b = board(Variant10::Capablanca, "k9/4P5/10/10/10/10/10/K9 w - - 0 1");
    let mut b2 = b.clone();
    let m = b.parse_uci("e7e8c", Notation::KingToTarget).unwrap();
    assert_eq!(m.promotion, Some(Role10::Chancellor));
    b2.play(m);
    assert_eq!(
        b2.fen(CastlingStyle::XFen, EpMode::Legal),
        "k3C5/10/10/10/10/10/10/K9 b - - 0 1"
    );
    assert_eq!(
        b.parse_uci("e7e8", Notation::KingToTarget),
        Err(UciError10::MissingPromotion("e7e8".to_owned()))
    );
    assert_eq!(
        b.legal_moves()
            .iter()
            .filter(|m| m.promotion.is_some())
            .count(),
        6
    );
    let j = board(Variant10::Janus, "k9/4P5/10/10/10/10/10/K9 w - - 0 1");
    let m = j.parse_uci("e7e8j", Notation::KingToTarget).unwrap();
    assert_eq!(j.write_uci(m, Notation::KingToTarget), "e7e8j");
    assert!(j.parse_uci("e7e8c", Notation::KingToTarget).is_err());
}

#[test]
fn en_passant_capture_removes_the_pushed_pawn() {
    let mut b = board(
        Variant10::Capablanca,
        "rnabqkbcnr/ppp1p1pppp/10/3pPp4/10/10/PPPP1PPPPP/RNABQKBCNR w KQkq f6 0 3",
    );
    let m = b.parse_uci("e5f6", Notation::KingToTarget).unwrap();
    b.play(m);
    assert_eq!(
        b.fen(CastlingStyle::XFen, EpMode::Legal),
        "rnabqkbcnr/ppp1p1pppp/5P4/3p6/10/10/PPPP1PPPPP/RNABQKBCNR b KQkq - 0 3"
    );
}

#[test]
fn start_positions_have_the_same_28_moves_and_castle_nowhere() {
    for v in Variant10::ALL {
        let b = Board10::start(v);
        assert_eq!(b.legal_moves().len(), 28, "{v}");
        assert!(b.legal_moves().iter().all(|&m| !b.is_castle(m)));
    }
}

#[test]
fn the_fast_path_gives_the_same_verdict_and_position() {
    let inputs = [
        "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1",
        "rnabqkbcnr/ppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1",
        "rnabqkbcn1/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1",
        "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq k6 0 1",
        "rnabqkbcnr/ppp1p1pppp/10/3pPp4/10/10/PPPP1PPPPP/RNABQKBCNR w KQkq f6 0 3",
        "k9/10/10/10/10/10/1Q8/K9 b - - 0 1",
        "k9/10/10/10/10/10/10/K9 b - - x 1",
        "",
    ];
    for input in inputs {
        let opts = Options::new(Variant10::Capablanca);
        let full = Board10::from_fen(input.as_bytes(), &opts);
        let fast = Board10::valid_from_fen(input.as_bytes(), &opts);
        assert_eq!(full.board(), fast.as_ref(), "{input}");
    }
}

#[test]
fn more_than_two_checkers_is_impossible_but_a_blocked_line_is_no_checker() {
    let opts = Options::new(Variant10::Embassy);
    // Rook e1, bishop a4 and knight f6 all check the king on e8.
    let triple = Board10::from_fen(b"4k5/10/5N4/10/B9/10/10/4R4K b - - 0 1", &opts);
    let codes: Vec<&str> = triple
        .diagnostics()
        .iter()
        .map(|d| d.code.as_str())
        .collect();
    assert_eq!(codes, ["impossible-check"]);
    // Found by scripts/variant10_oracle.py: counting a checker alone must keep the other
    // pieces as blockers: a line through a piece of the checking side is no check.
    let fen = b"3k3bn1/4arp3/4An2p1/1PpP1P2N1/2p3P1bP/p4B4/N2Q4p1/3RK4R b - - 0 46";
    assert!(Board10::from_fen(fen, &opts).is_valid());
}
