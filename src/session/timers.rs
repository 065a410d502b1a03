//! The session's clocks in one table (quinn-proto's `TimerTable`): the three answer deadlines
//! of a hung engine (SPEC section 5: `uciok` within `engine.startup_timeout_ms` of `uci`,
//! `readyok` within `engine.ping_timeout_ms` of `isready`, `bestmove` within it of `stop`),
//! and the marks they are judged by (the engine's last output, its last output backlog, when a
//! passed deadline was first put off). The shell asks [`Timers::next`] through
//! [`super::Session::next_deadline`] and hands the time over as [`super::Input::Tick`];
//! what a passed deadline means is `hang.rs`'s.

use std::time::{Duration, Instant};

use super::restart::RestartPolicy;

/// One deadline of the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Timer {
    /// The engine owes `uciok` (the GUI's `uci`, or the replay's).
    Uciok,
    /// The engine owes `readyok` (the GUI's `isready`, or the replay's barrier).
    Readyok,
    /// The engine owes `bestmove` after a `stop`.
    Bestmove,
}

impl Timer {
    /// The deadlines in the order a passed one is reported.
    const ALL: [Timer; 3] = [Timer::Uciok, Timer::Readyok, Timer::Bestmove];

    /// What the engine did not send in time, for the "engine hung" message.
    pub(super) fn missed(self) -> &'static str {
        match self {
            Timer::Uciok => "uciok",
            Timer::Readyok => "readyok",
            Timer::Bestmove => "bestmove after stop",
        }
    }
}

/// The deadlines, the marks they are judged by, and what the answer timeout depends on.
#[derive(Debug)]
pub(super) struct Timers {
    deadlines: [Option<Instant>; 3],
    /// When the engine's output was last read.
    pub(super) last_output: Option<Instant>,
    /// When a read last found a backlog in the engine's output pipe: the engine is blocked
    /// writing, so behind, not hung.
    pub(super) last_backlog: Option<Instant>,
    /// When a passed deadline was first put off for output that kept arriving without a
    /// backlog (cleared by `uciok`, `readyok`, `bestmove`, a backlog, an exit or a stalled
    /// GUI): such put-offs end after one more timeout, so an engine that keeps printing but
    /// never answers is still caught.
    pub(super) overdue_since: Option<Instant>,
    /// GUI `isready` lines the engine has not answered.
    pub(super) pings: u32,
    /// A `setoption` or `ucinewgame` went to the engine since its last `readyok`: it may be
    /// allocating a hash table or loading a network, so `readyok` / `bestmove` get
    /// `startup_timeout` rather than `ping_timeout`.
    pub(super) slow_pending: bool,
    /// `engine.startup_timeout_ms`.
    pub(super) startup_timeout: Duration,
    /// `engine.ping_timeout_ms`.
    pub(super) ping_timeout: Duration,
}

impl Timers {
    /// An empty table with `policy`'s timeouts.
    pub(super) fn new(policy: &RestartPolicy) -> Timers {
        Timers {
            deadlines: [None; 3],
            last_output: None,
            last_backlog: None,
            overdue_since: None,
            pings: 0,
            slow_pending: false,
            startup_timeout: policy.startup_timeout,
            ping_timeout: policy.ping_timeout,
        }
    }

    /// The deadline `timer`, when armed.
    pub(super) fn get(&self, timer: Timer) -> Option<Instant> {
        self.deadlines[timer as usize]
    }

    /// Arms `timer` at `at` (replacing an earlier one).
    pub(super) fn set(&mut self, timer: Timer, at: Instant) {
        self.deadlines[timer as usize] = Some(at);
    }

    /// Arms `timer` at `at` unless it is armed already.
    pub(super) fn set_unless_armed(&mut self, timer: Timer, at: Instant) {
        self.deadlines[timer as usize].get_or_insert(at);
    }

    /// Disarms `timer`.
    pub(super) fn stop(&mut self, timer: Timer) {
        self.deadlines[timer as usize] = None;
    }

    /// Disarms every deadline.
    pub(super) fn stop_all(&mut self) {
        self.deadlines = [None; 3];
    }

    /// The earliest armed deadline.
    pub(super) fn next(&self) -> Option<Instant> {
        self.deadlines.iter().flatten().min().copied()
    }

    /// The first deadline (in [`Timer::ALL`] order) passed at `now`.
    pub(super) fn expired(&self, now: Instant) -> Option<Timer> {
        Timer::ALL
            .into_iter()
            .find(|&t| self.get(t).is_some_and(|at| at <= now))
    }

    /// Moves every deadline before `until` to `until`.
    pub(super) fn defer(&mut self, until: Instant) {
        for at in self.deadlines.iter_mut().flatten() {
            if *at < until {
                *at = until;
            }
        }
    }

