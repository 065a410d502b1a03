//! The sans-I/O proxy state machine: an [`Input`] and the time in, [`Action`]s out.
//!
//! ```
//! use std::time::Instant;
//!
//! use bytes::Bytes;
//! use fenguard::session::{Action, Input, Session};
//!
//! let mut session = Session::new(false);
//! let actions = session.handle(Input::GuiLine(Bytes::from_static(b"isready\r\n")), Instant::now());
//! assert_eq!(actions, vec![Action::ToEngine(Bytes::from_static(b"isready\n"))]);
//! ```
//!
//! The tokio shell ([`crate::proxy`], [`crate::serve`]) reads a line, hands it to
//! [`Session::handle`] with the time it was read and carries out the actions in order; the
//! session never does I/O and never reads the clock. It asks for a [`Input::Tick`] by
//! [`Session::next_deadline`]. A line is the exact bytes read, terminator included (`\n`,
//! `\r\n`, or none for a last line without one), so a line that is passed through (not a UCI
//! command) is relayed byte for byte.
//!
//! # States and inputs
//!
//! The session is named by two types:
//! - [`Phase`] (`phase.rs`), where the engine is: `Running` (lines pass), `Waiting` (gone, a new
//!   one is due after the backoff), `Handshake` (new engine sent `uci`), `Barrier` (replay sent,
//!   its `isready` lines unanswered: the suspects they test are the state's data). The GUI's
//!   `quit` / end of input is a flag on top (`quitting`; `quit.rs`: the grace waits for an owed
//!   `uciok`).
//! - [`Input`], the alphabet: `GuiLine`, `GuiPiece` (of an over-long line), `GuiEof`,
//!   `EngineStarted`, `EngineLine`, `EnginePiece`, `EngineBacklog`, `EngineInputStalled`,
//!   `EngineExited`, `DeferDeadlines` and `Tick`.
//!
//! Beside the phase, the session keeps one timer table (`timers.rs`: the `uciok`, `readyok`
//! and `bestmove` deadlines and the marks they are judged by), one inbox of GUI lines that
//! cannot be handled yet (`inbox.rs`: waiting for the engine's `uciok`, or held while it
//! restarts), one queue of the replies the GUI is owed (`owed.rs`), what a restart
//! restores (`restart.rs`), what the engine announced that decides the rules (`offer.rs`) and
//! the refusals summed for the log (`refusals.rs`).
//!
//! # One line, one reading
//!
//! Every GUI line is read once into its command ([`crate::uci::UciCommand`], `gui_input.rs`)
//! and every engine line once into an [`crate::uci::EngineLine`] (`engine_input.rs`); the guard, the
//! interception, the handshake and the inbox all take the typed line. A UCI command is judged
//! and forwarded in canonical form (single spaces, `\n`: SPEC section 12, so the engine reads
//! exactly what was judged); any other GUI line is relayed byte for byte, or refused under
//! `[guard] commands = "uci"` (`commands.rs`). Intercepted (SPEC sections 6-8): GUI
//! `position` ([`position`]: checked, forwarded canonical, repaired or rejected), `go`,
//! `stop`, `ponderhit` (`search.rs`), `setoption` (the guard, fenguard's own options in
//! [`options`], `UCI_Chess960` in [`chess960`]: `intercept.rs`), `uci`; engine `option` (is
//! `UCI_Chess960` offered?), `uciok` (fenguard's options announced just before it),
//! `bestmove` (checked, castling rewritten) and `info` (castling rewritten only while the two
//! notations differ; otherwise relayed untouched after reading its first token). Every other
//! line is relayed byte for byte, except an engine line cut short by the end of its output
//! (`engine_end.rs`: logged only).
//!
//! Order (`owed.rs`): every reply the GUI asked for (`uciok`, `readyok`, `bestmove`) is an entry
//! of one queue, and fenguard's own replies and notices wait there behind what the engine
//! still owes. The rules in force ([`crate::rules::Rules`]) are asked through one
//! [`crate::rules::Game`] (chess, an 8x8 variant, a 10x8 board; move lists and the pv rewrite
//! in [`crate::rules`]); a variant fenguard has no rules for makes the session transparent.

use std::time::{Duration, Instant};

use bytes::Bytes;
use tracing::Level;

