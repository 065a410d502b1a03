//! What a user gets besides the proxy: `--help` that agrees with the binary, the generated man
//! pages, completions and references, and the commands of the README and docs.
//!
//! One test binary (`cargo test --test ship`); `cargo test --test ship MODULE::` runs a module.

#[path = "../common/mod.rs"]
mod common;

mod docs_commands;
mod generated;
mod help_values;
