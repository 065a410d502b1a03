//! SPEC 12 against real Stockfish 15.1, through the stdio proxy and through `fenguard serve`:
//! the engine reads what fenguard judged, whatever the whitespace (`\v`, `\f`, `\r`), so a
//! king-less position never crashes it, a file option never writes a file, Stockfish's own
//! commands never reach a daemon's engine, and thread counts the guard cannot read are never
//! applied. (On main before this: `\x0bsetoption name Debug Log File value PATH` wrote PATH,
//! `\x0bposition fen 8/8/8/8/8/8/8/8 w - - 0 1` crashed Stockfish with signal 11, `Threads
//! value 1e1` ran 10 threads under a cap of 2.)
#![cfg(target_os = "linux")]

use crate::common;
use crate::serve_support;

use std::io::{BufRead as _, BufReader, Write as _};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::{Gui, require_stockfish};
use serve_support::{FENGUARD, alive, children, free_port, status_field, test_dir};

/// The spellings of a separator an engine skips and Rust's `is_ascii_whitespace` does not
/// (`\v`), and the others C's `isspace` accepts.
const SEPARATORS: [&str; 4] = ["\x0b", "\x0c", "\r", "\t"];

/// A `fenguard serve` in front of Stockfish on loopback (no tokens), `max_threads = 2`.
struct Served {
    child: Child,
    port: u16,
    dir: PathBuf,
}

impl Served {
    fn start(name: &str, stockfish: &Path) -> Served {
        let dir = test_dir(name);
        let port = free_port();
        let config = dir.join("serve.toml");
        std::fs::write(&config, "[serve]\nmax_threads = 2\nmax_hash_mb = 64\n").unwrap();
        let child = Command::new(FENGUARD)
            .arg("serve")
            .arg("--config")
            .arg(&config)
            .arg("--log-dir")
            .arg(dir.join("logs"))
            .args(["--listen", &format!("127.0.0.1:{port}"), "--"])
            .arg(stockfish)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(dir.join("stderr")).unwrap())
            .spawn()
            .unwrap();
        let start = Instant::now();
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "serve did not listen"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        Served { child, port, dir }
    }

    fn client(&self) -> Client {
        let stream = TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(60)))
            .unwrap();
        let reader = BufReader::new(stream.try_clone().unwrap());
        let mut client = Client { stream, reader };
        client.send(b"uci\n");
        client.read_until("uciok");
        client
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

struct Client {
    stream: TcpStream,
    reader: BufReader<TcpStream>,
}

impl Client {
    fn send(&mut self, bytes: &[u8]) {
        self.stream.write_all(bytes).unwrap();
    }

    /// Lines up to and including the first that starts with `prefix`.
    fn read_until(&mut self, prefix: &str) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            let mut line = String::new();
            let n = self.reader.read_line(&mut line).expect("a line from serve");
            assert!(n > 0, "connection closed; got {lines:#?}");
            let line = line.trim_end().to_owned();
            let done = line.starts_with(prefix);
            lines.push(line);
            if done {
                return lines;
            }
        }
    }
}

/// The live engine of the fenguard process `pid`, asked each time it is called.
fn engine_of(pid: u32) -> impl Fn() -> u32 {
    move || {
        children(pid)
            .into_iter()
            .find(|&p| alive(p))
            .expect("Stockfish runs")
    }
}

/// `words` joined by single spaces, with `sep` put in gap `at` instead (0: before the first).
fn spelled(words: &[&str], at: usize, sep: &str) -> String {
    let mut line = String::new();
    for (i, w) in words.iter().enumerate() {
        line.push_str(if i == at {
            sep
        } else if i > 0 {
            " "
        } else {
            ""
        });
        line.push_str(w);
    }
    line.push('\n');
    line
}

#[test]
fn kingless_position_behind_odd_whitespace_never_reaches_stockfish_through_the_proxy() {
    let toml = "[log]\ntranscript = true\n";
    let Some(mut gui) = Gui::stockfish_ready("guard-sf-kingless", toml) else {
        return;
    };
    let engine = engine_of(gui.proxy.child.id());
    let pid = engine();
    let words = [
        "position",
        "fen",
        "8/8/8/8/8/8/8/8",
        "w",
        "-",
        "-",
        "0",
        "1",
    ];
    for sep in SEPARATORS {
        for at in [0, 1, 2, 3] {
            gui.proxy.send(spelled(&words, at, sep).as_bytes());
            let lines = gui.go("go depth 5");
            assert_eq!(
                lines.last().map(String::as_str),
                Some("bestmove 0000"),
                "{sep:?} {at}"
            );
            assert!(
                lines[0].contains("rejected position: missing-king"),
                "{lines:#?}"
            );
        }
    }
    gui.sync();
    assert_eq!(engine(), pid, "Stockfish died or was restarted");
    let transcript = gui.proxy.log("fenguard.log");
    let to_engine: Vec<&str> = transcript
        .lines()
        .filter(|l| l.contains(">engine"))
        .collect();
    assert!(!to_engine.is_empty(), "no transcript: {transcript}");
    assert!(
        !to_engine.iter().any(|l| l.contains("8/8/8/8/8/8/8/8")),
        "the engine got the king-less board: {to_engine:#?}"
    );
}

