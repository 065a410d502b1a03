//! `fenguard provide` as a process against a mock of lila and lichess's work broker
//! (`scripts/mock_lichess.py`): registration, the long poll, jobs through the guarded session,
//! the broker's grammar, requesters who leave, broker outages, crashes, several workers and
//! processes on one queue (a newer job supersedes only its own session's), SIGTERM, metrics; the
//! fake engine, Stockfish and Fairy-Stockfish.
//!
//! One test binary (`cargo test --test provide`).

#[path = "../common/mod.rs"]
mod common;
mod support;

mod provide_engines;
mod provide_hangs;
mod provide_jobs;
mod provide_scale;
mod provide_sessions;
