//! Lines longer than the line cap, handed over in pieces. A GUI line whose first token is a UCI
//! command is not sent: fenguard cannot judge it whole, so it must not reach the engine (SPEC
//! section 12: a 1 MiB `setoption name Threads value 1000 ...` would pass every cap). A
//! `position` is rejected (`line-too-long`), a `go` answered `bestmove 0000`, an `isready`
//! `readyok`, any other dropped with an `info string`. Other lines (not UCI commands) are
//! relayed unchanged, piece by piece, never interpreted, or dropped under `[guard] commands =
//! "uci"`. Engine lines are relayed unchanged. A GUI piece waits like a line (for a restart, or
//! for the engine's `uciok` while lines before it wait).

use bytes::Bytes;
use tracing::Level;

use super::{Action, Commands, Direction, Session, restart};
use crate::uci::{UciCommand, overlong_command};

impl Session {
    /// A piece of a GUI line longer than the line cap; `first` marks its first piece. Such a
    /// line is relayed unchanged, piece by piece, and never interpreted, except a `position`
    /// line: it is rejected (`line-too-long`) and dropped.
    pub fn on_gui_overlong(&mut self, chunk: Bytes, first: bool) -> Vec<Action> {
        if !first && self.dropping_gui_line {
            self.dropping_gui_line = !chunk.ends_with(b"\n");
            return Vec::new();
        }
        if self.restart.phase != restart::Phase::Running {
            return self.hold_gui_piece(chunk, first);
        }
        if !self.pending.is_empty() {
            self.pending.push_back(restart::Held::Piece(chunk, first));
            return Vec::new();
        }
        // Its rest is dropped if the engine goes away before the line's end (see
        // `on_engine_exit_at`): the new engine would read it as a line of its own.
        self.restart.gui_piece_open = !chunk.ends_with(b"\n");
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
                self.restart.gui_piece_open = false;
                self.queue_own_writes(&mut out, at);
                self.release(&mut out, None);
                self.gui_stream.hold_own_writes(&mut out);
                return out;
            }
        }
        self.overlong(Direction::FromGui, chunk, first)
    }

    /// A piece of an engine line longer than the line cap: relayed unchanged.
    pub fn on_engine_overlong(&mut self, chunk: Bytes, first: bool) -> Vec<Action> {
        let mut out = self.overlong(Direction::FromEngine, chunk, first);
        self.gui_stream.after_engine_writes(&mut out);
        out
    }

    /// Relays a piece of an over-long line read `from` one side to the other, uninterpreted.
    fn overlong(&self, from: Direction, chunk: Bytes, first: bool) -> Vec<Action> {
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
