//! A scripted stand-in for a UCI engine, for fenguard's process-level tests.
//!
//! It reads lines from stdin and answers by the first word (trailing `\r\n` ignored):
//!
//! | line | answer |
//! | --- | --- |
//! | `uci` | `id name FakeEngine`, `id author fenguard tests`, two `option` lines, `uciok` |
//! | `isready` | `readyok` |
//! | `go ...` | `bestmove e2e4` (or `$FAKE_ENGINE_BESTMOVE`); after `go infinite` or `go ponder` only at `stop` / `ponderhit` |
//! | `go perft N` | as Stockfish: `a2a3: 1`, a blank line, `Nodes searched: N`; no `bestmove` |
//! | `setoption name N value V` | `info string option N = V` |
//! | `ignore WORD` | from now on, lines starting with WORD get no answer (e.g. `isready`: a hung engine) |
//! | `echo REST` | REST exactly as received, terminator included (any bytes) |
//! | `burst N` | N lines `info depth 1 seq I pv e2e4` in one write |
//! | `burst N M` | the same with M more pv moves (`e7e5 g1f3 ...`) per line |
//! | `long N` | one line of N `x` |
//! | `stderr TEXT` | TEXT on stderr |
//! | `pid` | `info string pid P` |
//! | `args` | `info string args A1\|A2\|...` (its command-line arguments) |
//! | `cwd` | `info string cwd DIR` |
//! | `env NAME` | `info string env NAME=VALUE` |
//! | `sleep MS` | nothing, after MS milliseconds |
//! | `exit N` | exits with status N |
//! | `crash` | aborts (SIGABRT on Unix) |
//! | `partial TEXT` | TEXT without a line end, then aborts (an engine killed while writing a line) |
//! | `hang` | stops reading and sleeps forever (ignores `quit`) |
//! | `quit`, end of input | exits with status 0 |
//!
//! Anything else is ignored, as UCI engines do. With `FAKE_ENGINE_RECORD=FILE` every byte read
//! from stdin is appended to FILE as soon as it is read. With `FAKE_ENGINE_ECHO_OPTIONS=1`,
//! each `go` is first answered with `info string option N=V` for every option set so far (in the
//! order set, the last value of each), so a test sees which options the searching engine has.
//! `FAKE_ENGINE_EXTRA_OPTION=LINE` adds LINE (an `option ...` line) just before `uciok`.
//! `FAKE_ENGINE_IGNORE=W1,W2` starts it ignoring lines that start with those words.
//! `FAKE_ENGINE_UCI_LINES=N` makes it write only the first N lines of its answer to `uci`, then
//! abort (a crash in the middle of the handshake). `FAKE_ENGINE_DIE_ON_OPTION=NAME` makes it
//! exit with status 1 at once, writing nothing, on `setoption name NAME ...` (as Stockfish does
//! on a `Debug Log File` it cannot open).
//!
//! `FAKE_ENGINE_FAULTS=F1,F2` gives it deliberate faults, for the tests of what fenguard does
//! about a broken engine (and of `fenguard doctor`, which must find each by name):
//! - `ponder-early`: `go ponder` / `go infinite` are answered with `bestmove` at once, against
//!   UCI's rule that the search ends only at `stop` / `ponderhit`; those then get no answer.
//! - `hang-on-go`: a `go` (not `go perft`) makes it stop reading and sleep for ever (a search
//!   that hangs the engine; `quit` is not read either).
//! - `uci-blank-line`: a blank line after `id author` in the answer to `uci`.
//! - `movetime-overshoot`: `go movetime N` is answered after N + 1000 ms.
//! - `perft-wrong` (rules mode): `go perft` leaves out `a2a3` in Kiwipete after `e1g1 e8c8`, so
//!   perft 3 from Kiwipete is one short.
//! - `crash-no-kings` (rules mode): aborts on a `position fen` whose board lacks a king.
//!
//! `FAKE_ENGINE_RULES=1` is the rules mode (`fake/rules.rs`): `position` is read with
//! fenguard's rules (chess; Chess960 after `setoption name UCI_Chess960 value true`), `go` is
//! answered with one `info` line and a legal `bestmove ... ponder ...` (a mate in one when
//! there is one; `searchmoves` kept), an invalid position or move list with `info string
//! error: ...` and `bestmove 0000`, and `go perft N` with a correct divide and count: a
//! well-behaved engine for `fenguard doctor`'s tests, whose deliberate faults are then all it
//! reports.

use std::io::{BufRead as _, Write};
use std::time::Duration;

#[path = "fake/rules.rs"]
mod rules;

