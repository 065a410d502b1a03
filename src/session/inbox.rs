//! The one queue of GUI input that cannot be handled yet, in the GUI's order: lines waiting
//! for the engine's `uciok` and lines held while the engine restarts.
//!
//! Waiting for `uciok` (SPEC section 6, "Order"): after the GUI's `uci`, until the engine's
//! `uciok` has been read, a `position` (it may need Chess960, which depends on the engine
//! offering `UCI_Chess960`) or a `setoption` (`UCI_Chess960`, `UCI_Variant`, fenguard's own)
//! waits, and so does every GUI line after it, in order (the engine must get the GUI's lines in
//! the GUI's order). `quit` and the end of the GUI's input wait behind them too, as the bare
//! engine reads its input in order (`uci`, `isready`, `position`, `go`, `quit` in one write is
//! answered `uciok`, `readyok`, `bestmove`); an engine that never sends `uciok` is bounded by
//! `engine.startup_timeout_ms`. A GUI that pipelines `uci`, `setoption name UCI_Chess960 value
//! true`, `position fen <Chess960 FEN>` and `go` in one write so gets its position judged
//! against the engine's option list, as the bare engine would read it.
//!
//! Held for a restart (`replay.rs`): while the engine is away, every GUI line but `isready`
//! and `quit` is held, and handled once the new engine is ready. Lines that waited for `uciok`
//! when the engine exited simply stay in front: it is the same queue.

use std::collections::VecDeque;
use std::time::Instant;

use bytes::Bytes;

use super::{Action, Session};
use crate::uci::UciCommand;

/// GUI bytes held before the shell stops reading the GUI for now.
const QUEUE_CAP: usize = 1 << 20;

/// A GUI input that waits.
#[derive(Debug)]
pub(super) enum Held {
    /// A whole line, its command (read once) and when it was read.
    Line(Bytes, Option<UciCommand>, Instant),
    /// A piece of an over-long line (`true`: its first piece).
    Piece(Bytes, bool),
}

impl Held {
    fn len(&self) -> usize {
        match self {
            Held::Line(line, ..) => line.len(),
            Held::Piece(chunk, _) => chunk.len(),
        }
    }
}

/// The waiting GUI inputs, oldest first.
#[derive(Debug, Default)]
pub(super) struct Inbox {
    held: VecDeque<Held>,
    bytes: usize,
    /// The GUI's input ended while lines waited for `uciok`: it is forwarded after them.
    pub(super) eof: bool,
}

impl Inbox {
    pub(super) fn is_empty(&self) -> bool {
        self.held.is_empty()
    }

    pub(super) fn push(&mut self, held: Held) {
        self.bytes += held.len();
        self.held.push_back(held);
    }

    /// Everything waiting, oldest first; the inbox is left empty.
    pub(super) fn take(&mut self) -> VecDeque<Held> {
        self.bytes = 0;
        std::mem::take(&mut self.held)
    }

    /// Whether a `uci` line waits (its `uciok` comes before any `readyok` fenguard writes).
    pub(super) fn holds_uci(&self) -> bool {
        self.held
            .iter()
            .any(|h| matches!(h, Held::Line(_, Some(UciCommand::Uci), _)))
    }

    /// So many bytes wait that the shell should stop reading the GUI for now.
    pub(super) fn full(&self) -> bool {
        self.bytes >= QUEUE_CAP
    }
}

impl Session {
    /// So many GUI lines wait (for a restarting engine, or its `uciok`) that the shell should
    /// stop reading the GUI for now.
    pub fn gui_paused(&self) -> bool {
        self.inbox.full()
    }

    /// Whether a GUI line with `command` must wait for the engine's `uciok` (the engine runs).
    pub(super) fn waits_for_uciok(&self, command: Option<UciCommand>) -> bool {
        !self.inbox.is_empty()
            || (self.gui_awaits_uciok
                && matches!(command, Some(UciCommand::Position | UciCommand::SetOption)))
    }

    /// The engine is ready (its `uciok`, or the end of a replay): the waiting inputs are
    /// handled, in order (one that must wait again, after a later `uci` among them, waits
    /// with all behind it), then an end of input that waited behind them.
    pub(super) fn release_inbox(&mut self, out: &mut Vec<Action>, now: Instant) {
        for held in self.inbox.take() {
            let actions = match held {
                Held::Line(line, command, at) => self.gui_line(line, command, at),
                Held::Piece(chunk, first) => self.gui_piece(chunk, first, now),
            };
            out.extend(actions);
        }
        if self.inbox.is_empty() && std::mem::take(&mut self.inbox.eof) {
            out.extend(self.gui_eof());
        }
    }

    /// The GUI quit or closed its input, or fenguard gives up: the waiting inputs are dropped
    /// (returned, oldest first).
    pub(super) fn drop_inbox(&mut self) -> VecDeque<Held> {
        let dropped = self.inbox.take();
        self.dropped_inputs(dropped.back());
        dropped
    }

    /// Waiting GUI inputs were dropped, `last` the last of them: when it is a piece of an
    /// over-long line that has not ended, the rest of that line is dropped too (the engine
    /// would read it as a line of its own).
    fn dropped_inputs(&mut self, last: Option<&Held>) {
        if let Some(Held::Piece(chunk, _)) = last
            && !chunk.ends_with(b"\n")
        {
            self.dropping_gui_line = true;
        }
    }
}
