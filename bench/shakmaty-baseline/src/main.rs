//! Baseline for `scripts/bench-check`: for each line of a file, shakmaty's
//! `Fen::from_ascii`, `into_position::<Chess>(CastlingMode::Chess960)` and
//! `Fen::from_position(.., EnPassantMode::Legal)`; writes the FEN or `invalid` per line.
//!
//! Usage: `shakmaty-baseline FILE` (output on stdout, one line per input line), or
//! `shakmaty-baseline relay ENGINE [ARGS...]` for `scripts/bench-relay` (see `relay.rs`).

use std::io::{BufRead, BufReader, BufWriter, Write};
use std::process::ExitCode;

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, EnPassantMode};

mod relay;

fn main() -> ExitCode {
    let args: Vec<_> = std::env::args_os().skip(1).collect();
    if args.first().is_some_and(|a| a == "relay") && args.len() > 1 {
        return match relay::run(&args[1..]) {
            Ok(status) => ExitCode::from(u8::try_from(status).unwrap_or(1)),
            Err(err) => {
                eprintln!("relay: {err}");
                ExitCode::from(2)
            }
        };
    }
    let Some(path) = args.first() else {
        eprintln!("usage: shakmaty-baseline FILE | shakmaty-baseline relay ENGINE [ARGS...]");
        return ExitCode::from(2);
    };
    let file = match std::fs::File::open(path) {
        Ok(file) => file,
        Err(err) => {
            eprintln!("cannot open {}: {err}", path.to_string_lossy());
            return ExitCode::from(2);
        }
    };
    let mut input = BufReader::with_capacity(1 << 16, file);
    let stdout = std::io::stdout();
    let mut out = BufWriter::with_capacity(1 << 16, stdout.lock());
    let mut line = Vec::with_capacity(128);
    loop {
        line.clear();
        match input.read_until(b'\n', &mut line) {
            Ok(0) => break,
            Ok(_) => {}
            Err(err) => {
                eprintln!("read error: {err}");
                return ExitCode::from(2);
            }
        }
        let text = line.trim_ascii();
        let written = match Fen::from_ascii(text)
            .ok()
            .and_then(|fen| fen.into_position::<Chess>(CastlingMode::Chess960).ok())
        {
            Some(pos) => writeln!(out, "{}", Fen::from_position(&pos, EnPassantMode::Legal)),
            None => out.write_all(b"invalid\n"),
        };
        if let Err(err) = written {
            eprintln!("write error: {err}");
            return ExitCode::from(2);
        }
    }
    if let Err(err) = out.flush() {
        eprintln!("write error: {err}");
        return ExitCode::from(2);
    }
    ExitCode::SUCCESS
}
