//! Helpers for process-level tests: run the built `fenguard` through pipes, as a GUI does.
#![allow(dead_code)]

pub mod check;
pub mod controls;
mod gui;
pub mod skip;
pub mod tempdirs;
#[allow(unused_imports)]
pub use gui::*;
#[allow(unused_imports)]
pub use skip::{claim_dir, skipped};

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Generous: the test machine is slow and shared.
pub const PATIENCE: Duration = Duration::from_secs(10);

/// Path of the built fenguard binary.
pub const FENGUARD: &str = env!("CARGO_BIN_EXE_fenguard");
/// Path of the built fake engine.
pub const FAKE_ENGINE: &str = env!("CARGO_BIN_EXE_fake_engine");

/// A fresh, empty directory for one test, removed when the test process ends unless the test
/// failed ([`tempdirs`]).
pub fn test_dir(name: &str) -> PathBuf {
    claim_dir("fenguard-test", name);
    let dir = std::env::temp_dir().join(format!("fenguard-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create test dir");
    tempdirs::register(dir.clone());
    dir
}

/// A running fenguard with its stdout and stderr collected by background threads.
pub struct Proxy {
    pub child: Child,
    stdin: Option<ChildStdin>,
    out: Arc<Mutex<Vec<u8>>>,
    err: Arc<Mutex<Vec<u8>>>,
    /// The log directory passed with `--log-dir`.
    pub log_dir: PathBuf,
}

fn collect(mut pipe: impl std::io::Read + Send + 'static) -> Arc<Mutex<Vec<u8>>> {
    let buf = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&buf);
    std::thread::spawn(move || {
        let mut chunk = [0u8; 65536];
        while let Ok(n) = pipe.read(&mut chunk) {
            if n == 0 {
                break;
            }
            sink.lock().unwrap().extend_from_slice(&chunk[..n]);
        }
    });
    buf
}

