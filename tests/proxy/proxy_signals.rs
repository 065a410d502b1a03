//! No engine outlives the built fenguard: signals, SIGKILL, and a stuck GUI or engine (Linux).
//! Rows of the process suite (`process_table`, played by `process_runner`).
#![cfg(target_os = "linux")]

use crate::process_table::{
    CASE, Case, Exit, Gone, Input, Log,
    Step::{self, *},
    To, rows,
};
use libc::{SIGHUP, SIGINT, SIGKILL, SIGTERM};

/// The hang timeout (`ping_timeout_ms`, which also bounds an engine that does not read its
/// input) of `sigterm_is_handled_while_a_hung_engine_leaves_input_unwritten`: far longer than
/// the row, so the signal comes while the hung engine is still the one fenguard runs.
const LONG_HANG_MS: u64 = 120_000;
const LONG_HANG: &str = "[engine]\nping_timeout_ms = 120000\n";

/// About 3 MB of engine output that the GUI never reads: the engine's output side stalls.
const GUI_DOES_NOT_READ: &[Step] = &[Send("burst 100000"), Sleep(500)];

rows! {
    /// SIGTERM: fenguard exits with 128 + 15, and the engine is gone.
    no_orphan_after_sigterm: Case {
        script: &[Pid, Signal(To::Fenguard, SIGTERM)],
        exit: Exit::Code(128 + 15),
        gone: Gone::Yes,
        ..CASE
    },
    /// SIGINT: 128 + 2, the engine gone.
    no_orphan_after_sigint: Case {
        script: &[Pid, Signal(To::Fenguard, SIGINT)],
        exit: Exit::Code(128 + 2),
        gone: Gone::Yes,
        ..CASE
    },
    /// SIGHUP: 128 + 1, the engine gone.
    no_orphan_after_sighup: Case {
        script: &[Pid, Signal(To::Fenguard, SIGHUP)],
        exit: Exit::Code(128 + 1),
        gone: Gone::Yes,
        ..CASE
    },
    /// SIGKILL, which fenguard cannot handle: the engine still goes with it.
    no_orphan_after_sigkill: Case {
        script: &[Pid, Signal(To::Fenguard, SIGKILL)],
        exit: Exit::Killed,
        gone: Gone::Yes,
        ..CASE
    },
    /// SIGTERM during the stall of an engine that stopped reading while the GUI's input
    /// (`hang`, then more than the pipes hold) stays unwritten: handled within half the hang
    /// timeout, with no hang found and no engine restarted (a new fake engine would have
    /// appended its `uci` to what the engine read).
    sigterm_is_handled_while_a_hung_engine_leaves_input_unwritten: Case {
        config: LONG_HANG,
        script: &[
            Pid,
            Mark,
            Writer(&[("hang\n", 1), ("isready\n", 140_000)]),
            EngineRead("hang\n"),
            // The stall: the engine reads nothing after `hang`, the GUI's input stays unwritten.
            Sleep(1000),
            WriterStuck,
            Signal(To::Fenguard, SIGTERM),
            Within(LONG_HANG_MS / 2),
        ],
        exit: Exit::Code(128 + 15),
        gone: Gone::Yes,
        log: &[Log::Has("received SIGTERM"), Log::Lacks("engine hung")],
        engine_input: &[Input::EndsWith("hang\n")],
        ..CASE
    },
    /// SIGTERM while the GUI reads none of the engine's output: fenguard, blocked writing to
    /// the GUI, still exits with 128 + 15, and the engine is gone.
    sigterm_is_handled_while_the_gui_does_not_read: Case {
        script: &[Pid, Steps(GUI_DOES_NOT_READ), Signal(To::Fenguard, SIGTERM)],
        exit: Exit::Code(128 + 15),
        gone: Gone::Yes,
        ..CASE
    },
    /// The engine leads a process group of its own (so that fenguard can end it with all its
    /// children), not fenguard's.
    engine_runs_in_its_own_process_group: Case {
        script: &[Pid, OwnGroup],
        ..CASE
    },
    /// `quit` while the GUI reads nothing: the fake engine, stuck writing its burst, cannot
    /// read `quit`; fenguard takes the `quit` anyway, kills the engine after the grace, gives
    /// up on the GUI's output and exits 0.
    quit_reaches_the_engine_while_the_gui_does_not_read: Case {
        script: &[Pid, Steps(GUI_DOES_NOT_READ), Send("quit")],
        exit: Exit::Code(0),
        gone: Gone::Yes,
        log: &[Log::Has("engine still running 1000 ms after quit: killing it")],
        ..CASE
    },
}
