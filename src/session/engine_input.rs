//! The engine's side of the alphabet: a line read once into an [`EngineLine`] and dispatched on
//! it (while the engine runs; during a restart `replay.rs` takes it), and pieces of over-long
//! lines.

use std::time::Instant;

use bytes::Bytes;

use super::owed;
use super::{Action, Direction, Session};
use crate::uci::EngineLine;

impl Session {
    /// A line from the engine, terminator included, read at `now`.
    pub(super) fn engine_line(&mut self, line: Bytes, now: Instant) -> Vec<Action> {
        self.timers.last_output = Some(now);
        let parsed = EngineLine::parse(&line);
        if parsed.is_answer() {
            self.timers.overdue_since = None;
        }
        if line.last() != Some(&b'\n') {
            return self.engine_fragment(&line);
        }
        if !self.phase.is_running() {
            return self.replay_engine_line(&line, &parsed, now);
        }
        let mut out = Vec::with_capacity(1 + 2 * usize::from(self.transcript));
        self.engine_line_running(&mut out, &line, &parsed, now);
        self.release(&mut out, now);
        self.gui_stream.after_engine_writes(&mut out);
        if parsed == EngineLine::UciOk {
            self.release_inbox(&mut out, now);
        }
        out
    }

    /// An engine line `line` (read as `parsed`) relayed to the GUI as the engine runs, or as
    /// the GUI waits for its own `uciok` from a restarted engine (`replay.rs`).
    pub(super) fn engine_line_running(
        &mut self,
        out: &mut Vec<Action>,
        line: &Bytes,
        parsed: &EngineLine<'_>,
        now: Instant,
    ) {
        self.transcribe(out, Direction::FromEngine, line);
        if self.gui_awaits_uciok {
            self.shown.note(parsed);
        }
        match parsed {
            EngineLine::Info if self.c960.notations_differ() => self.on_info(out, line),
            EngineLine::BestMove => {
                if self.hold_early_bestmove(out, line) {
                    return;
                }
                self.restart.search_suspects.on_bestmove();
                self.on_bestmove(out, line, now);
            }
            EngineLine::Option(opt) => {
                self.spins.note(opt);
                self.c960.on_engine_option(opt);
                self.offer.on_engine_option(line, opt);
                let line = self.guard_option(line, opt);
                if let Some(line) = self.adapt_engine_option(line) {
                    self.forward_to_gui(out, line);
                }
            }
            EngineLine::ReadyOk => {
                self.timers.on_readyok(now);
                self.restart.suspects.on_readyok();
                if !self.owed.readyok_waits() {
                    self.forward_to_gui(out, line.clone());
                    self.owed.answered(owed::Answer::Readyok);
                }
            }
            EngineLine::UciOk => {
                self.gui_awaits_uciok = false;
                self.offer.on_uciok();
                self.timers.on_uciok(now);
                if !self.quitting {
                    self.send_presets(out);
                }
                // A daemon client is shown only fenguard's options it may set.
                let announced = super::options::OPTION_NAMES
                    .iter()
                    .zip(self.settings.announce());
                for (name, option) in announced {
                    if self.guard.as_ref().is_none_or(|g| g.allows_own(Some(name))) {
                        self.forward_to_gui(out, Bytes::from(option));
                    }
                }
                self.forward_to_gui(out, line.clone());
                self.owed.answered(owed::Answer::Uciok);
                // The GUI sent `uci` more than once: it waits for the next one.
                self.gui_awaits_uciok = self.uciok_owed();
                self.quit_grace_due(out, false);
            }
            EngineLine::Id(field) => {
                let line = self.adapt_id(line, field);
                self.forward_to_gui(out, line);
            }
            _ => self.forward_to_gui(out, line.clone()),
        }
    }

    /// A piece of an engine line longer than the line cap: relayed unchanged.
    pub(super) fn engine_piece(&mut self, chunk: Bytes, first: bool) -> Vec<Action> {
        let mut out = self.overlong(Direction::FromEngine, chunk, first);
        self.gui_stream.after_engine_writes(&mut out);
        out
    }
}
