//! What the shells record: one function a metric, each a no-op (one atomic load) while no
//! recorder is installed ([`enabled`] false: no `[metrics] listen`).
//!
//! The handles are registered once, when [`super::start`] installs the recorder, so recording
//! never builds a key nor looks one up: an atomic add (a counter, a gauge) or a push into the
//! histogram's lock-free bucket, drained by the listener's upkeep.
//!
//! ```
//! use fenguard::metrics::record;
//!
//! // No recorder in this process: nothing happens, at the cost of one atomic load.
//! assert!(!record::enabled());
//! record::engine_hung();
//! let session = record::session_started();
//! drop(session);
//! ```

use std::sync::OnceLock;
use std::time::Duration;

use metrics::{Counter, Gauge, Histogram};

use super::Service;
use super::names::{self, AUTH_REFUSED_REASONS, SHED_REASONS, VERDICTS};
use crate::session::Verdict;

static HANDLES: OnceLock<Handles> = OnceLock::new();

/// The registered handles of the metrics the shells record.
struct Handles {
    positions: [Counter; VERDICTS.len()],
    searches: Counter,
    restarts: Counter,
    hangs: Counter,
    start_failures: Counter,
    relay: Histogram,
    /// `serve`'s own.
    serve: Option<ServeHandles>,
}

struct ServeHandles {
    sessions_active: Gauge,
    sessions_total: Counter,
    auth_refused: [Counter; AUTH_REFUSED_REASONS.len()],
    shed: [Counter; SHED_REASONS.len()],
}

/// Registers the handles with the installed recorder, `service`'s own too (every labelled
/// series at 0, so that `rate()` sees its first increase); a second call changes nothing.
pub(super) fn register(service: Service) {
    if service == Service::Provide {
        metrics::gauge!(names::JOBS_ACTIVE).set(0.0);
        for outcome in names::JOB_OUTCOMES {
            metrics::counter!(names::JOBS_TOTAL, "outcome" => outcome).absolute(0);
        }
    }
    HANDLES.get_or_init(|| Handles {
        positions: VERDICTS.map(|v| metrics::counter!(names::POSITIONS_TOTAL, "verdict" => v)),
        searches: metrics::counter!(names::SEARCHES_TOTAL),
        restarts: metrics::counter!(names::ENGINE_RESTARTS_TOTAL),
        hangs: metrics::counter!(names::ENGINE_HANGS_TOTAL),
        start_failures: metrics::counter!(names::ENGINE_START_FAILURES_TOTAL),
        relay: metrics::histogram!(names::RELAY_SECONDS),
        serve: (service == Service::Serve).then(|| {
            let sessions_active = metrics::gauge!(names::SESSIONS_ACTIVE);
            sessions_active.set(0.0);
            ServeHandles {
                sessions_active,
                sessions_total: metrics::counter!(names::SESSIONS_TOTAL),
                auth_refused: AUTH_REFUSED_REASONS
                    .map(|r| metrics::counter!(names::AUTH_REFUSED_TOTAL, "reason" => r)),
                shed: SHED_REASONS
                    .map(|r| metrics::counter!(names::CONNECTIONS_SHED_TOTAL, "reason" => r)),
            }
        }),
    });
}

fn handles() -> Option<&'static Handles> {
    HANDLES.get()
}

fn serve_handles() -> Option<&'static ServeHandles> {
    HANDLES.get()?.serve.as_ref()
}

/// Whether a recorder is installed (a metrics listener was started in this process).
pub fn enabled() -> bool {
    HANDLES.get().is_some()
}

/// A `position` command judged ([`names::POSITIONS_TOTAL`]).
pub fn position(verdict: Verdict) {
    if let Some(h) = handles() {
        let i = match verdict {
            Verdict::Valid => 0,
            Verdict::Repaired => 1,
            Verdict::Rejected => 2,
            Verdict::ForwardedInvalid => 3,
            Verdict::Unchecked => 4,
        };
        h.positions[i].increment(1);
    }
}

/// A search closed by a `bestmove` ([`names::SEARCHES_TOTAL`]).
pub fn search() {
    if let Some(h) = handles() {
        h.searches.increment(1);
    }
}

/// An engine started again ([`names::ENGINE_RESTARTS_TOTAL`]).
pub fn engine_restarted() {
    if let Some(h) = handles() {
        h.restarts.increment(1);
    }
}

/// An engine found hung, to be killed ([`names::ENGINE_HANGS_TOTAL`]).
pub fn engine_hung() {
    if let Some(h) = handles() {
        h.hangs.increment(1);
    }
}

/// An engine process that did not start ([`names::ENGINE_START_FAILURES_TOTAL`]).
pub fn engine_start_failed() {
    if let Some(h) = handles() {
        h.start_failures.increment(1);
    }
}

/// One `isready` → `readyok` round trip ([`names::RELAY_SECONDS`]).
pub fn relay_round_trip(took: Duration) {
    if let Some(h) = handles() {
        h.relay.record(took.as_secs_f64());
    }
}

/// A connection refused before its session ([`names::AUTH_REFUSED_TOTAL`]); `reason` is one
/// of [`AUTH_REFUSED_REASONS`] (another is not counted).
pub fn auth_refused(reason: &str) {
    if let Some(h) = serve_handles()
        && let Some(i) = AUTH_REFUSED_REASONS.iter().position(|&r| r == reason)
    {
        h.auth_refused[i].increment(1);
    }
}

/// A connection shed before its first line ([`names::CONNECTIONS_SHED_TOTAL`]); `reason` is
/// one of [`SHED_REASONS`] (another is not counted).
pub fn connection_shed(reason: &str) {
    if let Some(h) = serve_handles()
        && let Some(i) = SHED_REASONS.iter().position(|&r| r == reason)
    {
        h.shed[i].increment(1);
    }
}

/// A daemon session started ([`names::SESSIONS_TOTAL`] + 1, [`names::SESSIONS_ACTIVE`] + 1);
/// dropping what it returns ends it ([`names::SESSIONS_ACTIVE`] - 1). Counted only when the
/// metrics were started for [`Service::Serve`].
#[must_use = "the session is active until this is dropped"]
pub fn session_started() -> Active {
    match serve_handles() {
        Some(h) => {
            h.sessions_total.increment(1);
            Active::on(h.sessions_active.clone())
        }
        None => Active(None),
    }
}

/// One unit of a gauge of things active now (a session, a job): the gauge went up by 1 when
/// this was made and goes down by 1 when it is dropped, however the thing ends (an early
/// return, a cancelled task).
#[derive(Debug)]
#[must_use = "the gauge goes down again when this is dropped"]
pub struct Active(Option<Gauge>);

impl Active {
    /// Counts one more on the gauge `name` (e.g. [`names::JOBS_ACTIVE`]); nothing while no
    /// recorder is installed.
    pub fn new(name: &'static str) -> Active {
        if enabled() {
            Active::on(metrics::gauge!(name))
        } else {
            Active(None)
        }
    }

    fn on(gauge: Gauge) -> Active {
        gauge.increment(1.0);
        Active(Some(gauge))
    }
}

impl Drop for Active {
    fn drop(&mut self) {
        if let Some(gauge) = &self.0 {
            gauge.decrement(1.0);
        }
    }
}
