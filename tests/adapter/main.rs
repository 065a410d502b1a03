//! The adapter settings (issue 21, SPEC section 15) through the built fenguard: option presets,
//! `force`, hidden and renamed options, the engine's identity, the clock margin, ponder repair,
//! profiles and `fenguard wrap`, the opening book; the fake engine, Stockfish, python-chess.
//!
//! One test binary (`cargo test --test adapter`).

#[path = "../common/mod.rs"]
mod common;

mod book;
mod ponder;
mod presets;
mod profile;
mod time;
