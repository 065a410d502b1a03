//! Giveaway: antichess with castling, as python-chess 1.11.2's `chess.variant.GiveawayBoard`,
//! Fairy-Stockfish's `giveaway` and cutechess's `giveaway` play it. Pure: no I/O.
//!
//! shakmaty's `Antichess` has no castling (lichess antichess). [`Giveaway`] is shakmaty's
//! antichess position plus castling rights, and implements shakmaty's [`Position`] so that the
//! chess core's castling notation code (`rules::chess`) and FEN writer serve it unchanged.
//! The rules follow python-chess's `SuicideBoard` with castling:
//! - captures are compulsory, so castling is legal only when no capture is (a castle is not a
//!   capture);
//! - the king is an ordinary piece: it may castle out of, through and into attack; only the
//!   squares between king and rook and the two target squares must be empty (Chess960 rules:
//!   king to the c- or g-file, rook to the d- or f-file);
//! - rights are lost when the (unpromoted) king moves or is captured, and the right of a rook
//!   when anything moves from or to its square; a king promoted from a pawn never castles.
//!
//! ```
//! use fenguard::fen::{CastlingStyle, EpMode, Options};
//! use fenguard::uci::Notation;
//! use fenguard::variant::Variant;
//! use fenguard::variant::eight::analyze;
//!
//! let a = analyze(&Variant::Giveaway, b"4k3/8/8/8/8/8/8/4K2R w K - 0 1", &Options::default());
//! let mut pos = a.position().expect("valid").clone();
//! let castle = pos.read_move(b"e1g1", Notation::Standard).expect("legal castle").mv;
//! pos.play(castle);
//! assert_eq!(pos.fen(CastlingStyle::XFen, EpMode::Legal), "4k3/8/8/8/8/8/8/5RK1 b - - 1 1");
//! ```

use std::num::NonZeroU32;

use shakmaty::variant::Antichess;
use shakmaty::{
    Bitboard, Board, ByColor, ByRole, Castles, CastlingMode, CastlingSide, Color, EnPassantMode,
    FromSetup, Move, MoveList, Outcome, Position, RemainingChecks, Role, Setup, Square,
};

/// A giveaway position: shakmaty's antichess position and the castling rights it lacks
/// (castling mode Chess960, as every 8x8 position here).
#[derive(Debug, Clone)]
pub struct Giveaway {
    inner: Antichess,
    castles: Castles,
    /// Pieces that were promoted pawns (python-chess tracks them: a promoted king never
    /// castles and moving it keeps its side's rights).
    promoted: Bitboard,
}

impl PartialEq for Giveaway {
    fn eq(&self, other: &Self) -> bool {
        self.inner == other.inner
            && self.castles.castling_rights() == other.castles.castling_rights()
            && self.promoted == other.promoted
    }
}

impl Eq for Giveaway {}

impl Default for Giveaway {
    /// The standard start position with all four castling rights (python-chess's
    /// `GiveawayBoard.starting_fen`, Fairy-Stockfish's `giveaway` start).
    fn default() -> Giveaway {
        Giveaway {
            inner: Antichess::default(),
            castles: Castles::from_setup(&Setup::initial(), CastlingMode::Chess960)
                .unwrap_or_else(|c| c),
            promoted: Bitboard::EMPTY,
        }
    }
}

/// The castling rights of `setup` that stand in giveaway, as python-chess's
/// `clean_castling_rights` with `chess960=True`: shakmaty's castling validation, where the king
/// is the side's highest king on its own back rank (kings elsewhere, from promotions, and
/// lower ones on that rank do not count).
///
/// # Errors
/// The rights that stand, when some right of `setup` does not.
pub fn castles(setup: &Setup) -> Result<Castles, Castles> {
    let mut one_king = setup.clone();
    for color in Color::ALL {
        let kings = setup.board.kings() & setup.board.by_color(color);
        let home = (kings & Bitboard::from_rank(color.backrank())).last();
        for sq in kings.into_iter().filter(|sq| Some(*sq) != home) {
            one_king.board.discard_piece_at(sq);
        }
    }
    Castles::from_setup(&one_king, CastlingMode::Chess960)
}

impl Giveaway {
    /// The giveaway position of an antichess position and castling rights.
    pub fn new(inner: Antichess, castles: Castles) -> Giveaway {
        Giveaway {
            inner,
            castles,
            promoted: Bitboard::EMPTY,
        }
    }

