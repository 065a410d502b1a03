//! Hung engines: the `uciok` and `readyok` deadlines (SPEC section 5: `engine.startup_timeout_ms`,
//! `engine.ping_timeout_ms`), an engine that stops reading its input, and what does not count as
//! hung.
//!
//! No `uciok` within the startup timeout of `uci`, or no `readyok` within the ping timeout of
//! `isready` (not timed while `uciok` is awaited: engines may load large networks at startup):
//! `info string fenguard: engine hung: no readyok within N ms; killing it` and
//! [`Action::KillEngine`]; the exit that follows is handled by `restart.rs`. The session asks
//! for the time with [`Session::next_deadline`] and learns it through [`super::Input::Tick`] (`timers.rs` holds the
//! deadlines).
//!
//! No `bestmove` within the ping timeout of a `stop` that ends a search is hung too.
//!
//! An engine whose output pipe held a backlog within the last [`OUTPUT_GRACE`] is behind, not
//! hung (its answer waits behind output it is blocked writing); one whose output merely keeps
//! arriving gets one more timeout at most; and the shell puts deadlines off
//! while it cannot read the engine at all ([`super::Input::DeferDeadlines`]: the GUI is not reading
//! fenguard's output). An engine that does not read its input is reported by the shell
//! ([`super::Input::EngineInputStalled`]): the GUI's `isready` cannot reach it then.

use std::time::{Duration, Instant};

use tracing::Level;

use super::{Action, Phase, Session};

/// How recent a backlog in the engine's output pipe (for as long as it lasts), or the engine's
/// last output (for one more timeout at most), must be for a passed deadline to be put off
/// rather than end in "engine hung" (see [`super::Input::Tick`]).
pub const OUTPUT_GRACE: Duration = Duration::from_millis(500);

impl Session {
    /// When the session wants an [`super::Input::Tick`] (the earliest `uciok`, `readyok` or
    /// `bestmove` deadline); one earlier is harmless.
    pub fn next_deadline(&self) -> Option<Instant> {
        self.timers.next()
    }

    /// `engine.ping_timeout_ms`.
    pub fn ping_timeout(&self) -> Duration {
        self.timers.ping_timeout
    }

    /// [`super::Input::DeferDeadlines`]: passed deadlines move to `until`.
    pub(super) fn defer(&mut self, until: Instant) {
        self.timers.overdue_since = None;
        self.timers.defer(until);
    }

    /// [`super::Input::Tick`] at `now`: an engine that missed its `uciok`, `readyok` or `bestmove`
    /// deadline is hung and gets killed ([`Action::KillEngine`]).
    ///
    /// An engine whose output pipe held a backlog within the last [`OUTPUT_GRACE`] is not
    /// hung, only behind: it is blocked writing output that comes before its answer. Its
    /// deadline moves to [`OUTPUT_GRACE`] after that backlog, for as long as it lasts. An
    /// engine whose output merely keeps arriving (read within [`OUTPUT_GRACE`], no backlog)
    /// gets the same delay for at most one more timeout: one that prints an `info` line now
    /// and then but never answers is hung.
    pub(super) fn tick(&mut self, now: Instant) -> Vec<Action> {
        let t = &self.timers;
        let Some(timer) = t.expired(now) else {
            return Vec::new();
        };
        let timeout = t.timeout(timer);
        let recent =
            |at: Option<Instant>| at.filter(|&at| now.saturating_duration_since(at) < OUTPUT_GRACE);
        if let Some(last) = recent(t.last_backlog) {
            self.defer(last + OUTPUT_GRACE);
            return Vec::new();
        }
        if let Some(last) = recent(t.last_output) {
            let since = *self.timers.overdue_since.get_or_insert(now);
            if now.saturating_duration_since(since) < timeout {
                self.defer(last + OUTPUT_GRACE);
                self.timers.overdue_since = Some(since);
                return Vec::new();
            }
        }
        self.timers.overdue_since = None;
        self.timers.stop_all();
        let why = format!("no {} within {} ms", timer.missed(), timeout.as_millis());
        self.hung(why)
    }

    /// A read found a backlog in the engine's output pipe within [`OUTPUT_GRACE`] of `now`:
    /// the engine may be blocked writing, and so not reading its input either.
    pub fn engine_output_backlogged(&self, now: Instant) -> bool {
        self.timers
            .last_backlog
            .is_some_and(|at| now.saturating_duration_since(at) < OUTPUT_GRACE)
    }

    /// [`super::Input::EngineInputStalled`]: the engine has not read its input for `stalled`.
    pub(super) fn input_stalled(&mut self, stalled: Duration) -> Vec<Action> {
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
        if self.quitting || self.phase == Phase::Waiting {
            // An engine that quit-waits for a `uciok` it never sends: the grace ends it.
            self.quit_grace_due(&mut out, true);
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
