//! What every check group does with the engine: a fresh process with its handshake, a
//! `isready` round trip, one search from a position to its `bestmove`. Thin: the verdicts are
//! [`super::judge`]'s.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use super::engine::{Engine, Received, describe_exit};
use super::report::CheckResult;

/// The time limits of one run (`--quick` or `--full`).
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// `uci` → `uciok`.
    pub uciok: Duration,
    /// `isready` → `readyok` (also after `setoption`, which may allocate a hash table).
    pub readyok: Duration,
    /// A bounded search (`go depth N`, `go nodes N`, `go perft N`) → `bestmove` / the count.
    pub search: Duration,
    /// A hostile line's search, after which the engine is taken as hung.
    pub hang: Duration,
    /// `movetime` asked, ms.
    pub movetime: u64,
    /// How many `go movetime` runs.
    pub movetime_runs: usize,
    /// Perft depth of the suites.
    pub perft_depth: u32,
    /// Whether this is `--quick`.
    pub quick: bool,
}

impl Limits {
    /// The limits of `--quick` (`true`) or `--full`.
    pub fn new(quick: bool) -> Limits {
        Limits {
            uciok: Duration::from_secs(10),
            readyok: Duration::from_secs(if quick { 10 } else { 30 }),
            search: Duration::from_secs(if quick { 20 } else { 120 }),
            hang: Duration::from_secs(if quick { 4 } else { 10 }),
            movetime: if quick { 300 } else { 500 },
            movetime_runs: if quick { 8 } else { 20 },
            perft_depth: if quick { 3 } else { 4 },
            quick,
        }
    }
}

/// The engine of a run and what the run knows about it.
pub struct Ctx {
    /// The process.
    pub engine: Engine,
    /// The limits.
    pub limits: Limits,
    /// The `uci` reply of the first handshake, line by line.
    pub uci_reply: Vec<String>,
    /// Whether it answers `go perft`.
    pub perft: bool,
    /// Called with each check's id as it starts (the progress bar).
    pub progress: Box<dyn FnMut(&str)>,
    /// The author's own perft positions (`--perft FEN[:DEPTH]`) and their depths.
    pub user_perft: Vec<(super::cases::SuitePosition, u32)>,
}

/// What a `uci` handshake got.
#[derive(Debug, Default)]
pub struct Handshake {
    /// Every line up to `uciok`, as text.
    pub lines: Vec<String>,
    /// Whether `uciok` came.
    pub uciok: bool,
    /// How long it took.
    pub elapsed: Duration,
    /// The error line of an engine that refused `uci` (an xboard / CECP engine).
    pub not_uci: Option<String>,
}

/// Whether an engine line refuses the `uci` command (`Error (unknown command): uci`, as
/// xboard engines answer it; `Illegal move: uci`, `Unknown command: uci`).
pub fn refuses_uci(line: &[u8]) -> bool {
    let text = String::from_utf8_lossy(line).to_ascii_lowercase();
    let names_uci = text
        .split(|c: char| !c.is_ascii_alphanumeric())
        .any(|w| w == "uci");
    names_uci
        && ["error", "unknown", "illegal", "invalid"]
            .iter()
            .any(|w| text.contains(w))
}

impl Ctx {
    /// Starts `program` and shakes hands.
    ///
    /// # Errors
    /// The error of starting it.
    pub fn start(program: PathBuf, args: Vec<String>, limits: Limits) -> std::io::Result<Ctx> {
        let engine = Engine::start(program, args)?;
        Ok(Ctx {
            engine,
            limits,
            uci_reply: Vec::new(),
            perft: false,
            progress: Box::new(|_| {}),
            user_perft: Vec::new(),
        })
    }

    /// Tells the progress bar a check starts.
    pub fn step(&mut self, id: &str) {
        (self.progress)(id);
    }

    /// `uci` → `uciok`. An engine that answers `uci` with an error before any `id` or
    /// `option` line (an xboard engine: `Error (unknown command): uci`) is not waited for.
    pub fn handshake(&mut self) -> Handshake {
        let t = Instant::now();
        self.engine.send(b"uci");
        let uci_seen = std::cell::Cell::new(false);
        let r = self.engine.read_until(self.limits.uciok, |line| {
            let word = crate::uci::command_word(line);
            if word == b"id" || word == b"option" {
                uci_seen.set(true);
            }
            word == b"uciok" || (!uci_seen.get() && refuses_uci(line))
        });
        let lines: Vec<String> = r.lines.iter().map(Received::text).collect();
        let uciok = r.matched && r.last().is_some_and(|l| l.line.starts_with(b"uciok"));
        Handshake {
            not_uci: (r.matched && !uciok).then(|| lines.last().cloned().unwrap_or_default()),
            lines,
            uciok,
            elapsed: t.elapsed(),
        }
    }

    /// `isready` → `readyok`: how long it took, `None` without an answer.
    pub fn ready(&mut self) -> Option<Duration> {
        let t = Instant::now();
        self.engine.send(b"isready");
        let limit = self.limits.readyok;
        self.engine
            .read_until_word(limit, "readyok")
            .matched
            .then(|| t.elapsed())
    }

    /// A fresh process, handshake done and `setup` lines (`setoption ...`) sent and
    /// confirmed with `isready`; the transcript starts after it. `false` when it fails.
    pub fn fresh(&mut self, setup: &[String]) -> bool {
        if self.engine.restart().is_err() {
            return false;
        }
        let ok = self.handshake().uciok && {
            for line in setup {
                self.engine.send(line.as_bytes());
            }
            self.ready().is_some()
        };
        let _ = self.engine.take_transcript();
        ok
    }

    /// Sends `position` and `go`, reads to `bestmove` (or the end, or `limit`).
    pub fn search(&mut self, position: &str, go: &str, limit: Duration) -> Search {
        self.engine.send(position.as_bytes());
        let sent = Instant::now();
        self.engine.send(go.as_bytes());
        let r = self.engine.read_until_word(limit, "bestmove");
        Search {
            bestmove: r.last().map(Received::text),
            at: r.last().map(|l| l.at.saturating_duration_since(sent)),
            lines: r.lines,
            ended: r.eof,
        }
    }

    /// How the engine ended, when it did (for a crash's detail).
    pub fn exit_text(&mut self) -> String {
        match self.engine.wait_exit(Duration::from_secs(2)) {
            Some(status) => describe_exit(status),
            None => "closed its output".to_owned(),
        }
    }

    /// `result` with the transcript since the last one.
    pub fn finish(&mut self, result: CheckResult) -> CheckResult {
        let t = self.engine.take_transcript();
        result.with_transcript(t)
    }
}

/// One search's lines.
#[derive(Debug)]
pub struct Search {
    /// Everything read, the `bestmove` line last when it came.
    pub lines: Vec<Received>,
    /// The `bestmove` line.
    pub bestmove: Option<String>,
    /// When it came, after the `go` was sent.
    pub at: Option<Duration>,
    /// Whether the engine's output ended.
    pub ended: bool,
}

impl Search {
    /// The `info` lines read.
    pub fn infos(&self) -> impl Iterator<Item = &Received> {
        self.lines
            .iter()
            .filter(|l| crate::uci::command_word(&l.line) == b"info")
    }
}
