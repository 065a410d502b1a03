//! The round trip to the daemon as `fenguard connect --rtt-overhead` measures it: from the
//! GUI's `isready` leaving for the server to its `readyok` coming back (the server answers
//! each `isready` with one `readyok`, in order), the median of the last [`KEPT`] exchanges.
//! An exchange holds the engine's own answer time too (an engine answers `isready` at once,
//! also while searching); the median leaves out the odd slow one (a restart, a busy moment).
//! An `isready` sent after `uci`, `setoption` or `ucinewgame` (before any other `readyok`) is
//! not timed: its `readyok` waits for the engine's own work (Stockfish allocates or clears its
//! hash: seconds for a large `Hash`), which is no part of the network's delay.

use std::collections::VecDeque;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::session::first_token;

/// How many exchanges the median is taken over.
pub const KEPT: usize = 9;

/// Unanswered `isready` lines remembered at most (past it, more are not timed).
const MAX_ASKED: usize = 1024;

#[derive(Debug, Default)]
struct State {
    /// When each unanswered `isready` left (`None`: not timed), oldest first.
    asked: VecDeque<Option<Instant>>,
    /// A command that makes the engine work before its next `readyok` was sent.
    busy: bool,
    /// The last exchanges' durations, oldest first.
    samples: VecDeque<Duration>,
}

/// The measured round trip, fed by both relaying threads.
#[derive(Debug, Default)]
pub struct RoundTrip {
    state: Mutex<State>,
}

impl RoundTrip {
    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// A GUI line on its way to the server at `now`.
    pub fn on_gui_line(&self, line: &[u8], now: Instant) {
        let word = first_token(line);
        if matches!(word, b"uci" | b"setoption" | b"ucinewgame") {
            self.state().busy = true;
        } else if word == b"isready" {
            let mut state = self.state();
            // Every `isready` sent while the engine works is answered behind that work.
            let timed = (!state.busy).then_some(now);
            // Bounded, whatever the server leaves unanswered.
            if state.asked.len() < MAX_ASKED {
                state.asked.push_back(timed);
            }
        }
    }

    /// A server line on its way to the GUI at `now`.
    pub fn on_server_line(&self, line: &[u8], now: Instant) {
        if first_token(line) != b"readyok" {
            return;
        }
        let mut state = self.state();
        let answered = state.asked.pop_front();
        if state.asked.iter().all(Option::is_some) {
            // The engine's work is behind it once no untimed `isready` waits.
            state.busy = false;
        }
        if let Some(Some(asked)) = answered {
            if state.samples.len() == KEPT {
                state.samples.pop_front();
            }
            state
                .samples
                .push_back(now.saturating_duration_since(asked));
        }
    }

    /// The median of the exchanges measured (the lower one of an even count: a slow one
    /// never wins alone), in whole milliseconds rounded up; 0 before the first.
    pub fn ms(&self) -> u64 {
        let mut samples: Vec<Duration> = self.state().samples.iter().copied().collect();
        samples.sort_unstable();
        samples
            .get(samples.len().saturating_sub(1) / 2)
            .map_or(0, |d| {
                let micros = u64::try_from(d.as_micros()).unwrap_or(u64::MAX);
                micros.div_ceil(1000)
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exchange(rtt: &RoundTrip, at: Instant, ms: u64) {
        rtt.on_gui_line(b"isready\n", at);
        rtt.on_server_line(b"readyok\n", at + Duration::from_millis(ms));
    }

    #[test]
    fn the_median_of_the_isready_readyok_exchanges_is_the_round_trip() {
        let rtt = RoundTrip::default();
        let t = Instant::now();
        assert_eq!(rtt.ms(), 0);
        exchange(&rtt, t, 40);
        assert_eq!(rtt.ms(), 40);
        exchange(&rtt, t, 30);
        exchange(&rtt, t, 3000);
        assert_eq!(rtt.ms(), 40);
        rtt.on_server_line(b"readyok\n", t);
        rtt.on_gui_line(b"go wtime 100\n", t);
        assert_eq!(rtt.ms(), 40);
    }

    #[test]
    fn readyoks_answer_the_isreadys_in_order_and_old_exchanges_leave() {
        let rtt = RoundTrip::default();
        let t = Instant::now();
        rtt.on_gui_line(b"isready\n", t);
        rtt.on_gui_line(b"isready\n", t + Duration::from_millis(100));
        rtt.on_server_line(b"readyok\n", t + Duration::from_millis(120));
        rtt.on_server_line(b"readyok\n", t + Duration::from_millis(120));
        // 120 and 20 ms, in order: of two, the lower.
        assert_eq!(rtt.ms(), 20);
        for _ in 0..KEPT {
            exchange(&rtt, t, 7);
        }
        assert_eq!(rtt.ms(), 7);
    }

    #[test]
    fn an_isready_behind_the_engines_own_work_is_not_timed() {
        let rtt = RoundTrip::default();
        let t = Instant::now();
        for busy in ["uci\n", "setoption name Hash value 4096\n", "ucinewgame\n"] {
            rtt.on_gui_line(busy.as_bytes(), t);
            exchange(&rtt, t, 8500);
        }
        assert_eq!(rtt.ms(), 0);
        exchange(&rtt, t, 2);
        assert_eq!(rtt.ms(), 2);
        // Two `isready` lines behind `setoption`: neither is timed.
        rtt.on_gui_line(b"setoption name Hash value 700\n", t);
        rtt.on_gui_line(b"isready\n", t);
        rtt.on_gui_line(b"isready\n", t);
        rtt.on_server_line(b"readyok\n", t + Duration::from_millis(315));
        rtt.on_server_line(b"readyok\n", t + Duration::from_millis(315));
        assert_eq!(rtt.ms(), 2);
        // `position` and `go` are no such work.
        rtt.on_gui_line(b"position startpos\n", t);
        exchange(&rtt, t, 2);
        assert_eq!(rtt.ms(), 2);
    }

    #[test]
    fn part_of_a_millisecond_counts_as_one() {
        let rtt = RoundTrip::default();
        let t = Instant::now();
        rtt.on_gui_line(b"isready\n", t);
        rtt.on_server_line(b"readyok\n", t + Duration::from_micros(300));
        assert_eq!(rtt.ms(), 1);
    }
}