mod adapter;
mod bestmove;
mod book;
pub mod chess960;
mod commands;
mod engine_end;
mod engine_input;
pub mod game;
pub mod guard;
mod gui_input;
mod gui_stream;
mod handshake;
mod hang;
mod identity;
mod inbox;
mod intercept;
pub mod offer;
mod option_blame;
pub mod options;
mod overlong;
mod owed;
pub mod phase;
mod ponder_hold;
pub mod position;
pub mod position_memo;
mod presets;
mod quit;
mod record;
mod refusals;
mod replay;
pub mod restart;
mod search;
mod search_blame;
#[cfg(test)]
mod tests;
mod time_safety;
mod timers;
pub mod variant;

pub use adapter::Adapter;
pub use chess960::Chess960State;
pub use commands::Commands;
pub use guard::Guard;
pub use hang::OUTPUT_GRACE;
pub use offer::EngineOffer;
pub use options::Settings;
pub use phase::Phase;
pub use record::{
    CommandRecord, Event, ExitReason, FenguardAnswer, Moves, PositionRecord, Record, SearchRecord,
    Verdict,
};
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
    /// The engine hung: kill it (its exit is then reported as [`Input::EngineExited`]).
    KillEngine,
    /// The engine is gone: start it again after `after`, then report
    /// [`Input::EngineStarted`]; keep the GUI's pipes open meanwhile.
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

/// Everything the shell tells the session: the session's alphabet. Each comes with the time
/// it happened ([`Session::handle`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    /// A line from the GUI, terminator included.
    GuiLine(Bytes),
    /// A piece of a GUI line longer than the line cap (`first`: its first piece; the line
    /// ends with the piece that ends in `\n`): see `overlong.rs`.
    GuiPiece {
        /// The bytes.
        chunk: Bytes,
        /// The line's first piece.
        first: bool,
    },
    /// The GUI's input ended: the end of input is forwarded and the quit grace starts.
    GuiEof,
    /// The engine process was started as `command args` with process id `pid`; after an
    /// exit this starts the replay (`uci` first).
    EngineStarted {
        /// The resolved program.
        command: String,
        /// Its arguments.
        args: Vec<String>,
        /// Its process id.
        pid: Option<u32>,
    },
    /// A line from the engine, terminator included. A line without terminator is the end of
    /// the engine's output cut inside a line (the shell's codec yields one only at end of
    /// input): logged, never relayed nor interpreted (`engine_end.rs`).
    EngineLine(Bytes),
    /// A piece of an engine line longer than the line cap: relayed unchanged.
    EnginePiece {
        /// The bytes.
        chunk: Bytes,
        /// The line's first piece.
        first: bool,
    },
    /// A read of the engine's output found a backlog (many bytes at once): the engine is
    /// producing output faster than it is taken, and may be blocked writing it.
    EngineBacklog,
    /// The engine has not read its input for this long (a write to its stdin is blocked): it
    /// is hung like one that misses a deadline, and gets killed. (While it does not read, the
    /// GUI's `isready` and `quit` never reach the session, so the deadlines cannot catch it.)
    EngineInputStalled(Duration),
    /// The engine process ended: reported to the GUI, then [`Action::RestartEngine`] or
    /// [`Action::Finish`].
    EngineExited(EngineExit),
    /// The shell could not read the engine's output until `until` (the GUI was not reading
    /// fenguard's): passed deadlines move there.
    DeferDeadlines {
        /// The new earliest deadline.
        until: Instant,
    },
    /// The time passed: a missed deadline ([`Session::next_deadline`]) makes the engine hung
    /// ([`Action::KillEngine`]). Calling it early is harmless.
    Tick,
}

