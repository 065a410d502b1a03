//! Refused connections, aggregated per source address: one log line for the first refusal of
//! a source in each [`SUMMARY_EVERY`](super::admission::SUMMARY_EVERY) window, one summary line
//! per source at the window's end, and a delay before each answer that grows with the failures
//! of that source.
//!
//! ```
//! use std::time::{Duration, Instant};
//! use fenguard::serve::refusals::Refusals;
//!
//! let refusals = Refusals::default();
//! let now = Instant::now();
//! let first = refusals.failed("127.0.0.1", "wrong token", true, now);
//! assert!(first.log_it);
//! assert_eq!(first.delay, Duration::ZERO);
//! let second = refusals.failed("127.0.0.1", "wrong token", true, now);
//! assert!(!second.log_it);
//! assert_eq!(second.delay, Duration::from_millis(100));
//! ```
//!
//! Delay: none for a source's first failure, then 100 ms doubling with each failure up to
//! [`MAX_DELAY`]; a source with no failure for [`FORGET_AFTER`] starts again from none. The
//! delay only holds a connection that is refused anyway (inside its `max_startups` place), so
//! a client with a good token never waits for it.

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

/// Longest delay before a refusal.
pub const MAX_DELAY: Duration = Duration::from_secs(5);

/// A source with no failure this long is forgotten.
pub const FORGET_AFTER: Duration = Duration::from_secs(60);

/// Sources followed at once; more are summed up as `other`.
const MAX_SOURCES: usize = 4096;

#[derive(Debug, Default)]
struct Source {
    /// Failures in a row (none forgotten).
    streak: u32,
    last: Option<Instant>,
    /// Refusals in this window, by reason.
    window: HashMap<&'static str, u64>,
}

/// The per-source failure records.
#[derive(Debug, Default)]
pub struct Refusals {
    sources: Mutex<HashMap<String, Source>>,
}

/// What to do about one refusal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Verdict {
    /// Log this refusal on its own line (the first of its source in this window).
    pub log_it: bool,
    /// Wait this long before answering.
    pub delay: Duration,
}

impl Refusals {
    /// Records a refusal of a connection from `source` (an IP address, or `unix`) for `reason`;
    /// `penalize`: it counts toward the delay (a bad first line, not a client that left).
    pub fn failed(
        &self,
        source: &str,
        reason: &'static str,
        penalize: bool,
        now: Instant,
    ) -> Verdict {
        let mut sources = self.sources.lock().unwrap_or_else(PoisonError::into_inner);
        let key = if sources.len() >= MAX_SOURCES && !sources.contains_key(source) {
            "other"
        } else {
            source
        };
        let record = sources.entry(key.to_owned()).or_default();
        if record
            .last
            .is_some_and(|last| now.duration_since(last) >= FORGET_AFTER)
        {
            record.streak = 0;
        }
        let count = record.window.entry(reason).or_insert(0);
        *count += 1;
        let log_it = *count == 1;
        if !penalize {
            return Verdict {
                log_it,
                delay: Duration::ZERO,
            };
        }
        let delay = delay_after(record.streak);
        record.streak = record.streak.saturating_add(1);
        record.last = Some(now);
        Verdict { log_it, delay }
    }

    /// One line per source refused more than once in the window now ending; forgets sources
    /// quiet for [`FORGET_AFTER`].
    pub fn summary(&self, window: Duration, now: Instant) -> Vec<String> {
        let mut sources = self.sources.lock().unwrap_or_else(PoisonError::into_inner);
        let mut lines = Vec::new();
        for (source, record) in sources.iter_mut() {
            let window_counts = std::mem::take(&mut record.window);
            let total: u64 = window_counts.values().sum();
            if total > 1 {
                let mut reasons: Vec<String> = window_counts
                    .iter()
                    .map(|(reason, n)| format!("{n} {reason}"))
                    .collect();
                reasons.sort();
                lines.push(format!(
                    "refused {total} connections from {source} in the last {} s ({}); {} failures in a row, answers delayed up to {} ms",
                    window.as_secs(),
                    reasons.join(", "),
                    record.streak,
                    delay_after(record.streak.saturating_sub(1)).as_millis(),
                ));
            }
        }
        sources.retain(|_, r| {
            r.last
                .is_some_and(|last| now.duration_since(last) < FORGET_AFTER)
        });
        lines.sort();
        lines
    }
}

/// The delay before answering after `streak` failures in a row.
fn delay_after(streak: u32) -> Duration {
    match streak {
        0 => Duration::ZERO,
        n => (Duration::from_millis(100) * 2u32.saturating_pow(n - 1)).min(MAX_DELAY),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delay_doubles_up_to_the_cap_and_is_forgotten() {
        let refusals = Refusals::default();
        let now = Instant::now();
        let delays: Vec<u128> = (0..10)
            .map(|_| {
                refusals
                    .failed("10.0.0.1", "wrong token", true, now)
                    .delay
                    .as_millis()
            })
            .collect();
        assert_eq!(
            delays,
            vec![0, 100, 200, 400, 800, 1600, 3200, 5000, 5000, 5000]
        );
        let later = now + FORGET_AFTER;
        assert_eq!(
            refusals
                .failed("10.0.0.1", "wrong token", true, later)
                .delay,
            Duration::ZERO
        );
    }

    #[test]
    fn one_summary_line_a_source_then_nothing() {
        let refusals = Refusals::default();
        let now = Instant::now();
        for _ in 0..9380 {
            refusals.failed("127.0.0.1", "wrong token", true, now);
        }
        refusals.failed("127.0.0.2", "wrong token", true, now);
        let lines = refusals.summary(Duration::from_secs(10), now);
        assert_eq!(lines.len(), 1, "{lines:?}");
        assert!(
            lines[0].starts_with(
                "refused 9380 connections from 127.0.0.1 in the last 10 s (9380 wrong token)"
            ),
            "{}",
            lines[0]
        );
        assert!(refusals.summary(Duration::from_secs(10), now).is_empty());
    }
}
