//! What the engine reads of what fenguard forwards is what fenguard judged (SPEC section 12).
//!
//! The engine's reading is modelled after Stockfish's `UCI::loop` (the same in Fairy-Stockfish):
//! `std::getline(cin, cmd)` cuts the input at `\n`, then `istringstream is(cmd); is >> skipws
//! >> token` skips the bytes C's `isspace` accepts in the C locale and reads a token up to the
//! next one; a NUL is an ordinary byte of a `std::string`. A C engine (Ethereal: `fgets` and
//! `strcmp` on a `char *`) reads the same line only up to its first NUL. `setoption` is read
//! as Stockfish reads it: `name` then every token up to `value` joined by one space, then the
//! rest joined by one space; `position` as `fen` then every token up to `moves`.
//!
//! [`check_line`] feeds one GUI line to a fresh session and checks, for every line the session
//! writes to the engine:
//! - it is one line: its only `\n` ends it, and no engine that ends lines at a lone `\r`
//!   (Python's universal newlines) reads a UCI command in a line relayed as it is;
//! - when either engine kind would read a UCI command from it, both kinds read the same tokens,
//!   and fenguard dispatched that same command (no UCI command reaches the engine that
//!   fenguard did not read as one);
//! - the tokens the engine reads are the ones fenguard read (`go`, `debug`, `register`, the
//!   bare word of a command without arguments); a `setoption`'s name and value are the ones
//!   fenguard judged (the value in canonical decimal when it is a spin); a `position`'s FEN and
//!   moves are the record's `fen_out` / `moves_out` (or, forwarded invalid, its `moves_in`);
//! - under the daemon's guard: only UCI commands reach the engine, never an option outside the
//!   allowlist, and `Threads` / `Hash` only as plain decimals within the caps;
//! - (`engine_rules.rs`) the rules fenguard judges by are the rules the engine plays.
//!
//! Shared by `tests/props_session.rs` and the `guard_reading` fuzz target.

use bytes::Bytes;
use std::time::Instant;

use fenguard::session::Input as SessionInput;
use fenguard::session::{Action, Commands, Event, Guard, PositionRecord, Session, Verdict};
use fenguard::uci::{UciCommand, command_word, parse_check_value, parse_setoption, tokens};

/// The caps of the guarded sessions checked here.
pub const MAX_THREADS: i64 = 2;
/// See [`MAX_THREADS`].
pub const MAX_HASH_MB: i64 = 64;

/// C's `isspace` in the C locale, written out independently of fenguard's.
fn c_isspace(b: u8) -> bool {
    b == b' ' || (0x09..=0x0d).contains(&b)
}

/// `istringstream >> token` over one line, until the stream is exhausted.
pub fn stockfish_tokens(line: &[u8]) -> Vec<Vec<u8>> {
    let line = line.split(|&b| b == b'\n').next().unwrap_or_default();
    line.split(|&b| c_isspace(b))
        .filter(|t| !t.is_empty())
        .map(<[u8]>::to_vec)
        .collect()
}

/// A C engine's tokens: the line up to its first NUL, split the same way.
pub fn c_tokens(line: &[u8]) -> Vec<Vec<u8>> {
    let line = line.split(|&b| b == 0).next().unwrap_or_default();
    stockfish_tokens(line)
}

fn is_uci_word(token: Option<&Vec<u8>>) -> bool {
    token.is_some_and(|t| UciCommand::from_word(t).is_some())
}

/// Stockfish's `setoption`: (name, value) as it builds them.
pub fn stockfish_setoption(toks: &[Vec<u8>]) -> (Vec<u8>, Vec<u8>) {
    let mut it = toks.iter().skip(2); // `setoption`, `name` (Stockfish skips the second token)
    let mut name = Vec::new();
    for t in it.by_ref() {
        if t == b"value" {
            break;
        }
        if !name.is_empty() {
            name.push(b' ');
        }
        name.extend_from_slice(t);
    }
    (name, toks_joined(it))
}

fn toks_joined<'a>(toks: impl Iterator<Item = &'a Vec<u8>>) -> Vec<u8> {
    let mut out = Vec::new();
    for t in toks {
        if !out.is_empty() {
            out.push(b' ');
        }
        out.extend_from_slice(t);
    }
    out
}

