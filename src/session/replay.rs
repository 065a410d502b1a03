//! The replay after a restart: GUI lines held while the engine is away, the new engine's
//! handshake swallowed, then the GUI's options, `ucinewgame` and last valid position sent
//! behind an `isready` barrier (see [`super::restart`]).

use std::time::Instant;

use bytes::Bytes;
use tracing::Level;

use super::owed::Entry;
use super::restart::{Held, Phase};
use super::{Action, Direction, Session, first_token};

impl Session {
    /// A GUI line while the engine restarts: `isready` answered at once (as an engine answers
    /// it even while searching; the lines held before it still go out in order), `quit`
    /// handled at once, the rest held until the engine is back.
    pub(super) fn hold_gui_line(&mut self, line: Bytes, now: Option<Instant>) -> Vec<Action> {
        let mut out = Vec::new();
        let uci_held = self
            .restart
            .held
            .iter()
            .any(|h| matches!(h, Held::Line(l, _) if first_token(l) == b"uci"));
        match first_token(&line) {
            // Not while a held `uci` waits: its `uciok` comes first.
            b"isready" if !uci_held => {
                self.transcribe(&mut out, Direction::FromGui, &line);
                self.owed.entries.push_back(Entry::Readyok { own: true });
                self.release(&mut out, now);
            }
            b"quit" => {
                self.transcribe(&mut out, Direction::FromGui, &line);
                return self.quit_while_restarting(out, Bytes::from_static(b"quit\n"));
            }
            // Transcribed when released.
            _ => {
                self.restart.held_bytes += line.len();
                self.restart.held.push_back(Held::Line(line, now));
            }
        }
        self.gui_stream.hold_own_writes(&mut out);
        out
    }

    /// fenguard gives up on the engine: the GUI lines held for it are answered as far as a
    /// GUI waits for an answer (`bestmove 0000` for each `go`, `readyok` for each `isready`),
    /// so no GUI waits forever, then dropped.
    pub(super) fn answer_held_lines(&mut self, out: &mut Vec<Action>) {
        let held = std::mem::take(&mut self.restart.held);
        self.dropped_inputs(held.back());
        for held in held {
            if let Held::Line(line, _) = held {
                let reply: &'static [u8] = match first_token(&line) {
                    b"go" if !super::search::is_perft(&line) => b"bestmove 0000\n",
                    b"isready" => b"readyok\n",
                    _ => continue,
                };
                self.forward_to_gui(out, Bytes::from_static(reply));
            }
        }
        self.restart.held_bytes = 0;
    }

    /// A piece of an over-long GUI line while the engine restarts: held.
    pub(super) fn hold_gui_piece(&mut self, chunk: Bytes, first: bool) -> Vec<Action> {
        self.restart.held_bytes += chunk.len();
        self.restart.held.push_back(Held::Piece(chunk, first));
        Vec::new()
    }

    /// `quit` or the GUI's end of input while restarting: nothing held is sent; with no engine
    /// running fenguard finishes at once.
    pub(super) fn quit_while_restarting(
        &mut self,
        mut out: Vec<Action>,
        line: Bytes,
    ) -> Vec<Action> {
        let held = std::mem::take(&mut self.restart.held);
        self.dropped_inputs(held.back());
        self.restart.held_bytes = 0;
        self.quitting = true;
        self.forget_owed(&mut out, None);
        if self.restart.phase == Phase::Waiting {
            out.push(Action::Log(
                Level::INFO,
                "GUI quit while the engine was restarting".to_owned(),
            ));
            out.push(Action::Finish(0));
        } else {
            self.forward_to_engine(&mut out, line);
            out.push(Action::StartQuitGrace);
        }
        out
    }

    /// An engine line during the replay: swallowed (relayed only while the GUI waits for its
    /// own `uciok`, and then only the handshake lines it has not seen: `handshake.rs`),
    /// `uciok` sends the replay, `readyok` ends it.
    pub(super) fn replay_engine_line(&mut self, line: Bytes, now: Option<Instant>) -> Vec<Action> {
        let token = first_token(&line);
        if self.restart.phase == Phase::Handshake {
            let relay = self.restart.gui_awaits_uciok && !self.restart.shown.has(&line);
            let mut out = if relay {
                self.engine_line_running(line.clone(), now)
            } else {
                let mut out = Vec::new();
                self.transcribe(&mut out, Direction::FromEngine, &line);
                out
            };
            if token == b"uciok" {
                if relay {
                    self.answer_remaining_uciok(&mut out, now);
                }
                self.restart.gui_awaits_uciok = false;
                self.restart.uci_deadline = None;
                self.send_replay(&mut out, now);
            }
            return out;
        }
        let mut out = Vec::new();
        self.transcribe(&mut out, Direction::FromEngine, &line);
        if token == b"readyok" && self.barrier_readyok(now) {
            self.restart.phase = Phase::Running;
            self.restart.ping_deadline = None;
            self.restart.slow_pending = false;
            let restored = if self.restart.position.is_some() && !self.rejected {
                "options and position restored"
            } else {
                "options restored"
            };
            let text = format!(
                "engine restarted (restart {}): {restored}",
                self.restart.count
            );
            out.push(Action::Log(Level::INFO, text.clone()));
            self.say(&mut out, &text);
            self.gui_stream.after_engine_writes(&mut out);
            while let Some(held) = self.restart.held.pop_front() {
                out.extend(match held {
                    Held::Line(line, at) => self.gui_line(line, at),
                    Held::Piece(chunk, first) => self.on_gui_overlong(chunk, first),
                });
            }
            self.restart.held_bytes = 0;
        }
        out
    }

    /// The GUI's options (a suspect followed by its own `isready`: `option_blame.rs`),
    /// `ucinewgame`, the last valid position, then `isready`.
    fn send_replay(&mut self, out: &mut Vec<Action>, now: Option<Instant>) {
        let mut lines = self.replay_options();
        // Replayed options (a large Hash takes seconds) and `ucinewgame` are timed like the
        // GUI's own (`Restart::answer_timeout`).
        self.restart.slow_pending = !lines.is_empty() || self.restart.ucinewgame;
        if self.restart.ucinewgame {
            lines.push(Bytes::from_static(b"ucinewgame\n"));
        }
        if let Some(position) = self.restart.position.clone().filter(|_| !self.rejected) {
            lines.push(position);
        }
        lines.push(Bytes::from_static(b"isready\n"));
        self.restart.barrier.push_back(None);
        for line in lines {
            self.forward_to_engine(out, line);
        }
        self.restart.phase = Phase::Barrier;
        self.restart.ping_deadline = now.map(|now| now + self.restart.answer_timeout());
    }
}
