//! Metrics for operators of `fenguard serve` and `fenguard provide` (issue 18, SPEC 13).

pub mod config;