    /// The castles python-chess's `generate_castling_moves` gives: the lowest unpromoted king
    /// of the side to move on its back rank with each right of that rank, when the squares
    /// the king and rook cross and land on are empty but for themselves. No attack test.
    fn castles_now(&self, moves: &mut MoveList) {
        let turn = self.turn();
        let back = Bitboard::from_rank(turn.backrank());
        let board = self.board();
        let Some(king) = (board.kings() & board.by_color(turn) & back & !self.promoted).first()
        else {
            return;
        };
        for rook in self.castles.castling_rights() & back & board.rooks() & board.by_color(turn) {
            let side = if rook < king {
                CastlingSide::QueenSide
            } else {
                CastlingSide::KingSide
            };
            let king_to = side.king_to(turn);
            let rook_to = side.rook_to(turn);
            let path = shakmaty::attacks::between(king, king_to)
                | shakmaty::attacks::between(rook, rook_to)
                | Bitboard::from_square(king_to)
                | Bitboard::from_square(rook_to);
            let others =
                board.occupied() ^ Bitboard::from_square(king) ^ Bitboard::from_square(rook);
            if (others & path).is_empty() {
                moves.push(Move::Castle { king, rook });
            }
        }
    }

    /// The antichess position after the castle `king` with `rook`, rights of the side gone.
    fn castle(&mut self, king: Square, rook: Square) {
        let turn = self.turn();
        let side = if rook < king {
            CastlingSide::QueenSide
        } else {
            CastlingSide::KingSide
        };
        let mut setup = self.inner.to_setup(EnPassantMode::Always);
        setup.board.discard_piece_at(king);
        setup.board.discard_piece_at(rook);
        setup
            .board
            .set_piece_at(side.king_to(turn), Role::King.of(turn));
        setup
            .board
            .set_piece_at(side.rook_to(turn), Role::Rook.of(turn));
        setup.ep_square = None;
        setup.halfmoves = setup.halfmoves.saturating_add(1);
        if turn == Color::Black {
            setup.fullmoves = setup.fullmoves.saturating_add(1);
        }
        setup.swap_turn();
        // A castle keeps the material and moves no pawn: the antichess position stays valid.
        if let Ok(inner) = Antichess::from_setup(setup, CastlingMode::Chess960) {
            self.inner = inner;
            self.castles.discard_color(turn);
        }
    }
}

impl Position for Giveaway {
    fn board(&self) -> &Board {
        self.inner.board()
    }

    fn promoted(&self) -> Bitboard {
        Bitboard::EMPTY
    }

    fn pockets(&self) -> Option<&ByColor<ByRole<u8>>> {
        None
    }

    fn turn(&self) -> Color {
        self.inner.turn()
    }

    fn castles(&self) -> &Castles {
        &self.castles
    }

    fn maybe_ep_square(&self) -> Option<Square> {
        self.inner.maybe_ep_square()
    }

    fn remaining_checks(&self) -> Option<&ByColor<RemainingChecks>> {
        None
    }

    fn halfmoves(&self) -> u32 {
        self.inner.halfmoves()
    }

    fn fullmoves(&self) -> NonZeroU32 {
        self.inner.fullmoves()
    }

    /// Antichess's moves, and the castles when no capture is compulsory (python-chess
    /// `SuicideBoard.generate_legal_moves`); none once a side has no pieces.
    fn legal_moves(&self) -> MoveList {
        let mut moves = self.inner.legal_moves();
        if !self.is_variant_end() && !moves.iter().any(|m| m.is_capture()) {
            self.castles_now(&mut moves);
        }
        moves
    }

    fn king_attackers(&self, _square: Square, _attacker: Color, _occupied: Bitboard) -> Bitboard {
        Bitboard::EMPTY
    }

    fn is_variant_end(&self) -> bool {
        self.inner.is_variant_end()
    }

    fn has_insufficient_material(&self, color: Color) -> bool {
        self.inner.has_insufficient_material(color)
    }

    /// The side to move wins when it has no pieces or no legal move (python-chess
    /// `GiveawayBoard.is_variant_win`), castles counted.
    fn variant_outcome(&self) -> Outcome {
        if self.us().is_empty() || self.legal_moves().is_empty() {
            Outcome::Known(shakmaty::KnownOutcome::Decisive {
                winner: self.turn(),
            })
        } else {
            Outcome::Unknown
        }
    }

