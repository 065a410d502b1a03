//! Hung engines: the `uciok` and `readyok` deadlines (SPEC section 5: `engine.startup_timeout_ms`,
//! `engine.ping_timeout_ms`), an engine that stops reading its input, and what does not count as
//! hung.
//!
//! No `uciok` within the startup timeout of `uci`, or no `readyok` within the ping timeout of
//! `isready` (not timed while `uciok` is awaited: engines may load large networks at startup):
//! `info string fenguard: engine hung: no readyok within N ms; killing it` and
//! [`Action::KillEngine`]; the exit that follows is handled by `restart.rs`. The session asks
//! for the time with [`Session::next_deadline`] and learns it through [`Session::on_tick`].
//!
//! No `bestmove` within the ping timeout of a `stop` that ends a search is hung too.
//!
//! An engine whose output pipe held a backlog within the last [`OUTPUT_GRACE`] is behind, not
//! hung (its answer waits behind output it is blocked writing); one whose output merely keeps
//! arriving gets one more timeout at most; and the shell puts deadlines off
//! while it cannot read the engine at all ([`Session::defer_deadlines`]: the GUI is not reading
//! fenguard's output). An engine that does not read its input is reported by the shell
//! ([`Session::on_engine_input_stalled`]): the GUI's `isready` cannot reach it then.

use std::time::{Duration, Instant};

use tracing::Level;

use super::restart::{Phase, Restart};
use super::{Action, Session};

/// How recent a backlog in the engine's output pipe (for as long as it lasts), or the engine's
/// last output (for one more timeout at most), must be for a passed deadline to be put off
/// rather than end in "engine hung" (see [`Session::on_tick`]).
pub const OUTPUT_GRACE: Duration = Duration::from_millis(500);

impl Restart {
    pub(super) fn on_uci(&mut self, now: Option<Instant>) {
        self.gui_awaits_uciok = true;
        self.shown.clear();
        if let Some(now) = now {
            self.uci_deadline = Some(now + self.policy.startup_timeout);
        }
    }

    pub(super) fn on_uciok(&mut self, now: Option<Instant>) {
        self.gui_awaits_uciok = false;
        self.uci_deadline = None;
        if self.pings > 0 {
            self.ping_deadline = now.map(|now| now + self.answer_timeout());
        }
    }

    /// A GUI `isready` on its way to the engine (not timed while `uciok` is awaited: engines
    /// may load large networks at startup).
    pub(super) fn on_isready(&mut self, now: Option<Instant>) {
        self.pings = self.pings.saturating_add(1);
        if self.ping_deadline.is_none() && !self.gui_awaits_uciok {
            self.ping_deadline = now.map(|now| now + self.answer_timeout());
        }
    }

    pub(super) fn on_readyok(&mut self, now: Option<Instant>) {
        self.pings = self.pings.saturating_sub(1);
        if self.pings == 0 {
            self.slow_pending = false;
        }
        self.ping_deadline = match (self.pings, now) {
            (0, _) | (_, None) => None,
            (_, Some(now)) => Some(now + self.answer_timeout()),
        };
    }

    /// `stop` forwarded while the engine owes a `bestmove`.
    pub(super) fn on_stop(&mut self, now: Option<Instant>) {
        if self.stop_deadline.is_none() {
            self.stop_deadline = now.map(|now| now + self.answer_timeout());
        }
    }

    /// The engine's `bestmove` (a `stop` sent before a later `go` is answered by the first).
    pub(super) fn on_bestmove(&mut self) {
        self.stop_deadline = None;
    }

    /// `ping_timeout`, or `startup_timeout` (if longer) while a `setoption` / `ucinewgame` is
    /// not confirmed by a `readyok`: Stockfish takes seconds to allocate a large `Hash`.
    pub(super) fn answer_timeout(&self) -> Duration {
        if self.slow_pending {
            self.policy.ping_timeout.max(self.policy.startup_timeout)
        } else {
            self.policy.ping_timeout
        }
    }

    fn deadline(&self) -> Option<Instant> {
        [self.uci_deadline, self.ping_deadline, self.stop_deadline]
            .into_iter()
            .flatten()
            .min()
    }
}

impl Session {
    /// When the session wants [`Session::on_tick`] called (a `uciok` or `readyok` deadline);
    /// calling it earlier is harmless.
    pub fn next_deadline(&self) -> Option<Instant> {
        self.restart.deadline()
    }

