//! Lines judged once the engine's options are known (SPEC section 6, "Order"): after the GUI's
//! `uci`, until the engine's `uciok` has been read, a `position` (it may need Chess960, which
//! depends on the engine offering `UCI_Chess960`) or a `setoption` (`UCI_Chess960`,
//! `UCI_Variant`, fenguard's own) waits, and so does every GUI line after it, in order (the
//! engine must get the GUI's lines in the GUI's order). `quit` and the end of the GUI's input
//! wait behind them too, as the bare engine reads its input in order (`uci`, `isready`,
//! `position`, `go`, `quit` in one write is answered `uciok`, `readyok`, `bestmove`); an engine
//! that never sends `uciok` is bounded by `engine.startup_timeout_ms`. A GUI that pipelines `uci`, `setoption name UCI_Chess960 value true`,
//! `position fen <Chess960 FEN>` and `go` in one write so gets its position judged against the
//! engine's option list, as the bare engine would read it.
//!
//! Should the engine exit before its `uciok`, the waiting lines go in front of the lines held
//! for the restart (`restart.rs`), and are handled once the new engine is ready.

use super::restart::Held;
use super::{Action, Session, first_token};

impl Session {
    /// Whether the GUI's `line` must wait for the engine's `uciok`.
    pub(super) fn waits_for_uciok(&self, line: &[u8]) -> bool {
        let word = first_token(line);
        !self.pending.is_empty()
            || (self.restart.gui_awaits_uciok && matches!(word, b"position" | b"setoption"))
    }

    /// The engine's `uciok` was read: the waiting lines are handled, in order (one that must
    /// wait again, after a later `uci` among them, waits with all behind it).
    pub(super) fn release_pending(&mut self, out: &mut Vec<Action>) {
        for held in std::mem::take(&mut self.pending) {
            let actions = match held {
                Held::Line(line, at) => self.gui_line(line, at),
                Held::Piece(chunk, first) => self.on_gui_overlong(chunk, first),
            };
            out.extend(actions);
        }
        if self.pending.is_empty() && std::mem::take(&mut self.eof_pending) {
            out.extend(self.on_gui_eof());
        }
    }

    /// The engine exited: the waiting lines go in front of those held for the restart.
    pub(super) fn pending_to_restart(&mut self) {
        for held in std::mem::take(&mut self.pending).into_iter().rev() {
            let len = match &held {
                Held::Line(line, _) => line.len(),
                Held::Piece(chunk, _) => chunk.len(),
            };
            self.restart.held_bytes += len;
            self.restart.held.push_front(held);
        }
    }

    /// The GUI quit or closed its input: the waiting lines are dropped.
    pub(super) fn drop_pending(&mut self) {
        let dropped = std::mem::take(&mut self.pending);
        self.dropped_inputs(dropped.back());
    }

    /// Held or waiting GUI inputs were dropped, `last` the last of them: when it is a piece
    /// of an over-long line that has not ended, the rest of that line is dropped too (the
    /// engine would read it as a line of its own).
    pub(super) fn dropped_inputs(&mut self, last: Option<&Held>) {
        if let Some(Held::Piece(chunk, _)) = last
            && !chunk.ends_with(b"\n")
        {
            self.dropping_gui_line = true;
        }
    }
}
