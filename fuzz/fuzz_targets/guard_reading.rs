//! SPEC 12 under fuzzing: the first byte picks the session (0: the daemon's guard, 1: the stdio
//! proxy with `[guard] commands = "uci"`, 2: the stdio proxy's default), the rest is split
//! into GUI lines at `\n`; for each, what the engine's tokenizer (Stockfish's
//! `istringstream >>`, a C engine's up to a NUL) reads of what fenguard forwards must be the
//! command fenguard judged (`tests/invariants/engine_reading.rs`, shared with the property
//! test in `tests/props_session.rs`).

#![no_main]

use fenguard::session::Commands;
use libfuzzer_sys::fuzz_target;

#[path = "../../tests/invariants/engine_reading.rs"]
mod engine_reading;

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let guarded = mode % 3 == 0;
    let commands = if mode % 3 == 1 { Commands::Uci } else { Commands::Any };
    let mut session = engine_reading::session(guarded, commands);
    for line in rest.split(|&b| b == b'\n').take(64) {
        let mut line = line.to_vec();
        line.push(b'\n');
        engine_reading::check_line(&mut session, &line, guarded, commands);
    }
});
