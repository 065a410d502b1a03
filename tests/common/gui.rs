//! A scripted GUI for process-level tests of the position interception (issue 4): Stockfish
//! lookup, fenguard started with a config file, whole-line reads, `positions.jsonl` records,
//! and move legality checked with shakmaty.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::{FAKE_ENGINE, PATIENCE, Proxy, records, test_dir, wait_until};

/// Patience for searches by a real engine (slow, shared machine); never a timing assertion.
pub const SEARCH_PATIENCE: Duration = Duration::from_secs(60);

/// Stockfish's path: `/usr/games/stockfish` (Debian), else `stockfish` on `PATH`.
pub fn stockfish() -> Option<PathBuf> {
    let debian = PathBuf::from("/usr/games/stockfish");
    if debian.is_file() {
        return Some(debian);
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join("stockfish"))
        .find(|p| p.is_file())
}

/// Fairy-Stockfish's path (Debian's `/usr/games/fairy-stockfish`); under CI (`CI=true`) a
/// missing one fails the test, elsewhere it says so on stderr, records the skip
/// ([`super::skipped`]) and gives `None`.
pub fn require_fairy() -> Option<PathBuf> {
    let path = PathBuf::from("/usr/games/fairy-stockfish");
    if path.is_file() {
        return Some(path);
    }
    assert!(
        std::env::var("CI").as_deref() != Ok("true"),
        "Fairy-Stockfish is missing under CI: install it (apt-get install -y fairy-stockfish)"
    );
    eprintln!("fairy-stockfish not installed: not running this test");
    super::skipped("fairy-stockfish");
    None
}

/// Stockfish's path; under CI (`CI=true`) a missing Stockfish fails the test, elsewhere it
/// says so on stderr, records the skip ([`super::skipped`]) and gives `None` (the caller
/// returns without running).
pub fn require_stockfish() -> Option<PathBuf> {
    let found = stockfish();
    if found.is_none() {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "Stockfish is missing under CI: install it (apt-get install -y stockfish)"
        );
        eprintln!(
            "stockfish not installed: not running this test (install it with apt-get install -y stockfish)"
        );
        super::skipped("stockfish");
    }
    found
}

/// Writes `toml` to `DIR/fenguard.toml` and gives its path (for `--config`).
pub fn write_config(dir: &Path, toml: &str) -> PathBuf {
    let path = dir.join("fenguard.toml");
    std::fs::write(&path, toml).expect("write config");
    path
}

/// A GUI talking to fenguard: sends lines, reads whole lines in order, reads the position log.
pub struct Gui {
    /// The fenguard process.
    pub proxy: Proxy,
    /// The test's directory (config file, fake engine record, logs under `logs/`).
    pub dir: PathBuf,
    /// How many bytes of stdout the GUI has read.
    read: usize,
}

impl Gui {
    /// fenguard in front of Stockfish with `--config` holding `toml` (none when empty);
    /// `None` when Stockfish is missing outside CI.
    pub fn stockfish(name: &str, toml: &str) -> Option<Gui> {
        let engine = require_stockfish()?;
        let dir = test_dir(name);
        let mut args = config_args(&dir, toml);
        args.extend(["--".to_owned(), engine.to_str()?.to_owned()]);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let proxy = Proxy::start(&dir, &args, &[]);
        Some(Gui::new(proxy, dir))
    }

    /// fenguard in front of Fairy-Stockfish (no config); `None` when it is missing outside CI.
    pub fn fairy(name: &str) -> Option<Gui> {
        let engine = require_fairy()?;
        let dir = test_dir(name);
        let proxy = Proxy::start(&dir, &["--", engine.to_str()?], &[]);
        Some(Gui::new(proxy, dir))
    }

    /// [`Gui::stockfish`] after `uci` and `isready`.
    pub fn stockfish_ready(name: &str, toml: &str) -> Option<Gui> {
        let mut gui = Gui::stockfish(name, toml)?;
        gui.handshake();
        Some(gui)
    }

    /// fenguard in front of the fake engine (recording its input in `DIR/engine-input`), with
    /// `--config` holding `toml` (none when empty) and `env` added.
    pub fn fake(name: &str, toml: &str, env: &[(&str, &str)]) -> Gui {
        let dir = test_dir(name);
        let mut args = config_args(&dir, toml);
        args.extend(["--".to_owned(), FAKE_ENGINE.to_owned()]);
        Gui::fake_command(dir, args, env)
    }

    /// [`Gui::fake`] without config or environment, after `uci` and `isready`.
    pub fn fake_ready(name: &str, toml: &str) -> Gui {
        let mut gui = Gui::fake(name, toml, &[]);
        gui.handshake();
        gui
    }

