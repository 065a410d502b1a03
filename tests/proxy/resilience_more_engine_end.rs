//! The built fenguard when the engine dies in the middle of a line or of its `uci` handshake:
//! the GUI gets whole lines only, `bestmove 0000` for the lost search, and one coherent
//! handshake (Linux: signals). Rows of the process suite (`process_table`, played by
//! `process_runner`).
#![cfg(target_os = "linux")]

use crate::process_table::{
    CASE, Case, Engine,
    Json::{Empty, Str},
    Line::{Has, Is, Starts},
    Log, RECORD, Record,
    Step::{self, *},
    rows,
};

/// A search, and the engine aborting after writing `bestmove e2` without its line end; the
/// GUI reads until a `bestmove`.
const PARTIAL_BESTMOVE: &[Step] = &[
    Handshake,
    Send("position startpos"),
    Send("go infinite"),
    Send("partial bestmove e2"),
    Until(Starts("bestmove ")),
];

rows! {
    /// The fragment `bestmove e2` is not relayed: the search is answered `bestmove 0000`.
    engine_killed_while_writing_bestmove_gives_bestmove_0000_not_the_fragment: Case {
        script: &[
            Steps(PARTIAL_BESTMOVE),
            Exactly(&["info string fenguard: engine exited (signal 6)", "bestmove 0000"]),
        ],
        ..CASE
    },
    /// The fragment is logged, quoted, as not relayed.
    fragment_of_the_engines_last_line_is_logged: Case {
        script: PARTIAL_BESTMOVE,
        log: &[Log::Has("engine output ended inside a line: `bestmove e2` (not relayed)")],
        ..CASE
    },
    /// The lost search's record says `bestmove 0000`, with no diagnostics.
    search_lost_in_a_fragment_is_recorded_with_bestmove_0000: Case {
        script: PARTIAL_BESTMOVE,
        records: &[Record {
            kind: "search",
            has: &[("bestmove", Str("0000")), ("diagnostics", Empty)],
            ..RECORD
        }],
        ..CASE
    },
    /// An `info` fragment never reaches the GUI, and after the restart the game goes on.
    info_fragment_never_reaches_the_gui_and_the_game_goes_on: Case {
        script: &[
            Handshake,
            Send("position startpos"),
            Send("go infinite"),
            Send("partial info depth 5 score cp 1"),
            Until(Starts("bestmove ")),
            Until(Starts("info string fenguard: engine restarted (restart 1)")),
            Go("go depth 1", &["bestmove e2e4"]),
            NeverSent(Has("info depth 5")),
        ],
        ..CASE
    },
    /// The first engine dies after 3 lines of its `uci` answer: the GUI sees the engine's
    /// handshake once, in order, fenguard's notice where the crash came (fenguard's own options
    /// aside).
    crash_in_the_middle_of_the_handshake_shows_the_gui_one_coherent_handshake: Case {
        engine: Engine::FirstStart("FAKE_ENGINE_UCI_LINES=3"),
        script: &[
            Send("uci"),
            Until(Is("uciok")),
            Without(Starts("option name fenguard ")),
            Exactly(&[
                "id name FakeEngine",
                "id author fenguard tests",
                "option name Hash type spin default 16 min 1 max 1024",
                "info string fenguard: engine exited (signal 6)",
                "option name UCI_Chess960 type check default false",
                "uciok",
            ]),
        ],
        ..CASE
    },
    /// The first engine dies right after its 2 `id` lines: 13 lines up to `uciok`, every
    /// handshake line once, and the engine then answers `isready`.
    crash_right_after_the_id_lines_shows_every_handshake_line_once: Case {
        engine: Engine::FirstStart("FAKE_ENGINE_UCI_LINES=2"),
        script: &[
            Send("uci"),
            Until(Is("uciok")),
            Length(13),
            Without(Starts("info string ")),
            Distinct,
            Send("isready"),
            Until(Is("readyok")),
        ],
        ..CASE
    },
}
