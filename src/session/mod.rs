//! The sans-I/O proxy state machine: a GUI line or an engine line in, [`Action`]s out.
//!
//! ```
//! use bytes::Bytes;
//! use fenguard::session::{Action, Session};
//!
//! let mut session = Session::new(false);
//! let actions = session.on_gui_line(Bytes::from_static(b"isready\r\n"));
//! assert_eq!(actions, vec![Action::ToEngine(Bytes::from_static(b"isready\n"))]);
//! ```
//!
//! The tokio shell ([`crate::proxy`]) reads a line, hands it to the session and carries out the
//! actions in order; the session never does I/O and never sees the clock. A line is the exact
//! bytes read, terminator included (`\n`, `\r\n`, or none for a last line without one), so a
//! line that is passed through (not a UCI command) is relayed byte for byte.
//!
//! Every GUI line goes through [`Session::on_gui_line_at`]'s `match` on its command
//! ([`crate::uci::UciCommand`]) and every engine line through [`Session::on_engine_line_at`]'s.
//! A UCI command is judged and forwarded in canonical form (single spaces, `\n`: SPEC section
//! 12, so the engine reads exactly what was judged); any other GUI line is relayed byte for
//! byte, or refused under `[guard] commands = "uci"` (`commands.rs`). Intercepted (SPEC sections 6-8):
//! GUI `position` ([`position`]: checked, forwarded canonical, repaired or rejected), `go`,
//! `stop`, `ponderhit` (`search.rs`), `setoption` (fenguard's own options in [`options`],
//! `UCI_Chess960` in [`chess960`]), `uci`; engine `option` (is `UCI_Chess960` offered?),
//! `uciok` (fenguard's options announced just before it), `bestmove` (checked, castling
//! rewritten) and `info` (castling rewritten only while the two notations differ; otherwise
//! relayed untouched after reading its first token). Every other line is relayed byte for byte,
//! except an engine line cut short by the end of its output (`engine_end.rs`: logged only).
//! The session never reads the clock: the shell passes the time a line was read.
//!
//! Order (`owed.rs`): every reply the GUI asked for (`uciok`, `readyok`, `bestmove`) is an entry
//! of one queue, and fenguard's own replies and notices wait there behind what the engine
//! still owes. Lines that depend on the engine's options wait for its `uciok` (`pending.rs`).
//! The rules in force (`variant.rs`) are asked through one [`game::Game`] (chess, an 8x8
//! variant, a 10x8 board; `game_moves.rs` for move lists); a variant fenguard has no rules for
//! makes the session transparent.

use std::time::{Duration, Instant};

use bytes::Bytes;
use tracing::Level;

use crate::uci::{UciCommand, canonical_line, holds_nul};

pub mod chess960;
mod commands;
mod engine_end;
pub mod game;
pub mod guard;
mod gui_stream;
mod handshake;
mod hang;
mod intercept;
mod option_blame;
pub mod options;
mod overlong;
mod owed;
mod pending;
pub mod position;
pub mod position_memo;
mod record;
mod replay;
pub mod restart;
mod search;
mod search_blame;
#[cfg(test)]
mod tests;
pub mod variant;

pub use chess960::Chess960State;
pub use commands::Commands;
pub use guard::Guard;
pub use hang::OUTPUT_GRACE;
pub use options::Settings;
pub use record::{Event, ExitReason, Moves, PositionRecord, Record, SearchRecord, Verdict};
pub use restart::RestartPolicy;
pub use variant::Rules;

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
    /// The engine hung: kill it (its exit is then reported through
    /// [`Session::on_engine_exit_at`]).
    KillEngine,
    /// The engine is gone: start it again after `after`, then call
    /// [`Session::on_engine_start_at`]; keep the GUI's pipes open meanwhile.
    RestartEngine {
        /// The backoff before the new start.
        after: Duration,
    },
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
    settings: Settings,
    c960: Chess960State,
    /// The position after the last `position` sent, when fenguard knows it.
    current: Option<game::Game>,
    /// `seq` of the last `position` record.
    position_seq: Option<u64>,
    /// The last `position` line and its outcome (`position_memo.rs`): a resent game plays
    /// only its new moves.
    position_memo: position_memo::PositionMemo,
    /// The last `position` was rejected: `go` is answered `bestmove 0000`.
    rejected: bool,
    /// The replies the GUI is owed, in the order it asked (`owed.rs`): `uciok`, `readyok`,
    /// the searches (the engine's, answered by its `bestmove`, and fenguard's own `bestmove
    /// 0000`) and fenguard's own lines about a command, each released in its turn.
    owed: owed::Owed,
    /// GUI lines waiting for the engine's `uciok` (`pending.rs`).
    pending: std::collections::VecDeque<restart::Held>,
    /// The GUI's input ended while lines waited for `uciok`: it is forwarded after them.
    eof_pending: bool,
    /// The game rules in force (`variant.rs`).
    rules: variant::Rules,
    /// The `variant-not-checked` note was recorded for the current unchecked variant.
    variant_noted: bool,
    /// Whole lines to the GUI: own lines wait while an engine line is half relayed.
    gui_stream: gui_stream::GuiStream,
    /// What a restart needs, and where the engine is in its life.
    restart: restart::Restart,
    /// The rest of an over-long GUI line is dropped: a rejected `position`, or a line whose
    /// start went to an engine that has exited since.
    dropping_gui_line: bool,
    /// The daemon's option guard ([`guard`]); `None` for the stdio proxy.
    guard: Option<Guard>,
    /// Which commands reach the engine (`[guard] commands`, [`Commands`]).
    commands: Commands,
    /// The options the engine announced as `type spin` (their values must be decimal).
    spins: commands::SpinOptions,
    /// The GUI line being handled ended in `\r\n` (fenguard's own answers to it do too).
    gui_crlf: bool,
}

