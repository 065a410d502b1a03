//! The logs: compact position records, rotation, and `fenguard log` on real logs.
//!
//! One test binary (`cargo test --test log`); each module is a former test crate of its own
//! name, so `cargo test --test log MODULE::` runs what `--test MODULE` ran.

#[path = "../common/mod.rs"]
mod common;

mod log_cli;
mod log_compact;
mod log_escapes;
mod log_gap;
mod log_limits;
mod log_rotation;