fn position_record(actions: &[Action]) -> Option<&PositionRecord> {
    actions.iter().find_map(|a| match a {
        Action::Record(r) => match &r.event {
            Event::Position(p) => Some(&**p),
            _ => None,
        },
        _ => None,
    })
}

/// A fresh session: `guarded` the daemon's (default allowlist, caps 2 threads / 64 MiB),
/// else the stdio proxy's with `[guard] commands = commands`.
pub fn session(guarded: bool, commands: Commands) -> Session {
    let mut s = Session::new(false);
    if guarded {
        let allow: Vec<String> = fenguard::session::guard::DEFAULT_ALLOW
            .iter()
            .map(|s| (*s).to_owned())
            .collect();
        let caps = (MAX_THREADS.unsigned_abs(), MAX_HASH_MB.unsigned_abs());
        s = s.with_guard(Guard::new(&allow, Some(caps.0), Some(caps.1)));
    } else {
        s = s.with_commands(commands);
    }
    // The engine announces its spins, as Stockfish does before `uciok`.
    for opt in [
        "option name Threads type spin default 1 min 1 max 1024",
        "option name Hash type spin default 16 min 1 max 33554432",
        "option name MultiPV type spin default 1 min 1 max 500",
        "option name Debug Log File type string default",
    ] {
        s.handle(
            SessionInput::EngineLine(Bytes::from(format!("{opt}\n"))),
            Instant::now(),
        );
    }
    s
}

/// Feeds `line` (one GUI line: no `\n` but a final one) to `s` and checks the module's
/// properties; returns the lines written to the engine.
///
/// # Panics
/// When a property does not hold (the message names it and shows the lines).
pub fn check_line(s: &mut Session, line: &[u8], guarded: bool, commands: Commands) -> Vec<Vec<u8>> {
    let actions = s.handle(
        SessionInput::GuiLine(Bytes::copy_from_slice(line)),
        Instant::now(),
    );
    let judged: Vec<&[u8]> = tokens(line).map(|t| t.text).collect();
    let dispatched = UciCommand::from_word(command_word(line));
    let sent: Vec<Vec<u8>> = actions
        .iter()
        .filter_map(|a| match a {
            Action::ToEngine(b) => Some(b.to_vec()),
            _ => None,
        })
        .collect();
    let strict = guarded || commands == Commands::Uci;
    for out in &sent {
        let newlines = out.iter().filter(|&&b| b == b'\n').count();
        assert!(
            newlines == 0 && *out == line || newlines == 1 && out.ends_with(b"\n"),
            "one line per command: {line:?} sent {out:?}"
        );
        let sf = stockfish_tokens(out);
        let c = c_tokens(out);
        if is_uci_word(sf.first()) || is_uci_word(c.first()) {
            assert_eq!(
                sf, c,
                "C and C++ engines read {out:?} alike (from {line:?})"
            );
            let word = UciCommand::from_word(&sf[0]);
            assert!(
                dispatched == word || out.starts_with(b"setoption name UCI_Chess960 value true"),
                "the engine reads {word:?}, fenguard dispatched {dispatched:?}: {line:?} -> {out:?}"
            );
        } else {
            // An engine that ends lines at a lone `\r` (universal newlines) reads no command.
            let body = out.strip_suffix(b"\n").unwrap_or(out);
            let body = body.strip_suffix(b"\r").unwrap_or(body);
            for part in body.split(|&b| b == b'\r') {
                let t = c_tokens(part);
                assert!(
                    !is_uci_word(t.first()),
                    "a lone \\r hides a command: {out:?}"
                );
            }
            assert!(
                !strict,
                "only UCI commands reach a strict engine: {line:?} -> {out:?}"
            );
            assert_eq!(
                *out, line,
                "a line fenguard does not read is relayed as it is"
            );
            continue;
        }
        let word = UciCommand::from_word(&sf[0]).expect("a UCI word");
        match word {
            UciCommand::Go | UciCommand::Debug | UciCommand::Register => {
                if word != UciCommand::Go || !judged.contains(&&b"searchmoves"[..]) {
                    assert_eq!(sf, judged, "{line:?} -> {out:?}");
                }
            }
            UciCommand::SetOption => check_setoption(line, out, &sf, guarded),
            UciCommand::Position => check_position(&actions, out, &sf),
            _ if word.takes_arguments() => {}
            _ => assert_eq!(sf, vec![word.word().as_bytes().to_vec()], "{line:?}"),
        }
    }
    sent
}

