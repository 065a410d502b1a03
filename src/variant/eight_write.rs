//! Writing an 8x8 variant position as FEN, as python-chess 1.11.2 writes it.

use shakmaty::{Bitboard, Board, Color, EnPassantMode, Position, Role, variant::VariantPosition};

use super::eight_pos::Pos8;

use crate::fen::{CastlingField, CastlingStyle, EpMode};

/// Writes `pos` as python-chess `board.fen()` / `board.shredder_fen()` write it: pockets and
/// promoted markers in crazyhouse, remaining checks before the clocks in three-check.
pub(crate) fn write(pos: &Pos8, castling: CastlingStyle, ep: EpMode) -> String {
    let mut s = String::with_capacity(96);
    let board = pos.board();
    let promoted = match pos {
        Pos8::Shakmaty(VariantPosition::Crazyhouse(_)) => pos.promoted(),
        _ => Bitboard::EMPTY,
    };
    s.push_str(
        &board
            .board_fen_with_promoted(promoted)
            .unwrap_or_else(shakmaty::fen::LossyFenError::ignore)
            .to_string(),
    );
    if let Some(pockets) = pos.pockets() {
        s.push('[');
        for color in Color::ALL {
            for role in [
                Role::King,
                Role::Queen,
                Role::Rook,
                Role::Bishop,
                Role::Knight,
                Role::Pawn,
            ] {
                for _ in 0..pockets[color][role] {
                    s.push(role.of(color).char());
                }
            }
        }
        s.push(']');
    }
    s.push(' ');
    s.push(pos.turn().char());
    s.push(' ');
    s.push_str(&castling_field(
        board,
        pos.castles().castling_rights(),
        castling,
    ));
    s.push(' ');
    let mode = match ep {
        EpMode::Legal => EnPassantMode::Legal,
        EpMode::XFen => EnPassantMode::PseudoLegal,
        EpMode::Fen => EnPassantMode::Always,
    };
    match pos.ep_square(mode) {
        Some(sq) => s.push_str(&sq.to_string()),
        None => s.push('-'),
    }
    if let Some(checks) = pos.remaining_checks() {
        s.push_str(&format!(
            " {}+{}",
            u32::from(checks.white),
            u32::from(checks.black)
        ));
    }
    s.push_str(&format!(" {} {}", pos.halfmoves(), pos.fullmoves()));
    s
}

/// The castling field in `style` (python-chess `castling_xfen()` / `castling_shredder_fen()`),
/// written as the chess core writes it.
pub(crate) fn castling_field(board: &Board, rights: Bitboard, style: CastlingStyle) -> String {
    let mut buf = Vec::new();
    CastlingField {
        board,
        rights,
        style,
    }
    .append_to(&mut buf);
    String::from_utf8_lossy(&buf).into_owned()
}
