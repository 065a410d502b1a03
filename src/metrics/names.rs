//! The metric names fenguard exports, each with its type, labels and unit, and their
//! descriptions (the `# HELP` lines of `/metrics`).
//!
//! ```
//! use fenguard::metrics::names;
//!
//! assert_eq!(names::POSITIONS_TOTAL, "fenguard_positions_total");
//! assert!(names::ALL.iter().all(|m| m.name.starts_with("fenguard_")));
//! ```
//!
//! Names follow Prometheus's conventions: `_total` for counters, `_seconds` for histograms of
//! durations (in seconds), no unit suffix on gauges that count things. A label's values are a
//! closed set, listed here: the series of a labelled counter exist at 0 from the start.

use metrics::Unit;

/// Gauge, no labels: always 1; `version` label: fenguard's version (`CARGO_PKG_VERSION`).
pub const BUILD_INFO: &str = "fenguard_build_info";

/// Gauge, no labels: daemon sessions open now (`serve`: admitted connections whose engine
/// started).
pub const SESSIONS_ACTIVE: &str = "fenguard_sessions_active";
/// Counter, no labels: daemon sessions started (`serve`).
pub const SESSIONS_TOTAL: &str = "fenguard_sessions_total";
/// Counter, label `reason` (one of [`AUTH_REFUSED_REASONS`]): connections the daemon refused
/// before any engine started (`serve`).
pub const AUTH_REFUSED_TOTAL: &str = "fenguard_auth_refused_total";
/// Counter, label `reason` (one of [`SHED_REASONS`]): connections closed before their first
/// line to keep the daemon's pre-auth pool and descriptors within bounds (`serve`, see
/// `serve::admission`).
pub const CONNECTIONS_SHED_TOTAL: &str = "fenguard_connections_shed_total";

/// Gauge, no labels: broker jobs being analysed now (`provide`).
pub const JOBS_ACTIVE: &str = "fenguard_jobs_active";
/// Counter, label `outcome` (one of [`JOB_OUTCOMES`]): broker jobs ended (`provide`).
pub const JOBS_TOTAL: &str = "fenguard_jobs_total";
/// Histogram, seconds, no labels: from a job's acquisition to its first `info` line streamed
/// back (`provide`).
pub const JOB_FIRST_INFO_SECONDS: &str = "fenguard_job_first_info_seconds";
/// Histogram, seconds, no labels: from a job's acquisition to its `bestmove` (`provide`).
pub const JOB_SECONDS: &str = "fenguard_job_seconds";

/// Counter, label `verdict` (one of [`VERDICTS`], the positions log's verdicts, SPEC
/// section 8): GUI `position` commands judged, in every shell that runs a session.
pub const POSITIONS_TOTAL: &str = "fenguard_positions_total";
/// Counter, no labels: searches closed by a `bestmove` (the engine's, or fenguard's own
/// `bestmove 0000`).
pub const SEARCHES_TOTAL: &str = "fenguard_searches_total";
/// Counter, no labels: engines started again after a crash or a hang (the new process
/// started).
pub const ENGINE_RESTARTS_TOTAL: &str = "fenguard_engine_restarts_total";
/// Counter, no labels: engines found hung (no `uciok`, `readyok` or `bestmove` in time, or
/// not reading their input) and killed.
pub const ENGINE_HANGS_TOTAL: &str = "fenguard_engine_hangs_total";
/// Counter, no labels: engine processes that could not be started (a session's first engine
/// in the daemon, or a restart).
pub const ENGINE_START_FAILURES_TOTAL: &str = "fenguard_engine_start_failures_total";
/// Histogram, seconds, no labels: the `isready` → `readyok` round trip as the GUI sees it
/// through fenguard, from the GUI's `isready` taken by the session to its `readyok` written
/// to the GUI.
pub const RELAY_SECONDS: &str = "fenguard_relay_seconds";

/// Counter, no labels: requests to `/metrics` answered.
pub const SCRAPES_TOTAL: &str = "fenguard_metrics_scrapes_total";
/// Gauge, seconds since the Unix epoch, no labels: when the process started its metrics
/// (Prometheus's `process_start_time_seconds`, under fenguard's prefix).
pub const PROCESS_START_TIME_SECONDS: &str = "fenguard_process_start_time_seconds";

/// The `reason` values of [`AUTH_REFUSED_TOTAL`]: `missing-token` (tokens configured, the
/// first line is not `auth <token>`), `wrong-token`, `not-uci` (no tokens, the first line is
/// not a UCI command), `line-too-long`, `auth-timeout` (no first line in time), `closed` (the
/// client left before its first line), `tls-failed`, `tls-timeout` (TLS handshake), and
/// `too-many` (`max_sessions` reached).
pub const AUTH_REFUSED_REASONS: [&str; 9] = [
    "missing-token",
    "wrong-token",
    "not-uci",
    "line-too-long",
    "auth-timeout",
    "closed",
    "tls-failed",
    "tls-timeout",
    "too-many",
];

/// The `reason` values of [`CONNECTIONS_SHED_TOTAL`]: `max-startups` (the oldest
/// unauthenticated connection dropped), `per-addr` (`max_startups_per_addr`), `fd-reserve`
/// (its descriptor was among those kept for sessions), `accept-failed`.
pub const SHED_REASONS: [&str; 4] = ["max-startups", "per-addr", "fd-reserve", "accept-failed"];

