//! The opening book (SPEC section 15, `[book]`): a `go` in a position of the PolyGlot book,
//! within `book.depth` plies of the game, is answered by fenguard with the book's move (the
//! engine does not search), as PolyGlot's UCI mode and lichess-bot do. Only standard chess
//! with the GUI and the engine in standard notation; Chess960, variants, `go ponder` /
//! `go infinite` (the GUI wants the engine's search), `searchmoves` and a position fenguard
//! does not know go to the engine.

use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Color, Position as _};

use super::game::Game;
use super::{Rules, Session};
use crate::uci::GoCommand;

impl Session {
    /// The book's move for a `go` (read as `go`) in the current position, in UCI notation.
    pub(super) fn book_move(&mut self, go: Option<&GoCommand<'_>>) -> Option<UciMove> {
        let go = go?;
        if go.waits_for_stop || go.searchmoves_keyword.is_some() {
            return None;
        }
        if self.rules != Rules::Chess || self.c960.gui || self.c960.engine_on() {
            return None;
        }
        let Some(Game::Chess(pos)) = &self.current else {
            return None;
        };
        let book = self.adapter.book.as_mut()?;
        let black = u32::from(pos.turn() == Color::Black);
        let ply = 2 * (pos.fullmoves().get() - 1) + black;
        if ply >= book.depth {
            return None;
        }
        let shared = std::sync::Arc::clone(&book.book);
        let m = shared.pick(pos, book.variation, |n| book.draw(n))?;
        Some(m.to_uci(CastlingMode::Standard))
    }
}
