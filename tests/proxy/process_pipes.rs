//! fenguard's pipes as the process suite's GUI holds them: stdin written by the GUI or by a
//! thread of its own, stdout read only while a step asks for lines (a GUI that stops reading
//! stalls fenguard's output for real, which a collecting thread would hide), stderr collected
//! for the failure messages.
#![cfg(target_os = "linux")]

use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::process::{Child, ChildStdin, ChildStdout, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::thread::JoinHandle;

use crate::common::{SEARCH_PATIENCE, wait_until};
use crate::process_table::Line;

/// A running fenguard and the GUI's ends of its pipes.
pub struct Pipes {
    pub child: Child,
    stdin: Option<ChildStdin>,
    reader: Reader,
    stderr: Arc<Mutex<Vec<u8>>>,
    writer: Option<Writer>,
}

impl Pipes {
    /// Starts `command` with piped stdio.
    pub fn spawn(command: &mut Command) -> Pipes {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start fenguard");
        let reader = Reader::spawn(child.stdout.take().unwrap());
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&stderr);
        let mut pipe = child.stderr.take().unwrap();
        std::thread::spawn(move || {
            let mut chunk = [0u8; 65536];
            while let Ok(n @ 1..) = pipe.read(&mut chunk) {
                sink.lock().unwrap().extend_from_slice(&chunk[..n]);
            }
        });
        Pipes {
            stdin: child.stdin.take(),
            child,
            reader,
            stderr,
            writer: None,
        }
    }

    /// fenguard's process id.
    pub fn pid(&self) -> i32 {
        i32::try_from(self.child.id()).unwrap()
    }

    /// Everything fenguard wrote to stderr so far, lossily as text.
    pub fn stderr(&self) -> String {
        String::from_utf8_lossy(&self.stderr.lock().unwrap()).into_owned()
    }

    /// Writes `text` and a `\n` in one write.
    /// The GUI closes its input (fenguard reads the end of its input).
    pub fn close(&mut self) {
        self.stdin = None;
    }

    pub fn send(&mut self, text: &str) {
        let stdin = self
            .stdin
            .as_mut()
            .expect("stdin is the GUI's (not a writer's)");
        stdin
            .write_all(format!("{text}\n").as_bytes())
            .and_then(|()| stdin.flush())
            .expect("write to fenguard");
    }

    /// Reads the lines up to the `times`-th that matches `line` (the matching one last);
    /// panics with what came when the output ends first or [`SEARCH_PATIENCE`] passes.
    pub fn read(&self, line: Line, times: usize) -> Vec<String> {
        self.reader
            .ask
            .send((line, times))
            .expect("the reader runs");
        let came = self.reader.done.recv_timeout(SEARCH_PATIENCE);
        let lines = std::mem::take(&mut *self.reader.lines.lock().unwrap());
        let why = match came {
            Ok(true) => return lines,
            Ok(false) => "output ended",
            Err(_) => "timed out",
        };
        panic!(
            "{why} before {line:?} x{times}; lines read: {lines:#?}; stderr: {}",
            self.stderr()
        )
    }

    /// Hands stdin to a thread that writes each text its number of times, in order, until done
    /// or the pipe breaks.
    pub fn write_from_thread(&mut self, parts: &'static [(&'static str, usize)]) {
        let mut stdin = self.stdin.take().expect("one writer at a time");
        let wrote_all = Arc::new(AtomicBool::new(false));
        let wrote = Arc::clone(&wrote_all);
        let thread = std::thread::spawn(move || {
            let ok = parts
                .iter()
                .all(|(text, times)| stdin.write_all(text.repeat(*times).as_bytes()).is_ok());
            wrote.store(ok, Ordering::SeqCst);
            stdin
        });
        self.writer = Some(Writer { thread, wrote_all });
    }

    /// Whether the writer wrote everything yet.
    pub fn writer_wrote_all(&self) -> bool {
        let writer = self.writer.as_ref().expect("a writer");
        writer.wrote_all.load(Ordering::SeqCst)
    }

    /// Waits for the writer to end and takes stdin back; whether it wrote everything.
    pub fn join_writer(&mut self) -> bool {
        let writer = self.writer.take().expect("a writer");
        self.stdin = Some(writer.thread.join().expect("the writer ends"));
        writer.wrote_all.load(Ordering::SeqCst)
    }

    /// Waits up to `common::PATIENCE` for fenguard to exit; `None` (it is killed) when it does
    /// not.
    pub fn wait_exit(&mut self) -> Option<ExitStatus> {
        let status = wait_until(|| self.child.try_wait().expect("try_wait"));
        if status.is_none() {
            let _ = self.child.kill();
        }
        status
    }
}

impl Drop for Pipes {
    /// Ends the conversation like a GUI (end of input), gives fenguard `common::PATIENCE` to
    /// exit, then kills it; joins the writer, whose pipe is then closed.
    fn drop(&mut self) {
        self.stdin = None;
        let _ = self.wait_exit();
        let _ = self.child.wait();
        if let Some(writer) = self.writer.take() {
            let _ = writer.thread.join();
        }
    }
}

/// fenguard's stdout, read by a thread of its own only while [`Pipes::read`] asks.
struct Reader {
    ask: mpsc::Sender<(Line, usize)>,
    /// `true`: the asked line came; `false`: the output ended first.
    done: mpsc::Receiver<bool>,
    /// The lines of the current read.
    lines: Arc<Mutex<Vec<String>>>,
}

impl Reader {
    fn spawn(stdout: ChildStdout) -> Reader {
        let (ask, asked) = mpsc::channel::<(Line, usize)>();
        let (answer, done) = mpsc::channel();
        let lines = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&lines);
        std::thread::spawn(move || {
            let mut stdout = BufReader::new(stdout);
            let mut raw = Vec::new();
            for (line, times) in asked {
                let mut found = 0;
                let came = loop {
                    raw.clear();
                    if !matches!(stdout.read_until(b'\n', &mut raw), Ok(1..)) {
                        break false;
                    }
                    // A line cut off by the end of the output is kept, never matched.
                    let complete = raw.ends_with(b"\n");
                    let text = String::from_utf8_lossy(raw.strip_suffix(b"\n").unwrap_or(&raw));
                    found += usize::from(complete && line.matches(&text));
                    sink.lock().unwrap().push(text.into_owned());
                    if !complete || found == times {
                        break complete;
                    }
                };
                if answer.send(came).is_err() || !came {
                    return;
                }
            }
        });
        Reader { ask, done, lines }
    }
}

/// A GUI writing from a thread of its own; it gives stdin back.
struct Writer {
    thread: JoinHandle<ChildStdin>,
    wrote_all: Arc<AtomicBool>,
}
