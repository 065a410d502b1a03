//! Variants: the 8x8 and 10x8 rules against python-chess and Fairy-Stockfish fixtures and perft,
//! `fenguard check --variant`, and the proxy in front of Fairy-Stockfish.
//!
//! One test binary (`cargo test --test variants`); each module is a former test crate of its own
//! name, so `cargo test --test variants MODULE::` runs what `--test MODULE` ran.

#[path = "../common/mod.rs"]
mod common;

mod giveaway_games;
mod variant10_board;
mod variant10_check;
mod variant10_perft;
#[cfg(feature = "test-variants")]
mod variant10_seam;
mod variant8_check;
mod variant8_games;
mod variants_games;
mod variants_transparent;
