//! `go` and `bestmove` (SPEC section 6): `searchmoves` translated into the engine's notation,
//! `go` after a rejected position answered by fenguard with `bestmove 0000`, the engine's
//! `bestmove` / `info` moves rewritten into the GUI's notation and `bestmove` checked, and one
//! `search` record per search.

use std::borrow::Cow;
use std::ops::Range;
use std::time::Instant;

use bytes::Bytes;
use tracing::Level;

use super::game::Game;
use super::owed::Entry;
use super::position::{lossy, split_terminator};
use super::record::FenguardAnswer;
use super::{Action, Session};
use crate::config::OnInvalid;
use crate::rules::{LineRewriter, rewrite_engine_line, translate_searchmoves};
use crate::uci::{Code, Severity, UciCommand, parse_go, splice, tokens};

/// An open search.
#[derive(Debug, Clone)]
pub(super) struct Search {
    /// `seq` of the position record it searches.
    pub(super) position_seq: Option<u64>,
    /// The `go` line as the GUI sent it (its `searchmoves` in the GUI's notation).
    pub(super) go: String,
    /// When the GUI sent `go`, if the shell said.
    pub(super) started: Option<Instant>,
    /// The searched position, when fenguard knows it.
    pub(super) root: Option<Game>,
    /// How fenguard answers it itself (`bestmove 0000`), or `None` when the engine searches.
    pub(super) own: Option<OwnAnswer>,
    /// A `stop` was forwarded while the engine owed this search: its `bestmove` is due within
    /// the ping timeout (re-armed when an earlier search's `bestmove` clears the deadline).
    pub(super) stopped: bool,
    /// The castling rewrite of this search's `info` / `bestmove` lines, with its cache of the
    /// last pv replayed from `root` (boxed: a search waits in the owed-reply queue).
    pub(super) rewriter: Box<LineRewriter<Game>>,
    /// Ponder repair: pondering until the GUI's `ponderhit` / `stop`, an early `bestmove`
    /// held (`ponder_hold.rs`).
    pub(super) hold: super::ponder_hold::Hold,
}

/// A search fenguard answers itself with `bestmove 0000`, in its turn among the searches.
#[derive(Debug, Clone)]
pub(super) struct OwnAnswer {
    /// The terminator of the GUI's line that asked for it (`\n` or `\r\n`).
    pub(super) crlf: bool,
    /// `go infinite` / `go ponder`: waits for the GUI's `stop` / `ponderhit`.
    pub(super) held: bool,
    /// Why fenguard answers. `empty-searchmoves` is answered `bestmove (none)`, as
    /// Stockfish 15.1 answers python-chess's empty list (`searchmoves 0000`, its form of
    /// `root_moves=[]`; python-chess reads `(none)` as no move, `0000` as a null move).
    pub(super) why: FenguardAnswer,
    /// With `why` = `book`: the book's move, answered.
    pub(super) book: Option<shakmaty::uci::UciMove>,
    /// The engine's own `bestmove`, held for the GUI's `ponderhit` / `stop` when the engine
    /// exited (`ponder_hold.rs`): relayed instead of `bestmove 0000`.
    pub(super) engine_line: Option<Box<Bytes>>,
}

impl OwnAnswer {
    fn now(why: FenguardAnswer) -> OwnAnswer {
        OwnAnswer {
            crlf: false,
            held: false,
            why,
            book: None,
            engine_line: None,
        }
    }

    /// The move fenguard writes after `bestmove`.
    pub(super) fn bestmove(&self) -> String {
        match (&self.book, self.why) {
            (Some(m), _) => m.to_string(),
            (None, FenguardAnswer::EmptySearchmoves) => "(none)".to_owned(),
            _ => "0000".to_owned(),
        }
    }
}

impl Search {
    /// The engine that owed this search is gone: fenguard answers it at once, with the
    /// engine's own `bestmove` when one was held (`ponder_hold.rs`), else `bestmove 0000`.
    /// At once also for a `go ponder` / `go infinite`: a GUI discards a `bestmove` that
    /// comes while it ponders and starts a new search (cutechess: "Premature bestmove while
    /// pondering"), where a `bestmove 0000` answering its later `ponderhit` would be played
    /// (cutechess forfeits the game on it).
    pub(super) fn answer_as_lost(&mut self) {
        if self.own.is_none() {
            let mut own = OwnAnswer::now(FenguardAnswer::EngineGone);
            own.engine_line = self.hold.lost();
            self.own = Some(own);
        }
    }
}

/// Whether a `go` line asks for Stockfish's `perft` (node counts, never a `bestmove`): not a
/// search.
pub(super) fn is_perft(body: &[u8]) -> bool {
    tokens(body).skip(1).any(|t| t.text == b"perft")
}

/// Why `searchmoves` left nothing to search: `asked_empty` when the list only held `0000`.
struct EmptyList {
    asked_empty: bool,
}

