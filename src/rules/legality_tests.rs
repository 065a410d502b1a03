//! The chess fast path against the old one (issue 17): [`legality::is_legal`] and
//! [`legality::castle`] against shakmaty's `is_legal` / `castling_moves`; chess's readers
//! and writer (`Chess as GameRules`: [`read_move`], `write`) against a frozen copy of the
//! reading before the fast path (`old_*` below: shakmaty's `UciMove::to_move` and move
//! lists); the move lists' fast path (`read_plain`) against both. Over every from / to /
//! promotion text in the positions of random games from standard, Chess960 and constructed
//! starts (checks, double checks, pins, en passant, promotions, castling through and out of
//! check).

use proptest::prelude::*;
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{
    Bitboard, CastlingMode, CastlingSide, Chess, File, Move, Position, Rank, Role, Square,
};

use crate::rules::chess::read_move;
use crate::rules::{GameRules, Notation, ReadError, Reading, legality};

// ---- the frozen old reading (src/rules/chess.rs before the fast path) ----

fn old_back_rank<P: Position>(pos: &P) -> Rank {
    pos.turn().fold_wb(Rank::First, Rank::Eighth)
}

fn old_castle_toward<P: Position>(pos: &P, from: Square, to: Square) -> Option<Move> {
    if to.rank() != old_back_rank(pos) || from.rank() != to.rank() {
        return None;
    }
    let side = match to.file() {
        File::G => CastlingSide::KingSide,
        File::C => CastlingSide::QueenSide,
        _ => return None,
    };
    pos.castling_moves(side)
        .into_iter()
        .find(|m| matches!(m, Move::Castle { king, .. } if *king == from))
}

fn old_read_king_move<P: Position>(
    pos: &P,
    from: Square,
    to: Square,
    notation: Notation,
) -> Option<Reading> {
    if (pos.castles().castling_rights() & pos.us()).contains(to) {
        let castle = Move::Castle {
            king: from,
            rook: to,
        };
        return pos.is_legal(castle).then_some(Reading {
            mv: castle,
            ambiguous: false,
        });
    }
    let ordinary = Move::Normal {
        role: Role::King,
        from,
        capture: pos.board().role_at(to),
        to,
        promotion: None,
    };
    let ordinary = (from != to && pos.is_legal(ordinary)).then_some(ordinary);
    let castle = old_castle_toward(pos, from, to);
    let castle = match notation {
        Notation::Standard => castle,
        Notation::Chess960 => castle.filter(|m| match *m {
            Move::Castle { king, rook } => {
                king.file() == File::E
                    && king.distance(to) == 2
                    && matches!(rook.file(), File::A | File::H)
            }
            _ => false,
        }),
    };
    match (ordinary, castle) {
        (Some(mv), Some(_)) => Some(Reading {
            mv,
            ambiguous: notation == Notation::Standard,
        }),
        (Some(mv), None) | (None, Some(mv)) => Some(Reading {
            mv,
            ambiguous: false,
        }),
        (None, None) => None,
    }
}

fn old_read_uci<P: Position>(
    pos: &P,
    uci: UciMove,
    notation: Notation,
) -> Result<Reading, ReadError> {
    let (from, to, promotion) = match uci {
        UciMove::Normal {
            from,
            to,
            promotion,
        } => (from, to, promotion),
        UciMove::Null => return Err(ReadError::Null),
        UciMove::Put { .. } => {
            return uci
                .to_move(pos)
                .map(|mv| Reading {
                    mv,
                    ambiguous: false,
                })
                .map_err(|_| ReadError::Illegal);
        }
    };
    let role = pos.board().role_at(from).ok_or(ReadError::Illegal)?;
    if role == Role::King && promotion.is_none() && pos.us().contains(from) {
        return old_read_king_move(pos, from, to, notation).ok_or(ReadError::Illegal);
    }
    match uci.to_move(pos) {
        Ok(mv) => Ok(Reading {
            mv,
            ambiguous: false,
        }),
        Err(_) => {
            let last = pos.turn().fold_wb(Rank::Eighth, Rank::First);
            if role == Role::Pawn && promotion.is_none() && to.rank() == last {
                let queen = UciMove::Normal {
                    from,
                    to,
                    promotion: Some(Role::Queen),
                };
                if let Ok(mv) = queen.to_move(pos) {
                    return Err(ReadError::MissingPromotion(mv));
                }
            }
            Err(ReadError::Illegal)
        }
    }
}

fn old_read_move(pos: &Chess, text: &[u8], notation: Notation) -> Result<Reading, ReadError> {
    let uci = UciMove::from_ascii(text).map_err(|_| ReadError::Syntax)?;
    old_read_uci(pos, uci, notation)
}