impl Session {
    /// A new session with the default settings; `transcript` turns on [`Action::Transcript`]
    /// output.
    pub fn new(transcript: bool) -> Session {
        Session::with_settings(transcript, Settings::default())
    }

    /// A new session with `settings` (`[positions]` and `log.positions` of the configuration).
    pub fn with_settings(transcript: bool, settings: Settings) -> Session {
        Session {
            transcript,
            seq: 0,
            quitting: false,
            settings,
            c960: Chess960State::default(),
            current: None,
            position_seq: None,
            position_memo: position_memo::PositionMemo::default(),
            rejected: false,
            owed: owed::Owed::default(),
            pending: std::collections::VecDeque::new(),
            eof_pending: false,
            rules: variant::Rules::Chess,
            variant_noted: false,
            gui_stream: gui_stream::GuiStream::default(),
            restart: restart::Restart::new(RestartPolicy::default()),
            dropping_gui_line: false,
            guard: None,
            commands: Commands::Any,
            spins: commands::SpinOptions::default(),
            gui_crlf: false,
        }
    }

    /// The current settings (changed by `setoption name fenguard ...`).
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The game rules in force (chess, or a variant passed through unchecked).
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The current Chess960 state.
    pub fn chess960(&self) -> Chess960State {
        self.c960
    }

    /// The engine process was started as `command args` with process id `pid` (no deadlines
    /// without a time: see [`Session::on_engine_start_at`]).
    pub fn on_engine_start(
        &mut self,
        command: String,
        args: Vec<String>,
        pid: Option<u32>,
    ) -> Vec<Action> {
        self.on_engine_start_at(command, args, pid, None)
    }

    /// A line from the GUI, terminator included, without a timestamp (`search` records then
    /// have `elapsed_ms: null`).
    pub fn on_gui_line(&mut self, line: Bytes) -> Vec<Action> {
        self.gui_line(line, None)
    }

    /// A line from the GUI, terminator included, read at `now`.
    pub fn on_gui_line_at(&mut self, line: Bytes, now: Instant) -> Vec<Action> {
        self.gui_line(line, Some(now))
    }

    fn gui_line(&mut self, line: Bytes, now: Option<Instant>) -> Vec<Action> {
        if self.restart.phase != restart::Phase::Running {
            return self.hold_gui_line(line, now);
        }
        if self.waits_for_uciok(&line) {
            self.pending.push_back(restart::Held::Line(line, now));
            return Vec::new();
        }
        let mut out = Vec::with_capacity(1 + 2 * usize::from(self.transcript));
        let at = self.owed.entries.len();
        self.transcribe(&mut out, Direction::FromGui, &line);
        let word = first_token(&line);
        self.restart.suspects.on_gui_line(word);
        let command = UciCommand::from_word(word);
        self.gui_crlf = line.ends_with(b"\r\n");
        // What the engine reads is what fenguard judges: a UCI command is judged and sent in
        // its canonical form (SPEC section 12); the GUI's own line is kept for the position
        // log when it differs (`original`).
        let (line, original) = match command.and_then(|c| canonical_line(&line, c)) {
            Some(canonical) => (Bytes::from(canonical), Some(line)),
            None => (line, None),
        };
        match command {
            // Arguments with a NUL: C and C++ engines would read different commands.
            Some(c) if c.takes_arguments() && c != UciCommand::Position && holds_nul(&line) => {
                self.not_sent(&mut out, &line, command, "a NUL byte in it");
            }
            Some(UciCommand::Quit) => {
                self.drop_pending();
                self.forward_to_engine(&mut out, line);
                if !self.quitting {
                    self.quitting = true;
                    out.push(Action::StartQuitGrace);
                }
            }
            Some(UciCommand::Position) => self.on_position(&mut out, line, original.as_deref()),
            Some(UciCommand::Go) => self.on_go(&mut out, line, now),
            Some(UciCommand::Stop | UciCommand::PonderHit) => self.on_stop(&mut out, line, now),
            Some(UciCommand::SetOption) => {
                if let Some(line) = self.guard_setoption(&mut out, line) {
                    self.restart.slow_pending = true;
                    self.on_setoption(&mut out, line);
                }
            }
            Some(UciCommand::IsReady) => {
                self.restart.on_isready(now);
                self.owed
                    .entries
                    .push_back(owed::Entry::Readyok { own: false });
                self.forward_to_engine(&mut out, line);
            }
            Some(UciCommand::Uci) => {
                self.c960.on_uci();
                self.restart.on_uci(now);
                self.owed.entries.push_back(owed::Entry::Uciok);
                self.forward_to_engine(&mut out, line);
            }
            Some(UciCommand::UciNewGame) => {
                self.restart.note_ucinewgame();
                self.restart.slow_pending = true;
                self.forward_to_engine(&mut out, line);
            }
            Some(UciCommand::Debug | UciCommand::Register) => {
                self.forward_to_engine(&mut out, line)
            }
            None => self.on_other_command(&mut out, line),
        }
        self.queue_own_writes(&mut out, at);
        self.release(&mut out, now);
        self.gui_stream.hold_own_writes(&mut out);
        out
    }