fn main() {
    let mut record = std::env::var_os("FAKE_ENGINE_RECORD").and_then(|path| {
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .ok()
    });
    let bestmove = std::env::var("FAKE_ENGINE_BESTMOVE").unwrap_or_else(|_| "e2e4".to_owned());
    let mut state = State {
        bestmove,
        echo_options: std::env::var("FAKE_ENGINE_ECHO_OPTIONS").is_ok_and(|v| v == "1"),
        options: Vec::new(),
        ignored: std::env::var("FAKE_ENGINE_IGNORE")
            .map(|v| v.split(',').map(str::to_owned).collect())
            .unwrap_or_default(),
        waiting: false,
        uci_lines: std::env::var("FAKE_ENGINE_UCI_LINES")
            .ok()
            .and_then(|n| n.parse().ok()),
        fatal_option: std::env::var("FAKE_ENGINE_DIE_ON_OPTION").ok(),
        faults: std::env::var("FAKE_ENGINE_FAULTS")
            .map(|v| v.split(',').map(str::to_owned).collect())
            .unwrap_or_default(),
        board: None,
        pending: String::new(),
    };
    if std::env::var("FAKE_ENGINE_RULES").is_ok_and(|v| v == "1") {
        state.board = Some(rules::Board::new(&state.faults));
    }
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut line = Vec::new();
    loop {
        line.clear();
        match input.read_until(b'\n', &mut line) {
            Ok(0) | Err(_) => std::process::exit(0),
            Ok(_) => {}
        }
        if let Some(file) = &mut record {
            let _ = file.write_all(&line).and_then(|()| file.flush());
        }
        let mut out = std::io::stdout().lock();
        let _ = answer(&line, &mut state, &mut out).and_then(|()| out.flush());
    }
}

/// What the fake engine remembers between lines.
struct State {
    bestmove: String,
    echo_options: bool,
    /// `(name, value)` in the order set.
    options: Vec<(String, String)>,
    /// First words of lines that get no answer.
    ignored: Vec<String>,
    /// A `go infinite` / `go ponder` waits for `stop` / `ponderhit`.
    waiting: bool,
    /// Lines of the `uci` answer written before aborting.
    uci_lines: Option<usize>,
    /// The option whose `setoption` makes it exit.
    fatal_option: Option<String>,
    /// The deliberate faults of `FAKE_ENGINE_FAULTS`, by name.
    faults: Vec<String>,
    /// The rules mode's position (`FAKE_ENGINE_RULES=1`).
    board: Option<rules::Board>,
    /// The answer a waiting search gives at `stop` / `ponderhit`.
    pending: String,
}

impl State {
    fn has_fault(&self, name: &str) -> bool {
        self.faults.iter().any(|f| f == name)
    }
}

/// The answer to `uci`, one line each.
const HANDSHAKE: [&str; 5] = [
    "id name FakeEngine",
    "id author fenguard tests",
    "option name Hash type spin default 16 min 1 max 1024",
    "option name UCI_Chess960 type check default false",
    "uciok",
];