fn old_write_move<P: Position>(pos: &P, mv: Move, notation: Notation) -> (UciMove, bool) {
    let chess960 = UciMove::from_chess960(mv);
    match (mv, notation) {
        (Move::Castle { king, .. }, Notation::Standard) => {
            let standard = UciMove::from_standard(mv);
            if standard.to() == Some(king) {
                return (chess960, true);
            }
            match old_read_uci(pos, standard, Notation::Standard) {
                Ok(r) if r.mv == mv => (standard, false),
                _ => (chess960, true),
            }
        }
        _ => (chess960, false),
    }
}

// ---- the comparison ----

/// Starts: standard, Chess960 layouts (king on b, d, f, g; rooks inside), and constructed
/// positions with checks, pins, en passant, promotions and castling across attacked squares.
const STARTS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "nrkbbqrn/pppppppp/8/8/8/8/PPPPPPPP/NRKBBQRN w GBgb - 0 1",
    "rkrbbnnq/pppppppp/8/8/8/8/PPPPPPPP/RKRBBNNQ w CAca - 0 1",
    "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1",
    "qrbknbrn/pppppppp/8/8/8/8/PPPPPPPP/QRBKNBRN w GBgb - 0 1",
    "r3k2r/pppq1ppp/2npbn2/2b1p3/2B1P3/2NPBN2/PPPQ1PPP/R3K2R w KQkq - 4 8",
    "r2k3r/pppq1ppp/2npbn2/2b1p3/2B1P3/2NPBN2/PPPQ1PPP/R2K3R w KQkq - 4 8",
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    "r3k2r/8/8/8/4r3/8/8/R3K2R w KQkq - 0 1",
    "r3k2r/8/8/8/8/5b2/8/R3K2R w KQkq - 0 1",
    "1r2k2r/8/8/8/8/8/8/R3K1R1 b Qk - 0 1",
    "4k3/8/8/2KPp2r/8/8/8/8 w - e6 0 2",
    "8/8/8/KPp4r/8/8/8/4k3 w - c6 0 2",
    "4k3/8/8/8/3pP3/8/8/4KQ2 b - e3 0 1",
    "4k3/8/3b4/3Pp3/8/1K6/8/8 w - e6 0 1",
    "2r3k1/1P1P4/8/8/8/8/1p1p4/2R3K1 w - - 0 1",
    "n5kn/PPPPP3/8/8/8/8/5ppp/N1K4N b - - 0 1",
    "4k3/8/8/8/1b6/8/3P4/4K2r w - - 0 1",
    "4k3/8/8/8/8/8/4r3/R3K2R w KQ - 0 1",
    "4k3/8/5n2/8/8/8/8/R3K2R w KQ - 0 1",
    "4k3/8/8/b7/8/8/3N4/4K3 w - - 0 1",
    "3rk3/8/8/8/3B4/8/3K4/6b1 w - - 0 1",
    "4k3/4r3/8/8/8/8/4R3/4K3 w - - 0 1",
    "4k3/8/8/8/8/2n5/8/r3K3 w - - 0 1",
    "k7/8/8/3q4/8/8/8/3K4 w - - 0 1",
    "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
    "r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "3k4/8/8/8/8/8/8/4RK1R w H - 0 1",
    "4k3/8/8/8/8/8/8/4K1R1 w G - 0 1",
    "1k6/8/8/8/8/8/8/RK5R w HA - 0 1",
    "nrbbqknr/pppppppp/8/8/8/8/PPPPPPPP/NRBBQKNR w HBhb - 0 1",
];

fn position(fen: &str) -> Chess {
    Fen::from_ascii(fen.as_bytes())
        .expect("a FEN")
        .into_position(CastlingMode::Chess960)
        .expect("a legal position")
}

/// Every text worth reading in `pos`: each occupied square to each square, pawns and one other
/// piece also with each promotion letter (to the back ranks, and `q` to anywhere), and the
/// null move and a drop.
fn texts(pos: &Chess) -> Vec<Vec<u8>> {
    let mut out = vec![b"0000".to_vec(), b"Q@e4".to_vec(), b"P@d3".to_vec()];
    for from in pos.board().occupied() {
        let pawn = pos.board().role_at(from) == Some(Role::Pawn);
        for to in Square::ALL {
            let plain = UciMove::Normal {
                from,
                to,
                promotion: None,
            };
            out.push(plain.to_string().into_bytes());
            let back = to.rank() == Rank::First || to.rank() == Rank::Eighth;
            let letters: &[Role] = match (pawn, back) {
                (true, true) => &[
                    Role::Queen,
                    Role::Rook,
                    Role::Bishop,
                    Role::Knight,
                    Role::King,
                ],
                _ => &[Role::Queen],
            };
            for &role in letters {
                let promo = UciMove::Normal {
                    from,
                    to,
                    promotion: Some(role),
                };
                let text = promo.to_string().into_bytes();
                if pawn {
                    let mut upper = text.clone();
                    upper[4] = upper[4].to_ascii_uppercase();
                    out.push(upper);
                }
                out.push(text);
            }
        }
    }
    out
}

