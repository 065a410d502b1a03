//! `fenguard serve` and `fenguard connect` as processes: admission, tokens, sessions, hostile
//! clients, lifecycle, dead peers and the metrics listener.
//!
//! One test binary (`cargo test --test serve`); each module is a former test crate of its own
//! name, so `cargo test --test serve MODULE::` runs what `--test MODULE` ran.

#[path = "../common/mod.rs"]
mod common;
mod deadpeer_support;
mod serve_support;

mod serve_auth;
mod serve_deadpeer;
mod serve_hostile;
mod serve_lifecycle;
mod serve_metrics;
mod serve_metrics_flood;
mod serve_modes;
mod serve_quit;
mod serve_rtt;
mod serve_sessions;
mod serve_tokens;