impl Session {
    /// A `go` fenguard does not send (its line is over the line cap): answered `bestmove 0000`
    /// in its turn, as after a rejected position.
    pub(super) fn answer_unsent_go(&mut self, go: String) {
        let search = Search {
            position_seq: self.position_seq,
            go,
            started: None,
            root: None,
            own: Some(OwnAnswer::now(FenguardAnswer::NotSent)),
            stopped: false,
            rewriter: Box::default(),
            hold: Default::default(),
        };
        self.owed.entries.push_back(Entry::Search(Box::new(search)));
    }

    /// `go`: answered `bestmove 0000` after a rejected position (when the GUI sends `stop`
    /// or `ponderhit` for `go infinite` / `go ponder`), else forwarded with `searchmoves`
    /// checked and translated. A `go infinite` still held is answered first. `go perft` is
    /// not a search (see [`Session::on_go_perft`]).
    pub(super) fn on_go(&mut self, out: &mut Vec<Action>, line: Bytes, now: Instant) {
        let (body, _) = split_terminator(&line);
        let go = parse_go(body);
        if go.as_ref().is_some_and(|go| go.perft) {
            self.on_go_perft(out, line);
            return;
        }
        // When fenguard answers this `go` itself: `go infinite` / `go ponder` at the GUI's
        // `stop` / `ponderhit`, as an engine would (UCI: no `bestmove` before them).
        let mut own = OwnAnswer {
            crlf: self.gui_crlf,
            held: go.as_ref().is_some_and(|go| go.waits_for_stop),
            why: FenguardAnswer::RejectedPosition,
            book: None,
            engine_line: None,
        };
        // A new `go` without `stop`: a held search is over, and its `bestmove` is owed first
        // (the next `stop` belongs to the new search).
        for search in self.owed.searches_mut() {
            if let Some(own) = &mut search.own {
                own.held = false;
            }
        }
        self.release_held_bestmove(out, now);
        let mut search = Search {
            position_seq: self.position_seq,
            go: lossy(body),
            started: Some(now),
            root: self.current.clone(),
            own: None,
            stopped: false,
            rewriter: Box::default(),
            hold: super::ponder_hold::Hold::for_go(go.as_ref().is_some_and(|g| g.waits_for_stop)),
        };
        if self.rejected {
            out.push(Action::Log(
                Level::INFO,
                "go after a rejected position: not forwarded, answered with bestmove 0000"
                    .to_owned(),
            ));
            search.root = None;
            search.own = Some(own);
            self.owed.entries.push_back(Entry::Search(Box::new(search)));
            return;
        }
        if let Some(m) = self.book_move(go.as_ref()) {
            out.push(Action::Log(
                Level::INFO,
                format!("book move {m}: answered by fenguard"),
            ));
            own.why = FenguardAnswer::Book;
            own.book = Some(m);
            search.own = Some(own);
            self.owed.entries.push_back(Entry::Search(Box::new(search)));
            return;
        }
        let mut sent = line.clone();
        let listed = go.as_ref().and_then(|go| {
            go.searchmoves_keyword
                .as_ref()
                .map(|_| go.searchmoves.len())
        });
        if let Some(root) = self.current.clone()
            && let Some(listed) = listed
        {
            match self.checked_searchmoves(out, &line, &root, listed) {
                Ok(checked) => sent = checked,
                Err(EmptyList { asked_empty }) => {
                    own.why = if asked_empty {
                        FenguardAnswer::EmptySearchmoves
                    } else {
                        FenguardAnswer::NoLegalSearchmoves
                    };
                    search.own = Some(own);
                    self.owed.entries.push_back(Entry::Search(Box::new(search)));
                    return;
                }
            }
        }
        self.owed.entries.push_back(Entry::Search(Box::new(search)));
        let sent = self.time_safe(sent);
        self.forward_to_engine(out, sent);
    }

    /// `go perft N` (Stockfish, Fairy-Stockfish): node counts and `Nodes searched: N`, never a
    /// `bestmove`, so not a search: forwarded unchanged and owed nothing. After a rejected
    /// position it is not sent (the engine would count the moves of a position the GUI did
    /// not ask for); the GUI gets an `info string` saying so, and no `bestmove` (the engine
    /// would not write one either).
    fn on_go_perft(&mut self, out: &mut Vec<Action>, line: Bytes) {
        if self.rejected {
            let text = "go perft after a rejected position: not sent to the engine";
            out.push(Action::Log(Level::INFO, text.to_owned()));
            self.say(out, text);
            return;
        }
        self.forward_to_engine(out, line);
    }

