//! The built fenguard survives its engine (issue 5): an engine killed, crashing on a position
//! (real Stockfish), or hung is reported to the GUI, answered for, and restarted with the GUI's
//! options and position, while the GUI's pipes stay open (Linux: signals and /proc). Rows of
//! the process suite (`process_table`, played by `process_runner`).
#![cfg(target_os = "linux")]

use crate::common::STARTPOS;
use crate::process_table::{
    CASE, Case, Engine, Exit, Gone, Input,
    Json::{Int, Str, Uint},
    Line::{Ends, Has, Is, Starts},
    RECORD, Record,
    Step::{self, *},
    To, rows,
};
use libc::SIGKILL;

/// After the handshake, a SIGKILL of the engine and the restart that follows.
const RESTARTED: &[Step] = &[
    Handshake,
    Pid,
    Signal(To::Engine, SIGKILL),
    Until(Starts("info string fenguard: engine restarted")),
];

const RESTART_1: Step = Until(Starts("info string fenguard: engine restarted (restart 1)"));

rows! {
    /// An engine SIGKILLed during `go infinite`: the GUI gets `bestmove 0000` within a second,
    /// then the game goes on with a new engine, which got the GUI's options and position
    /// replayed (the fake engine echoes its options at `go` and answers `e7e5`, legal after
    /// `e2e4`).
    sigkill_during_go_infinite_gives_bestmove_0000_within_a_second_then_the_game_goes_on: Case {
        env: &[("FAKE_ENGINE_ECHO_OPTIONS", "1"), ("FAKE_ENGINE_BESTMOVE", "e7e5")],
        script: &[
            Handshake,
            Send("setoption name Hash value 64"),
            Send("ucinewgame"),
            Send("position startpos moves e2e4"),
            Send("go infinite"),
            Until(Is("info string option Hash=64")),
            Pid,
            Mark,
            Signal(To::Engine, SIGKILL),
            Until(Starts("bestmove ")),
            Exactly(&["info string fenguard: engine exited (signal 9)", "bestmove 0000"]),
            Within(1000),
            Sync,
            RESTART_1,
            Go("go depth 1", &["info string option Hash=64", "bestmove e7e5"]),
            NewPid,
        ],
        engine_input: &[Input::Replay(
            "setoption name Hash value 64\nucinewgame\nposition startpos moves e2e4\nisready\n",
        )],
        ..CASE
    },
    /// The engine's exit (unexpected, signal 9) and the new engine's start (restart 1, its
    /// pid) are records of `positions.jsonl`.
    restart_is_recorded_in_the_position_log: Case {
        script: RESTARTED,
        records: &[
            Record {
                kind: "engine-exit",
                has: &[("reason", Str("unexpected")), ("signal", Int(9))],
                ..RECORD
            },
            Record {
                kind: "engine-start",
                with: &[("restart", Int(1))],
                has: &[("pid", Uint)],
            },
        ],
        ..CASE
    },
    /// An engine that never answers `isready` is reported hung after `ping_timeout_ms`, killed,
    /// answered for (`readyok`), restarted, and the game goes on; its exit is recorded as hung.
    engine_that_never_answers_isready_is_killed_and_restarted: Case {
        config: "[engine]\nping_timeout_ms = 300\n",
        script: &[
            Handshake,
            Send("ignore isready"),
            Send("isready"),
            Until(Is("readyok")),
            Exactly(&[
                "info string fenguard: engine hung: no readyok within 300 ms; killing it",
                "info string fenguard: engine exited (signal 9)",
                "readyok",
            ]),
            RESTART_1,
            Sync,
            Exactly(&["readyok"]),
            Go("go depth 1", &["bestmove e2e4"]),
        ],
        records: &[Record {
            kind: "engine-exit",
            has: &[("reason", Str("hung"))],
            ..RECORD
        }],
        ..CASE
    },
    /// An engine that hangs on every start: after `max_restarts` restarts (3 hangs) fenguard
    /// says it gives up, last, and exits 1.
    engine_that_always_hangs_makes_fenguard_give_up: Case {
        config: "[engine]\nping_timeout_ms = 200\nmax_restarts = 2\n",
        env: &[("FAKE_ENGINE_IGNORE", "isready")],
        script: &[
            Send("uci"),
            Until(Is("uciok")),
            Send("isready"),
            Until(Ends("giving up")),
            Count(Has("engine hung"), 3),
            Last("info string fenguard: engine keeps exiting; giving up"),
        ],
        exit: Exit::Code(1),
        ..CASE
    },
    /// `quit` after a restart: exit 0.
    quit_after_a_restart_exits_with_zero: Case {
        script: &[Steps(RESTARTED), Send("quit")],
        exit: Exit::Code(0),
        ..CASE
    },
    /// fenguard SIGKILLed after a restart: the restarted engine (and the first) is gone within
    /// a second.
    no_restarted_engine_outlives_a_sigkilled_fenguard: Case {
        script: &[Steps(RESTARTED), Pid, Signal(To::Fenguard, SIGKILL), Mark],
        gone: Gone::Within(1000),
        ..CASE
    },
    /// Stockfish crashing on a forwarded board without kings (15.1 segfaults, 17.1+ exits by
    /// design) is restarted with its options (MultiPV); the invalid position is not restored,
    /// so a `go` before the next position gets `bestmove 0000`.
    stockfish_crashing_on_a_forwarded_position_is_restarted_with_its_options: Case {
        engine: Engine::Stockfish,
        config: "[positions]\non_invalid = \"forward\"\n",
        script: &[
            Handshake,
            Send("setoption name MultiPV value 2"),
            Send("position startpos"),
            Sync,
            Send("position fen 8/8/8/8/8/8/8/8 w - - 0 1"),
            Until(Starts("info string fenguard: engine exited (")),
            Seen(Starts("info string fenguard: invalid position forwarded")),
            RESTART_1,
            Sync,
            Exactly(&["readyok"]),
            Go("go depth 1", &["bestmove 0000"]),
            Send("position startpos moves e2e4"),
            Send("go depth 3"),
            Until(Starts("bestmove ")),
            Seen(Has(" multipv 2 ")),
            LegalBestmove(STARTPOS, &["e2e4"]),
        ],
        ..CASE
    },
    /// The first engine ignores `uci`; after `startup_timeout_ms` it is reported hung and
    /// killed, the second answers, and the GUI gets one handshake with fenguard's options and
    /// its `uciok`.
    engine_hung_before_uciok_is_restarted_and_the_gui_gets_its_uciok: Case {
        engine: Engine::FirstStart("FAKE_ENGINE_IGNORE=uci"),
        config: "[engine]\nstartup_timeout_ms = 300\n",
        script: &[
            Send("uci"),
            Until(Is("uciok")),
            First(&[
                "info string fenguard: engine hung: no uciok within 300 ms; killing it",
                "info string fenguard: engine exited (signal 9)",
                "id name FakeEngine",
            ]),
            Seen(Is("option name fenguard CheckMoves type check default true")),
            Send("isready"),
            Until(Is("readyok")),
        ],
        ..CASE
    },
}