/// The normal moves and castles worth judging in `pos`: each occupied square to each square
/// with what stands there as the capture (and a wrong capture, and promotions for pawns), and
/// every castle of a king onto a rook of its back rank.
fn moves(pos: &Chess) -> Vec<Move> {
    let board = pos.board();
    let mut out = Vec::new();
    for from in board.occupied() {
        let Some(role) = board.role_at(from) else {
            continue;
        };
        for to in Square::ALL {
            let capture = board.role_at(to);
            let promotions: &[Option<Role>] = if role == Role::Pawn {
                &[
                    None,
                    Some(Role::Queen),
                    Some(Role::Knight),
                    Some(Role::King),
                ]
            } else {
                &[None, Some(Role::Queen)]
            };
            for &promotion in promotions {
                out.push(Move::Normal {
                    role,
                    from,
                    capture,
                    to,
                    promotion,
                });
            }
            let wrong = if capture.is_some() {
                None
            } else {
                Some(Role::Knight)
            };
            out.push(Move::Normal {
                role,
                from,
                capture: wrong,
                to,
                promotion: None,
            });
        }
    }
    for king in board.kings() {
        let rank = Bitboard::from_rank(king.rank());
        for rook in board.rooks() & rank {
            out.push(Move::Castle { king, rook });
        }
    }
    out
}

/// Compares the fast path with shakmaty and the old reading in `pos`; a message on the first
/// difference.
fn compare(pos: &Chess) -> Result<(), String> {
    let fen = Fen::from_position(pos, shakmaty::EnPassantMode::Always);
    for m in moves(pos) {
        if legality::is_legal(pos, m) != pos.is_legal(m) {
            return Err(format!("is_legal({m:?}) differs in {fen}"));
        }
    }
    for side in [CastlingSide::KingSide, CastlingSide::QueenSide] {
        let shakmaty = pos.castling_moves(side).first().copied();
        if legality::castle(pos, side) != shakmaty {
            return Err(format!("castle({side:?}) differs in {fen}"));
        }
    }
    for text in texts(pos) {
        for notation in [Notation::Standard, Notation::Chess960] {
            let new = read_move(pos, &text, notation);
            let old = old_read_move(pos, &text, notation);
            if let Some((mv, uci)) = pos.read_plain(&text) {
                let written = old_write_move(pos, mv, notation).0;
                if old
                    != Ok(Reading {
                        mv,
                        ambiguous: false,
                    })
                    || uci != written
                {
                    let text = String::from_utf8_lossy(&text);
                    return Err(format!(
                        "read_plain `{text}` ({notation:?}) in {fen}: {mv:?}"
                    ));
                }
            }
            if new != old {
                let text = String::from_utf8_lossy(&text);
                return Err(format!(
                    "read `{text}` ({notation:?}) in {fen}: {new:?}, old {old:?}"
                ));
            }
            if let Ok(r) = new {
                for to in [Notation::Standard, Notation::Chess960] {
                    let new = pos.write(r.mv, to);
                    let old = old_write_move(pos, r.mv, to);
                    if new != old {
                        return Err(format!("write {:?} ({to:?}) in {fen}", r.mv));
                    }
                }
            }
        }
    }
    Ok(())
}

#[test]
fn every_start_reads_as_before() {
    for fen in STARTS {
        compare(&position(fen)).unwrap();
    }
    let start = position(STARTS[0]);
    assert!(start.read_plain(b"e2e4").is_some());
    assert!(start.read_plain(b"g1f3").is_some());
    assert!(start.read_plain(b"e1e2").is_none()); // a king's move: the full reading
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Random games from the starts, judged at every ply.
    #[test]
    fn random_games_read_as_before(
        start in 0..STARTS.len(),
        choices in prop::collection::vec(any::<u32>(), 1..40),
    ) {
        let mut pos = position(STARTS[start]);
        for choice in choices {
            compare(&pos).map_err(TestCaseError::fail)?;
            let legal = Position::legal_moves(&pos);
            if legal.is_empty() {
                break;
            }
            let m = legal[choice as usize % legal.len()];
            pos.play_unchecked(m);
        }
    }
}
