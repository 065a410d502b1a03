//! Where the session is with its engine: one enum, each state with its own data (quinn-proto's
//! `State`). The transitions (`restart.rs`, `replay.rs`):
//!
//! ```text
//! Running --exit, restart allowed--> Waiting --engine started--> Handshake
//!    ^                                                              |
//!    |                                              uciok: replay sent
//!    +------------- readyok of the replay's last isready ---- Barrier <-+
//! ```
//!
//! Any exit goes to `Waiting` (or finishes the session); the GUI's `quit` and end of input are
//! flags on top of the phase (`Session::quitting`), not a phase: the engine still runs through
//! its quit grace.

use std::collections::VecDeque;

/// The engine's phase (see the module documentation).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Phase {
    /// The engine runs in sync with the GUI: lines pass (or wait in the inbox for its
    /// `uciok`).
    #[default]
    Running,
    /// The engine is gone; the shell starts a new one after the backoff
    /// ([`super::Action::RestartEngine`]). GUI lines are held, `isready` answered.
    Waiting,
    /// A new engine was sent `uci`: its handshake is swallowed (or shown, as far as the GUI
    /// waits for its own `uciok`) until its `uciok` sends the replay.
    Handshake,
    /// The replay was sent: the engine answers its `isready` lines in order, the last one
    /// ends the restart.
    Barrier(Barrier),
}

/// The replay's `isready` lines not answered yet, oldest first: for each, the suspect
/// `setoption` it tests (its lower-case option name, `option_blame.rs`), `None` for the final
/// one.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Barrier {
    pub(super) tests: VecDeque<Option<Vec<u8>>>,
}

impl Phase {
    /// Whether the engine runs in sync with the GUI.
    pub fn is_running(&self) -> bool {
        matches!(self, Phase::Running)
    }
}
