//! The session's view of the rules layer: the position being played is a
//! [`crate::rules::Game`], asked the same questions in every variant (see [`crate::rules`]).

pub use crate::rules::{Game, GameAnalysis, GameMove, GameRules, Written};

/// Appends a written move (`e2e4`, `P@e4`, `f1i1`, `e7e8c`).
pub(super) fn append_written(buf: &mut Vec<u8>, m: &Written) {
    <Game as GameRules>::append_uci(m, buf);
}
