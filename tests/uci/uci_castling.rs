//! Castling-move notation: reading GUI / engine text, writing it in the other notation
//! (SPEC 7; spot values cross-checked with python-chess 1.11.2 `Board(fen, chess960=True)`).

use fenguard::rules::{ReadError, read_move, write_move};
use fenguard::uci::Notation;
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Move, Position, Role, Square};

fn pos(fen: &str) -> Chess {
    Fen::from_ascii(fen.as_bytes())
        .unwrap()
        .into_position(CastlingMode::Chess960)
        .unwrap()
}

fn after(p: &Chess, mv: Move) -> String {
    let mut p = p.clone();
    p.play_unchecked(mv);
    Fen::from_position(&p, EnPassantMode::Legal).to_string()
}

/// Reads `text` in `from`, writes in `to`; returns (text, ambiguous-on-read, ambiguous-on-write).
fn translate(fen: &str, text: &str, from: Notation, to: Notation) -> (String, bool, bool) {
    let p = pos(fen);
    let r = read_move(&p, text.as_bytes(), from).unwrap();
    let (uci, amb) = write_move(&p, r.mv, to);
    (uci.to_string(), r.ambiguous, amb)
}

const STD: &str = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 4 1";
const R07: &str = "4rkr1/4p1p1/8/8/8/8/8/5K1R w K - 0 1";
const R09_KR: &str = "4k3/8/8/8/8/8/8/6KR w K - 0 1";
const R09_RK: &str = "4k3/8/8/8/8/8/8/RK6 w Q - 0 1";
const R09_KR2: &str = "4k3/8/8/8/8/8/8/4KR2 w K - 0 1";
const H1_CASTLE: Move = Move::Castle {
    king: Square::E1,
    rook: Square::H1,
};

#[test]
fn r08_king_takes_rook_in_standard_game_goes_to_engine_as_two_square_move() {
    assert_eq!(
        translate(STD, "e1h1", Notation::Standard, Notation::Standard),
        ("e1g1".into(), false, false)
    );
}

#[test]
fn r08_final_position_after_castling() {
    let p = pos(STD);
    let r = read_move(&p, b"e1h1", Notation::Standard).unwrap();
    assert_eq!(after(&p, r.mv), "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 5 1");
}

#[test]
fn standard_two_square_move_is_castling() {
    let r = read_move(&pos(STD), b"e1g1", Notation::Standard).unwrap();
    assert_eq!(r.mv, H1_CASTLE);
}

#[test]
fn chess960_engine_gets_king_takes_rook_for_two_square_move() {
    assert_eq!(
        translate(STD, "e1c1", Notation::Standard, Notation::Chess960),
        ("e1a1".into(), false, false)
    );
}

#[test]
fn chess960_notation_accepts_two_square_form_from_standard_layout_like_python_chess() {
    let r = read_move(&pos(STD), b"e1g1", Notation::Chess960).unwrap();
    assert_eq!(r.mv, H1_CASTLE);
}

#[test]
fn r09_king_stays_on_g1_castles_with_g1h1() {
    let p = pos(R09_KR);
    let r = read_move(&p, b"g1h1", Notation::Chess960).unwrap();
    assert_eq!(
        r.mv,
        Move::Castle {
            king: Square::G1,
            rook: Square::H1
        }
    );
    assert_eq!(after(&p, r.mv), "4k3/8/8/8/8/8/8/5RK1 b - - 1 1");
}

#[test]
fn r09_b1c1_is_king_move_in_chess960() {
    let r = read_move(&pos(R09_RK), b"b1c1", Notation::Chess960).unwrap();
    assert_eq!(
        r.mv,
        Move::Normal {
            role: Role::King,
            from: Square::B1,
            capture: None,
            to: Square::C1,
            promotion: None
        }
    );
    assert!(!r.ambiguous);
}

#[test]
fn r09_b1a1_is_queen_side_castling() {
    let p = pos(R09_RK);
    let r = read_move(&p, b"b1a1", Notation::Chess960).unwrap();
    assert_eq!(after(&p, r.mv), "4k3/8/8/8/8/8/8/2KR4 b - - 1 1");
}

#[test]
fn r09_e1f1_is_king_side_castling_with_rook_on_f1() {
    let p = pos(R09_KR2);
    let r = read_move(&p, b"e1f1", Notation::Chess960).unwrap();
    assert_eq!(after(&p, r.mv), "4k3/8/8/8/8/8/8/5RK1 b - - 1 1");
}

#[test]
fn chess960_e1g1_with_rook_on_f1_is_illegal_like_python_chess() {
    assert_eq!(
        read_move(&pos(R09_KR2), b"e1g1", Notation::Chess960),
        Err(ReadError::Illegal)
    );
}

