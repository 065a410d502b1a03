//! Records for `positions.jsonl` (SPEC section 8) produced by the session.

use serde::Serialize;

/// A record for `positions.jsonl` (SPEC section 8); the writer adds `ts` and `session`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Record {
    /// Sequence number within the session, from 1.
    pub seq: u64,
    /// What happened; serialized as `"kind": "<kebab-case name>"` plus its fields.
    #[serde(flatten)]
    pub event: Event,
}

/// The kinds of records written so far (`position` and `search` come with the interception).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Event {
    /// The engine process was started.
    EngineStart {
        /// The resolved program path.
        command: String,
        /// Its arguments.
        args: Vec<String>,
        /// Its process id.
        pid: Option<u32>,
    },
    /// The engine process ended.
    EngineExit {
        /// Exit code, when it exited normally.
        code: Option<i32>,
        /// Signal number, when a signal ended it (Unix).
        signal: Option<i32>,
        /// `quit` (after `quit` or the GUI's end of input), `killed` (by fenguard), or
        /// `unexpected` (on its own).
        reason: ExitReason,
    },
}

/// Why the engine ended, as seen by the session.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ExitReason {
    /// It exited after being asked to (`quit` or end of input).
    Quit,
    /// fenguard killed it (quit grace expired, or fenguard got a signal).
    Killed,
    /// It exited on its own while the GUI was still using it.
    Unexpected,
}
