//! `fenguard doctor` as a process: the fake engine in its rules mode, clean (nothing flagged)
//! and with each deliberate fault (found by name, nothing else flagged), the JSON and HTML
//! formats, a missing engine, Stockfish, Fairy-Stockfish, Ethereal, Glaurung and Toga II.
//!
//! One test binary (`cargo test --test doctor`).

#[path = "../common/mod.rs"]
mod common;
mod support;

mod doctor_debian_engines;
mod doctor_engines;
mod doctor_escapes;
mod doctor_fake;
mod doctor_faults;
mod doctor_typos;
