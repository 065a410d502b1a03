//! `quit` at once after `uci`, as pychess's engine probe and GUIs closing during the handshake
//! send it: the bare engine answers `uci` before it reads `quit`, so fenguard's quit grace
//! starts at the engine's `uciok` (bounded by `engine.startup_timeout_ms`), not at `quit`
//! (Linux). Rows of the process suite (`process_table`, played by `process_runner`).
#![cfg(target_os = "linux")]

use crate::process_table::{CASE, Case, Engine, Exit, Gone, Line::Is, Log, Step::*, rows};

rows! {
    /// An engine that takes 2.5 s to start (longer than the 1 s quit grace) still answers the
    /// GUI's `uci` sent with `quit` in one write, and exits by itself.
    quit_right_after_uci_gets_a_slow_engines_uciok: Case {
        engine: Engine::Shell("sleep 2.5; exec {engine}"),
        script: &[Send("uci\nquit"), Until(Is("uciok"))],
        exit: Exit::Code(0),
        log: &[Log::Lacks("engine killed by fenguard")],
        ..CASE
    },
    /// The end of the GUI's input right after `uci` waits for the `uciok` the same way.
    end_of_input_right_after_uci_gets_a_slow_engines_uciok: Case {
        engine: Engine::Shell("sleep 2.5; exec {engine}"),
        script: &[Send("uci"), Close, Until(Is("uciok"))],
        exit: Exit::Code(0),
        ..CASE
    },
    /// An engine that never sends `uciok` is not waited for past `startup_timeout_ms`: the
    /// grace then ends it.
    quit_after_uci_to_an_engine_that_never_answers_ends_after_the_startup_timeout: Case {
        config: "[engine]\nstartup_timeout_ms = 1500\nquit_grace_ms = 300\n",
        env: &[("FAKE_ENGINE_IGNORE", "uci,quit")],
        script: &[Pid, Mark, Send("uci\nquit")],
        exit: Exit::Code(0),
        gone: Gone::Within(6_000),
        log: &[Log::Has("engine killed by fenguard")],
        ..CASE
    },
}
