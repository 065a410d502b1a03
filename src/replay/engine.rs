//! The engine `fenguard replay` talks to: a child process, its stdout read line by line on a
//! thread of its own, waits bounded in time, and how it ended.

use std::ffi::OsString;
use std::io::{BufRead as _, BufReader, Write as _};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// How an engine process ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Exit {
    /// Exit code, when it exited normally.
    pub code: Option<i32>,
    /// Signal number, when a signal ended it (Unix).
    pub signal: Option<i32>,
}

impl Exit {
    fn of(status: ExitStatus) -> Exit {
        #[cfg(unix)]
        let signal = std::os::unix::process::ExitStatusExt::signal(&status);
        #[cfg(not(unix))]
        let signal = None;
        Exit {
            code: status.code(),
            signal,
        }
    }

    /// Whether it is a failure: a signal or a non-zero exit code.
    pub fn failed(self) -> bool {
        self.signal.is_some() || self.code.is_some_and(|c| c != 0)
    }
}

impl std::fmt::Display for Exit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.signal, self.code) {
            (Some(signal), _) => write!(
                f,
                "killed by signal {signal}{}",
                crate::proxy::engine::signal_name(signal)
            ),
            (None, Some(code)) => write!(f, "exited with status {code}"),
            (None, None) => f.write_str("ended"),
        }
    }
}

/// What a bounded wait for a line found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Waited {
    /// The line looked for.
    Line(String),
    /// The engine's output ended (it exited, or closed its stdout).
    Ended,
    /// Nothing of the kind within the bound.
    Timeout,
}

/// A running engine; killed when dropped.
#[derive(Debug)]
pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Engine {
    /// Starts `program args` with piped stdin and stdout (stderr discarded).
    ///
    /// # Errors
    /// The I/O error of starting it.
    pub fn start(program: &Path, args: &[OsString]) -> std::io::Result<Engine> {
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()?;
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut line = Vec::new();
            loop {
                line.clear();
                match reader.read_until(b'\n', &mut line) {
                    Ok(0) | Err(_) => return,
                    Ok(_) => {}
                }
                let text = String::from_utf8_lossy(&line).trim_end().to_owned();
                if tx.send(text).is_err() {
                    return;
                }
            }
        });
        Ok(Engine {
            stdin: child.stdin.take(),
            child,
            lines,
        })
    }

    /// Writes `line` and a `\n`; false when the engine no longer reads its input.
    pub fn send(&mut self, line: &str) -> bool {
        let Some(stdin) = &mut self.stdin else {
            return false;
        };
        let ok = stdin
            .write_all(line.as_bytes())
            .and_then(|()| stdin.write_all(b"\n"))
            .and_then(|()| stdin.flush())
            .is_ok();
        if !ok {
            self.stdin = None;
        }
        ok
    }

    /// Writes `text` as it is, then closes the engine's input (a piped script).
    pub fn send_all_and_close(&mut self, text: &str) {
        if let Some(mut stdin) = self.stdin.take() {
            let _ = stdin.write_all(text.as_bytes());
        }
    }

    /// Waits up to `bound` for a line for which `wanted` holds; every line read on the way is
    /// given to `seen` first.
    pub fn wait_for(
        &mut self,
        bound: Duration,
        mut seen: impl FnMut(&str),
        wanted: impl Fn(&str) -> bool,
    ) -> Waited {
        let deadline = Instant::now() + bound;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    seen(&line);
                    if wanted(&line) {
                        return Waited::Line(line);
                    }
                }
                Err(RecvTimeoutError::Timeout) => return Waited::Timeout,
                Err(RecvTimeoutError::Disconnected) => return Waited::Ended,
            }
        }
    }

    /// How it ended, waiting up to `bound` for it to end; `None` when it is still running.
    pub fn exit_within(&mut self, bound: Duration) -> Option<Exit> {
        let deadline = Instant::now() + bound;
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Some(Exit::of(status));
            }
            if Instant::now() >= deadline {
                return None;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stdin = None;
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}
