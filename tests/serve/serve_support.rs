//! Helpers for the daemon's process tests: a `fenguard serve` on a free loopback port in front
//! of the fake engine, raw TCP clients, and the engine processes the daemon runs (from /proc).
#![allow(dead_code)]

use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Generous: the test machine is slow and shared.
pub const PATIENCE: Duration = Duration::from_secs(10);
pub const FENGUARD: &str = env!("CARGO_BIN_EXE_fenguard");
pub const FAKE_ENGINE: &str = env!("CARGO_BIN_EXE_fake_engine");

/// A fresh, empty directory for one test, removed when the test process ends unless the test
/// failed.
pub fn test_dir(name: &str) -> PathBuf {
    crate::common::claim_dir("fenguard-serve", name);
    let dir = std::env::temp_dir().join(format!("fenguard-serve-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create test dir");
    crate::common::tempdirs::register(dir.clone());
    dir
}

/// A free loopback port (bound, then released).
pub fn free_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap().port()
}

/// A running daemon.
pub struct Daemon {
    pub child: Child,
    pub port: u16,
    pub dir: PathBuf,
}

impl Daemon {
    /// Starts `fenguard serve` with `config` (TOML) on a free port, `listen` given as
    /// `HOST:PORT` with `{port}` replaced, `env` for the engine.
    pub fn start(dir: &Path, config: &str, listen: &str, env: &[(&str, &str)]) -> Daemon {
        Daemon::start_with(dir, config, &[listen], env, None, &[])
    }

