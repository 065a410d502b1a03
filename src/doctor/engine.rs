//! The engine under examination as a child process, driven directly (no proxy, no session):
//! lines to its stdin, lines from its stdout with the time each arrived, and every line both
//! ways kept as the transcript the next check shows. The thin, impure part of `doctor`; the
//! judging is in [`super::judge`].

use std::io::{BufRead as _, BufReader, Write as _};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The longest transcript line kept (longer lines are cut and marked `…`).
const TRANSCRIPT_LINE: usize = 240;
/// The most transcript lines a check keeps (the first half and the last half).
const TRANSCRIPT_LINES: usize = 60;

/// How many of the engine's last stderr lines a crash's transcript shows.
const STDERR_LINES: usize = 10;

/// The engine's stderr as its reader thread keeps it: the last [`STDERR_LINES`] lines not yet
/// shown, and whether it has ended.
#[derive(Default)]
struct StderrTail {
    lines: std::collections::VecDeque<String>,
    ended: bool,
}

/// What the reader thread saw.
enum Event {
    /// One line, without its `\n` (a `\r` before it kept), and when it arrived.
    Line(Vec<u8>, Instant),
    /// End of the engine's stdout (it exited or closed it).
    Eof,
}

/// A line the engine wrote, and when.
#[derive(Debug, Clone)]
pub struct Received {
    /// The line without its `\n`.
    pub line: Vec<u8>,
    /// When fenguard read it.
    pub at: Instant,
}

impl Received {
    /// The line as text (lossy), without a trailing `\r`.
    pub fn text(&self) -> String {
        let line = self.line.strip_suffix(b"\r").unwrap_or(&self.line);
        String::from_utf8_lossy(line).into_owned()
    }
}

/// What [`Engine::read_until`] got.
#[derive(Debug, Default)]
pub struct Reading {
    /// Every line read, the matching one last when one matched.
    pub lines: Vec<Received>,
    /// Whether a line matched before the deadline.
    pub matched: bool,
    /// Whether the engine's output ended (it exited or crashed).
    pub eof: bool,
}

impl Reading {
    /// The matching line (the last one read), if one matched.
    pub fn last(&self) -> Option<&Received> {
        self.lines.last().filter(|_| self.matched)
    }
}

/// A running engine.
pub struct Engine {
    program: PathBuf,
    args: Vec<String>,
    child: Child,
    stdin: Option<ChildStdin>,
    events: Receiver<Event>,
    eof: bool,
    transcript: Vec<String>,
    stderr: Arc<Mutex<StderrTail>>,
    /// When the engine was started (for the transcript's times).
    pub started: Instant,
}

