//! Metrics for operators of `fenguard serve` and `fenguard provide` (issue 18, SPEC
//! section 13): an optional listener with a Prometheus text endpoint (`/metrics`) and a health
//! endpoint for a container orchestrator's probes (`/health`).
//!
//! ```no_run
//! use fenguard::metrics::{self, Health, Service};
//!
//! let config = fenguard::config::Config::from_toml("[metrics]\nlisten = \"127.0.0.1:9355\"\n", "x.toml").unwrap();
//! let health = Health::starting();
//! let _server = metrics::start(&config.metrics, Service::Serve, health.clone()).unwrap();
//! health.set_healthy();
//! metrics::record::engine_hung();
//! ```
//!
//! Without `[metrics] listen` nothing is installed: the shells' calls into [`record`] cost
//! one atomic load each. The names, their labels and units are [`names`]; what the shells
//! record is [`record`] (the proxy's relay, so the proxy, `serve` and `provide` all count
//! positions, searches, engine restarts and hangs, and the `isready` round trip); the
//! listener is [`start`]; `/health` answers what the shell last set on its [`Health`].

pub mod config;
mod health;
mod http;
mod listener;
pub mod names;
pub mod record;
pub mod round_trip;
mod server;

pub use health::{Health, Unhealthy};
pub use http::METRICS_CONTENT_TYPE;
pub use server::{
    CONNECTION_LIFETIME, HEADER_TIMEOUT, MAX_CONNECTIONS, MAX_CONNECTIONS_PER_ADDR, MetricsError,
    MetricsServer, Service, UPKEEP, start,
};