    /// The `go` line with its `searchmoves` checked in `root` and translated into the engine's
    /// notation (SPEC 6: like the `moves` list; `listed` moves follow its `searchmoves`). A move that is not legal there is reported
    /// and, unless `on_invalid = "forward"`, removed from the list: an engine told to search an
    /// illegal move answers nonsense or crashes (public case R10). [`EmptyList`] when every
    /// listed move was removed: then no legal move is left to search and fenguard answers the
    /// `go` itself, `bestmove 0000` after an illegal move, `bestmove (none)` for a list that
    /// only held `0000` (python-chess's empty list, which Stockfish 15.1 skips, answering
    /// `bestmove (none)`; it is not reported to the GUI).
    fn checked_searchmoves(
        &mut self,
        out: &mut Vec<Action>,
        line: &Bytes,
        root: &Game,
        listed: usize,
    ) -> Result<Bytes, EmptyList> {
        let on_invalid = self.settings.positions.on_invalid;
        let repair = on_invalid == OnInvalid::Repair;
        let (gui, engine) = (self.c960.gui_notation(), self.c960.engine_notation());
        let (rewritten, diags) = translate_searchmoves(line, root, gui, engine, repair);
        for d in &diags {
            let text = format!("searchmoves: {}: {}", d.code, d.message);
            match d.code {
                Code::NullMove => out.push(Action::Log(Level::INFO, text)),
                _ => self.report(out, text),
            }
        }
        let unusable: Vec<(Range<usize>, Vec<u8>)> = diags
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .filter(|d| !(repair && d.code == Code::MissingPromotion))
            .filter_map(|d| d.span.clone())
            .map(|span| (with_leading_blanks(line, span), Vec::new()))
            .collect();
        if unusable.is_empty() || on_invalid == OnInvalid::Forward {
            return Ok(match rewritten {
                Cow::Owned(bytes) => Bytes::from(bytes),
                Cow::Borrowed(_) => line.clone(),
            });
        }
        if unusable.len() >= listed {
            let asked_empty = diags.iter().all(|d| d.code == Code::NullMove);
            if asked_empty {
                let text = "searchmoves: an empty list (`0000`); answered with bestmove (none)";
                out.push(Action::Log(Level::INFO, text.to_owned()));
            } else {
                let text = "searchmoves: no legal move left to search; answered with bestmove 0000";
                self.report(out, text.to_owned());
            }
            return Err(EmptyList { asked_empty });
        }
        let cleaned = splice(line, &unusable).into_owned();
        let (rewritten, _) = translate_searchmoves(&cleaned, root, gui, engine, repair);
        Ok(Bytes::from(rewritten.into_owned()))
    }

    /// `stop` / `ponderhit`: ends a held `go` that fenguard answers (the line is not
    /// forwarded), else forwards the line.
    pub(super) fn on_stop(
        &mut self,
        out: &mut Vec<Action>,
        line: Bytes,
        command: UciCommand,
        now: Instant,
    ) {
        let held = self
            .owed
            .searches_mut()
            .filter_map(|s| s.own.as_mut())
            .find(|own| own.held);
        match held {
            Some(own) => own.held = false,
            None => {
                if self.release_held_bestmove(out, now) {
                    return;
                }
                // After `stop`, the engine owes its `bestmove` at once: time it like `readyok`.
                if command == UciCommand::Stop {
                    let mut owed = false;
                    for s in self.owed.searches_mut().filter(|s| s.own.is_none()) {
                        s.stopped = true;
                        owed = true;
                    }
                    if owed {
                        self.timers.on_stop(now);
                    }
                }
                self.forward_to_engine(out, line);
            }
        }
    }

    /// The castling moves of an engine line rewritten into the GUI's notation, replayed from
    /// `Session::root` by the rewriter of the search the line belongs to; `None` when no
    /// position is known.
    fn rewrite_for_gui<'a>(&mut self, line: &'a [u8]) -> Option<Rewritten<'a>> {
        let (gui, engine) = (self.c960.gui_notation(), self.c960.engine_notation());
        match self.owed.searches_mut().find(|s| s.own.is_none()) {
            Some(Search { root, rewriter, .. }) => root
                .as_ref()
                .map(|root| rewriter.rewrite(line, root, engine, gui)),
            None => self
                .current
                .as_ref()
                .map(|root| rewrite_engine_line(line, root, engine, gui)),
        }
    }

    /// An `info` line while the notations differ: castling moves rewritten.
    pub(super) fn on_info(&mut self, out: &mut Vec<Action>, line: &Bytes) {
        let mut relay = line.clone();
        if let Some((rewritten, diags)) = self.rewrite_for_gui(line) {
            for d in diags {
                out.push(Action::Log(Level::DEBUG, d.to_string()));
            }
            if let Cow::Owned(bytes) = rewritten {
                relay = Bytes::from(bytes);
            }
        }
        self.forward_to_gui(out, relay);
    }
}

/// A line rewritten for the GUI and the rewrite's diagnostics.
type Rewritten<'a> = (Cow<'a, [u8]>, Vec<crate::uci::MoveDiagnostic>);

/// `span` widened to the blanks before it, so that removing it leaves single separators.
fn with_leading_blanks(line: &[u8], span: Range<usize>) -> Range<usize> {
    let start = line[..span.start]
        .iter()
        .rposition(|b| !matches!(b, b' ' | b'\t'))
        .map_or(0, |i| i + 1);
    start..span.end
}
