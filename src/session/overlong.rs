//! Lines longer than the line cap, handed over in pieces. A GUI line whose first token is a UCI
//! command is not sent: fenguard cannot judge it whole, so it must not reach the engine (SPEC
//! section 12: a 1 MiB `setoption name Threads value 1000 ...` would pass every cap). A
//! `position` is rejected (`line-too-long`), a `go` answered `bestmove 0000`, an `isready`
//! `readyok`, any other dropped with an `info string`. Other lines (not UCI commands) are
//! relayed unchanged, piece by piece, never interpreted, or dropped under `[guard] commands =
//! "uci"`. Engine lines are relayed unchanged. A GUI piece waits like a line (for a restart, or
//! for the engine's `uciok` while lines before it wait).

use std::time::Instant;

use bytes::Bytes;
use tracing::Level;

use super::inbox::Held;
use super::{Action, Commands, Direction, Session};
use crate::uci::{UciCommand, overlong_command};

impl Session {
    /// A piece of a GUI line longer than the line cap, read at `now`; `first` marks its first
    /// piece. Such a line is relayed unchanged, piece by piece, and never interpreted, except
    /// a UCI command: it is not sent (a `position` is rejected, `line-too-long`).
    pub(super) fn gui_piece(&mut self, chunk: Bytes, first: bool, now: Instant) -> Vec<Action> {
        if !first && self.dropping_gui_line {
            self.dropping_gui_line = !chunk.ends_with(b"\n");
            return Vec::new();
        }
        if !self.phase.is_running() || !self.inbox.is_empty() {
            self.inbox.push(Held::Piece(chunk, first));
            return Vec::new();
        }
        // Its rest is dropped if the engine goes away before the line's end (see
        // `restart.rs`): the new engine would read it as a line of its own.
        self.gui_piece_open = !chunk.ends_with(b"\n");
        if first {
            // A UCI command, or what may still become one (whitespace only so far, a word cut
            // at the piece's end): fenguard cannot judge it, so it is not sent.
            let reading = overlong_command(&chunk);
            let command = reading.flatten();
            if reading.is_some() || self.commands == Commands::Uci {
                let at = self.owed.entries.len();
                let mut out = Vec::new();
                self.transcribe(&mut out, Direction::FromGui, &chunk);
                match command {
                    Some(UciCommand::Position) => {
                        out.extend(self.reject_overlong_position(&chunk));
                    }
                    _ => {
                        let why = format!("longer than {} bytes", chunk.len());
                        self.not_sent(&mut out, &chunk, command, &why);
                    }
                }
                self.dropping_gui_line = !chunk.ends_with(b"\n");
                self.gui_piece_open = false;
                self.queue_own_writes(&mut out, at);
                self.release(&mut out, now);
                self.gui_stream.hold_own_writes(&mut out);
                return out;
            }
        }
        self.overlong(Direction::FromGui, chunk, first)
    }

    /// Relays a piece of an over-long line read `from` one side to the other, uninterpreted.
    pub(super) fn overlong(&self, from: Direction, chunk: Bytes, first: bool) -> Vec<Action> {
        let mut out = Vec::new();
        let side = if from == Direction::FromGui {
            "GUI"
        } else {
            "engine"
        };
        if first {
            let message =
                format!("{side} line over the length cap: relayed unchanged, not interpreted");
            out.push(Action::Log(Level::WARN, message));
        }
        self.transcribe(&mut out, from, &chunk);
        if from == Direction::FromGui {
            self.forward_to_engine(&mut out, chunk);
        } else {
            self.forward_to_gui(&mut out, chunk);
        }
        out
    }
}
