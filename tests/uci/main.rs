//! The pure UCI protocol layer (`fenguard::uci`): command and engine-line parsing, move lists,
//! castling notation, and its property tests (invariants shared with `fuzz/uci_lines`).
//!
//! One test binary (`cargo test --test uci`); each module is a former test crate of its own
//! name, so `cargo test --test uci MODULE::` runs what `--test MODULE` ran.

mod broker_props;
mod props_uci;
mod uci_castling;
mod uci_commands;
mod uci_engine_lines;
mod uci_moves;
mod uci_python_chess;
