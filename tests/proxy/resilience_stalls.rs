//! A stalled pipe is not a hung engine, a hung engine is found even when its input pipe is full,
//! held lines released while a new engine bursts get through, and an engine behind a wrapper
//! script dies with fenguard (the built binary, the fake engine; Linux). Rows of the process suite (`process_table`, played by `process_runner`); the GUI
//! reads fenguard's output only at a reading step.
#![cfg(target_os = "linux")]

use crate::process_table::{
    CASE, Case, Engine, Exit, FAST_PING, Gone, Line, Log, Step::*, To, rows,
};
use libc::SIGTERM;

/// A `position` line of 80 moves and an `isready`, which the GUI of
/// `gui_that_stops_reading_but_keeps_writing_does_not_get_its_engine_killed` writes 400 times.
const SHUFFLE: &str = "position startpos moves \
    g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8 \
    g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8 \
    g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8 \
    g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8 \
    g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8 \
    \nisready\n";

rows! {
    /// Several MB of output, then `isready`, while the GUI reads nothing for 3 deadlines: then
    /// every line arrives (100 000 `info` lines, then `readyok`, nothing else) and nobody
    /// called the engine hung.
    gui_that_stops_reading_for_a_while_does_not_get_its_engine_killed: Case {
        config: FAST_PING,
        script: &[
            Send("burst 100000 5\nisready"),
            Sleep(3000),
            Until(Line::Is("readyok")),
            Count(Line::Starts("info depth 1 seq "), 100_000),
            Length(100_001),
            Send("quit"),
        ],
        exit: Exit::Waited,
        log: &[Log::Lacks("engine hung")],
        ..CASE
    },
    /// The engine stops reading; more than its input pipe holds follows, then `quit`, written
    /// from a thread of the GUI's own while fenguard stops reading it: the engine is reported
    /// hung, and `quit` gets through (exit 0).
    engine_that_stops_reading_its_input_is_killed_as_hung_and_quit_gets_through: Case {
        config: FAST_PING,
        script: &[
            Writer(&[("hang\n", 1), ("debug off\n", 30_000), ("quit\n", 1)]),
            Until(Line::Has("info string fenguard: engine hung: it has not read its input for ")),
        ],
        exit: Exit::Code(0),
        ..CASE
    },
    /// `sh -c` with a second command does not `exec`: the engine is the shell's child. Hung,
    /// it no longer reads, so the end of its input would not end it either; SIGTERM to
    /// fenguard still ends it.
    engine_behind_a_wrapper_script_dies_with_fenguard: Case {
        engine: Engine::Shell("{engine}; true"),
        script: &[Pid, Send("hang"), Signal(To::Fenguard, SIGTERM)],
        exit: Exit::Code(128 + 15),
        gone: Gone::Yes,
        ..CASE
    },
    /// An engine that ignores `stop`: killed as hung after the deadline, and the search
    /// answered with `bestmove 0000`, the last line; `quit` then exits 0.
    engine_that_ignores_stop_is_killed_as_hung_and_the_search_answered: Case {
        config: FAST_PING,
        env: &[("FAKE_ENGINE_IGNORE", "stop")],
        script: &[
            Send("uci\nisready\nposition startpos\ngo infinite"),
            Until(Line::Is("readyok")),
            Send("stop"),
            Until(Line::Starts("bestmove ")),
            Seen(Line::Is(
                "info string fenguard: engine hung: no bestmove after stop within 1000 ms; \
                 killing it",
            )),
            Last("bestmove 0000"),
            Send("quit"),
        ],
        exit: Exit::Code(0),
        ..CASE
    },
    /// The engine writes far more than the pipes hold, so it blocks writing and stops reading
    /// its input while fenguard waits for the GUI, which goes on writing (from when the burst
    /// flows, so that the engine is not just slow to start it) and reads nothing for four
    /// deadlines: every `readyok` comes, and nobody called the engine hung.
    gui_that_stops_reading_but_keeps_writing_does_not_get_its_engine_killed: Case {
        config: FAST_PING,
        script: &[
            Send("uci\nburst 200000"),
            Until(Line::Starts("info depth 1 seq ")),
            Writer(&[(SHUFFLE, 400)]),
            Sleep(4000),
            UntilNth(400, Line::Is("readyok")),
            NeverSent(Line::Has("engine hung")),
            Written,
            Send("quit"),
        ],
        exit: Exit::Waited,
        log: &[Log::Lacks("engine hung")],
        ..CASE
    },
    /// The engine crashes; while it restarts, the GUI writes a burst and 400 `position` +
    /// `isready` lines and reads nothing for 4 s. The held lines are released on the engine's
    /// side (the replay's `readyok`) while the new engine blocks writing its burst: every
    /// `readyok` comes, and nobody called the engine hung. (The engine's reader once wrote
    /// them to the engine itself and waited for it while it waited to be read: a deadlock.)
    held_lines_released_while_the_new_engine_bursts_do_not_deadlock: Case {
        config: FAST_PING,
        script: &[
            Handshake,
            Send("crash"),
            Until(Line::Has("engine exited")),
            Writer(&[("burst 200000\n", 1), (SHUFFLE, 400)]),
            Sleep(4000),
            UntilNth(400, Line::Is("readyok")),
            NeverSent(Line::Has("engine hung")),
            Written,
            Sync,
            Send("quit"),
        ],
        exit: Exit::Waited,
        log: &[Log::Lacks("engine hung")],
        ..CASE
    },
}