/// The `outcome` values of [`JOBS_TOTAL`] (`provide::job::Outcome`): `done` (streamed up to
/// `bestmove`), `refused` (answered without the engine: a job the engine must not see),
/// `aborted` (the requester left, or the provider stopped: the search was stopped),
/// `engine-died` (the engine's session ended during the job), `late` (the broker no longer
/// knew the job), `engine-hung` (no `readyok` while the job was set up: answered with a notice
/// and `bestmove (none)`), `broker-refused` (the broker answered 400 to a line of the stream).
pub const JOB_OUTCOMES: [&str; 7] = [
    "done",
    "refused",
    "aborted",
    "engine-died",
    "late",
    "engine-hung",
    "broker-refused",
];

/// The `verdict` values of [`POSITIONS_TOTAL`], as `positions.jsonl` writes them.
pub const VERDICTS: [&str; 5] = [
    "valid",
    "repaired",
    "rejected",
    "forwarded-invalid",
    "unchecked",
];

/// Bucket bounds of [`RELAY_SECONDS`], seconds: 50 µs to 2.5 s.
pub const RELAY_BUCKETS: [f64; 15] = [
    0.000_05, 0.000_1, 0.000_25, 0.000_5, 0.001, 0.002_5, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5,
    1.0, 2.5,
];

/// Bucket bounds of [`JOB_FIRST_INFO_SECONDS`] and [`JOB_SECONDS`], seconds: 10 ms to 5 min.
pub const JOB_BUCKETS: [f64; 14] = [
    0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0,
];

/// What kind of metric a name is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Only goes up (Prometheus `counter`).
    Counter,
    /// Goes up and down (`gauge`).
    Gauge,
    /// Observations in buckets (`histogram`).
    Histogram,
}

/// One exported metric: its name, kind, unit and `# HELP` text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Metric {
    /// The name (one of the constants of this module).
    pub name: &'static str,
    /// Its kind.
    pub kind: Kind,
    /// Its unit, when it has one.
    pub unit: Option<Unit>,
    /// The `# HELP` text.
    pub help: &'static str,
}

const fn metric(name: &'static str, kind: Kind, unit: Option<Unit>, help: &'static str) -> Metric {
    Metric {
        name,
        kind,
        unit,
        help,
    }
}

/// Every metric fenguard exports, described when the recorder is installed.
pub const ALL: [Metric; 17] = [
    metric(
        BUILD_INFO,
        Kind::Gauge,
        None,
        "fenguard's version (label version); always 1.",
    ),
    metric(
        SESSIONS_ACTIVE,
        Kind::Gauge,
        None,
        "Daemon sessions open now.",
    ),
    metric(
        SESSIONS_TOTAL,
        Kind::Counter,
        None,
        "Daemon sessions started.",
    ),
    metric(
        AUTH_REFUSED_TOTAL,
        Kind::Counter,
        None,
        "Connections refused before any engine started, by reason.",
    ),
    metric(
        CONNECTIONS_SHED_TOTAL,
        Kind::Counter,
        None,
        "Connections closed before their first line to keep the pre-auth pool bounded, by reason.",
    ),
    metric(
        JOBS_ACTIVE,
        Kind::Gauge,
        None,
        "Broker jobs being analysed now.",
    ),
    metric(
        JOBS_TOTAL,
        Kind::Counter,
        None,
        "Broker jobs ended, by outcome.",
    ),
    metric(
        JOB_FIRST_INFO_SECONDS,
        Kind::Histogram,
        Some(Unit::Seconds),
        "Seconds from a job's acquisition to its first info line.",
    ),
    metric(
        JOB_SECONDS,
        Kind::Histogram,
        Some(Unit::Seconds),
        "Seconds from a job's acquisition to its bestmove.",
    ),
    metric(
        POSITIONS_TOTAL,
        Kind::Counter,
        None,
        "GUI position commands judged, by verdict (valid, repaired, rejected, forwarded-invalid, unchecked).",
    ),
    metric(
        SEARCHES_TOTAL,
        Kind::Counter,
        None,
        "Searches closed by a bestmove.",
    ),
    metric(
        ENGINE_RESTARTS_TOTAL,
        Kind::Counter,
        None,
        "Engines started again after a crash or a hang.",
    ),
    metric(
        ENGINE_HANGS_TOTAL,
        Kind::Counter,
        None,
        "Engines found hung and killed.",
    ),
    metric(
        ENGINE_START_FAILURES_TOTAL,
        Kind::Counter,
        None,
        "Engine processes that could not be started.",
    ),
    metric(
        RELAY_SECONDS,
        Kind::Histogram,
        Some(Unit::Seconds),
        "isready to readyok round trip as the GUI sees it through fenguard, in seconds.",
    ),
    metric(
        SCRAPES_TOTAL,
        Kind::Counter,
        None,
        "Requests to /metrics answered.",
    ),
    metric(
        PROCESS_START_TIME_SECONDS,
        Kind::Gauge,
        Some(Unit::Seconds),
        "Start time of the process since the Unix epoch, in seconds.",
    ),
];

/// Describes every metric of [`ALL`] to the installed recorder (`# HELP` and `# TYPE`).
pub fn describe() {
    for m in ALL {
        match (m.kind, m.unit) {
            (Kind::Counter, Some(unit)) => metrics::describe_counter!(m.name, unit, m.help),
            (Kind::Counter, None) => metrics::describe_counter!(m.name, m.help),
            (Kind::Gauge, Some(unit)) => metrics::describe_gauge!(m.name, unit, m.help),
            (Kind::Gauge, None) => metrics::describe_gauge!(m.name, m.help),
            (Kind::Histogram, Some(unit)) => metrics::describe_histogram!(m.name, unit, m.help),
            (Kind::Histogram, None) => metrics::describe_histogram!(m.name, m.help),
        }
    }
}
