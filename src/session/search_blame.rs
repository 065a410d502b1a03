//! A `setoption` the engine accepts (it answers `readyok`) but dies of once it searches is
//! found and no longer replayed (issue 16: `Threads 1000` was accepted, OOM-killed at `go`,
//! replayed by every restart until fenguard gave up and the session was lost).
//!
//! Rule, in two steps, beside `option_blame.rs` (which catches an engine that dies at the
//! `setoption` itself):
//! 1. Accused: the engine exits (or hangs) while it owes a search, and GUI `setoption` lines
//!    went to it since it last finished a search (its last `bestmove`): those options are
//!    accused. The restart restores them as always.
//! 2. Proof: the restarted engine exits (or hangs) again during a search, before any
//!    `bestmove`: the accused options are dropped from the options later restarts restore,
//!    logged as a warning, and the GUI gets `info string fenguard: setoption <name>: the
//!    engine exited during a search twice after it; it is not restored any more`.
//!
//! A finished search (a `bestmove` from the engine) clears both. So an option is dropped only
//! after the engine died searching twice with it set and no search finished in between (once
//! when the GUI set it, once after the replay); a crash the options had no part in (a
//! position that crashes the engine under `on_invalid = "forward"`) may cost the options set
//! just before it their restoring, never more than that, and the GUI is told which.

use tracing::Level;

use super::{Action, Session};

/// The options a search death may be blamed on.
#[derive(Debug, Default)]
pub(super) struct SearchSuspects {
    /// Lower-case names of the options the GUI set since the engine last finished a search.
    since_search: Vec<Vec<u8>>,
    /// Accused by a first death during a search (step 1).
    accused: Vec<Vec<u8>>,
}

/// Most options remembered.
const MAX_SEARCH_SUSPECTS: usize = 64;

impl SearchSuspects {
    /// A GUI `setoption` for option `name` went to the engine.
    pub(super) fn on_setoption(&mut self, name: &[u8]) {
        let key = name.to_ascii_lowercase();
        if !self.since_search.contains(&key) && self.since_search.len() < MAX_SEARCH_SUSPECTS {
            self.since_search.push(key);
        }
    }

    /// The engine finished a search: what was set before it works.
    pub(super) fn on_bestmove(&mut self) {
        self.since_search.clear();
        self.accused.clear();
    }

    /// The engine failed; `searching`: it owed a search. Gives the options proven guilty.
    fn on_failure(&mut self, searching: bool) -> Vec<Vec<u8>> {
        if !searching {
            return Vec::new();
        }
        if self.accused.is_empty() {
            self.accused.clone_from(&self.since_search);
            return Vec::new();
        }
        let guilty = std::mem::take(&mut self.accused);
        self.since_search.retain(|k| !guilty.contains(k));
        guilty
    }
}

impl Session {
    /// The engine failed (exited or hung, not at the GUI's `quit`): step 1 or 2 of the rule,
    /// before what it owed is answered.
    pub(super) fn blame_search_options(&mut self, out: &mut Vec<Action>) {
        let searching = self.owed.searches().any(|s| s.own.is_none());
        let guilty = self.restart.search_suspects.on_failure(searching);
        for key in guilty {
            let Some((text, name)) = self.restart.forget_option(&key) else {
                continue;
            };
            out.push(Action::Log(
                Level::WARN,
                format!(
                    "engine exited during a search twice after `{text}`: not restored any more"
                ),
            ));
            self.say(
                out,
                &format!(
                    "setoption {name}: the engine exited during a search twice after it; it \
                     is not restored any more"
                ),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_option_is_guilty_after_two_search_deaths_without_a_bestmove() {
        let mut s = SearchSuspects::default();
        s.on_setoption(b"Threads");
        assert!(s.on_failure(true).is_empty());
        assert_eq!(s.on_failure(true), vec![b"threads".to_vec()]);
        assert!(s.on_failure(true).is_empty(), "dropped once");
    }

    #[test]
    fn a_finished_search_clears_the_accusation() {
        let mut s = SearchSuspects::default();
        s.on_setoption(b"Hash");
        assert!(s.on_failure(true).is_empty());
        s.on_bestmove();
        assert!(s.on_failure(true).is_empty());
        assert!(s.on_failure(true).is_empty());
    }

    #[test]
    fn a_death_outside_a_search_accuses_nothing() {
        let mut s = SearchSuspects::default();
        s.on_setoption(b"Hash");
        assert!(s.on_failure(false).is_empty());
        assert!(s.on_failure(false).is_empty());
        assert!(s.on_failure(true).is_empty());
    }
}
