//! The sans-I/O session as a black box: property tests over hostile GUI and engine lines and
//! the fuzz corpora (invariants in `tests/invariants/`, shared with the fuzz targets).
//!
//! One test binary (`cargo test --test session`); each module is a former test crate of its own
//! name, so `cargo test --test session MODULE::` runs what `--test MODULE` ran.

/// The session invariants, shared with the `session_lines` fuzz target.
#[path = "../invariants/session.rs"]
#[allow(dead_code)]
mod invariants;

mod props_session;
mod resilience_more_corpus;
