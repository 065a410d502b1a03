//! A GUI `setoption` that makes the engine exit is found and no longer replayed, so that a
//! restart can succeed (Stockfish exits at once on `setoption name Debug Log File value
//! /nonexistent/dir/x.log`; replaying it on every restart would end in "giving up").
//!
//! Rule, in two steps:
//! 1. Suspect: a GUI `setoption` sent to the engine is a suspect while the GUI has sent
//!    nothing after it but more `setoption` and `isready` lines, and the engine has not
//!    answered an `isready` sent after it. An engine that exits on its own (or hangs) then may
//!    have died of it. (Only `readyok` proves the engine read the `setoption`: other output
//!    may have been written before.)
//! 2. Proof: the replay after that exit sends each suspect followed by an `isready` of its
//!    own. A `readyok` clears it; an engine that exits (or hangs) before answering that
//!    `isready` was killed by that `setoption`: it is dropped from the options restored by
//!    later restarts, logged as a warning, and the GUI gets `info string fenguard: setoption
//!    <name> made the engine exit; it is not restored any more`. The next restart goes on
//!    without it.
//!
//! 3. A replay that dies before its final `readyok` with no suspect under test (the GUI sent
//!    `position` and `go` right after the fatal `setoption`, so nothing was a suspect) makes
//!    the next replay test every option with an `isready` of its own; one the engine then
//!    dies right after is dropped.
//!
//! An option is so dropped only when the engine died right after it twice: once when the GUI
//! sent it or in a replay that held it, and once right after its own replayed `isready`. A
//! `setoption` the GUI sends again later is forwarded as always.

use std::time::Instant;

use bytes::Bytes;
use tracing::Level;

use super::phase::Barrier;
use super::position::split_terminator;
use super::timers::Timer;
use super::{Action, Phase, Session};
use crate::uci::{UciCommand, parse_setoption};

/// The GUI `setoption` lines the engine may have died of.
#[derive(Debug, Default)]
pub(super) struct Suspects {
    /// `(lower-case option name, GUI isready lines sent before it)`, in the order sent.
    list: Vec<(Vec<u8>, u64)>,
    /// GUI `isready` lines sent to the engine (answered or not).
    isready_sent: u64,
    /// Of those, answered: by the engine's `readyok`, or by fenguard at the engine's exit.
    answered: u64,
    /// The last replay died before its final `readyok` with no suspect under test: the next
    /// one tests every option (rule 3).
    test_all: bool,
}

impl Suspects {
    /// A GUI `setoption` for option `name` went to the engine.
    pub(super) fn on_setoption(&mut self, name: &[u8]) {
        let key = name.to_ascii_lowercase();
        self.list.retain(|(k, _)| *k != key);
        if self.list.len() < MAX_SUSPECTS {
            self.list.push((key, self.isready_sent));
        }
    }

    /// A GUI line holding `command` (the engine is running): any line but `setoption`,
    /// `isready` and `ucinewgame` clears the suspects. (`ucinewgame` between the options and
    /// their `isready` is common: python-chess's `configure` then `play`.)
    pub(super) fn on_gui_command(&mut self, command: Option<UciCommand>) {
        match command {
            Some(UciCommand::IsReady) => self.isready_sent += 1,
            Some(UciCommand::SetOption | UciCommand::UciNewGame) => {}
            _ => self.list.clear(),
        }
    }

    /// The engine answered an `isready`: the `setoption` lines sent before it are read.
    pub(super) fn on_readyok(&mut self) {
        self.answered = (self.answered + 1).min(self.isready_sent);
        let answered = self.answered;
        self.list.retain(|&(_, before)| before >= answered);
    }

    /// The engine is gone: fenguard answers its `isready` lines.
    pub(super) fn on_exit(&mut self) {
        self.answered = self.isready_sent;
    }

    fn contains(&self, key: &[u8]) -> bool {
        self.list.iter().any(|(k, _)| k == key)
    }

    fn remove(&mut self, key: &[u8]) {
        self.list.retain(|(k, _)| k != key);
    }

    fn len(&self) -> usize {
        self.list.len()
    }
}

impl super::restart::Restart {
    /// Option `key` (lower-case name) is no longer restored by restarts: its line as sent
    /// (without terminator) and its name as the GUI wrote it, `None` when it was not set.
    pub(super) fn forget_option(&mut self, key: &[u8]) -> Option<(String, String)> {
        let at = self.options.iter().position(|(k, _)| *k == key)?;
        let (_, line) = self.options.remove(at);
        let text = String::from_utf8_lossy(split_terminator(&line).0).into_owned();
        let name = parse_setoption(&line).map_or_else(
            || text.clone(),
            |o| String::from_utf8_lossy(o.name).into_owned(),
        );
        Some((text, name))
    }
}

/// Most suspects remembered.
const MAX_SUSPECTS: usize = 64;

impl Session {
    /// The lines of the replay's options part: each option as last set, each suspect followed
    /// by its own `isready` (noted in `barrier`).
    pub(super) fn replay_options(&mut self, barrier: &mut Barrier) -> Vec<Bytes> {
        let r = &mut self.restart;
        let mut lines = Vec::with_capacity(r.options.len() + r.suspects.len());
        for (key, line) in &r.options {
            lines.push(line.clone());
            if r.suspects.test_all || r.suspects.contains(key) {
                lines.push(Bytes::from_static(b"isready\n"));
                barrier.tests.push_back(Some(key.clone()));
            }
        }
        lines
    }

    /// A `readyok` during the replay: `true` when it answers the final `isready` (the replay
    /// is over), `false` when it clears a suspect.
    pub(super) fn barrier_readyok(&mut self, now: Instant) -> bool {
        let Phase::Barrier(barrier) = &mut self.phase else {
            return true;
        };
        let Some(Some(key)) = barrier.tests.pop_front() else {
            self.restart.suspects.test_all = false;
            return true;
        };
        self.restart.suspects.remove(&key);
        let timeout = self.timers.answer_timeout();
        self.timers.set(Timer::Readyok, now + timeout);
        false
    }

    /// The engine failed: when it died before answering the `isready` that follows a replayed
    /// suspect, that `setoption` is dropped from the replay.
    pub(super) fn blame_option(&mut self, out: &mut Vec<Action>) {
        let tests = match &mut self.phase {
            Phase::Barrier(barrier) => std::mem::take(&mut barrier.tests),
            _ => return,
        };
        let tested = match tests.into_iter().next() {
            Some(Some(tested)) => tested,
            // Only the final `isready` was unanswered: something in the replay killed it.
            Some(None) => {
                self.restart.suspects.test_all = !self.restart.options.is_empty();
                return;
            }
            None => return,
        };
        let r = &mut self.restart;
        r.suspects.remove(&tested);
        let Some((text, name)) = r.forget_option(&tested) else {
            return;
        };
        out.push(Action::Log(
            Level::WARN,
            format!("engine exited right after the replayed `{text}`: not restored any more"),
        ));
        self.say(
            out,
            &format!("setoption {name} made the engine exit; it is not restored any more"),
        );
    }
}
