//! A safety margin on the clock (SPEC section 15, `[time]`): `overhead_ms` taken off the
//! `wtime`, `btime` and `movetime` of every `go` before the engine reads it, never below
//! `min_ms` (a time already at or below `min_ms` is forwarded as given), for engines without
//! a `Move Overhead` option and for the network in between (`fenguard serve` / `connect`).
//! The rewrite itself is [`crate::clock::reduce`], which `fenguard connect` shares.

use bytes::Bytes;

use super::Session;

impl Session {
    /// The `go` line the engine gets: clock times reduced by `[time]`.
    pub(super) fn time_safe(&self, line: Bytes) -> Bytes {
        let time = &self.adapter.time;
        match crate::clock::reduce(&line, time.overhead_ms, time.min_ms) {
            Some(reduced) => Bytes::from(reduced),
            None => line,
        }
    }
}