#[test]
fn detect_mode_e1g1_with_rook_on_f1_is_castling() {
    assert_eq!(
        translate(R09_KR2, "e1g1", Notation::Standard, Notation::Chess960),
        ("e1f1".into(), false, false)
    );
}

#[test]
fn detect_mode_king_move_that_is_also_castling_is_the_king_move_flagged() {
    let r = read_move(&pos(R07), b"f1g1", Notation::Standard).unwrap();
    assert_eq!(
        r.mv,
        Move::Normal {
            role: Role::King,
            from: Square::F1,
            capture: None,
            to: Square::G1,
            promotion: None
        }
    );
    assert!(r.ambiguous);
}

#[test]
fn detect_mode_king_on_g1_reads_g1g1_as_castling() {
    let r = read_move(&pos(R09_KR), b"g1g1", Notation::Standard).unwrap();
    assert_eq!(
        r.mv,
        Move::Castle {
            king: Square::G1,
            rook: Square::H1
        }
    );
}

#[test]
fn r07_engine_castle_reaches_standard_gui_as_king_takes_rook_flagged() {
    assert_eq!(
        translate(R07, "f1h1", Notation::Chess960, Notation::Standard),
        ("f1h1".into(), false, true)
    );
}

#[test]
fn engine_castle_where_king_stays_reaches_standard_gui_as_king_takes_rook_flagged() {
    assert_eq!(
        translate(R09_KR, "g1h1", Notation::Chess960, Notation::Standard),
        ("g1h1".into(), false, true)
    );
}

#[test]
fn engine_castle_in_standard_layout_reaches_standard_gui_as_two_square_move() {
    assert_eq!(
        translate(STD, "e1h1", Notation::Chess960, Notation::Standard),
        ("e1g1".into(), false, false)
    );
}

#[test]
fn engine_castle_with_rook_on_f1_reaches_standard_gui_as_e1g1() {
    assert_eq!(
        translate(R09_KR2, "e1f1", Notation::Chess960, Notation::Standard),
        ("e1g1".into(), false, false)
    );
}

#[test]
fn castling_without_the_right_is_illegal() {
    assert_eq!(
        read_move(
            &pos("r3k2r/8/8/8/8/8/8/R3K2R w Qkq - 0 1"),
            b"e1g1",
            Notation::Standard
        ),
        Err(ReadError::Illegal)
    );
}

#[test]
fn ordinary_king_move_is_not_flagged() {
    let r = read_move(&pos(STD), b"e1f1", Notation::Standard).unwrap();
    assert!(!r.ambiguous);
    assert_eq!(
        write_move(&pos(STD), r.mv, Notation::Standard)
            .0
            .to_string(),
        "e1f1"
    );
}

#[test]
fn black_castles_queen_side_in_both_notations() {
    let p = pos("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1");
    let a = read_move(&p, b"e8c8", Notation::Standard).unwrap().mv;
    let b = read_move(&p, b"e8a8", Notation::Chess960).unwrap().mv;
    assert_eq!(a, b);
    assert_eq!(write_move(&p, a, Notation::Chess960).0.to_string(), "e8a8");
}

#[test]
fn missing_promotion_offers_queen() {
    let p = pos("4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    match read_move(&p, b"a7a8", Notation::Standard) {
        Err(ReadError::MissingPromotion(mv)) => {
            assert_eq!(UciMove::from_chess960(mv).to_string(), "a7a8q")
        }
        other => panic!("expected missing promotion, got {other:?}"),
    }
}

