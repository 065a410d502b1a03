//! Ponder repair (SPEC section 15, `search.hold_early_bestmove`): UCI says the engine must not
//! end `go ponder` or `go infinite` before the GUI's `ponderhit` / `stop`; an engine that does
//! (its `bestmove` comes first) has that `bestmove` held until the GUI's `ponderhit` / `stop`,
//! which then releases it at once and is not forwarded (the engine has nothing left to stop:
//! a `ponderhit` would start nothing the GUI's clock expects). A new `go` without `stop`
//! releases it too, before the new search. An engine that exits while its `bestmove` is held
//! leaves it as the search's answer (`Search::answer_as_lost`), released at once in place of
//! fenguard's `bestmove 0000`, as every search lost with its engine is answered.

use std::time::Instant;

use bytes::Bytes;
use tracing::Level;

use super::owed::Entry;
use super::{Action, Direction, Session};

/// A search's pondering state: open until the GUI's `ponderhit` / `stop`; the engine's early
/// `bestmove`, when it came.
#[derive(Debug, Clone, Default)]
pub(super) struct Hold {
    /// `go ponder` / `go infinite` not yet ended by the GUI.
    pondering: bool,
    /// The engine's `bestmove` line, held.
    held: Option<Box<Bytes>>,
}

impl Hold {
    /// The engine answering this search is gone: its `bestmove`, when held.
    pub(super) fn lost(&mut self) -> Option<Box<Bytes>> {
        self.held.take()
    }

    /// The hold of a search asked with `waits_for_stop` (`go ponder` / `go infinite`).
    pub(super) fn for_go(waits_for_stop: bool) -> Hold {
        Hold {
            pondering: waits_for_stop,
            held: None,
        }
    }
}

impl Session {
    /// The engine's `bestmove`: held (`true`) when it ends the search it answers while the GUI
    /// still ponders or analyses.
    pub(super) fn hold_early_bestmove(&mut self, out: &mut Vec<Action>, line: &Bytes) -> bool {
        // After the GUI's `quit` a `bestmove` is the engine's answer to it, not early.
        if !self.adapter.hold_early_bestmove || self.quitting {
            return false;
        }
        let Some(search) = self.owed.searches_mut().find(|s| s.own.is_none()) else {
            return false;
        };
        if !search.hold.pondering || search.hold.held.is_some() {
            return false;
        }
        search.hold.held = Some(Box::new(line.clone()));
        out.push(Action::Log(
            Level::WARN,
            "the engine ended go ponder / go infinite before ponderhit / stop: its bestmove is held until then"
                .to_owned(),
        ));
        true
    }

    /// The GUI's `ponderhit` / `stop` (or a new `go`, `gui_go`): the searches the engine owes
    /// are no longer pondering; a held `bestmove` is released (`true`: the GUI's line is
    /// answered and, unless it is a `go`, not forwarded).
    pub(super) fn release_held_bestmove(&mut self, out: &mut Vec<Action>, now: Instant) -> bool {
        let mut held = None;
        let mut at = 0;
        for (i, entry) in self.owed.entries.iter_mut().enumerate() {
            let Entry::Search(search) = entry else {
                continue;
            };
            if search.own.is_some() {
                continue;
            }
            search.hold.pondering = false;
            if held.is_none() {
                held = search.hold.held.take();
                at = i;
            }
        }
        let Some(line) = held else {
            return false;
        };
        // The bestmove goes out in the search's place in the queue (before a new `go`'s).
        let mut answer = Vec::new();
        self.restart.search_suspects.on_bestmove();
        self.on_bestmove(&mut answer, &line, now);
        let (to_gui, other): (Vec<Action>, Vec<Action>) = answer.into_iter().partition(|a| {
            matches!(
                a,
                Action::ToGui(_) | Action::Transcript(Direction::ToGui, _)
            )
        });
        out.extend(other);
        let at = at.min(self.owed.entries.len());
        self.owed.entries.insert(at, Entry::Lines(to_gui));
        true
    }
}
