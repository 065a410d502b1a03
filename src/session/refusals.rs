//! Refused GUI lines summed per session in `fenguard.log` (SPEC section 12): a client that
//! sends 100,000 refused `setoption`s gets its 100,000 `info string` answers, but the log gets
//! the first refusal of each kind on a line of its own and then one summary line every
//! [`SUMMARY_EVERY`] (and one at the session's end, when the GUI quits), as the daemon already
//! sums refused connections before `auth` (`serve/refusals.rs`).
//!
//! ```text
//! WARN option not allowed: EvalFile (not forwarded)
//! WARN refusals summed: 9999 more in the last 10 s: option not allowed: EvalFile (9999)
//! ```
//!
//! A kind is the refusal's text up to its variable part (`option not allowed: EvalFile`,
//! `command not allowed: bench`, ...). At most [`MAX_KINDS`] kinds are followed at once; more
//! are counted as `other`.

use std::collections::{BTreeMap, HashSet};
use std::time::{Duration, Instant};

use tracing::Level;

use super::{Action, Session};

/// How often a summary line is written while refusals go on.
pub const SUMMARY_EVERY: Duration = Duration::from_secs(10);

/// Kinds followed at once (logged on their own line the first time, counted apart).
pub const MAX_KINDS: usize = 32;

/// The refusals of one session, for its log.
#[derive(Debug, Default)]
pub(super) struct Refusals {
    /// Kinds whose first refusal was logged on its own line.
    logged: HashSet<String>,
    /// Refusals not logged one by one since the last summary, by kind.
    counts: BTreeMap<String, u64>,
    /// When the first of them came.
    since: Option<Instant>,
}

impl Refusals {
    /// A refusal of `kind` at `now`: `true` when it goes to the log on its own line.
    pub(super) fn note(&mut self, kind: &str, now: Instant) -> bool {
        if !self.logged.contains(kind) && self.logged.len() < MAX_KINDS {
            self.logged.insert(kind.to_owned());
            return true;
        }
        let kind = if self.logged.contains(kind)
            && (self.counts.contains_key(kind) || self.counts.len() < MAX_KINDS)
        {
            kind
        } else {
            "other"
        };
        *self.counts.entry(kind.to_owned()).or_insert(0) += 1;
        self.since.get_or_insert(now);
        false
    }

    /// The summary line of the refusals counted since the last one, when [`SUMMARY_EVERY`]
    /// has passed since the first of them, or at once with `now_anyway`.
    pub(super) fn summary(&mut self, now: Instant, now_anyway: bool) -> Option<String> {
        let since = self.since?;
        let elapsed = now.saturating_duration_since(since);
        if !now_anyway && elapsed < SUMMARY_EVERY {
            return None;
        }
        self.since = None;
        let counts = std::mem::take(&mut self.counts);
        let total: u64 = counts.values().sum();
        let kinds: Vec<String> = counts.iter().map(|(k, n)| format!("{k} ({n})")).collect();
        Some(format!(
            "refusals summed: {total} more in the last {} s: {}",
            elapsed.as_secs().max(1),
            kinds.join(", ")
        ))
    }
}

impl Session {
    /// A GUI line refused (the GUI is told apart, every time): `text` goes to the log when it
    /// is the first refusal of its `kind`, else it is counted for the next summary.
    pub(super) fn log_refusal(
        &mut self,
        out: &mut Vec<Action>,
        now: Instant,
        kind: &str,
        text: String,
    ) {
        if self.refusals.note(kind, now) {
            out.push(Action::Log(Level::WARN, text));
        }
    }

    /// After each input: the summary line when one is due, and at once when the session ends
    /// (the GUI quit or fenguard finishes), before the [`Action::Finish`].
    pub(super) fn sum_refusals(&mut self, out: &mut Vec<Action>, now: Instant) {
        let ending = self.quitting || out.iter().any(|a| matches!(a, Action::Finish(_)));
        let Some(line) = self.refusals.summary(now, ending) else {
            return;
        };
        let action = Action::Log(Level::WARN, line);
        match out.iter().position(|a| matches!(a, Action::Finish(_))) {
            Some(at) => out.insert(at, action),
            None => out.push(action),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_of_a_kind_is_logged_then_counted_and_summed() {
        let mut r = Refusals::default();
        let t0 = Instant::now();
        assert!(r.note("option not allowed: EvalFile", t0));
        for _ in 0..9999 {
            assert!(!r.note("option not allowed: EvalFile", t0));
        }
        assert_eq!(r.summary(t0 + Duration::from_secs(9), false), None);
        assert_eq!(
            r.summary(t0 + SUMMARY_EVERY, false).as_deref(),
            Some(
                "refusals summed: 9999 more in the last 10 s: option not allowed: EvalFile (9999)"
            )
        );
        assert_eq!(r.summary(t0 + SUMMARY_EVERY * 2, true), None);
    }

    #[test]
    fn kinds_past_the_cap_are_counted_as_other() {
        let mut r = Refusals::default();
        let t0 = Instant::now();
        let logged = (0..100)
            .filter(|i| r.note(&format!("option not allowed: O{i}"), t0))
            .count();
        assert_eq!(logged, MAX_KINDS);
        let line = r.summary(t0, true).unwrap();
        assert!(line.ends_with(": other (68)"), "{line}");
    }
}
