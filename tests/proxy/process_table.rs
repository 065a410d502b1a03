//! What a row of the process suite can say: the built fenguard in front of an engine (the
//! in-tree fake engine, a shell around it, or Stockfish), a config, a script of what the GUI
//! writes and reads and which signal goes where when, and what must be seen at the end (exit
//! status, engine processes gone, `fenguard.log`, `positions.jsonl` records, what the engine
//! read). [`rows!`] makes each row a `#[test]` named for it; `process_runner::run` plays it.
//!
//! ```text
//! rows! {
//!     /// SIGTERM ends fenguard with status 128 + 15, and the engine with it.
//!     no_orphan_after_sigterm: Case {
//!         script: &[Pid, Signal(To::Fenguard, libc::SIGTERM)],
//!         exit: Exit::Code(128 + 15),
//!         gone: Gone::Yes,
//!         ..CASE
//!     },
//! }
//! ```
//!
//! The themes: `proxy_signals` (signals and SIGKILL), `resilience_stalls` (a stalled pipe is not
//! a hung engine), `resilience_restart` (a lost engine is restarted) and
//! `resilience_more_engine_end` (an engine that dies inside a line or its handshake).
#![cfg(target_os = "linux")]

/// The engine behind fenguard. A fake engine records what it reads in `DIR/engine-input`.
#[derive(Debug, Clone, Copy)]
pub enum Engine {
    /// `src/bin/fake_engine.rs`, run by fenguard directly.
    Fake,
    /// `/bin/sh -c SCRIPT`, `{engine}` in SCRIPT standing for the fake engine's quoted path.
    Shell(&'static str),
    /// The fake engine with the environment setting `VAR=VALUE` on its first start only (a flag
    /// file in the row's directory tells the later starts apart), behind `/bin/sh -c`.
    FirstStart(&'static str),
    /// Real Stockfish; the row is skipped when it is missing (and fails under `CI=true`).
    Stockfish,
}

/// Which process a signal goes to.
#[derive(Debug, Clone, Copy)]
pub enum To {
    Fenguard,
    /// The engine whose process id the GUI read last ([`Step::Pid`]).
    Engine,
}

/// A test on one line the GUI read (without its `\n`; a line cut off by the end of the
/// output never matches).
#[derive(Debug, Clone, Copy)]
pub enum Line {
    Is(&'static str),
    Starts(&'static str),
    Ends(&'static str),
    Has(&'static str),
}

impl Line {
    pub fn matches(self, line: &str) -> bool {
        match self {
            Line::Is(text) => line == text,
            Line::Starts(text) => line.starts_with(text),
            Line::Ends(text) => line.ends_with(text),
            Line::Has(text) => line.contains(text),
        }
    }
}

/// One step of a row's script, in order. "The last read" is the lines the latest reading step
/// read, the matching line last; the checks after it look at those.
#[derive(Debug, Clone, Copy)]
pub enum Step {
    /// The GUI writes TEXT and a `\n` in one write (TEXT may hold more lines).
    Send(&'static str),
    /// The GUI closes its input (the end of its input; nothing is sent after).
    Close,
    /// The GUI writes from a thread of its own, as GUIs do: each text repeated its number of
    /// times, in order, until done or the pipe breaks; no [`Step::Send`] until [`Step::Written`].
    Writer(&'static [(&'static str, usize)]),
    /// The writer has not written everything yet (fenguard stopped reading the GUI).
    WriterStuck,
    /// Joins the writer, which wrote everything; the GUI can [`Step::Send`] again.
    Written,
    /// Reads until a line matches.
    Until(Line),
    /// Reads until the N-th line that matches.
    UntilNth(usize, Line),
    /// `uci`, read until `uciok`, `isready`, read until `readyok`.
    Handshake,
    /// `isready`, read until `readyok`.
    Sync,
    /// Sends the `go` line, reads until `bestmove`: these lines exactly.
    Go(&'static str, &'static [&'static str]),
    /// `pid` to the fake engine, read until its `info string pid P`: P is the engine now.
    Pid,
    /// [`Step::Pid`], and P is not the engine before (a new engine was started).
    NewPid,
    /// The last read is exactly these lines.
    Exactly(&'static [&'static str]),
    /// The last read starts with exactly these lines.
    First(&'static [&'static str]),
    /// The last read ends with exactly this line.
    Last(&'static str),
    /// Some line of the last read matches.
    Seen(Line),
    /// This many lines of the last read match.
    Count(Line, usize),
    /// The last read is this many lines.
    Length(usize),
    /// Drops the lines that match from the last read, for the checks after it.
    Without(Line),
    /// No line of the last read is there twice.
    Distinct,
    /// The last read ends with a `bestmove` legal in FEN after the moves (standard castling).
    LegalBestmove(&'static str, &'static [&'static str]),
    /// No line the GUI read so far, in the whole conversation, matches.
    NeverSent(Line),
    /// Waits until the fake engine's input ends with TEXT.
    EngineRead(&'static str),
    /// The engine leads a process group of its own, not fenguard's.
    OwnGroup,
    /// Sends the signal (`libc::SIG*`).
    Signal(To, i32),
    /// Sleeps this many milliseconds (reading nothing, writing nothing).
    Sleep(u64),
    /// Starts the clock of [`Step::Within`] and [`Gone::Within`].
    Mark,
    /// Less than this many milliseconds passed since [`Step::Mark`].
    Within(u64),
    /// These steps, in order (a script several rows share).
    Steps(&'static [Step]),
}

/// How fenguard must end, after the script.
#[derive(Debug, Clone, Copy)]
pub enum Exit {
    /// Not waited for: at the end of the row the GUI closes its input, gives fenguard
    /// `common::PATIENCE` to exit, then kills it.
    Left,
    /// Waited for (up to `common::PATIENCE`, then killed), the status not asserted.
    Waited,
    /// Exits with this code within `common::PATIENCE`.
    Code(i32),
    /// Ends by a signal (no exit code) within `common::PATIENCE`.
    Killed,
}

/// Whether every engine the GUI learned of ([`Step::Pid`]) is gone, after the exit.
#[derive(Debug, Clone, Copy)]
pub enum Gone {
    /// Not asserted.
    Unchecked,
    /// Gone within `common::PATIENCE` (a leftover is killed by its pid, then the row fails).
    Yes,
    /// Gone less than this many milliseconds after [`Step::Mark`].
    Within(u64),
}

/// A line of `fenguard.log`, after the exit.
#[derive(Debug, Clone, Copy)]
pub enum Log {
    /// The log gets text (waited for: the writer is asynchronous).
    Has(&'static str),
    /// The log holds no such text.
    Lacks(&'static str),
}

/// A value in a `positions.jsonl` record.
#[derive(Debug, Clone, Copy)]
pub enum Json {
    Str(&'static str),
    Int(i64),
    /// `[]`.
    Empty,
    /// Any unsigned integer.
    Uint,
}

impl Json {
    pub fn holds(self, value: &serde_json::Value) -> bool {
        match self {
            Json::Str(text) => value == text,
            Json::Int(n) => value.as_i64() == Some(n),
            Json::Empty => value.as_array().is_some_and(Vec::is_empty),
            Json::Uint => value.is_u64(),
        }
    }
}

/// The first record of `kind` whose fields hold `with` (waited for) has the fields `has`.
#[derive(Debug, Clone, Copy)]
pub struct Record {
    pub kind: &'static str,
    pub with: &'static [(&'static str, Json)],
    pub has: &'static [(&'static str, Json)],
}

/// A record's defaults.
pub const RECORD: Record = Record {
    kind: "",
    with: &[],
    has: &[],
};

/// What the fake engine read, after the exit.
#[derive(Debug, Clone, Copy)]
pub enum Input {
    /// Its input ends with text (it read nothing after; no new engine read anything).
    EndsWith(&'static str),
    /// What the last engine read after its `uci` starts with text (what a restart replayed).
    Replay(&'static str),
}

/// One row: the setup, the script, what must be seen at the end (in the order of the fields).
#[derive(Debug, Clone, Copy)]
pub struct Case {
    pub engine: Engine,
    /// `fenguard.toml` for `--config` (empty: no config).
    pub config: &'static str,
    /// Added to fenguard's environment, which its engine inherits (the fake engine's
    /// `FAKE_ENGINE_*` settings).
    pub env: &'static [(&'static str, &'static str)],
    pub script: &'static [Step],
    pub exit: Exit,
    pub gone: Gone,
    pub log: &'static [Log],
    pub records: &'static [Record],
    pub engine_input: &'static [Input],
}

/// A row's defaults: the fake engine, no config, nothing asserted at the end.
pub const CASE: Case = Case {
    engine: Engine::Fake,
    config: "",
    env: &[],
    script: &[],
    exit: Exit::Left,
    gone: Gone::Unchecked,
    log: &[],
    records: &[],
    engine_input: &[],
};

/// A one-second `readyok` (and input) deadline, so that a hang is found within seconds.
pub const FAST_PING: &str = "[engine]\nping_timeout_ms = 1000\n";

/// One `#[test]` a row, named for it, its doc comment saying what it proves.
macro_rules! rows {
    ($($(#[$doc:meta])* $name:ident: $case:expr,)*) => {
        $(
            $(#[$doc])*
            #[test]
            fn $name() {
                crate::process_runner::run(stringify!($name), &$case);
            }
        )*
    };
}
pub(crate) use rows;