fn check_setoption(line: &[u8], out: &[u8], sf: &[Vec<u8>], guarded: bool) {
    if out.starts_with(b"setoption name UCI_Chess960 value true\n") && !line.starts_with(b"set") {
        return; // detect mode's own switch
    }
    let (name, value) = stockfish_setoption(sf);
    let opt = parse_setoption(line).expect("fenguard read a setoption");
    let judged_name = toks_joined(
        tokens(opt.name)
            .map(|t| t.text.to_vec())
            .collect::<Vec<_>>()
            .iter(),
    );
    assert_eq!(name, judged_name, "option name: {line:?} -> {out:?}");
    let lower = String::from_utf8_lossy(&name).to_ascii_lowercase();
    let spin = matches!(lower.as_str(), "threads" | "hash" | "multipv");
    let judged_value = opt.value.map(|v| {
        toks_joined(
            tokens(v)
                .map(|t| t.text.to_vec())
                .collect::<Vec<_>>()
                .iter(),
        )
    });
    if spin && !value.is_empty() {
        let text = std::str::from_utf8(&value).expect("a decimal");
        let n: i64 = text.parse().expect("a spin value goes out as a decimal");
        assert_eq!(
            n.to_string(),
            text,
            "canonical decimal: {line:?} -> {out:?}"
        );
        if guarded && lower == "threads" {
            assert!(n <= MAX_THREADS, "{line:?} -> {out:?}");
        }
        if guarded && lower == "hash" {
            assert!(n <= MAX_HASH_MB, "{line:?} -> {out:?}");
        }
    } else if lower == "uci_variant" || parse_check_value(&value).is_some() {
        // A variant goes out as the engine spells its `var`, a check value as `true`/`false`.
        let judged = judged_value.unwrap_or_default();
        assert!(value.eq_ignore_ascii_case(&judged), "{line:?} -> {out:?}");
    } else if !lower.eq_ignore_ascii_case("uci_chess960") {
        assert_eq!(
            Some(value),
            judged_value.or(Some(Vec::new())),
            "{line:?} -> {out:?}"
        );
    }
    if guarded {
        let allowed = [
            "hash",
            "threads",
            "multipv",
            "ponder",
            "move overhead",
            "skill level",
            "contempt",
        ];
        assert!(
            allowed.contains(&lower.as_str())
                || lower.starts_with("uci_")
                || lower.starts_with("fenguard"),
            "the guard let {name:?} through"
        );
        assert!(
            !lower.contains("file") && !lower.contains("path"),
            "{name:?}"
        );
    }
}

fn check_position(actions: &[Action], out: &[u8], sf: &[Vec<u8>]) {
    let record = position_record(actions).expect("a position record");
    let mut fen = Vec::new();
    let mut moves: Vec<Vec<u8>> = Vec::new();
    let mut it = sf.iter().skip(1);
    match it.next().map(Vec::as_slice) {
        Some(b"startpos") => {
            it.next(); // Stockfish consumes the token after `startpos` as `moves`
            moves.extend(it.cloned());
        }
        Some(b"fen") => {
            for t in it.by_ref() {
                if t == b"moves" {
                    break;
                }
                fen.push(t.clone());
            }
            moves.extend(it.cloned());
        }
        _ => {}
    }
    let moves = String::from_utf8_lossy(&toks_joined(moves.iter())).into_owned();
    let fen = String::from_utf8_lossy(&toks_joined(fen.iter())).into_owned();
    match record.verdict {
        Verdict::Valid | Verdict::Repaired => {
            assert_eq!(
                record.fen_out.as_deref(),
                Some(if fen.is_empty() {
                    "startpos"
                } else {
                    fen.as_str()
                }),
                "{out:?}"
            );
            assert_eq!(record.moves_out.0, moves, "{out:?}");
        }
        Verdict::ForwardedInvalid | Verdict::Unchecked => {
            assert_eq!(record.moves_in.0, moves, "{out:?}");
        }
        Verdict::Rejected => panic!("a rejected position was sent: {out:?}"),
    }
}
