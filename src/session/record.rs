//! Records for `positions.jsonl` (SPEC section 8) produced by the session.
//!
//! Besides what fenguard did with them (`position`, `search`), the records hold every GUI line
//! that matters for the engine, in the order read, so that `fenguard replay` can send them
//! again (SPEC 14): `option` (`setoption`) and `command` (`ucinewgame`, `go`, `stop`,
//! `ponderhit`, `debug`, `register`), each just the GUI's line (`{"kind":"command","raw":"go
//! nodes 1000"}`: a record of constant size, the same in full and in the file).

use bytes::Bytes;
use serde::Serialize;

use super::{Action, Session};
use crate::fen::Diagnostic;
use crate::uci::UciCommand;

/// A record for `positions.jsonl` (SPEC section 8); the writer adds `ts` and `session`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Record {
    /// Sequence number within the session, from 1.
    pub seq: u64,
    /// What happened; serialized as `"kind": "<kebab-case name>"` plus its fields.
    #[serde(flatten)]
    pub event: Event,
}

/// The kinds of records (SPEC section 8).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Event {
    /// The engine process was started.
    EngineStart {
        /// The resolved program path.
        command: String,
        /// Its arguments.
        args: Vec<String>,
        /// Its process id.
        pid: Option<u32>,
        /// How many restarts came before this start (0 for the first engine).
        restart: u32,
    },
    /// The engine process ended.
    EngineExit {
        /// Exit code, when it exited normally.
        code: Option<i32>,
        /// Signal number, when a signal ended it (Unix).
        signal: Option<i32>,
        /// `quit` (after `quit` or the GUI's end of input), `killed` (by fenguard), `hung`
        /// (killed by fenguard because it stopped answering), or `unexpected` (on its own).
        reason: ExitReason,
    },
    /// A GUI `position` command and what fenguard did with it.
    Position(Box<PositionRecord>),
    /// A search, closed by `bestmove` (the engine's or fenguard's own `bestmove 0000`).
    Search(SearchRecord),
    /// A GUI `setoption` line, logged as read (before the guard or fenguard's own options
    /// act on it).
    Option(CommandRecord),
    /// A GUI `ucinewgame`, `go`, `stop`, `ponderhit`, `debug` or `register` line, logged as
    /// read (a `go` is closed later by its `search` record).
    Command(CommandRecord),
    /// fenguard switched the engine to Chess960 (`positions.chess960 = "detect"`).
    Chess960Enabled {
        /// The line sent to the engine: `setoption name UCI_Chess960 value true`.
        sent: String,
        /// The start position that needs Chess960 (X-FEN castling).
        fen: String,
    },
}

/// What became of a `position` command.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// No error: the canonical command was sent.
    Valid,
    /// Every error had a safe repair: the repaired command was sent.
    Repaired,
    /// Nothing was sent; `go` is answered `bestmove 0000` until a valid `position`.
    Rejected,
    /// `on_invalid = "forward"`: the GUI's line was sent unchanged despite errors.
    ForwardedInvalid,
    /// A variant fenguard has no rules for (`variant-not-checked`): sent unchanged, unread.
    Unchecked,
}

/// A list of UCI moves kept as one space-separated string (one allocation for the whole
/// list, cheap on the relay's hot path); serialized as a JSON array of strings.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Moves(pub String);

impl Moves {
    /// The moves, in order.
    pub fn iter(&self) -> impl Iterator<Item = &str> {
        Moves::words(&self.0)
    }

    /// The moves of a space-separated text (empty words skipped), as [`Moves::iter`] reads
    /// them.
    pub fn words(text: &str) -> impl Iterator<Item = &str> {
        text.split(' ').filter(|m| !m.is_empty())
    }

    /// The moves as a vector (for tests and callers that want one).
    pub fn to_vec(&self) -> Vec<&str> {
        self.iter().collect()
    }
}

impl Serialize for Moves {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

/// The fields of a `kind: "position"` record (SPEC section 8).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PositionRecord {
    /// The GUI's line without its terminator, lossy UTF-8.
    pub raw: String,
    /// `valid`, `repaired`, `rejected`, `forwarded-invalid` or `unchecked`.
    pub verdict: Verdict,
    /// FEN, move and session diagnostics, spans into `raw`.
    pub diagnostics: Vec<Diagnostic>,
    /// The FEN text as given, `startpos`, or null when the command has neither.
    pub fen_in: Option<String>,
    /// The FEN sent to the engine (`startpos` when `position startpos` was sent), or null.
    pub fen_out: Option<String>,
    /// The moves as given.
    pub moves_in: Moves,
    /// The moves sent (engine notation); as given when the GUI's line was forwarded.
    pub moves_out: Moves,
    /// Whether the engine is in Chess960 mode for this position.
    pub chess960: bool,
    /// The position after the moves (X-FEN castling, legal ep: python-chess `board.fen()`),
    /// null unless the verdict is `valid` or `repaired`.
    pub final_fen: Option<String>,
    /// The line sent to the engine without its terminator, or null.
    pub sent: Option<String>,
    /// The `UCI_Variant` in force when it is not `chess` (absent for chess).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub variant: Option<String>,
}

