//! `fenguard check` as a process: arguments, formats, exit statuses, memory, and what a GUI
//! sees for the "never worse" adapter cases.
//!
//! One test binary (`cargo test --test check`); each module is a former test crate of its own
//! name, so `cargo test --test check MODULE::` runs what `--test MODULE` ran.

#[path = "../common/mod.rs"]
mod common;

mod adapter_never_worse;
mod check_cli;
mod check_escapes;
mod check_memory;
