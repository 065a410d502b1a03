//! The judging of `fenguard doctor`: pure functions from what the engine wrote (lines, times)
//! to verdicts, unit-tested without an engine. The process driving is in the group modules.
//!
//! - [`options`]: the `uci` reply's shape and each `option` line (types, ranges, GUI quirks);
//! - [`info`]: `info` lines in UCI's grammar and in lichess's broker's;
//! - [`moves`]: `bestmove` / `pv` legality, perft output and divide, hostile-line verdicts,
//!   movetime.

pub mod info;
pub mod moves;
pub mod options;
#[cfg(test)]
mod tests;

pub use info::{InfoProblem, broker_refusal, info_problems};
pub use moves::{
    DivideDiff, Expect, Observed, PerftOutput, bestmove_errors, bestmove_of, compare_divide,
    divide, hostile_verdict, is_complaint, is_legal, movetime_tolerance, movetime_verdict,
    parse_perft, pv_error,
};
pub use options::{
    OptionSpec, option_errors, option_name_quirks, parse_option_spec, reply_shape, setoption_trials,
};