impl PositionRecord {
    /// The record of the GUI's line `raw` with `verdict` before anything is read from it: no
    /// diagnostics, FENs, moves, final FEN or line sent yet; `chess960` and `variant` as in
    /// force for the session.
    pub fn unread(
        raw: String,
        verdict: Verdict,
        chess960: bool,
        variant: Option<String>,
    ) -> PositionRecord {
        PositionRecord {
            raw,
            verdict,
            diagnostics: Vec::new(),
            fen_in: None,
            fen_out: None,
            moves_in: Moves::default(),
            moves_out: Moves::default(),
            chess960,
            final_fen: None,
            sent: None,
            variant,
        }
    }
}

/// The fields of a `kind: "search"` record (SPEC section 8).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SearchRecord {
    /// `seq` of the `position` record the search started from (null before any).
    pub position_seq: Option<u64>,
    /// The `go` line as sent to the engine (as received when fenguard answered it itself).
    pub go: String,
    /// The best move as relayed to the GUI (`0000` when fenguard answered).
    pub bestmove: Option<String>,
    /// The ponder move as relayed, or null.
    pub ponder: Option<String>,
    /// Milliseconds from `go` to `bestmove`, null when the shell gave no timestamps.
    pub elapsed_ms: Option<u64>,
    /// `illegal-bestmove` diagnostics (spans into the `bestmove` line).
    pub diagnostics: Vec<Diagnostic>,
    /// The `UCI_Variant` in force when it is not `chess` (absent for chess).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub variant: Option<String>,
    /// Why fenguard wrote this `bestmove` itself instead of relaying the engine's (absent when
    /// the engine answered).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fenguard_answer: Option<FenguardAnswer>,
}

/// Why fenguard answered a search itself (`fenguard_answer` of a `search` record): its
/// `bestmove 0000` (or `(none)`, or a book move) is not the engine's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum FenguardAnswer {
    /// The last `position` was rejected: the engine was not asked to search.
    RejectedPosition,
    /// The engine exited, hung or was restarted before it answered.
    EngineGone,
    /// The `go` line was not sent (over the line cap, a NUL byte).
    NotSent,
    /// `searchmoves` named no legal move (`bestmove 0000`).
    NoLegalSearchmoves,
    /// `searchmoves 0000`, python-chess's empty list (`bestmove (none)`).
    EmptySearchmoves,
    /// The opening book's move (`[book]`).
    Book,
}

/// The fields of a `kind: "option"` or `kind: "command"` record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CommandRecord {
    /// The GUI's line without its terminator, lossy UTF-8 (as `raw` of a `position` record).
    pub raw: String,
}

impl CommandRecord {
    /// Whether a GUI line holding `command` is logged as an `option` or `command` record:
    /// every command that reaches the engine and changes what it does, except `position`
    /// (its own record), `uci`, `isready` and `quit` (which `fenguard replay` sends itself).
    pub fn logs(command: UciCommand) -> bool {
        !matches!(
            command,
            UciCommand::Position | UciCommand::Uci | UciCommand::IsReady | UciCommand::Quit
        )
    }
}

impl Session {
    /// Writes the `option` / `command` record of the GUI's `line` holding `command` (when
    /// positions are logged and [`CommandRecord::logs`] says so), before it is handled, so
    /// that the records keep the GUI's order.
    pub(super) fn log_gui_command(
        &mut self,
        out: &mut Vec<Action>,
        command: UciCommand,
        line: &Bytes,
    ) {
        if !self.settings.log_positions || !CommandRecord::logs(command) {
            return;
        }
        let (body, _) = super::position::split_terminator(line);
        let record = CommandRecord {
            raw: super::position::lossy(body),
        };
        let event = match command {
            UciCommand::SetOption => Event::Option(record),
            _ => Event::Command(record),
        };
        out.push(self.record(event));
    }
}

/// Why the engine ended, as seen by the session.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ExitReason {
    /// It exited after being asked to (`quit` or end of input).
    Quit,
    /// fenguard killed it (quit grace expired, or fenguard got a signal).
    Killed,
    /// It exited on its own while the GUI was still using it.
    Unexpected,
    /// fenguard killed it because it hung (no `uciok` or `readyok` in time).
    Hung,
}