    /// Plays `m` (legal here). Rights as python-chess's `Board.push`: a move from or to a
    /// right's square drops it; an unpromoted king's move drops its side's rights, its capture
    /// the other side's.
    fn play_unchecked(&mut self, m: Move) {
        let turn = self.turn();
        if let Move::Castle { king, rook } = m {
            self.castle(king, rook);
            return;
        }
        let (from, to) = (m.from(), m.to());
        let captured_king = self.board().kings().contains(to) && !self.promoted.contains(to);
        let moved_promoted = from.is_some_and(|f| self.promoted.contains(f));
        self.inner.play_unchecked(m);
        if let Some(from) = from {
            self.castles.discard_rook(from);
        }
        self.castles.discard_rook(to);
        if m.role() == Role::King && !moved_promoted && m.promotion().is_none() {
            self.castles.discard_color(turn);
        }
        if captured_king && m.is_capture() {
            self.castles.discard_color(!turn);
        }
        let mut promoted = self.promoted;
        if let Some(from) = from {
            promoted.discard(from);
        }
        promoted.discard(to);
        if m.is_promotion() || moved_promoted {
            promoted.add(to);
        }
        self.promoted = promoted & self.board().occupied();
    }
}

#[cfg(test)]
mod tests {
    use crate::fen::{CastlingStyle, Code, EpMode, Options};
    use crate::uci::Notation;
    use crate::variant::Variant;
    use crate::variant::eight::{Position8, analyze};

    fn giveaway(fen: &str) -> Position8 {
        let a = analyze(&Variant::Giveaway, fen.as_bytes(), &Options::default());
        a.position()
            .unwrap_or_else(|| panic!("{fen}: {:?}", a.diagnostics()))
            .clone()
    }

    fn fen(pos: &Position8) -> String {
        pos.fen(CastlingStyle::XFen, EpMode::Legal)
    }

    #[test]
    fn giveaway_start_position_keeps_all_four_castling_rights() {
        let start = Position8::startpos(&Variant::Giveaway).expect("8x8 variant");
        assert_eq!(
            fen(&start),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
        );
        let antichess = Position8::startpos(&Variant::Antichess).expect("8x8 variant");
        assert_eq!(
            fen(&antichess),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"
        );
    }

    #[test]
    fn giveaway_fen_with_castling_rights_is_valid_as_given() {
        let pos = giveaway("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1");
        assert_eq!(
            fen(&pos),
            "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1"
        );
    }

    #[test]
    fn giveaway_castles_in_both_notations_and_drops_the_rights() {
        let mut pos = giveaway("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1");
        let moves = pos.legal_moves(Notation::Standard);
        assert!(moves.contains(&"e1g1".to_owned()) && moves.contains(&"e1c1".to_owned()));
        let std = pos
            .read_move(b"e1c1", Notation::Standard)
            .expect("O-O-O")
            .mv;
        let c960 = pos
            .read_move(b"e1a1", Notation::Chess960)
            .expect("O-O-O")
            .mv;
        assert_eq!(std, c960);
        pos.play(std);
        assert_eq!(
            fen(&pos),
            "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/2KR3R b kq - 1 1"
        );
    }

    #[test]
    fn giveaway_castles_through_attack_but_not_past_a_compulsory_capture() {
        // The black rook on f8 attacks f1: the king is an ordinary piece, it may cross.
        let pos = giveaway("5r2/8/8/8/8/8/8/4K2R w K - 0 1");
        assert!(
            pos.legal_moves(Notation::Standard)
                .contains(&"e1g1".to_owned())
        );
        // A capture is legal (Rxh8): captures are compulsory, so no castle.
        let pos = giveaway("7r/8/8/8/8/8/8/4K2R w K - 0 1");
        assert_eq!(pos.legal_moves(Notation::Standard), vec!["h1h8".to_owned()]);
    }

    #[test]
    fn giveaway_right_without_rook_is_an_error_repaired_by_dropping_it() {
        let a = analyze(
            &Variant::Giveaway,
            b"4k3/8/8/8/8/8/8/4K3 w K - 0 1",
            &Options::default(),
        );
        assert!(!a.is_valid());
        assert_eq!(a.diagnostics()[0].code, Code::CastlingWithoutRook);
        let repaired = a.repair().expect("repairable");
        assert_eq!(fen(repaired), "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    }

    #[test]
    fn capturing_the_king_drops_its_castling_rights() {
        let mut pos = giveaway("4k3/8/8/8/8/8/8/r3K2R b K - 0 1");
        let mv = pos.read_move(b"a1e1", Notation::Standard).expect("Rxe1").mv;
        pos.play(mv);
        assert_eq!(fen(&pos), "4k3/8/8/8/8/8/8/4r2R w - - 0 2");
        let mv = pos.read_move(b"h1h2", Notation::Standard);
        assert!(mv.is_err(), "Rxe1 is compulsory");
    }
}