/// The proxy's state for one engine process.
#[derive(Debug)]
pub struct Session {
    transcript: bool,
    seq: u64,
    /// Where the engine is ([`Phase`]).
    phase: Phase,
    /// The GUI quit or closed its input: the engine is on its way out.
    quitting: bool,
    /// The GUI quit while waiting for `uciok`: the quit grace starts at it (`quit.rs`).
    grace_after_uciok: bool,
    /// The end of the GUI's input means the GUI is gone (`quit.rs`).
    gone_at_eof: bool,
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
    /// GUI input that waits: for the engine's `uciok`, or for a restarting engine
    /// (`inbox.rs`).
    inbox: inbox::Inbox,
    /// The deadlines and clocks (`timers.rs`).
    timers: timers::Timers,
    /// The game rules in force (`variant.rs`).
    rules: variant::Rules,
    /// The `variant-not-checked` note was recorded for the current unchecked variant.
    variant_noted: bool,
    /// What the engine announced that decides the rules (`offer.rs`).
    offer: offer::EngineOffer,
    /// Refused GUI lines summed for `fenguard.log` (`refusals.rs`).
    refusals: refusals::Refusals,
    /// Whole lines to the GUI: own lines wait while an engine line is half relayed.
    gui_stream: gui_stream::GuiStream,
    /// What a restart restores, and how many there were (`restart.rs`).
    restart: restart::Restart,
    /// The GUI sent `uci` and has not had its `uciok`.
    gui_awaits_uciok: bool,
    /// The handshake lines the GUI has seen since its `uci` (`handshake.rs`).
    shown: handshake::Shown,
    /// The engine got the start of an over-long GUI line but not its end yet.
    gui_piece_open: bool,
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
    /// The adapter settings: presets, identity, clock margin, ponder repair, book
    /// (`adapter.rs`).
    adapter: Adapter,
}

impl Session {
    /// A new session with the default settings; `transcript` turns on [`Action::Transcript`]
    /// output.
    pub fn new(transcript: bool) -> Session {
        Session::with_settings(transcript, Settings::default())
    }

    /// A new session with `settings` (`[positions]` and `log.positions` of the configuration).
    pub fn with_settings(transcript: bool, settings: Settings) -> Session {
        let policy = RestartPolicy::default();
        Session {
            transcript,
            seq: 0,
            phase: Phase::Running,
            quitting: false,
            grace_after_uciok: false,
            gone_at_eof: false,
            settings,
            c960: Chess960State::default(),
            current: None,
            position_seq: None,
            position_memo: position_memo::PositionMemo::default(),
            rejected: false,
            owed: owed::Owed::default(),
            inbox: inbox::Inbox::default(),
            timers: timers::Timers::new(&policy),
            rules: variant::Rules::Chess,
            variant_noted: false,
            offer: offer::EngineOffer::default(),
            refusals: refusals::Refusals::default(),
            gui_stream: gui_stream::GuiStream::default(),
            restart: restart::Restart::new(policy),
            gui_awaits_uciok: false,
            shown: handshake::Shown::default(),
            gui_piece_open: false,
            dropping_gui_line: false,
            guard: None,
            commands: Commands::Any,
            spins: commands::SpinOptions::default(),
            gui_crlf: false,
            adapter: Adapter::default(),
        }
    }

    /// The one entry point: `input` happened at `now`; gives what the shell must do, in order.
    pub fn handle(&mut self, input: Input, now: Instant) -> Vec<Action> {
        let mut out = match input {
            Input::GuiLine(line) => {
                let command = gui_input::command_of(&line);
                self.gui_line(line, command, now)
            }
            Input::GuiPiece { chunk, first } => self.gui_piece(chunk, first, now),
            Input::GuiEof => self.gui_eof(),
            Input::EngineStarted { command, args, pid } => {
                self.engine_started(command, args, pid, now)
            }
            Input::EngineLine(line) => self.engine_line(line, now),
            Input::EnginePiece { chunk, first } => self.engine_piece(chunk, first),
            Input::EngineBacklog => {
                self.timers.last_backlog = Some(now);
                self.timers.overdue_since = None;
                Vec::new()
            }
            Input::EngineInputStalled(stalled) => self.input_stalled(stalled),
            Input::EngineExited(exit) => self.engine_exited(exit, now),
            Input::DeferDeadlines { until } => {
                self.defer(until);
                Vec::new()
            }
            Input::Tick => self.tick(now),
        };
        self.sum_refusals(&mut out, now);
        out
    }

    /// Where the engine is.
    pub fn phase(&self) -> &Phase {
        &self.phase
    }

    /// The current settings (changed by `setoption name fenguard ...`).
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The game rules in force (chess, or a variant passed through unchecked).
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// What the engine announced that decides the rules ([`EngineOffer`]).
    pub fn offer(&self) -> &EngineOffer {
        &self.offer
    }

    /// The current Chess960 state.
    pub fn chess960(&self) -> Chess960State {
        self.c960
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