    /// `engine.ping_timeout_ms`.
    pub fn ping_timeout(&self) -> std::time::Duration {
        self.restart.policy.ping_timeout
    }

    /// Moves a passed `uciok` / `readyok` deadline to `until`: the shell could not read the
    /// engine's output meanwhile (the GUI was not reading fenguard's).
    pub fn defer_deadlines(&mut self, until: Instant) {
        let r = &mut self.restart;
        r.overdue_since = None;
        for deadline in [
            &mut r.uci_deadline,
            &mut r.ping_deadline,
            &mut r.stop_deadline,
        ] {
            if let Some(at) = deadline
                && *at < until
            {
                *at = until;
            }
        }
    }

    /// The time is `now`: an engine that missed its `uciok` or `readyok` deadline is hung and
    /// gets killed ([`Action::KillEngine`]).
    ///
    /// An engine whose output pipe held a backlog within the last [`OUTPUT_GRACE`] is not
    /// hung, only behind: it is blocked writing output that comes before its answer. Its
    /// deadline moves to [`OUTPUT_GRACE`] after that backlog, for as long as it lasts. An
    /// engine whose output merely keeps arriving (read within [`OUTPUT_GRACE`], no backlog)
    /// gets the same delay for at most one more timeout: one that prints an `info` line now
    /// and then but never answers is hung.
    pub fn on_tick(&mut self, now: Instant) -> Vec<Action> {
        let r = &self.restart;
        let what = match (r.uci_deadline, r.ping_deadline) {
            (Some(at), _) if at <= now => ("uciok", r.policy.startup_timeout),
            (_, Some(at)) if at <= now => ("readyok", r.answer_timeout()),
            _ => match r.stop_deadline {
                Some(at) if at <= now => ("bestmove after stop", r.answer_timeout()),
                _ => return Vec::new(),
            },
        };
        let recent =
            |at: Option<Instant>| at.filter(|&at| now.saturating_duration_since(at) < OUTPUT_GRACE);
        if let Some(last) = recent(r.last_backlog) {
            self.defer_deadlines(last + OUTPUT_GRACE);
            return Vec::new();
        }
        if let Some(last) = recent(r.last_output) {
            let since = *self.restart.overdue_since.get_or_insert(now);
            if now.saturating_duration_since(since) < what.1 {
                self.defer_deadlines(last + OUTPUT_GRACE);
                self.restart.overdue_since = Some(since);
                return Vec::new();
            }
        }
        self.restart.overdue_since = None;
        self.restart.uci_deadline = None;
        self.restart.ping_deadline = None;
        self.restart.stop_deadline = None;
        self.hung(format!("no {} within {} ms", what.0, what.1.as_millis()))
    }

    /// A read found a backlog in the engine's output pipe within [`OUTPUT_GRACE`] of `now`:
    /// the engine may be blocked writing, and so not reading its input either.
    pub fn engine_output_backlogged(&self, now: Instant) -> bool {
        self.restart
            .last_backlog
            .is_some_and(|at| now.saturating_duration_since(at) < OUTPUT_GRACE)
    }

    /// A read of the engine's output at `now` found a backlog (many bytes at once): the
    /// engine is producing output faster than it is taken, and may be blocked writing it.
    pub fn on_engine_backlog_at(&mut self, now: Instant) {
        self.restart.last_backlog = Some(now);
        self.restart.overdue_since = None;
    }

    /// The engine has not read its input for `stalled` (a write to its stdin is blocked): it
    /// is hung like one that misses a deadline, and gets killed. (While it does not read, the
    /// GUI's `isready` and `quit` never reach the session, so the deadlines cannot catch it.)
    pub fn on_engine_input_stalled(&mut self, stalled: std::time::Duration) -> Vec<Action> {
        if self.restart.hung {
            return Vec::new();
        }
        self.hung(format!(
            "it has not read its input for {} ms",
            stalled.as_millis()
        ))
    }

    fn hung(&mut self, why: String) -> Vec<Action> {
        let mut out = Vec::new();
        if self.quitting || self.restart.phase == Phase::Waiting {
            return out;
        }
        self.restart.hung = true;
        let text = format!("engine hung: {why}; killing it");
        out.push(Action::Log(Level::WARN, text.clone()));
        self.say(&mut out, &text);
        out.push(Action::KillEngine);
        self.gui_stream.hold_own_writes(&mut out);
        out
    }
}