    /// The GUI's input ended: forward the end of input and start the quit grace.
    pub fn on_gui_eof(&mut self) -> Vec<Action> {
        if self.restart.phase == restart::Phase::Waiting {
            return self.quit_while_restarting(Vec::new(), Bytes::new());
        }
        if !self.pending.is_empty() {
            self.eof_pending = true;
            return vec![Action::Log(
                Level::INFO,
                "GUI closed its output: its lines waiting for the engine's uciok go first"
                    .to_owned(),
            )];
        }
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

    /// A line from the engine, terminator included, without a timestamp. A line without
    /// terminator is the end of the engine's output cut inside a line (the shell's codec
    /// yields one only at end of input): logged, never relayed nor interpreted (see
    /// `engine_end.rs`).
    pub fn on_engine_line(&mut self, line: Bytes) -> Vec<Action> {
        self.engine_line(line, None)
    }

    /// A line from the engine, terminator included, read at `now`.
    pub fn on_engine_line_at(&mut self, line: Bytes, now: Instant) -> Vec<Action> {
        self.restart.last_output = Some(now);
        if matches!(first_token(&line), b"readyok" | b"uciok" | b"bestmove") {
            self.restart.overdue_since = None;
        }
        self.engine_line(line, Some(now))
    }

    fn engine_line(&mut self, line: Bytes, now: Option<Instant>) -> Vec<Action> {
        if line.last() != Some(&b'\n') {
            return self.engine_fragment(&line);
        }
        if self.restart.phase != restart::Phase::Running {
            return self.replay_engine_line(line, now);
        }
        self.engine_line_running(line, now)
    }

    fn engine_line_running(&mut self, line: Bytes, now: Option<Instant>) -> Vec<Action> {
        let mut out = Vec::with_capacity(1 + 2 * usize::from(self.transcript));
        self.transcribe(&mut out, Direction::FromEngine, &line);
        if self.restart.gui_awaits_uciok {
            self.restart.shown.note(&line);
        }
        let word = first_token(&line);
        let uciok = word == b"uciok";
        match word {
            b"info" if self.c960.notations_differ() => self.on_info(&mut out, line),
            b"bestmove" => {
                self.restart.search_suspects.on_bestmove();
                self.on_bestmove(&mut out, line, now);
            }
            b"option" => {
                self.spins.note(&line);
                let line = self.guard_option(line);
                self.c960.on_engine_option(&line);
                self.forward_to_gui(&mut out, line);
            }
            b"readyok" => {
                self.restart.on_readyok(now);
                self.restart.suspects.on_readyok();
                self.forward_to_gui(&mut out, line);
                self.owed.answered(owed::Answer::Readyok);
            }
            b"uciok" => {
                self.restart.on_uciok(now);
                for option in self.settings.announce() {
                    self.forward_to_gui(&mut out, Bytes::from(option));
                }
                self.forward_to_gui(&mut out, line);
                self.owed.answered(owed::Answer::Uciok);
                // The GUI sent `uci` more than once: it waits for the next one.
                self.restart.gui_awaits_uciok = self.uciok_owed();
            }
            _ => self.forward_to_gui(&mut out, line),
        }
        self.release(&mut out, now);
        self.gui_stream.after_engine_writes(&mut out);
        if uciok {
            self.release_pending(&mut out);
        }
        out
    }

    /// The engine process ended (no time known: every restart counts against the limit); see
    /// [`Session::on_engine_exit_at`].
    pub fn on_engine_exit(&mut self, exit: EngineExit) -> Vec<Action> {
        self.on_engine_exit_at(exit, None)
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

/// The first token of a UCI line (the command word; [`crate::uci::command_word`]: tokens are
/// separated by the bytes C's `isspace` accepts, as engines read them); empty for a blank
/// line.
pub fn first_token(line: &[u8]) -> &[u8] {
    crate::uci::command_word(line)
}
