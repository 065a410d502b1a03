//! A search's end (SPEC section 6): the engine's `bestmove` rewritten into the GUI's notation,
//! checked in the searched position, relayed and recorded; or fenguard's own `bestmove` for a
//! search it answers itself (`search.rs`: after a rejected position, a lost engine, an empty
//! `searchmoves`, a book move). One `search` record either way.

use std::borrow::Cow;
use std::time::Instant;

use bytes::Bytes;
use tracing::Level;

use super::owed::{Answer, Entry};
use super::position::{lossy, split_terminator};
use super::record::{Event, SearchRecord};
use super::search::Search;
use super::timers::Timer;
use super::{Action, Session};
use crate::rules::{check_bestmove, rewrite_engine_line};
use crate::uci::tokens;

/// `search`'s elapsed time at `now`, when both are known.
fn elapsed_ms(started: Option<Instant>, now: Option<Instant>) -> Option<u64> {
    let (started, now) = (started?, now?);
    u64::try_from(now.saturating_duration_since(started).as_millis()).ok()
}

impl Session {
    /// The engine's `bestmove`: it ends the first search the engine owes (none: a `bestmove`
    /// nobody asked for, judged in the last position sent and relayed all the same).
    pub(super) fn on_bestmove(&mut self, out: &mut Vec<Action>, line: &Bytes, now: Instant) {
        let search = match self.owed.answered(Answer::Bestmove) {
            Some(Entry::Search(search)) => Some(*search),
            _ => None,
        };
        self.relay_bestmove(out, line, search, now);
        self.timers.stop(Timer::Bestmove);
        // A later search already stopped (stop, go, stop before the first bestmove): its
        // bestmove is due from now.
        if self.owed.searches().any(|s| s.own.is_none() && s.stopped) {
            self.timers.on_stop(now);
        }
    }

    /// The engine's `bestmove` `line` for `search`: rewritten while the notations differ (by
    /// the search's own rewriter), checked in the searched position, relayed, and the search
    /// record closed.
    fn relay_bestmove(
        &mut self,
        out: &mut Vec<Action>,
        line: &Bytes,
        mut search: Option<Search>,
        now: Instant,
    ) {
        let (gui, engine) = (self.c960.gui_notation(), self.c960.engine_notation());
        let mut relay = line.clone();
        let mut diags = Vec::new();
        let (root, rewritten) = match search.as_mut() {
            Some(Search { root, rewriter, .. }) => {
                let root = root.as_ref();
                let rewritten = root
                    .filter(|_| gui != engine)
                    .map(|root| rewriter.rewrite(line, root, engine, gui));
                (root, rewritten)
            }
            None => {
                let root = self.current.as_ref();
                let rewritten = root
                    .filter(|_| gui != engine)
                    .map(|root| rewrite_engine_line(line, root, engine, gui));
                (root, rewritten)
            }
        };
        if let Some((rewritten, found)) = rewritten {
            diags.extend(found.iter().map(|d| d.diagnostic.clone()));
            if let Cow::Owned(bytes) = rewritten {
                relay = Bytes::from(bytes);
            }
        }
        if let Some(root) = root {
            diags.extend(
                check_bestmove(line, root, engine)
                    .iter()
                    .map(|d| d.diagnostic.clone()),
            );
        }
        for d in &diags {
            let level = if d.is_error() {
                Level::WARN
            } else {
                Level::INFO
            };
            out.push(Action::Log(level, format!("{}: {}", d.code, d.message)));
            if d.is_error() {
                self.report(out, format!("{}: {}", d.code, d.message));
            }
        }
        let mut toks = tokens(split_terminator(&relay).0).skip(1);
        let best = toks.next().map(|t| lossy(t.text));
        let ponder = match (toks.next(), toks.next()) {
            (Some(kw), Some(p)) if kw.text == b"ponder" => Some(lossy(p.text)),
            _ => None,
        };
        self.forward_to_gui(out, relay);
        if let Some(search) = search {
            self.record_search(out, search, best, ponder, Some(now), diags);
        }
    }

    /// Writes fenguard's answer to `search`: the engine's own `bestmove` it held for a lost
    /// engine, else `bestmove 0000` (`bestmove (none)` for an empty move list, the book's
    /// move), and closes its record.
    pub(super) fn answer_own_search(
        &mut self,
        out: &mut Vec<Action>,
        mut search: Search,
        now: Instant,
    ) {
        if let Some(line) = search.own.as_mut().and_then(|own| own.engine_line.take()) {
            // The engine's answer: its record is the engine's, not fenguard's.
            search.own = None;
            self.relay_bestmove(out, &line, Some(search), now);
            return;
        }
        let (crlf, best) = match &search.own {
            Some(own) => (own.crlf, own.bestmove()),
            None => (false, "0000".to_owned()),
        };
        let end = if crlf { "\r\n" } else { "\n" };
        self.forward_to_gui(out, Bytes::from(format!("bestmove {best}{end}")));
        self.record_search(out, search, Some(best), None, Some(now), Vec::new());
    }

    /// The `search` record of `search`, ended by `bestmove` / `ponder` (as relayed) at `now`.
    pub(super) fn record_search(
        &mut self,
        out: &mut Vec<Action>,
        search: Search,
        bestmove: Option<String>,
        ponder: Option<String>,
        now: Option<Instant>,
        diagnostics: Vec<crate::fen::Diagnostic>,
    ) {
        if !self.settings.log_positions {
            return;
        }
        let event = Event::Search(SearchRecord {
            position_seq: search.position_seq,
            go: search.go,
            bestmove,
            ponder,
            elapsed_ms: elapsed_ms(search.started, now),
            diagnostics,
            variant: self.rules.record_name(),
            fenguard_answer: search.own.as_ref().map(|own| own.why),
        });
        out.push(self.record(event));
    }
}
