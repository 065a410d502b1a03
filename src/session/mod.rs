//! The sans-I/O proxy state machine: a GUI line or an engine line in, [`Action`]s out.
//!
//! ```
//! use bytes::Bytes;
//! use fenguard::session::{Action, Session};
//!
//! let mut session = Session::new(false);
//! let actions = session.on_gui_line(Bytes::from_static(b"isready\r\n"));
//! assert_eq!(actions, vec![Action::ToEngine(Bytes::from_static(b"isready\r\n"))]);
//! ```
//!
//! The tokio shell ([`crate::proxy`]) reads a line, hands it to the session and carries out the
//! actions in order; the session never does I/O and never sees the clock. A line is the exact
//! bytes read, terminator included (`\n`, `\r\n`, or none for a last line without one), so a
//! line that is passed through is relayed byte for byte.
//!
//! Every GUI line goes through [`Session::on_gui_line`]'s `match` on its first token and every
//! engine line through [`Session::on_engine_line`]'s: the `position` interception, the
//! `uci`/`option`/`setoption` tracking and the `bestmove` rewriting of SPEC section 6 belong in
//! those arms. For now each arm passes the line through unchanged.

use bytes::Bytes;
use tracing::Level;

mod record;
#[cfg(test)]
mod tests;

pub use record::{Event, ExitReason, Record};

/// Which way a transcript line went (SPEC section 8's tags).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// Read from the GUI: `gui>`.
    FromGui,
    /// Written to the engine: `>engine`.
    ToEngine,
    /// Read from the engine: `engine>`.
    FromEngine,
    /// Written to the GUI: `>gui`.
    ToGui,
}

impl Direction {
    /// The transcript tag: `gui>`, `>engine`, `engine>` or `>gui`.
    pub fn tag(self) -> &'static str {
        match self {
            Direction::FromGui => "gui>",
            Direction::ToEngine => ">engine",
            Direction::FromEngine => "engine>",
            Direction::ToGui => ">gui",
        }
    }
}

/// One thing the shell must do, in the order given.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    /// Write these bytes to the engine's stdin (terminator included).
    ToEngine(Bytes),
    /// Write these bytes to the GUI (fenguard's stdout, terminator included).
    ToGui(Bytes),
    /// The GUI's input ended: close the engine's stdin (forward the end of input).
    CloseEngineInput,
    /// The engine was asked to quit: give it `engine.quit_grace_ms`, then kill it.
    StartQuitGrace,
    /// Append a record to `positions.jsonl`.
    Record(Record),
    /// Write a transcript line to `fenguard.log` (only produced when the transcript is on).
    Transcript(Direction, Bytes),
    /// Write a message to fenguard's own log at this level.
    Log(Level, String),
    /// fenguard is done: flush the GUI's output and exit with this status.
    Finish(u8),
}

/// What the shell knows about the engine's end.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct EngineExit {
    /// Exit code, when it exited normally.
    pub code: Option<i32>,
    /// Signal number, when a signal ended it (Unix).
    pub signal: Option<i32>,
    /// fenguard killed it.
    pub killed: bool,
}

/// Exit status of fenguard when the engine exits on its own (SPEC: non-zero).
pub const EXIT_ENGINE_DIED: u8 = 1;

/// The proxy's state for one engine process.
#[derive(Debug)]
pub struct Session {
    transcript: bool,
    seq: u64,
    quitting: bool,
}

impl Session {
    /// A new session; `transcript` turns on [`Action::Transcript`] output.
    pub fn new(transcript: bool) -> Session {
        Session {
            transcript,
            seq: 0,
            quitting: false,
        }
    }

    /// The engine process was started as `command args` with process id `pid`.
    pub fn on_engine_start(
        &mut self,
        command: String,
        args: Vec<String>,
        pid: Option<u32>,
    ) -> Vec<Action> {
        let mut message = format!("engine started: {command}");
        for arg in &args {
            message.push(' ');
            message.push_str(arg);
        }
        if let Some(pid) = pid {
            message.push_str(&format!(" (pid {pid})"));
        }
        vec![
            Action::Log(Level::INFO, message),
            self.record(Event::EngineStart { command, args, pid }),
        ]
    }

    /// A line from the GUI, terminator included.
    pub fn on_gui_line(&mut self, line: Bytes) -> Vec<Action> {
        let mut out = Vec::with_capacity(1 + 2 * usize::from(self.transcript));
        self.transcribe(&mut out, Direction::FromGui, &line);
        match first_token(&line) {
            b"quit" => {
                self.forward_to_engine(&mut out, line);
                if !self.quitting {
                    self.quitting = true;
                    out.push(Action::StartQuitGrace);
                }
            }
            // SPEC section 6: the `position` interception goes here (parse, validate, forward
            // the canonical command or reject). Until then: passed through unchanged.
            b"position" => self.forward_to_engine(&mut out, line),
            _ => self.forward_to_engine(&mut out, line),
        }
        out
    }