    /// fenguard in front of the fake engine seen through a filter that removes its
    /// `option name UCI_Chess960` line: an engine that does not offer Chess960.
    #[cfg(unix)]
    pub fn fake_without_chess960(name: &str) -> Gui {
        let dir = test_dir(name);
        let script =
            format!("exec '{FAKE_ENGINE}' | grep --line-buffered -v 'option name UCI_Chess960'");
        let args = ["--", "/bin/sh", "-c", script.as_str()].map(str::to_owned);
        Gui::fake_command(dir, args.to_vec(), &[])
    }

    fn fake_command(dir: PathBuf, args: Vec<String>, env: &[(&str, &str)]) -> Gui {
        let record = dir.join("engine-input");
        let record = record.to_str().expect("UTF-8 temp path").to_owned();
        let mut env = env.to_vec();
        env.push(("FAKE_ENGINE_RECORD", &record));
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let proxy = Proxy::start(&dir, &args, &env);
        Gui::new(proxy, dir)
    }

    fn new(proxy: Proxy, dir: PathBuf) -> Gui {
        Gui {
            proxy,
            dir,
            read: 0,
        }
    }

    /// Sends one line (a `\n` is added).
    pub fn send(&mut self, line: &str) {
        self.proxy.send(format!("{line}\n").as_bytes());
    }

    /// Reads whole lines (without terminator) until one satisfies `done`; gives every line
    /// read, the matching one last. Panics with what arrived after [`SEARCH_PATIENCE`].
    pub fn read_until(&mut self, done: impl Fn(&str) -> bool) -> Vec<String> {
        let start = Instant::now();
        let mut lines = Vec::new();
        let mut exited_at = None;
        loop {
            if exited_at.is_none() && !matches!(self.proxy.child.try_wait(), Ok(None)) {
                exited_at = Some(Instant::now());
            }
            let out = self.proxy.stdout();
            while let Some(end) = out[self.read..].iter().position(|&b| b == b'\n') {
                let raw = &out[self.read..self.read + end];
                self.read += end + 1;
                let line = String::from_utf8_lossy(raw)
                    .trim_end_matches('\r')
                    .to_owned();
                let matched = done(&line);
                lines.push(line);
                if matched {
                    return lines;
                }
            }
            // Once fenguard has exited, its last bytes arrive within moments.
            let gone = exited_at.is_some_and(|t| t.elapsed() > Duration::from_millis(500));
            assert!(
                start.elapsed() < SEARCH_PATIENCE && !gone,
                "fenguard exited or timed out; lines read: {lines:#?}; stderr: {}",
                self.proxy.stderr()
            );
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// Reads lines until one starts with `prefix`; gives every line read.
    pub fn read_until_prefix(&mut self, prefix: &str) -> Vec<String> {
        self.read_until(|l| l.starts_with(prefix))
    }

    /// `uci` then `isready`: waits for `uciok` and `readyok`; gives the lines up to `uciok`.
    pub fn handshake(&mut self) -> Vec<String> {
        self.send("uci");
        let lines = self.read_until(|l| l == "uciok");
        self.sync();
        lines
    }

    /// `isready`, then reads until `readyok`: everything sent before has been handled.
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        self.read_until(|l| l == "readyok")
    }

    /// Sends `go`, reads until `bestmove`; gives the lines read (the `bestmove` line last).
    pub fn go(&mut self, go: &str) -> Vec<String> {
        self.send(go);
        self.read_until_prefix("bestmove ")
    }

    /// Every record of `positions.jsonl` so far, parsed and rebuilt in full (compact
    /// `position` records expanded, as `fenguard log` does).
    pub fn records(&self) -> Vec<serde_json::Value> {
        records(&self.proxy.log_dir)
    }

    /// Waits for the first record satisfying `pick` (the log is written asynchronously).
    pub fn wait_record(&self, pick: impl Fn(&serde_json::Value) -> bool) -> serde_json::Value {
        wait_until(|| self.records().into_iter().find(|r| pick(r))).unwrap_or_else(|| {
            panic!(
                "no such record in positions.jsonl: {}",
                self.proxy.log("positions.jsonl")
            )
        })
    }

    /// The `kind: "position"` record whose `raw` is `raw`.
    pub fn position_record(&self, raw: &str) -> serde_json::Value {
        self.wait_record(|r| r["kind"] == "position" && r["raw"].as_str() == Some(raw))
    }

    /// Sends `position ...`, waits for the engine to have seen everything (`isready`), and gives
    /// the GUI lines read meanwhile and the position's log record.
    pub fn position(&mut self, line: &str) -> (Vec<String>, serde_json::Value) {
        self.send(line);
        let lines = self.sync();
        (lines, self.position_record(line))
    }

    /// Sends `raw`; checks its record's `verdict` and `sent`; gives the GUI lines read and the
    /// record.
    pub fn expect_sent(
        &mut self,
        raw: &str,
        verdict: &str,
        sent: &str,
    ) -> (Vec<String>, serde_json::Value) {
        let (lines, record) = self.position(raw);
        assert_eq!(record["sent"], sent, "{record}");
        assert_eq!(record["verdict"], verdict, "{record}");
        (lines, record)
    }

    /// What the fake engine read so far (its `FAKE_ENGINE_RECORD` file), lossily as text.
    pub fn engine_input(&self) -> String {
        std::fs::read(self.dir.join("engine-input"))
            .map(|b| String::from_utf8_lossy(&b).into_owned())
            .unwrap_or_default()
    }

    /// The lines the fake engine read that start with `position`.
    pub fn positions_sent(&self) -> Vec<String> {
        let lines = self.engine_lines();
        lines
            .into_iter()
            .filter(|l| l.starts_with("position"))
            .collect()
    }

    /// The lines the fake engine read so far.
    pub fn engine_lines(&self) -> Vec<String> {
        self.engine_input().lines().map(str::to_owned).collect()
    }
}

fn config_args(dir: &Path, toml: &str) -> Vec<String> {
    if toml.is_empty() {
        return Vec::new();
    }
    let path = write_config(dir, toml);
    vec![
        "--config".to_owned(),
        path.to_str().expect("UTF-8 path").to_owned(),
    ]
}

/// The `info string` fenguard sends for a rejected position: its prefix up to the message.
pub fn rejected(code: &str) -> String {
    format!("info string fenguard: rejected position: {code}: ")
}

/// The `info string` fenguard sends for a repair: its prefix up to the message.
pub fn repaired(code: &str) -> String {
    format!("info string fenguard: repaired position: {code}: ")
}

/// The lines among `lines` that start with `prefix`.
pub fn starting_with<'a>(lines: &'a [String], prefix: &str) -> Vec<&'a str> {
    lines
        .iter()
        .filter(|l| l.starts_with(prefix))
        .map(String::as_str)
        .collect()
}