fn answer(line: &[u8], state: &mut State, out: &mut impl Write) -> std::io::Result<()> {
    let text = String::from_utf8_lossy(line);
    let trimmed = text.trim();
    let (word, rest) = trimmed
        .split_once(char::is_whitespace)
        .unwrap_or((trimmed, ""));
    let rest = rest.trim();
    if state.ignored.iter().any(|w| w == word) {
        return Ok(());
    }
    let bestmove = state.bestmove.as_str();
    match word {
        // `debug pid`, `debug hang`, ...: the test commands in a UCI command's shape, for
        // sessions that refuse other commands (`fenguard serve`, `[guard] commands = "uci"`).
        "debug" if !matches!(rest, "" | "on" | "off") => answer(rest.as_bytes(), state, out),
        "uci" => {
            for line in HANDSHAKE
                .iter()
                .take(state.uci_lines.unwrap_or(HANDSHAKE.len()))
            {
                if *line == "uciok"
                    && let Ok(extra) = std::env::var("FAKE_ENGINE_EXTRA_OPTION")
                {
                    writeln!(out, "{extra}")?;
                }
                writeln!(out, "{line}")?;
                if line.starts_with("id author") && state.has_fault("uci-blank-line") {
                    writeln!(out)?;
                }
            }
            if state.uci_lines.is_some() {
                out.flush()?;
                std::process::abort();
            }
            Ok(())
        }
        "isready" => out.write_all(b"readyok\n"),
        "go" => {
            if state.echo_options {
                for (name, value) in &state.options {
                    writeln!(out, "info string option {name}={value}")?;
                }
            }
            let words: Vec<&str> = rest.split_whitespace().collect();
            if let Some(i) = words.iter().position(|w| *w == "perft") {
                let nodes = words.get(i + 1).copied().unwrap_or("0");
                if let Some(board) = &state.board {
                    let depth = nodes.parse().unwrap_or(1);
                    return out.write_all(board.perft(depth).as_bytes());
                }
                return write!(out, "a2a3: 1\n\nNodes searched: {nodes}\n\n");
            }
            if state.has_fault("hang-on-go") {
                out.flush()?;
                loop {
                    std::thread::sleep(Duration::from_secs(3600));
                }
            }
            state.pending = match &state.board {
                Some(board) => {
                    let from = words.iter().position(|w| *w == "searchmoves");
                    let moves = from.map_or(&[][..], |i| &words[i + 1..]);
                    board.answer(moves)
                }
                None => format!("bestmove {bestmove}\n"),
            };
            if let Some(i) = words.iter().position(|w| *w == "movetime")
                && state.has_fault("movetime-overshoot")
            {
                let ms: u64 = words.get(i + 1).and_then(|t| t.parse().ok()).unwrap_or(0);
                std::thread::sleep(Duration::from_millis(ms + 1000));
            }
            state.waiting = words.contains(&"infinite") || words.contains(&"ponder");
            if state.waiting && state.has_fault("ponder-early") {
                state.waiting = false;
            }
            if state.waiting {
                return Ok(());
            }
            out.write_all(state.pending.as_bytes())
        }
        "stop" | "ponderhit" if state.waiting => {
            state.waiting = false;
            out.write_all(state.pending.as_bytes())
        }
        "position" if state.board.is_some() => {
            let refused = state.board.as_mut().and_then(|b| b.position(line));
            match refused {
                Some(why) => writeln!(out, "info string error: {why}"),
                None => Ok(()),
            }
        }
        "ignore" => {
            state.ignored.push(rest.to_owned());
            Ok(())
        }
        "setoption" => {
            let body = rest.strip_prefix("name ").unwrap_or(rest);
            let (name, value) = body.split_once(" value ").unwrap_or((body, ""));
            if state.fatal_option.as_deref() == Some(name) {
                std::process::exit(1);
            }
            if let Some(board) = &mut state.board {
                board.set_option(name, value);
            }
            state.options.retain(|(n, _)| n != name);
            state.options.push((name.to_owned(), value.to_owned()));
            writeln!(out, "info string option {name} = {value}")
        }
        "echo" => {
            // Skip leading whitespace, `echo` and one separator.
            let start = line
                .iter()
                .position(|b| !b.is_ascii_whitespace())
                .unwrap_or(0)
                + 5;
            let start = start.min(line.len());
            out.write_all(&line[start..])
        }
        "burst" => {
            let mut numbers = rest
                .split_whitespace()
                .map(|n| n.parse::<usize>().unwrap_or(0));
            let (count, more) = (numbers.next().unwrap_or(0), numbers.next().unwrap_or(0));
            let pv: String = ["e7e5", "g1f3", "b8c6", "f1b5", "a7a6"]
                .iter()
                .cycle()
                .take(more)
                .map(|m| format!(" {m}"))
                .collect();
            let mut text = String::new();
            for i in 0..count {
                text.push_str(&format!("info depth 1 seq {i} pv e2e4{pv}\n"));
            }
            out.write_all(text.as_bytes())
        }
        "long" => {
            let mut bytes = vec![b'x'; rest.parse::<usize>().unwrap_or(0)];
            bytes.push(b'\n');
            out.write_all(&bytes)
        }
        "stderr" => writeln!(std::io::stderr(), "{rest}"),
        "pid" => writeln!(out, "info string pid {}", std::process::id()),
        "args" => {
            let args: Vec<String> = std::env::args().skip(1).collect();
            writeln!(out, "info string args {}", args.join("|"))
        }
        "cwd" => {
            let cwd = std::env::current_dir().unwrap_or_default();
            writeln!(out, "info string cwd {}", cwd.display())
        }
        "env" => writeln!(
            out,
            "info string env {rest}={}",
            std::env::var(rest).unwrap_or_default()
        ),
        "sleep" => {
            std::thread::sleep(Duration::from_millis(rest.parse().unwrap_or(0)));
            Ok(())
        }
        "exit" => {
            out.flush()?;
            std::process::exit(rest.parse().unwrap_or(0))
        }
        "crash" => std::process::abort(),
        "partial" => {
            out.write_all(rest.as_bytes())?;
            out.flush()?;
            std::process::abort()
        }
        "hang" => loop {
            std::thread::sleep(Duration::from_secs(3600));
        },
        "quit" => std::process::exit(0),
        _ => Ok(()),
    }
}