impl Proxy {
    /// Starts `fenguard --log-dir DIR/logs ARGS...` with `env` added.
    pub fn start(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Proxy {
        Proxy::with_log_dir(dir.join("logs"), args, env)
    }

    /// Starts `fenguard --log-dir LOG_DIR ARGS...` with `env` added.
    pub fn with_log_dir(log_dir: PathBuf, args: &[&str], env: &[(&str, &str)]) -> Proxy {
        let mut child = Command::new(FENGUARD)
            .arg("--log-dir")
            .arg(&log_dir)
            .args(args)
            .env_remove("RUST_LOG")
            .env_remove("FENGUARD_CONFIG")
            .envs(env.iter().copied())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start fenguard");
        let out = collect(child.stdout.take().unwrap());
        let err = collect(child.stderr.take().unwrap());
        Proxy {
            stdin: child.stdin.take(),
            child,
            out,
            err,
            log_dir,
        }
    }

    /// Starts fenguard around the fake engine, which records its input in `DIR/engine-input`.
    pub fn fake(dir: &Path, extra: &[&str]) -> Proxy {
        let record = dir.join("engine-input");
        let mut args = extra.to_vec();
        args.extend(["--", FAKE_ENGINE]);
        Proxy::start(
            dir,
            &args,
            &[("FAKE_ENGINE_RECORD", record.to_str().unwrap())],
        )
    }

    /// Writes bytes to fenguard's stdin.
    pub fn send(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("write to fenguard");
        stdin.flush().expect("flush to fenguard");
    }

    /// Takes fenguard's stdin, for a GUI that writes from a thread of its own ([`Proxy::send`]
    /// panics afterwards).
    pub fn take_stdin(&mut self) -> ChildStdin {
        self.stdin.take().expect("stdin open")
    }

    /// Closes fenguard's stdin (the GUI's end of input).
    pub fn close(&mut self) {
        self.stdin = None;
    }

    /// Everything fenguard wrote to stdout so far.
    pub fn stdout(&self) -> Vec<u8> {
        self.out.lock().unwrap().clone()
    }

    /// Everything fenguard wrote to stderr so far, lossily as text.
    pub fn stderr(&self) -> String {
        String::from_utf8_lossy(&self.err.lock().unwrap()).into_owned()
    }

    /// Waits until stdout satisfies `done`; panics with what arrived after [`PATIENCE`].
    pub fn wait_stdout(&self, done: impl Fn(&[u8]) -> bool) -> Vec<u8> {
        self.wait_stdout_within(PATIENCE, done)
    }

    /// Waits until stdout satisfies `done`; panics with what arrived after `patience`.
    pub fn wait_stdout_within(&self, patience: Duration, done: impl Fn(&[u8]) -> bool) -> Vec<u8> {
        let start = Instant::now();
        loop {
            let out = self.stdout();
            if done(&out) {
                return out;
            }
            assert!(
                start.elapsed() < patience,
                "timed out; stdout so far: {:?}; stderr: {}",
                String::from_utf8_lossy(&out),
                self.stderr()
            );
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// Waits until stdout contains `needle`.
    pub fn wait_for(&self, needle: &str) -> Vec<u8> {
        self.wait_stdout(|out| contains(out, needle.as_bytes()))
    }

    /// Waits for fenguard to exit; panics (after killing it) when it takes longer than
    /// [`PATIENCE`].
    pub fn wait_exit(&mut self) -> ExitStatus {
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().expect("try_wait") {
                // Let the collector threads take the last bytes.
                std::thread::sleep(Duration::from_millis(50));
                return status;
            }
            if start.elapsed() > PATIENCE {
                let _ = self.child.kill();
                panic!("fenguard did not exit; stderr: {}", self.stderr());
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// Asks the fake engine for its process id.
    pub fn engine_pid(&mut self) -> i32 {
        self.send(b"pid\n");
        let out = self.wait_for("info string pid ");
        let text = String::from_utf8_lossy(&out).into_owned();
        let after = text.split("info string pid ").nth(1).expect("pid line");
        after
            .lines()
            .next()
            .and_then(|p| p.trim().parse().ok())
            .expect("pid number")
    }

    /// The contents of a file in the log directory ("" when missing).
    pub fn log(&self, name: &str) -> String {
        std::fs::read_to_string(self.log_dir.join(name)).unwrap_or_default()
    }

    /// Waits until the log file `name` contains `needle` (the writers are asynchronous).
    pub fn wait_log(&self, name: &str, needle: &str) -> String {
        wait_until(|| {
            let text = self.log(name);
            text.contains(needle).then_some(text)
        })
        .unwrap_or_else(|| panic!("{name} never contained {needle:?}: {}", self.log(name)))
    }
}

impl Drop for Proxy {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Every record of `LOG_DIR/positions.jsonl` so far, parsed and rebuilt in full (compact
/// `position` records expanded, as `fenguard log` does).
pub fn records(log_dir: &Path) -> Vec<serde_json::Value> {
    let text = std::fs::read_to_string(log_dir.join("positions.jsonl")).unwrap_or_default();
    let mut expander = fenguard::logview::Expander::default();
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            expander
                .expand_line(l)
                .unwrap_or_else(|e| panic!("{e}: {l}"))
        })
        .collect()
}

/// Polls `probe` every 10 ms for up to [`PATIENCE`].
pub fn wait_until<T>(mut probe: impl FnMut() -> Option<T>) -> Option<T> {
    let start = Instant::now();
    while start.elapsed() < PATIENCE {
        if let Some(value) = probe() {
            return Some(value);
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    probe()
}

/// Whether `haystack` contains `needle`.
pub fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

/// Whether process `pid` is gone (missing, or a zombie nobody reaped yet).
#[cfg(target_os = "linux")]
pub fn process_gone(pid: i32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(stat) => stat
            .rsplit(')')
            .next()
            .is_some_and(|rest| rest.trim_start().starts_with(['Z', 'X'])),
    }
}

/// Peak resident set size of process `pid` in KiB (`VmHWM`).
#[cfg(target_os = "linux")]
pub fn peak_rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("read /proc status");
    let line = status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))
        .expect("VmHWM line");
    line.split_whitespace()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .expect("VmHWM number")
}
