//! `fenguard replay` (SPEC 14, issue 19): sessions logged through the real proxy, against
//! Stockfish 15.1 and the fake engine, sent again: a crash found where it happened, shrunk by
//! `--minimize` to a script that still crashes the bare engine, a hang reported as one, a clean
//! session giving the logged bestmoves; and the `option` / `command` records replay reads.
//!
//! One test binary: `cargo test --test replay MODULE::`.

#[path = "../common/mod.rs"]
mod common;

mod replay_clean;
mod replay_crash;
mod replay_hang;
mod replay_records;
mod support;