impl Engine {
    /// Starts `program` with `args`, stdin and stdout piped; its stderr read by a thread that
    /// keeps the last lines, shown in the transcript when the engine exits.
    ///
    /// # Errors
    /// The operating system's error when it cannot be started.
    pub fn start(program: PathBuf, args: Vec<String>) -> std::io::Result<Engine> {
        let mut child = Command::new(&program)
            .args(&args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()?;
        let stderr = Arc::new(Mutex::new(StderrTail::default()));
        if let Some(pipe) = child.stderr.take() {
            let tail = Arc::clone(&stderr);
            std::thread::spawn(move || read_stderr(pipe, &tail));
        }
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("stdout is piped");
        let (tx, events) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::with_capacity(1 << 16, stdout);
            let mut line = Vec::new();
            loop {
                line.clear();
                match reader.read_until(b'\n', &mut line) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let text = line.strip_suffix(b"\n").unwrap_or(&line).to_vec();
                        if tx.send(Event::Line(text, Instant::now())).is_err() {
                            return;
                        }
                    }
                }
            }
            let _ = tx.send(Event::Eof);
        });
        Ok(Engine {
            program,
            args,
            child,
            stdin,
            events,
            eof: false,
            transcript: Vec::new(),
            stderr,
            started: Instant::now(),
        })
    }

    /// A fresh process of the same engine (after a crash, or for a clean state).
    ///
    /// # Errors
    /// As [`Engine::start`].
    pub fn restart(&mut self) -> std::io::Result<()> {
        self.kill();
        let fresh = Engine::start(self.program.clone(), self.args.clone())?;
        let transcript = std::mem::take(&mut self.transcript);
        *self = fresh;
        self.transcript = transcript;
        self.note("(engine restarted)");
        Ok(())
    }

    /// Writes `line` and a `\n` (unless `line` already ends in one), recorded as `> line`.
    /// A closed pipe (the engine died) is recorded, not an error: the next read sees the end.
    pub fn send(&mut self, line: &[u8]) {
        self.record('>', line);
        let mut bytes = line.to_vec();
        if !bytes.ends_with(b"\n") {
            bytes.push(b'\n');
        }
        let written = match &mut self.stdin {
            Some(stdin) => stdin.write_all(&bytes).and_then(|()| stdin.flush()),
            None => Ok(()),
        };
        if written.is_err() {
            self.note("(write failed: the engine closed its input)");
            self.stdin = None;
        }
    }

    /// Reads lines until one satisfies `done`, the output ends, or `limit` passes.
    pub fn read_until(&mut self, limit: Duration, done: impl Fn(&[u8]) -> bool) -> Reading {
        let deadline = Instant::now() + limit;
        let mut reading = Reading::default();
        while !self.eof {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.events.recv_timeout(left) {
                Ok(Event::Line(line, at)) => {
                    self.record('<', &line);
                    let hit = done(&line);
                    reading.lines.push(Received { line, at });
                    if hit {
                        reading.matched = true;
                        return reading;
                    }
                }
                Ok(Event::Eof) | Err(RecvTimeoutError::Disconnected) => {
                    self.eof = true;
                }
                Err(RecvTimeoutError::Timeout) => return reading,
            }
        }
        reading.eof = true;
        reading
    }

    /// Reads until a line whose first token is `word` (`uciok`, `readyok`, `bestmove`).
    pub fn read_until_word(&mut self, limit: Duration, word: &str) -> Reading {
        self.read_until(limit, |line| {
            crate::uci::command_word(line) == word.as_bytes()
        })
    }

    /// Whether the engine's output has ended.
    pub fn ended(&self) -> bool {
        self.eof
    }

    /// Waits up to `limit` for the process to exit; its status, recorded in the transcript.
    pub fn wait_exit(&mut self, limit: Duration) -> Option<ExitStatus> {
        let deadline = Instant::now() + limit;
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                let text = format!("(engine exited: {})", describe_exit(status));
                self.note(&text);
                self.note_stderr();
                return Some(status);
            }
            if Instant::now() >= deadline {
                return None;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// Closes the engine's stdin (it reads the end of its input).
    pub fn close_input(&mut self) {
        self.stdin = None;
    }

    /// Kills the process (if still running) and reaps it.
    pub fn kill(&mut self) {
        self.stdin = None;
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }

    /// The engine's last stderr lines not shown yet, as notes (`# stderr: ...`); after an exit
    /// it waits a little for the pipe's end, so that the last words are in.
    pub fn note_stderr(&mut self) {
        let deadline = Instant::now() + Duration::from_millis(500);
        while !self.stderr.lock().map(|t| t.ended).unwrap_or(true) && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(5));
        }
        let lines: Vec<String> = match self.stderr.lock() {
            Ok(mut t) => t.lines.drain(..).collect(),
            Err(_) => Vec::new(),
        };
        for line in lines {
            self.record_as("# stderr:", line.as_bytes());
        }
    }

    /// The engine's stderr lines not shown yet (the last ones), without waiting.
    pub fn stderr_now(&self) -> Vec<String> {
        self.stderr
            .lock()
            .map(|t| t.lines.iter().cloned().collect())
            .unwrap_or_default()
    }

    /// Adds a note (`# text`) to the transcript.
    pub fn note(&mut self, text: &str) {
        self.transcript.push(format!("# {text}"));
    }

    /// The transcript since the last call, capped to its first and last lines.
    pub fn take_transcript(&mut self) -> Vec<String> {
        let mut lines = std::mem::take(&mut self.transcript);
        if lines.len() > TRANSCRIPT_LINES {
            let half = TRANSCRIPT_LINES / 2;
            let cut = lines.len() - TRANSCRIPT_LINES;
            lines.splice(half..half + cut, [format!("# ({cut} lines left out)")]);
        }
        lines
    }

    fn record(&mut self, dir: char, line: &[u8]) {
        self.record_as(&dir.to_string(), line);
    }

    fn record_as(&mut self, dir: &str, line: &[u8]) {
        let mut text = String::from_utf8_lossy(line).into_owned();
        if text.len() > TRANSCRIPT_LINE {
            let mut end = TRANSCRIPT_LINE;
            while !text.is_char_boundary(end) {
                end -= 1;
            }
            text = format!("{}… ({} bytes)", &text[..end], line.len());
        }
        let text = text.escape_debug().to_string();
        self.transcript.push(format!("{dir} {text}"));
    }
}

/// The stderr reader: keeps the last lines, marks the end.
fn read_stderr(pipe: std::process::ChildStderr, tail: &Mutex<StderrTail>) {
    let mut reader = BufReader::new(pipe);
    let mut line = Vec::new();
    loop {
        line.clear();
        match reader.read_until(b'\n', &mut line) {
            Ok(0) | Err(_) => break,
            Ok(_) => {
                let text = line.strip_suffix(b"\n").unwrap_or(&line);
                let text = text.strip_suffix(b"\r").unwrap_or(text);
                if let Ok(mut t) = tail.lock() {
                    if t.lines.len() == STDERR_LINES {
                        t.lines.pop_front();
                    }
                    t.lines
                        .push_back(String::from_utf8_lossy(text).into_owned());
                }
            }
        }
    }
    if let Ok(mut t) = tail.lock() {
        t.ended = true;
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.kill();
    }
}

/// `status 3` or `signal 11 (SIGSEGV)`.
pub fn describe_exit(status: ExitStatus) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt as _;
        if let Some(signal) = status.signal() {
            let name = crate::proxy::engine::signal_name(signal);
            return format!("signal {signal}{name}");
        }
    }
    match status.code() {
        Some(code) => format!("status {code}"),
        None => "unknown status".to_owned(),
    }
}
