//! The process's health as `/health` reports it: healthy, or unhealthy with a reason since
//! some instant. The shell sets it; the metrics listener reads it per request.
//!
//! ```
//! use fenguard::metrics::Health;
//!
//! let health = Health::starting();
//! assert_eq!(health.check().unwrap_err().reason, "starting");
//! let shell = health.clone();
//! shell.set_healthy();
//! assert!(health.check().is_ok());
//! shell.set_unhealthy("broker unreachable");
//! assert_eq!(health.check().unwrap_err().reason, "broker unreachable");
//! assert!(Health::new().check().is_ok());
//! ```

use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// A shared health state; clones share it (an `Arc`: cheap to clone, safe from any thread).
/// [`Health::new`] (and `default`) starts healthy, [`Health::starting`] unhealthy until the
/// shell says otherwise.
#[derive(Debug, Clone)]
pub struct Health {
    state: Arc<Mutex<Option<Unhealthy>>>,
}

/// Why the process is unhealthy, and since when.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unhealthy {
    /// The reason, as the shell gave it (`/health` answers `unhealthy: REASON (N s)`).
    pub reason: String,
    /// When it became unhealthy for this reason (a new reason restarts it).
    pub since: Instant,
}

impl Unhealthy {
    /// How long it has been unhealthy, at `now`.
    pub fn for_how_long(&self, now: Instant) -> Duration {
        now.saturating_duration_since(self.since)
    }
}

impl Default for Health {
    fn default() -> Health {
        Health::new()
    }
}

impl Health {
    /// A new state: healthy.
    pub fn new() -> Health {
        Health {
            state: Arc::new(Mutex::new(None)),
        }
    }

    /// A new state: unhealthy, reason `starting` (until [`set_healthy`](Self::set_healthy)).
    pub fn starting() -> Health {
        let health = Health::new();
        health.set_unhealthy("starting");
        health
    }

    /// Healthy from now on: `/health` answers 200 `ok`.
    pub fn set_healthy(&self) {
        *self.lock() = None;
    }

    /// Unhealthy from now on for `reason` (one line, e.g. `broker unreachable`): `/health`
    /// answers 503. Setting the same reason again keeps its start, so `/health` tells how long
    /// it has lasted.
    pub fn set_unhealthy(&self, reason: impl Into<String>) {
        let reason = reason.into().replace(['\n', '\r'], " ");
        let mut state = self.lock();
        if state.as_ref().is_none_or(|u| u.reason != reason) {
            *state = Some(Unhealthy {
                reason,
                since: Instant::now(),
            });
        }
    }

    /// `Ok` when healthy, else why not.
    ///
    /// # Errors
    /// [`Unhealthy`]: the reason last set and since when.
    pub fn check(&self) -> Result<(), Unhealthy> {
        self.lock().clone().map_or(Ok(()), Err)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Option<Unhealthy>> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_reason_again_keeps_its_start() {
        let health = Health::starting();
        health.set_unhealthy("broker unreachable");
        let since = health.check().unwrap_err().since;
        std::thread::sleep(Duration::from_millis(2));
        health.set_unhealthy("broker unreachable");
        assert_eq!(health.check().unwrap_err().since, since);
        health.set_unhealthy("lichess unreachable");
        assert!(health.check().unwrap_err().since > since);
    }

    #[test]
    fn a_reason_is_one_line() {
        let health = Health::new();
        health.set_unhealthy("a\nb");
        assert_eq!(health.check().unwrap_err().reason, "a b");
    }
}