/// The move of a `bestmove` line (`bestmove e2e4 ponder e7e5` gives `e2e4`).
pub fn bestmove_of(line: &str) -> &str {
    line.strip_prefix("bestmove ")
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_else(|| panic!("not a bestmove line: {line:?}"))
}

/// The UCI texts of the legal moves in `fen` (after `moves`), castles written for `chess960`
/// (king takes rook) or standard chess (king's two-square move).
pub fn legal_uci(fen: &str, moves: &[&str], chess960: bool) -> Vec<String> {
    use shakmaty::fen::Fen;
    use shakmaty::uci::UciMove;
    use shakmaty::{CastlingMode, Chess, Position as _};
    let mode = if chess960 {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    };
    let fen: Fen = fen.parse().expect("test FEN parses");
    let mut pos: Chess = fen
        .into_position(CastlingMode::Chess960)
        .expect("legal test FEN");
    for m in moves {
        let m = UciMove::from_ascii(m.as_bytes())
            .expect("test move parses")
            .to_move(&pos)
            .expect("test move is legal");
        pos.play_unchecked(m);
    }
    pos.legal_moves()
        .into_iter()
        .map(|m| m.to_uci(mode).to_string())
        .collect()
}

impl Drop for Gui {
    /// Ends the conversation like a GUI (end of input: fenguard sends the engine `quit`) and
    /// gives fenguard a moment to exit; [`Proxy`]'s drop kills what is left.
    fn drop(&mut self) {
        self.proxy.close();
        let start = Instant::now();
        while start.elapsed() < PATIENCE {
            if matches!(self.proxy.child.try_wait(), Ok(Some(_)) | Err(_)) {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

/// The standard start position.
pub const STARTPOS: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// The moves of an `info ... pv ...` line (the words after `pv` to the end: Stockfish writes
/// `pv` last); empty when the line has no pv.
pub fn pv_of(line: &str) -> Vec<&str> {
    let mut words = line.split_whitespace();
    if !line.starts_with("info ") || !words.any(|w| w == "pv") {
        return Vec::new();
    }
    words.collect()
}

/// Checks that the last of `lines` is a `bestmove` legal in `fen` after `moves`, written for
/// `chess960` or standard chess; gives the move.
pub fn assert_legal_bestmove(
    lines: &[String],
    fen: &str,
    moves: &[&str],
    chess960: bool,
) -> String {
    let best = bestmove_of(lines.last().expect("a bestmove line")).to_owned();
    assert!(
        legal_uci(fen, moves, chess960).contains(&best),
        "bestmove {best} is not legal in {fen} after {moves:?}: {lines:#?}"
    );
    best
}

/// The codes of a position record's diagnostics with this severity.
pub fn codes(record: &serde_json::Value, severity: &str) -> Vec<String> {
    record["diagnostics"]
        .as_array()
        .expect("diagnostics array")
        .iter()
        .filter(|d| d["severity"] == severity)
        .map(|d| d["code"].as_str().expect("code").to_owned())
        .collect()
}