    /// A piece of a GUI line longer than the line cap; `first` marks its first piece. Such a
    /// line is relayed unchanged, piece by piece, and never interpreted.
    pub fn on_gui_overlong(&mut self, chunk: Bytes, first: bool) -> Vec<Action> {
        self.overlong(Direction::FromGui, chunk, first)
    }

    /// The GUI's input ended: forward the end of input and start the quit grace.
    pub fn on_gui_eof(&mut self) -> Vec<Action> {
        let mut out = vec![
            Action::Log(
                Level::INFO,
                "GUI closed its output: closing the engine's input".to_owned(),
            ),
            Action::CloseEngineInput,
        ];
        if !self.quitting {
            self.quitting = true;
            out.push(Action::StartQuitGrace);
        }
        out
    }

    /// A line from the engine, terminator included.
    pub fn on_engine_line(&mut self, line: Bytes) -> Vec<Action> {
        let mut out = Vec::with_capacity(1 + 2 * usize::from(self.transcript));
        self.transcribe(&mut out, Direction::FromEngine, &line);
        match first_token(&line) {
            // SPEC section 6: `option` recording, fenguard's own options before `uciok`, and
            // castling rewriting in `bestmove` / `info` go here. Until then: passed through.
            b"bestmove" | b"info" | b"option" | b"uciok" => self.forward_to_gui(&mut out, line),
            _ => self.forward_to_gui(&mut out, line),
        }
        out
    }

    /// A piece of an engine line longer than the line cap: relayed unchanged.
    pub fn on_engine_overlong(&mut self, chunk: Bytes, first: bool) -> Vec<Action> {
        self.overlong(Direction::FromEngine, chunk, first)
    }

    /// The engine process ended; always ends with [`Action::Finish`].
    pub fn on_engine_exit(&mut self, exit: EngineExit) -> Vec<Action> {
        let reason = if exit.killed {
            ExitReason::Killed
        } else if self.quitting {
            ExitReason::Quit
        } else {
            ExitReason::Unexpected
        };
        let how = match (exit.code, exit.signal) {
            (Some(code), _) => format!("with status {code}"),
            (None, Some(signal)) => format!("by signal {signal}"),
            (None, None) => "with unknown status".to_owned(),
        };
        let (level, message, status) = match reason {
            ExitReason::Quit => (Level::INFO, format!("engine exited {how}"), 0),
            ExitReason::Killed => (
                Level::WARN,
                format!("engine killed by fenguard; ended {how}"),
                0,
            ),
            ExitReason::Unexpected => (
                Level::ERROR,
                format!(
                    "engine exited on its own {how}; fenguard exits (restarting is not implemented)"
                ),
                EXIT_ENGINE_DIED,
            ),
        };
        vec![
            Action::Log(level, message),
            self.record(Event::EngineExit {
                code: exit.code,
                signal: exit.signal,
                reason,
            }),
            Action::Finish(status),
        ]
    }

    /// Relays a piece of an over-long line read `from` one side to the other, uninterpreted.
    fn overlong(&self, from: Direction, chunk: Bytes, first: bool) -> Vec<Action> {
        let mut out = Vec::new();
        let side = if from == Direction::FromGui {
            "GUI"
        } else {
            "engine"
        };
        if first {
            let message =
                format!("{side} line over the length cap: relayed unchanged, not interpreted");
            out.push(Action::Log(Level::WARN, message));
        }
        self.transcribe(&mut out, from, &chunk);
        if from == Direction::FromGui {
            self.forward_to_engine(&mut out, chunk);
        } else {
            self.forward_to_gui(&mut out, chunk);
        }
        out
    }

    fn forward_to_engine(&self, out: &mut Vec<Action>, line: Bytes) {
        self.transcribe(out, Direction::ToEngine, &line);
        out.push(Action::ToEngine(line));
    }

    fn forward_to_gui(&self, out: &mut Vec<Action>, line: Bytes) {
        self.transcribe(out, Direction::ToGui, &line);
        out.push(Action::ToGui(line));
    }

    fn transcribe(&self, out: &mut Vec<Action>, direction: Direction, line: &Bytes) {
        if self.transcript {
            out.push(Action::Transcript(direction, line.clone()));
        }
    }

    fn record(&mut self, event: Event) -> Action {
        self.seq += 1;
        Action::Record(Record {
            seq: self.seq,
            event,
        })
    }
}

/// The first whitespace-separated token of a UCI line (UCI allows any amount of spaces and
/// tabs around tokens); empty for a blank line.
pub fn first_token(line: &[u8]) -> &[u8] {
    let start = line
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(line.len());
    let rest = &line[start..];
    let len = rest
        .iter()
        .position(u8::is_ascii_whitespace)
        .unwrap_or(rest.len());
    &rest[..len]
}
