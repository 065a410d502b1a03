//! The position behind [`super::eight::Position8`]: one of shakmaty's variant positions, or
//! giveaway ([`Giveaway`], antichess with castling), behind shakmaty's one `Position` trait.

use std::num::NonZeroU32;

use shakmaty::variant::VariantPosition;
use shakmaty::{
    Bitboard, Board, ByColor, ByRole, Castles, CastlingSide, Color, Move, MoveList, Outcome,
    Position, RemainingChecks, Role, Square,
};

use super::giveaway::Giveaway;

/// An 8x8 variant position: shakmaty's variants, and giveaway.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Pos8 {
    /// crazyhouse, atomic, kingofthehill, 3check, horde, racingkings, antichess.
    Shakmaty(VariantPosition),
    /// giveaway (python-chess `GiveawayBoard`).
    Giveaway(Giveaway),
}

/// Calls `$body` with `$p` bound to the inner position.
macro_rules! with {
    ($self:expr, $p:ident => $body:expr) => {
        match $self {
            Pos8::Shakmaty($p) => $body,
            Pos8::Giveaway($p) => $body,
        }
    };
}

impl Position for Pos8 {
    fn board(&self) -> &Board {
        with!(self, p => p.board())
    }
    fn promoted(&self) -> Bitboard {
        with!(self, p => p.promoted())
    }
    fn pockets(&self) -> Option<&ByColor<ByRole<u8>>> {
        with!(self, p => p.pockets())
    }
    fn turn(&self) -> Color {
        with!(self, p => p.turn())
    }
    fn castles(&self) -> &Castles {
        with!(self, p => p.castles())
    }
    fn maybe_ep_square(&self) -> Option<Square> {
        with!(self, p => p.maybe_ep_square())
    }
    fn remaining_checks(&self) -> Option<&ByColor<RemainingChecks>> {
        with!(self, p => p.remaining_checks())
    }
    fn halfmoves(&self) -> u32 {
        with!(self, p => p.halfmoves())
    }
    fn fullmoves(&self) -> NonZeroU32 {
        with!(self, p => p.fullmoves())
    }
    fn legal_moves(&self) -> MoveList {
        with!(self, p => p.legal_moves())
    }
    fn san_candidates(&self, role: Role, to: Square) -> MoveList {
        with!(self, p => p.san_candidates(role, to))
    }
    fn castling_moves(&self, side: CastlingSide) -> MoveList {
        with!(self, p => p.castling_moves(side))
    }
    fn en_passant_moves(&self) -> MoveList {
        with!(self, p => p.en_passant_moves())
    }
    fn capture_moves(&self) -> MoveList {
        with!(self, p => p.capture_moves())
    }
    fn promotion_moves(&self) -> MoveList {
        with!(self, p => p.promotion_moves())
    }
    fn is_irreversible(&self, m: Move) -> bool {
        with!(self, p => p.is_irreversible(m))
    }
    fn king_attackers(&self, square: Square, attacker: Color, occupied: Bitboard) -> Bitboard {
        with!(self, p => p.king_attackers(square, attacker, occupied))
    }
    fn is_variant_end(&self) -> bool {
        with!(self, p => p.is_variant_end())
    }
    fn has_insufficient_material(&self, color: Color) -> bool {
        with!(self, p => p.has_insufficient_material(color))
    }
    fn variant_outcome(&self) -> Outcome {
        with!(self, p => p.variant_outcome())
    }
    fn play_unchecked(&mut self, m: Move) {
        with!(self, p => p.play_unchecked(m))
    }
}