    /// [`Daemon::start`] with several listeners (the first `HOST:PORT` with `{port}`, which
    /// is waited for), when given soft and hard `RLIMIT_NOFILE` set to `nofile`, and `engine`
    /// (empty: the fake engine).
    pub fn start_with(
        dir: &Path,
        config: &str,
        listens: &[&str],
        env: &[(&str, &str)],
        nofile: Option<u64>,
        engine: &[&str],
    ) -> Daemon {
        let port = free_port();
        let config_path = dir.join("serve.toml");
        std::fs::write(&config_path, config).unwrap();
        let mut command = Command::new(FENGUARD);
        command
            .arg("serve")
            .arg("--config")
            .arg(&config_path)
            .arg("--log-dir")
            .arg(dir.join("logs"));
        for listen in listens {
            command.args(["--listen", &listen.replace("{port}", &port.to_string())]);
        }
        let engine = if engine.is_empty() {
            &[FAKE_ENGINE][..]
        } else {
            engine
        };
        command
            .arg("--")
            .args(engine)
            .envs(env.iter().copied())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(dir.join("stderr")).unwrap());
        {
            use std::os::unix::process::CommandExt as _;
            // SAFETY: umask and setrlimit are async-signal-safe; the struct lives on this stack.
            unsafe {
                command.pre_exec(move || {
                    // The usual umask, whatever the test runner's: the modes the daemon
                    // creates its files with are its own.
                    libc::umask(0o022);
                    let Some(n) = nofile else { return Ok(()) };
                    let limit = libc::rlimit {
                        rlim_cur: n,
                        rlim_max: n,
                    };
                    if libc::setrlimit(libc::RLIMIT_NOFILE, &raw const limit) != 0 {
                        return Err(std::io::Error::last_os_error());
                    }
                    Ok(())
                });
            }
        }
        let child = command.spawn().unwrap();
        let daemon = Daemon {
            child,
            port,
            dir: dir.to_path_buf(),
        };
        let start = Instant::now();
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                start.elapsed() < PATIENCE,
                "daemon did not listen: {}",
                daemon.stderr()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        daemon
    }

    /// Its stderr so far.
    pub fn stderr(&self) -> String {
        std::fs::read_to_string(self.dir.join("stderr")).unwrap_or_default()
    }

    /// Its fenguard.log so far.
    pub fn log(&self) -> String {
        let mut all = String::new();
        for entry in std::fs::read_dir(self.dir.join("logs"))
            .into_iter()
            .flatten()
            .flatten()
        {
            if entry
                .file_name()
                .to_string_lossy()
                .starts_with("fenguard.log")
            {
                all.push_str(&std::fs::read_to_string(entry.path()).unwrap_or_default());
            }
        }
        all
    }

    /// Waits until its fenguard.log holds `text`.
    pub fn wait_log(&self, text: &str) {
        let start = Instant::now();
        while !self.log().contains(text) {
            assert!(
                start.elapsed() < PATIENCE,
                "no `{text}` in the log: {}",
                self.log()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// The engine processes it runs now (its live children).
    pub fn engines(&self) -> Vec<u32> {
        children(self.child.id())
            .into_iter()
            .filter(|&p| alive(p))
            .collect()
    }

    /// Waits until it runs `n` engines.
    pub fn wait_engines(&self, n: usize) -> Vec<u32> {
        let start = Instant::now();
        loop {
            let engines = self.engines();
            if engines.len() == n {
                return engines;
            }
            assert!(
                start.elapsed() < PATIENCE,
                "{} engines, not {n}",
                engines.len()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Peak resident memory (VmHWM) in KiB.
    pub fn peak_rss_kib(&self) -> u64 {
        status_field(self.child.id(), "VmHWM:")
    }

    /// Its open file descriptors now.
    pub fn fds(&self) -> usize {
        std::fs::read_dir(format!("/proc/{}/fd", self.child.id())).map_or(0, |d| d.count())
    }

    /// Sends it a signal (`TERM`, `HUP`, `KILL` ...).
    pub fn signal(&self, name: &str) {
        let status = Command::new("kill")
            .args([&format!("-{name}"), &self.child.id().to_string()])
            .status()
            .unwrap();
        assert!(status.success());
    }

    /// Waits up to `limit` for it to exit; its exit code (`None`: still running).
    pub fn wait_exit(&mut self, limit: Duration) -> Option<Option<i32>> {
        wait_exit(&mut self.child, limit)
    }

    /// A client on its port.
    pub fn client(&self) -> Client {
        Client::connect(self.port)
    }
}

impl Drop for Daemon {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Waits up to `limit` for `child` to exit; `Some(code)` when it did.
pub fn wait_exit(child: &mut Child, limit: Duration) -> Option<Option<i32>> {
    let start = Instant::now();
    while start.elapsed() < limit {
        if let Some(status) = child.try_wait().unwrap() {
            return Some(status.code());
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    None
}

/// A `/proc/PID/status` field in KiB (0 when absent).
pub fn status_field(pid: u32, field: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix(field))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

/// The children of `pid` (all its threads').
pub fn children(pid: u32) -> Vec<u32> {
    let mut out = Vec::new();
    for task in std::fs::read_dir(format!("/proc/{pid}/task"))
        .into_iter()
        .flatten()
        .flatten()
    {
        let text = std::fs::read_to_string(task.path().join("children")).unwrap_or_default();
        out.extend(
            text.split_whitespace()
                .filter_map(|p| p.parse::<u32>().ok()),
        );
    }
    out
}

/// Whether `pid` runs (exists and is not a zombie).
pub fn alive(pid: u32) -> bool {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return false;
    };
    let state = stat.rsplit_once(')').map(|(_, rest)| rest.trim_start());
    !matches!(state.and_then(|s| s.chars().next()), Some('Z' | 'X'))
}

/// Waits until none of `pids` runs; the time it took.
pub fn wait_gone(pids: &[u32], limit: Duration) -> Duration {
    let start = Instant::now();
    while pids.iter().any(|&p| alive(p)) {
        assert!(
            start.elapsed() < limit,
            "engines {pids:?} still running after {limit:?}"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    start.elapsed()
}

/// A raw TCP client speaking lines.
pub struct Client {
    pub stream: TcpStream,
    reader: BufReader<TcpStream>,
    pub seen: Vec<String>,
}

impl Client {
    pub fn connect(port: u16) -> Client {
        let stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
        stream.set_read_timeout(Some(PATIENCE)).unwrap();
        let reader = BufReader::new(stream.try_clone().unwrap());
        Client {
            stream,
            reader,
            seen: Vec::new(),
        }
    }

    pub fn send(&mut self, text: &str) {
        self.stream.write_all(text.as_bytes()).unwrap();
    }

    /// Reads lines until one satisfies `want`; returns it. Panics on end or timeout.
    pub fn until(&mut self, want: impl Fn(&str) -> bool) -> String {
        loop {
            let mut line = String::new();
            let n = self.reader.read_line(&mut line).unwrap_or(0);
            assert!(n > 0, "connection ended; seen {:?}", self.seen);
            let line = line.trim_end().to_owned();
            self.seen.push(line.clone());
            if want(&line) {
                return line;
            }
        }
    }

    /// Reads everything until the server closes the connection.
    pub fn rest(&mut self) -> String {
        let mut rest = String::new();
        let _ = self.reader.read_to_string(&mut rest);
        rest
    }

    /// `uci` then `isready`: the handshake done.
    pub fn handshake(&mut self) {
        self.send("uci\n");
        self.until(|l| l == "uciok");
        self.send("isready\n");
        self.until(|l| l == "readyok");
    }
}
