//! Reply order (SPEC section 6, "Order"): one queue of the replies the GUI is owed, in the order
//! it asked for them.
//!
//! Each GUI `uci`, `isready` and `go` (a search: not `go perft`) adds an [`Entry`], marked
//! engine-owed (the engine answers it: `uciok`, `readyok`, `bestmove`) or own-answered (fenguard
//! answers it: `bestmove 0000` after a rejected position, `readyok` while the engine restarts);
//! fenguard's own lines about a GUI command (`info string fenguard: ...`) are an entry of their
//! own at the command's place. The engine's lines are relayed at once, as always; an engine
//! answer takes the first engine-owed entry of its kind off the queue. One exception: an
//! engine `readyok` behind fenguard's own `bestmove` to an earlier `go` waits for it
//! ([`Owed::readyok_waits`]), as a bare engine blocked in that `go` would answer. fenguard's own output
//! is released only when every entry before it is answered, so it never overtakes a `uciok`,
//! `readyok` or `bestmove` the engine still owes for an earlier command. A `go infinite` /
//! `go ponder` fenguard answers itself waits for `stop` / `ponderhit` and holds nothing up
//! (as an engine answers `isready` while it searches).
//!
//! When the engine is gone, every engine-owed `readyok` and `bestmove` becomes fenguard's
//! own (`readyok`, `bestmove 0000`) and the queue is released in order; an owed `uciok` stays
//! owed when a new engine is started (its handshake answers the GUI's `uci`). After the GUI's
//! `quit` nothing is answered any more: the GUI is gone.

use std::collections::VecDeque;
use std::time::Instant;

use bytes::Bytes;

use super::search::Search;
use super::{Action, Direction, Session};

/// A reply the GUI is owed, in the order it asked.
#[derive(Debug, Clone)]
pub(super) enum Entry {
    /// The GUI's `uci`: the engine owes `uciok`.
    Uciok,
    /// The GUI's `isready`: the engine owes `readyok` (`own`: fenguard answers it).
    Readyok { own: bool },
    /// The GUI's `go` (a search): engine-owed while `own` is `None`.
    Search(Box<Search>),
    /// fenguard's own GUI writes about a GUI command (with their transcript entries).
    Lines(Vec<Action>),
}

/// Which engine answer an engine line is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Answer {
    Uciok,
    Readyok,
    Bestmove,
}

impl Entry {
    /// Whether the engine still owes it.
    pub(super) fn engine_owed(&self) -> bool {
        match self {
            Entry::Uciok | Entry::Readyok { own: false } => true,
            Entry::Search(s) => s.own.is_none(),
            Entry::Readyok { own: true } | Entry::Lines(_) => false,
        }
    }

    fn answers(&self, answer: Answer) -> bool {
        self.engine_owed()
            && matches!(
                (self, answer),
                (Entry::Uciok, Answer::Uciok)
                    | (Entry::Readyok { .. }, Answer::Readyok)
                    | (Entry::Search(_), Answer::Bestmove)
            )
    }
}

/// The owed replies, oldest first.
#[derive(Debug, Default)]
pub(super) struct Owed {
    pub(super) entries: VecDeque<Entry>,
}

impl Owed {
    /// The searches, oldest first.
    pub(super) fn searches(&self) -> impl Iterator<Item = &Search> {
        self.entries.iter().filter_map(|e| match e {
            Entry::Search(s) => Some(&**s),
            _ => None,
        })
    }

    /// The searches, oldest first, mutably.
    pub(super) fn searches_mut(&mut self) -> impl Iterator<Item = &mut Search> {
        self.entries.iter_mut().filter_map(|e| match e {
            Entry::Search(s) => Some(&mut **s),
            _ => None,
        })
    }

    /// Whether a `go ponder` / `go infinite` fenguard answers waits for `ponderhit` / `stop`.
    pub(super) fn holds_own_search(&self) -> bool {
        self.searches()
            .any(|s| s.own.as_ref().is_some_and(|own| own.held))
    }

    /// Takes the first entry the engine's `answer` answers off the queue (`None`: the engine
    /// answered nothing the GUI asked for; its line is relayed all the same).
    pub(super) fn answered(&mut self, answer: Answer) -> Option<Entry> {
        let i = self.entries.iter().position(|e| e.answers(answer))?;
        self.entries.remove(i)
    }