#[test]
fn kingless_position_behind_vt_never_crashes_stockfish_through_serve() {
    let Some(stockfish) = require_stockfish() else {
        return;
    };
    let served = Served::start("guard-sf-serve-kingless", &stockfish);
    let mut client = served.client();
    client.send(b"\x0bposition fen 8/8/8/8/8/8/8/8 w - - 0 1\ngo depth 5\n");
    let lines = client.read_until("bestmove");
    assert_eq!(
        lines.last().map(String::as_str),
        Some("bestmove 0000"),
        "{lines:#?}"
    );
    client.send(b"isready\n");
    client.read_until("readyok");
    let log = std::fs::read_to_string(served.dir.join("logs/fenguard.log")).unwrap_or_default();
    assert!(!log.contains("signal 11"), "{log}");
}

#[test]
fn file_options_and_stockfish_commands_never_reach_a_served_stockfish() {
    let Some(stockfish) = require_stockfish() else {
        return;
    };
    let served = Served::start("guard-sf-serve-files", &stockfish);
    let mut client = served.client();
    let mut written: Vec<PathBuf> = Vec::new();
    let words = ["setoption", "name", "Debug", "Log", "File", "value"];
    for (i, sep) in SEPARATORS.iter().enumerate() {
        for at in 0..words.len() {
            let target = served.dir.join(format!("debug-{i}-{at}.log"));
            let mut line = spelled(&words, at, sep);
            line.pop();
            line.push_str(&format!(" {}\n", target.display()));
            client.send(line.as_bytes());
            written.push(target);
        }
    }
    let net = served.dir.join("export.nnue");
    client.send(format!("export_net {}\n", net.display()).as_bytes());
    client.send(format!("\x0bexport_net {}\n", net.display()).as_bytes());
    client.send(b"bench 16 1 1 default depth\n");
    client.send(b"isready\n");
    let lines = client.read_until("readyok");
    let refused = lines
        .iter()
        .filter(|l| l.starts_with("info string fenguard: option not allowed: Debug Log File"))
        .count();
    assert_eq!(refused, written.len(), "{lines:#?}");
    for cmd in ["export_net", "export_net", "bench"] {
        let told = format!("info string fenguard: command not allowed: {cmd}");
        assert!(lines.contains(&told), "{told}: {lines:#?}");
    }
    assert!(
        !lines.iter().any(|l| l.contains("Nodes searched")),
        "bench ran: {lines:#?}"
    );
    // The engine is still the one that started, and it wrote no file.
    client.send(b"position startpos\ngo depth 3\n");
    client.read_until("bestmove");
    for path in written.iter().chain([&net]) {
        assert!(!path.exists(), "{} was written", path.display());
    }
}

/// Stockfish's thread count while it searches (`Threads:` of /proc/PID/status).
fn searching_threads(served: &Served, client: &mut Client) -> u64 {
    client.send(b"position startpos\ngo infinite\n");
    client.read_until("info depth 5");
    let engine = engine_of(served.child.id())();
    let threads = status_field(engine, "Threads:");
    client.send(b"stop\n");
    client.read_until("bestmove");
    threads
}

#[test]
fn thread_counts_the_guard_cannot_read_are_never_applied() {
    let Some(stockfish) = require_stockfish() else {
        return;
    };
    let served = Served::start("guard-sf-serve-threads", &stockfish);
    let mut client = served.client();
    let base = searching_threads(&served, &mut client);
    for value in ["1e1", "0x6", "3abc", "10.0", "+8"] {
        client.send(format!("setoption name Threads value {value}\nisready\n").as_bytes());
        let lines = client.read_until("readyok");
        assert!(
            lines.iter().any(|l| l.starts_with(&format!(
                "info string fenguard: bad value for spin option Threads: `{value}`"
            ))),
            "{value}: {lines:#?}"
        );
        let threads = searching_threads(&served, &mut client);
        assert_eq!(
            threads, base,
            "Threads {value}: {threads} threads, {base} before"
        );
    }
    // A decimal above the cap is clamped: 2 search threads, one more than the default 1.
    client.send(b"setoption name Threads value 0010\nisready\n");
    let lines = client.read_until("readyok");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string fenguard: Threads clamped to 2")),
        "{lines:#?}"
    );
    assert_eq!(searching_threads(&served, &mut client), base + 1);
}

/// Found by review: 1 MiB of leading whitespace pushed `position` past the first piece of an
/// over-long line, which was then relayed unjudged and crashed Stockfish (signal 11).
#[test]
fn kingless_position_behind_a_mib_of_whitespace_never_reaches_stockfish() {
    let Some(mut gui) = Gui::stockfish_ready("guard-sf-padded", "") else {
        return;
    };
    let engine = engine_of(gui.proxy.child.id());
    let pid = engine();
    for pad in [b' ', b'\t', 0x0b] {
        let mut line = vec![pad; 1 << 20];
        line.extend_from_slice(b"position fen 8/8/8/8/8/8/8/8 w - - 0 1\n");
        gui.proxy.send(&line);
        gui.sync();
    }
    assert_eq!(engine(), pid, "Stockfish died or was restarted");
    assert!(
        !String::from_utf8_lossy(&gui.proxy.stdout()).contains("engine exited"),
        "{}",
        String::from_utf8_lossy(&gui.proxy.stdout())
    );
}
