//! The pure FEN core (`fenguard::fen`): every diagnostic code, repair, writing, properties,
//! and the public-report rows that concern a FEN alone. No process, no engine.
//!
//! One test binary (`cargo test --test fen`); each module is a former test crate of its own
//! name, so `cargo test --test fen MODULE::` runs what `--test MODULE` ran.

#[allow(dead_code)]
mod support;

mod fen_fields;
mod fen_lean;
mod fen_position_codes;
mod fen_props;
mod fen_reports;
mod fen_syntax_codes;
mod fen_write;