    /// `ping_timeout`, or `startup_timeout` (if longer) while a `setoption` / `ucinewgame` is
    /// not confirmed by a `readyok`: Stockfish takes seconds to allocate a large `Hash`.
    pub(super) fn answer_timeout(&self) -> Duration {
        if self.slow_pending {
            self.ping_timeout.max(self.startup_timeout)
        } else {
            self.ping_timeout
        }
    }

    /// How long `timer` gives the engine.
    pub(super) fn timeout(&self, timer: Timer) -> Duration {
        match timer {
            Timer::Uciok => self.startup_timeout,
            Timer::Readyok | Timer::Bestmove => self.answer_timeout(),
        }
    }

    /// The GUI sent `uci` at `now` (or the replay did).
    pub(super) fn on_uci(&mut self, now: Instant) {
        self.set(Timer::Uciok, now + self.startup_timeout);
    }

    /// The engine's `uciok` at `now`: `readyok` is timed from now on.
    pub(super) fn on_uciok(&mut self, now: Instant) {
        self.stop(Timer::Uciok);
        if self.pings > 0 {
            self.set(Timer::Readyok, now + self.answer_timeout());
        }
    }

    /// A GUI `isready` on its way to the engine at `now`; `untimed` while the GUI waits for
    /// `uciok` (engines may load large networks at startup).
    pub(super) fn on_isready(&mut self, now: Instant, untimed: bool) {
        self.pings = self.pings.saturating_add(1);
        if !untimed {
            self.set_unless_armed(Timer::Readyok, now + self.answer_timeout());
        }
    }

    /// The engine's `readyok` to a GUI `isready` at `now`.
    pub(super) fn on_readyok(&mut self, now: Instant) {
        self.pings = self.pings.saturating_sub(1);
        if self.pings == 0 {
            self.slow_pending = false;
            self.stop(Timer::Readyok);
        } else {
            self.set(Timer::Readyok, now + self.answer_timeout());
        }
    }

    /// `stop` forwarded at `now` while the engine owes a `bestmove`.
    pub(super) fn on_stop(&mut self, now: Instant) {
        self.set_unless_armed(Timer::Bestmove, now + self.answer_timeout());
    }

    /// The engine is gone: nothing is timed, nothing owed.
    pub(super) fn on_exit(&mut self) {
        self.stop_all();
        self.last_backlog = None;
        self.overdue_since = None;
        self.pings = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: Duration = Duration::from_millis(1);

    fn table() -> Timers {
        Timers::new(&RestartPolicy {
            startup_timeout: 30_000 * MS,
            ping_timeout: 10_000 * MS,
            ..RestartPolicy::default()
        })
    }

    #[test]
    fn the_next_deadline_is_the_earliest_armed_one() {
        let t0 = Instant::now();
        let mut t = table();
        assert_eq!(t.next(), None);
        t.on_uci(t0);
        t.on_isready(t0 + MS, false);
        assert_eq!(t.next(), Some(t0 + MS + 10_000 * MS));
        assert_eq!(t.expired(t0 + 10_001 * MS), Some(Timer::Readyok));
        assert_eq!(
            t.expired(t0 + 30_000 * MS),
            Some(Timer::Uciok),
            "reported first"
        );
        t.on_readyok(t0 + 2 * MS);
        assert_eq!(t.next(), Some(t0 + 30_000 * MS));
    }

    #[test]
    fn an_isready_while_uciok_is_awaited_is_not_timed() {
        let t0 = Instant::now();
        let mut t = table();
        t.on_isready(t0, true);
        assert_eq!(t.next(), None);
        t.on_uciok(t0 + MS);
        assert_eq!(t.get(Timer::Readyok), Some(t0 + MS + 10_000 * MS));
    }

    #[test]
    fn a_pending_setoption_gives_readyok_the_startup_timeout() {
        let t0 = Instant::now();
        let mut t = table();
        t.slow_pending = true;
        t.on_isready(t0, false);
        assert_eq!(t.next(), Some(t0 + 30_000 * MS));
        t.on_readyok(t0);
        assert!(!t.slow_pending);
    }

    #[test]
    fn deferring_moves_only_earlier_deadlines() {
        let t0 = Instant::now();
        let mut t = table();
        t.on_uci(t0);
        t.on_stop(t0);
        t.defer(t0 + 20_000 * MS);
        assert_eq!(t.get(Timer::Bestmove), Some(t0 + 20_000 * MS));
        assert_eq!(t.get(Timer::Uciok), Some(t0 + 30_000 * MS));
        t.on_exit();
        assert_eq!(t.next(), None);
    }
}