    /// The engine's `readyok` was read. When fenguard's own `bestmove` to an earlier `go` is
    /// still due (the `go` after a rejected position, behind a search the engine has not
    /// ended), the `readyok` waits for it: the entry it answers becomes fenguard's own, released
    /// in its turn, and `true` is returned (the engine's line is not relayed now). A bare
    /// engine reads nothing after a `go` until its search ends, so its `readyok` never comes
    /// before that `go`'s `bestmove`. A held own `go infinite` holds nothing up.
    pub(super) fn readyok_waits(&mut self) -> bool {
        let Some(i) = self.entries.iter().position(|e| e.answers(Answer::Readyok)) else {
            return false;
        };
        let behind_own_search =
            self.entries.iter().take(i).any(
                |e| matches!(e, Entry::Search(s) if s.own.as_ref().is_some_and(|own| !own.held)),
            );
        if behind_own_search {
            self.entries[i] = Entry::Readyok { own: true };
        }
        behind_own_search
    }

    /// The engine is gone: what it owed is fenguard's to answer (a `uciok` only when
    /// `keep_uciok` is false: a new engine's handshake answers it otherwise).
    pub(super) fn engine_gone(&mut self, keep_uciok: bool) {
        self.entries
            .retain(|e| keep_uciok || !matches!(e, Entry::Uciok));
        for entry in &mut self.entries {
            match entry {
                Entry::Readyok { own } => *own = true,
                Entry::Search(s) => s.answer_as_lost(),
                Entry::Uciok | Entry::Lines(_) => {}
            }
        }
    }
}

fn writes_to_gui(action: &Action) -> bool {
    matches!(
        action,
        Action::ToGui(_) | Action::Transcript(Direction::ToGui, _)
    )
}

impl Session {
    /// After a GUI command: fenguard's own GUI writes among `out` become one entry at `at`
    /// (the queue's length before the command), so they wait for what was asked before.
    pub(super) fn queue_own_writes(&mut self, out: &mut Vec<Action>, at: usize) {
        if !out.iter().any(writes_to_gui) {
            return;
        }
        let (own, kept): (Vec<Action>, Vec<Action>) =
            std::mem::take(out).into_iter().partition(writes_to_gui);
        *out = kept;
        let at = at.min(self.owed.entries.len());
        self.owed.entries.insert(at, Entry::Lines(own));
    }

    /// Writes fenguard's own replies that are due: every entry up to the first one the engine
    /// still owes (a held `go infinite` fenguard answers is passed over and stays).
    pub(super) fn release(&mut self, out: &mut Vec<Action>, now: Instant) {
        let mut i = 0;
        while i < self.owed.entries.len() {
            let entry = &self.owed.entries[i];
            if entry.engine_owed() {
                break;
            }
            if let Entry::Search(s) = entry
                && s.own.as_ref().is_some_and(|o| o.held)
            {
                i += 1;
                continue;
            }
            match self.owed.entries.remove(i).expect("index in range") {
                Entry::Lines(lines) => out.extend(lines),
                Entry::Readyok { .. } => {
                    self.forward_to_gui(out, Bytes::from_static(b"readyok\n"));
                }
                Entry::Search(search) => self.answer_own_search(out, *search, now),
                Entry::Uciok => {}
            }
        }
    }

    /// Whether the GUI still waits for a `uciok`.
    pub(super) fn uciok_owed(&self) -> bool {
        self.owed.entries.iter().any(|e| matches!(e, Entry::Uciok))
    }

    /// A restarted engine's `uciok` was relayed: every other `uciok` the GUI still waits for
    /// (it sent `uci` more than once before the old engine died) is answered by fenguard.
    pub(super) fn answer_remaining_uciok(&mut self, out: &mut Vec<Action>, now: Instant) {
        for entry in &mut self.owed.entries {
            if matches!(entry, Entry::Uciok) {
                *entry = Entry::Lines(vec![Action::ToGui(Bytes::from_static(b"uciok\n"))]);
            }
        }
        self.release(out, now);
    }

    /// The GUI quit: nothing more is answered (its searches are recorded unanswered, at `now`
    /// when known).
    pub(super) fn forget_owed(&mut self, out: &mut Vec<Action>, now: Option<Instant>) {
        for entry in std::mem::take(&mut self.owed.entries) {
            if let Entry::Search(search) = entry {
                self.record_search(out, *search, None, None, now, Vec::new());
            }
        }
    }
}