#[test]
fn upper_case_promotion_is_read_and_written_lower_case() {
    let p = pos("4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    let r = read_move(&p, b"a7a8N", Notation::Standard).unwrap();
    assert_eq!(
        write_move(&p, r.mv, Notation::Standard).0.to_string(),
        "a7a8n"
    );
}

#[test]
fn null_move_and_bad_syntax_and_drops_are_errors() {
    let p = pos(STD);
    assert_eq!(
        read_move(&p, b"0000", Notation::Standard),
        Err(ReadError::Null)
    );
    assert_eq!(
        read_move(&p, b"e1g9", Notation::Standard),
        Err(ReadError::Syntax)
    );
    assert_eq!(
        read_move(&p, b"E1G1", Notation::Standard),
        Err(ReadError::Syntax)
    );
    assert_eq!(
        read_move(&p, b"Q@e4", Notation::Standard),
        Err(ReadError::Illegal)
    );
}

#[test]
fn en_passant_capture_is_read() {
    let p = pos("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2");
    let r = read_move(&p, b"e5d6", Notation::Standard).unwrap();
    assert_eq!(
        r.mv,
        Move::EnPassant {
            from: Square::E5,
            to: Square::D6
        }
    );
}

#[test]
fn king_promotion_text_is_illegal() {
    let p = pos("4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    assert_eq!(
        read_move(&p, b"e1e2q", Notation::Standard),
        Err(ReadError::Illegal)
    );
}

/// Back rank of Chess960 start position `n` (0..960), Scharnagl's numbering.
fn chess960_back_rank(mut n: usize) -> String {
    let mut rank = [' '; 8];
    rank[(n % 4) * 2 + 1] = 'B';
    n /= 4;
    rank[(n % 4) * 2] = 'B';
    n /= 4;
    let mut place = |k: usize, piece: char| {
        let sq = (0..8).filter(|&i| rank[i] == ' ').nth(k).unwrap();
        rank[sq] = piece;
    };
    place(n % 6, 'Q');
    n /= 6;
    let knights = [
        (0, 1),
        (0, 2),
        (0, 3),
        (0, 4),
        (1, 2),
        (1, 3),
        (1, 4),
        (2, 3),
        (2, 4),
        (3, 4),
    ];
    let (a, b) = knights[n];
    place(b, 'N');
    place(a, 'N');
    for piece in ['R', 'K', 'R'] {
        place(0, piece);
    }
    rank.iter().collect()
}

fn chess960_start(n: usize) -> Chess {
    let white = chess960_back_rank(n);
    let fen = format!(
        "{}/pppppppp/8/8/8/8/PPPPPPPP/{white} w KQkq - 0 1",
        white.to_lowercase()
    );
    pos(&fen)
}

#[test]
fn chess960_start_518_is_the_standard_position() {
    assert_eq!(chess960_back_rank(518), "RNBQKBNR");
}

proptest::proptest! {
    #[test]
    fn every_legal_move_reads_back_from_what_is_written(
        n in 0usize..960,
        choices in proptest::collection::vec(0usize..1000, 0..80),
    ) {
        let mut p = chess960_start(n);
        for c in choices {
            let legal = p.legal_moves();
            if legal.is_empty() {
                break;
            }
            for &m in &legal {
                for notation in [Notation::Standard, Notation::Chess960] {
                    let (uci, _) = write_move(&p, m, notation);
                    let r = read_move(&p, uci.to_string().as_bytes(), notation).unwrap();
                    proptest::prop_assert_eq!(r.mv, m, "{} in {:?}", uci, notation);
                }
            }
            // Prefer castling when available so games reach castles often.
            let m = legal.iter().find(|m| m.is_castle()).copied().unwrap_or(legal[c % legal.len()]);
            p.play_unchecked(m);
        }
    }
}

proptest::proptest! {
    #[test]
    fn translated_move_lists_reach_the_same_position_in_the_engine_notation(
        n in 0usize..960,
        choices in proptest::collection::vec(0usize..1000, 0..60),
        gui_960 in proptest::bool::ANY,
        engine_960 in proptest::bool::ANY,
    ) {
        use fenguard::rules::play_moves;
        use fenguard::uci::tokens;
        let (gui, engine) = (Notation::from_chess960(gui_960), Notation::from_chess960(engine_960));
        let start = chess960_start(n);
        let mut p = start.clone();
        let mut gui_text = String::new();
        for c in choices {
            let legal = p.legal_moves();
            if legal.is_empty() {
                break;
            }
            let m = legal.iter().find(|m| m.is_castle()).copied().unwrap_or(legal[c % legal.len()]);
            gui_text.push_str(&format!("{} ", write_move(&p, m, gui).0));
            p.play_unchecked(m);
        }
        let toks: Vec<_> = tokens(gui_text.as_bytes()).collect();
        let out = play_moves(start.clone(), &toks, gui, engine, false);
        proptest::prop_assert!(out.is_complete());
        proptest::prop_assert_eq!(&out.position, &p);
        let engine_text: Vec<String> = out.moves.iter().map(|m| m.to_string()).collect();
        let engine_text = engine_text.join(" ");
        let toks: Vec<_> = tokens(engine_text.as_bytes()).collect();
        let replayed = play_moves(start, &toks, engine, engine, false);
        proptest::prop_assert!(replayed.is_complete());
        proptest::prop_assert_eq!(&replayed.position, &p);
    }
}

/// Root positions with castling rights for the fast-path comparison: standard, king f1 / rook
/// h1 (R07), kings on d1/d8 with rooks a and h, a king on b1 next to its rook, a king on g1.
const FAST_PATH_ROOTS: &[&str] = &[
    STD,
    R07,
    "r2k3r/pppq1ppp/2npbn2/2b1p3/2B1P3/2NPBN2/PPPQ1PPP/R2K3R w KQkq - 4 8",
    "rk5r/8/8/8/8/8/8/RK5R b KQkq - 0 1",
    "4k3/8/8/8/8/8/8/6KR w K - 0 1",
    "r3k2r/1P6/8/8/8/8/6p1/R3K2R w KQkq - 0 1",
];

/// A pv token: mostly a legal move of `p` in `notation` (castles preferred), else one in the
/// other notation, a back-rank move, an upper-case promotion or junk.
fn pv_token(p: &Chess, notation: Notation, pick: usize, style: usize) -> (String, Option<Move>) {
    let legal = p.legal_moves();
    let junk = [
        "0000", "e7e8Q", "h1h1", "e1g1", "e8c8", "a1a8", "b7b8N", "xyz", "e1h1", "d8h8",
    ];
    let other = match notation {
        Notation::Standard => Notation::Chess960,
        Notation::Chess960 => Notation::Standard,
    };
    match style % 10 {
        _ if legal.is_empty() => (junk[pick % junk.len()].to_owned(), None),
        0..=5 => {
            let m = legal
                .iter()
                .find(|m| m.is_castle() && pick.is_multiple_of(3))
                .copied();
            let m = m.unwrap_or(legal[pick % legal.len()]);
            (write_move(p, m, notation).0.to_string(), Some(m))
        }
        6 => {
            let m = legal[pick % legal.len()];
            (write_move(p, m, other).0.to_string(), None)
        }
        7 => {
            let files = b"abcdefgh";
            let rank = if pick.is_multiple_of(2) { '1' } else { '8' };
            let (f1, f2) = (files[pick % 8] as char, files[(pick / 8) % 8] as char);
            (format!("{f1}{rank}{f2}{rank}"), None)
        }
        _ => (junk[pick % junk.len()].to_owned(), None),
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(400))]
    /// The fast path (`LineRewriter`, the per-thread one behind `rewrite_engine_line`) gives the
    /// same line and diagnostics as the reference replay on random pvs, also across successive
    /// lines that share a prefix (the remembered pv) and when roots and notations change.
    #[test]
    fn fast_castling_translation_equals_the_full_replay_on_random_pvs(
        root in 0usize..FAST_PATH_ROOTS.len(),
        lines in proptest::collection::vec(
            (0usize..12, proptest::collection::vec((0usize..10_000, 0usize..100), 0..24), 0usize..6),
            1..8,
        ),
        engine_960 in proptest::bool::ANY,
        gui_960 in proptest::bool::ANY,
    ) {
        use fenguard::rules::{LineRewriter, rewrite_engine_line, rewrite_engine_line_full};
        let (engine, gui) = (Notation::from_chess960(engine_960), Notation::from_chess960(gui_960));
        let start = pos(FAST_PATH_ROOTS[root]);
        let mut rewriter = LineRewriter::default();
        let mut previous: Vec<String> = Vec::new();
        for (keep, picks, shape) in lines {
            // A prefix of the previous pv, then new tokens played from where it leaves off.
            let mut pv: Vec<String> = previous.iter().take(keep).cloned().collect();
            let mut p = start.clone();
            for text in &pv {
                match read_move(&p, text.as_bytes(), engine) {
                    Ok(r) => p.play_unchecked(r.mv),
                    Err(_) => break,
                }
            }
            for (pick, style) in picks {
                let (text, mv) = pv_token(&p, engine, pick, style);
                if let Some(m) = mv {
                    p.play_unchecked(m);
                }
                pv.push(text);
            }
            let moves = pv.join(" ");
            let first = pv.first().cloned().unwrap_or_else(|| "e1h1".into());
            let line = match shape {
                0 => format!("info depth 12 seldepth 14 score cp 20 nodes 1000 pv {moves}"),
                1 => format!("info depth 3 currmove {first} currmovenumber 1 pv {moves}"),
                2 => format!("bestmove {first} ponder {}", pv.get(1).map_or("e8h8", String::as_str)),
                3 => format!("info refutation {moves}"),
                4 => format!("info currline 1 {moves} string pv e1h1"),
                _ => format!("info multipv 2 score mate 3 wdl 1 2 3 pv {moves}"),
            };
            let want = rewrite_engine_line_full(line.as_bytes(), &start, engine, gui);
            let got = rewriter.rewrite(line.as_bytes(), &start, engine, gui);
            proptest::prop_assert_eq!(&got, &want, "{}", line);
            let got = rewrite_engine_line(line.as_bytes(), &start, engine, gui);
            proptest::prop_assert_eq!(&got, &want, "{}", line);
            previous = pv;
        }
    }
}
