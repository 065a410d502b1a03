//! The `isready` → `readyok` clock of one relay ([`super::names::RELAY_SECONDS`]): the GUI's
//! `isready` lines as the session takes them, paired in order with the `readyok` lines queued
//! for the GUI, each observed once its write is done.
//!
//! ```
//! use std::time::Instant;
//! use fenguard::metrics::round_trip::{RoundTrips, is_isready, is_readyok};
//!
//! assert!(is_isready(b" isready\r\n") && !is_isready(b"isreadyx\n"));
//! assert!(is_readyok(b"readyok\n"));
//! let clock = RoundTrips::default();
//! clock.asked(Instant::now());
//! clock.answered();
//! assert_eq!(clock.take_written().len(), 1);
//! assert!(clock.take_written().is_empty());
//! ```
//!
//! Every `readyok` the GUI gets answers one of its `isready` lines, in order (the session's
//! queue of owed replies keeps that order, through restarts too), so the clock is a queue.
//! It holds at most [`MAX_ASKED`] unanswered `isready` lines; one more forgets the oldest.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::Instant;

use crate::uci::is_uci_space as is_c_space;

/// Unanswered `isready` lines remembered at most.
pub const MAX_ASKED: usize = 256;

/// One relay's clock; shared by its threads (a lock of its own, taken only for `isready`,
/// `readyok`, and a write after one).
#[derive(Debug, Default)]
pub struct RoundTrips {
    state: Mutex<State>,
    /// Some `readyok` is queued and not yet written.
    pending: AtomicBool,
}

#[derive(Debug, Default)]
struct State {
    /// When each unanswered `isready` was taken, oldest first.
    asked: VecDeque<Instant>,
    /// The `isready` instants of `readyok` lines queued since the last write.
    answered: Vec<Instant>,
}

impl RoundTrips {
    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The session took a GUI `isready` at `at`.
    pub fn asked(&self, at: Instant) {
        let mut state = self.lock();
        if state.asked.len() >= MAX_ASKED {
            state.asked.pop_front();
        }
        state.asked.push_back(at);
    }

    /// A `readyok` was queued for the GUI: it answers the oldest `isready`.
    pub fn answered(&self) {
        let mut state = self.lock();
        if let Some(at) = state.asked.pop_front() {
            state.answered.push(at);
            self.pending.store(true, Ordering::Release);
        }
    }

    /// Call before writing what is queued for the GUI: the `isready` instants whose `readyok`
    /// that write carries (a lock only when there are some).
    pub fn take_written(&self) -> Vec<Instant> {
        if !self.pending.swap(false, Ordering::Acquire) {
            return Vec::new();
        }
        std::mem::take(&mut self.lock().answered)
    }

    /// After the write: observes each round trip of `written` (from
    /// [`take_written`](Self::take_written)) in [`super::names::RELAY_SECONDS`].
    pub fn observe(written: &[Instant]) {
        let now = Instant::now();
        for &at in written {
            super::record::relay_round_trip(now.saturating_duration_since(at));
        }
    }
}

/// The line is `isready` (C-space around it allowed, as the engine reads it).
pub fn is_isready(line: &[u8]) -> bool {
    trim(line) == b"isready"
}

/// The line is `readyok` (C-space around it allowed).
pub fn is_readyok(line: &[u8]) -> bool {
    line.starts_with(b"readyok") && trim(line) == b"readyok"
}

fn trim(line: &[u8]) -> &[u8] {
    let start = line
        .iter()
        .position(|&b| !is_c_space(b))
        .unwrap_or(line.len());
    let end = line
        .iter()
        .rposition(|&b| !is_c_space(b))
        .map_or(start, |e| e + 1);
    &line[start..end.max(start)]
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn readyok_lines_answer_isready_lines_in_order() {
        let clock = RoundTrips::default();
        let t0 = Instant::now();
        let t1 = t0 + Duration::from_millis(5);
        clock.asked(t0);
        clock.asked(t1);
        clock.answered();
        assert_eq!(clock.take_written(), vec![t0]);
        clock.answered();
        clock.answered();
        assert_eq!(clock.take_written(), vec![t1]);
    }

    #[test]
    fn at_most_max_asked_are_remembered() {
        let clock = RoundTrips::default();
        let t0 = Instant::now();
        for i in 0..MAX_ASKED as u64 + 10 {
            clock.asked(t0 + Duration::from_millis(i));
        }
        clock.answered();
        assert_eq!(clock.take_written(), vec![t0 + Duration::from_millis(10)]);
    }

    #[test]
    fn a_readyok_with_more_words_is_not_one() {
        assert!(!is_readyok(b"readyok now\n"));
        assert!(is_readyok(b"readyok\r\n"));
        assert!(!is_isready(b"\n"));
        assert!(is_isready(b"\x0bisready\x0c\n"));
    }
}
