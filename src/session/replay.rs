//! The replay after a restart: GUI lines held while the engine is away, the new engine's
//! handshake swallowed, then the GUI's options, `ucinewgame` and last valid position sent
//! behind an `isready` barrier (see [`super::restart`] and [`super::Phase`]).

use std::time::Instant;

use bytes::Bytes;
use tracing::Level;

use super::inbox::Held;
use super::owed::Entry;
use super::phase::Barrier;
use super::timers::Timer;
use super::{Action, Direction, Phase, Session};
use crate::uci::{EngineLine, UciCommand};

impl Session {
    /// A GUI line while the engine restarts: `isready` answered at once (as an engine answers
    /// it even while searching; the lines held before it still go out in order), `quit`
    /// handled at once, the rest held until the engine is back.
    pub(super) fn hold_gui_line(
        &mut self,
        line: Bytes,
        command: Option<UciCommand>,
        now: Instant,
    ) -> Vec<Action> {
        let mut out = Vec::new();
        match command {
            // Not while a held `uci` waits: its `uciok` comes first.
            Some(UciCommand::IsReady) if !self.inbox.holds_uci() => {
                self.transcribe(&mut out, Direction::FromGui, &line);
                self.owed.entries.push_back(Entry::Readyok { own: true });
                self.release(&mut out, now);
            }
            Some(UciCommand::Quit) => {
                self.transcribe(&mut out, Direction::FromGui, &line);
                return self.quit_while_restarting(out, Bytes::from_static(b"quit\n"));
            }
            // Ends a `go ponder` / `go infinite` of the lost engine that fenguard answers (the
            // engine's held `bestmove`, or `bestmove 0000`): answered now, as nothing waits
            // before it; nothing is forwarded.
            Some(c @ (UciCommand::Stop | UciCommand::PonderHit))
                if self.inbox.is_empty() && self.owed.holds_own_search() =>
            {
                self.transcribe(&mut out, Direction::FromGui, &line);
                self.on_stop(&mut out, line, c, now);
                self.release(&mut out, now);
            }
            // Transcribed when released.
            _ => self.inbox.push(Held::Line(line, command, now)),
        }
        self.gui_stream.hold_own_writes(&mut out);
        out
    }

    /// fenguard gives up on the engine: the GUI lines held for it are answered as far as a
    /// GUI waits for an answer (`bestmove 0000` for each `go`, `readyok` for each `isready`),
    /// so no GUI waits forever, then dropped.
    pub(super) fn answer_held_lines(&mut self, out: &mut Vec<Action>) {
        for held in self.drop_inbox() {
            if let Held::Line(line, command, _) = held {
                let reply: &'static [u8] = match command {
                    Some(UciCommand::Go) if !super::search::is_perft(&line) => b"bestmove 0000\n",
                    Some(UciCommand::IsReady) => b"readyok\n",
                    _ => continue,
                };
                self.forward_to_gui(out, Bytes::from_static(reply));
            }
        }
    }

    /// `quit` or the GUI's end of input while restarting: nothing held is sent; with no engine
    /// running fenguard finishes at once.
    pub(super) fn quit_while_restarting(
        &mut self,
        mut out: Vec<Action>,
        line: Bytes,
    ) -> Vec<Action> {
        self.drop_inbox();
        self.quitting = true;
        self.forget_owed(&mut out, None);
        if self.phase == Phase::Waiting {
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
    pub(super) fn replay_engine_line(
        &mut self,
        line: &Bytes,
        parsed: &EngineLine<'_>,
        now: Instant,
    ) -> Vec<Action> {
        let mut out = Vec::new();
        if self.phase == Phase::Handshake {
            let relay = self.gui_awaits_uciok && !self.shown.has(parsed);
            if relay {
                self.engine_line_running(&mut out, line, parsed, now);
                self.release(&mut out, now);
                self.gui_stream.after_engine_writes(&mut out);
            } else {
                self.transcribe(&mut out, Direction::FromEngine, line);
            }
            if *parsed == EngineLine::UciOk {
                if relay {
                    self.answer_remaining_uciok(&mut out, now);
                }
                self.gui_awaits_uciok = false;
                self.timers.stop(Timer::Uciok);
                self.send_replay(&mut out, now);
            }
            return out;
        }
        self.transcribe(&mut out, Direction::FromEngine, line);
        if *parsed == EngineLine::ReadyOk && self.barrier_readyok(now) {
            self.phase = Phase::Running;
            self.timers.stop(Timer::Readyok);
            self.timers.slow_pending = false;
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
            self.release_inbox(&mut out, now);
        }
        out
    }

    /// The GUI's options (a suspect followed by its own `isready`: `option_blame.rs`),
    /// `ucinewgame`, the last valid position, then `isready`.
    fn send_replay(&mut self, out: &mut Vec<Action>, now: Instant) {
        let mut barrier = Barrier::default();
        let mut lines = self.replay_options(&mut barrier);
        // Replayed options (a large Hash takes seconds) and `ucinewgame` are timed like the
        // GUI's own (`Timers::answer_timeout`).
        self.timers.slow_pending = !lines.is_empty() || self.restart.ucinewgame;
        if self.restart.ucinewgame {
            lines.push(Bytes::from_static(b"ucinewgame\n"));
        }
        if let Some(position) = self.restart.position.clone().filter(|_| !self.rejected) {
            lines.push(position);
        }
        lines.push(Bytes::from_static(b"isready\n"));
        barrier.tests.push_back(None);
        for line in lines {
            self.forward_to_engine(out, line);
        }
        self.phase = Phase::Barrier(barrier);
        self.timers
            .set(Timer::Readyok, now + self.timers.answer_timeout());
    }
}
