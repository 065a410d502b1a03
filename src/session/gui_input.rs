//! The GUI's side of the alphabet: a line read once into its command and dispatched on it, and
//! the end of the GUI's input.
//!
//! A line that cannot be handled yet waits in the inbox (`inbox.rs`): while the engine
//! restarts (`replay.rs`), or behind a line that waits for the engine's `uciok`.

use std::time::Instant;

use bytes::Bytes;
use tracing::Level;

use super::owed::Entry;
use super::{Action, Direction, Session, first_token, inbox::Held};
use crate::uci::{UciCommand, canonical_line, holds_nul};

/// The UCI command a GUI line holds (its first token, read once).
pub(super) fn command_of(line: &[u8]) -> Option<UciCommand> {
    UciCommand::from_word(first_token(line))
}

impl Session {
    /// A line from the GUI, terminator included, holding `command`, read at `now`.
    pub(super) fn gui_line(
        &mut self,
        line: Bytes,
        command: Option<UciCommand>,
        now: Instant,
    ) -> Vec<Action> {
        if !self.phase.is_running() {
            return self.hold_gui_line(line, command, now);
        }
        if self.waits_for_uciok(command) {
            self.inbox.push(Held::Line(line, command, now));
            return Vec::new();
        }
        let mut out = Vec::with_capacity(2 + 2 * usize::from(self.transcript));
        let at = self.owed.entries.len();
        self.transcribe(&mut out, Direction::FromGui, &line);
        self.restart.suspects.on_gui_command(command);
        self.gui_crlf = line.ends_with(b"\r\n");
        // What the engine reads is what fenguard judges: a UCI command is judged and sent in
        // its canonical form (SPEC section 12); the GUI's own line is kept for the position
        // log when it differs (`original`).
        let (line, original) = match command.and_then(|c| canonical_line(&line, c)) {
            Some(canonical) => (Bytes::from(canonical), Some(line)),
            None => (line, None),
        };
        if let Some(c) = command {
            self.log_gui_command(&mut out, c, original.as_ref().unwrap_or(&line));
        }
        match command {
            // Arguments with a NUL: C and C++ engines would read different commands.
            Some(c) if c.takes_arguments() && c != UciCommand::Position && holds_nul(&line) => {
                self.not_sent(&mut out, &line, command, "a NUL byte in it");
            }
            Some(UciCommand::Quit) => {
                self.drop_inbox();
                self.forward_to_engine(&mut out, line);
                self.start_quitting(&mut out);
            }
            Some(UciCommand::Position) => self.on_position(&mut out, line, original.as_deref()),
            Some(UciCommand::Go) => self.on_go(&mut out, line, now),
            Some(c @ (UciCommand::Stop | UciCommand::PonderHit)) => {
                self.on_stop(&mut out, line, c, now)
            }
            Some(UciCommand::SetOption) => self.on_setoption(&mut out, line, now),
            Some(UciCommand::IsReady) => {
                self.timers.on_isready(now, self.gui_awaits_uciok);
                self.owed.entries.push_back(Entry::Readyok { own: false });
                self.forward_to_engine(&mut out, line);
            }
            Some(UciCommand::Uci) => {
                self.c960.on_uci();
                self.offer.on_uci();
                self.gui_awaits_uciok = true;
                self.shown.clear();
                self.timers.on_uci(now);
                self.owed.entries.push_back(Entry::Uciok);
                self.forward_to_engine(&mut out, line);
            }
            Some(UciCommand::UciNewGame) => {
                self.restart.note_ucinewgame();
                self.timers.slow_pending = true;
                self.forward_to_engine(&mut out, line);
            }
            Some(UciCommand::Debug | UciCommand::Register) => {
                self.forward_to_engine(&mut out, line)
            }
            None => self.on_other_command(&mut out, line, now),
        }
        self.queue_own_writes(&mut out, at);
        self.release(&mut out, now);
        self.gui_stream.hold_own_writes(&mut out);
        out
    }

    /// The GUI's input ended: forward the end of input and start the quit grace (after the
    /// lines that wait for the engine's `uciok`).
    pub(super) fn gui_eof(&mut self) -> Vec<Action> {
        if self.phase == super::Phase::Waiting {
            if self.quitting {
                // The GUI's `quit` already ended the session while the engine was away.
                return Vec::new();
            }
            return self.quit_while_restarting(Vec::new(), Bytes::new());
        }
        if self.phase.is_running() && !self.inbox.is_empty() {
            self.inbox.eof = true;
            return vec![Action::Log(
                Level::INFO,
                "GUI closed its output: its lines waiting for the engine's uciok go first"
                    .to_owned(),
            )];
        }
        let mut out = vec![
            Action::Log(
                Level::INFO,
                "GUI closed its output: closing the engine's input".to_owned(),
            ),
            Action::CloseEngineInput,
        ];
        self.quit_at_eof(&mut out);
        out
    }
}
