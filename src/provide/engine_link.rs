//! A worker's engine: a guarded session ([`Relay`], the proxy's own) on a thread of its own,
//! whose GUI side is a pair of pipes the worker writes UCI lines into and reads the session's
//! answers from. The engine is fenguard's child on this thread (on Linux its parent-death
//! signal is tied to the thread that started it), restarted by the session as in the proxy.

use std::io::{BufRead as _, BufReader, PipeReader, PipeWriter, Write as _};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::Duration;

use tracing::Instrument as _;
use tracing_appender::non_blocking::NonBlocking;

use crate::poslog::{Label, PositionLog};
use crate::proxy::relay::Relay;
use crate::proxy::spec::SessionSpec;
use crate::session::Guard;
use crate::uci::engine_line::EngineLine;

/// What the engine said of itself in its `uci` reply.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EngineInfo {
    /// `id name`.
    pub name: String,
    /// The values of its `UCI_Variant` combo (Fairy-Stockfish's names); empty without one.
    pub variants: Vec<String>,
    /// Whether it has `UCI_Chess960` (lichess's moves are king-takes-rook).
    pub chess960: bool,
    /// Whether it has `UCI_AnalyseMode`.
    pub analyse_mode: bool,
}

/// Where the session's lines are written (shared: the poll thread sends `stop`); `None` once
/// closed (the session then sees the GUI's end of input).
pub type Input = Arc<Mutex<Option<PipeWriter>>>;

/// A running engine behind its session.
#[derive(Debug)]
pub struct EngineLink {
    input: Input,
    output: Receiver<String>,
    relay: Option<JoinHandle<()>>,
    /// `isready` lines sent whose `readyok` has not come yet (one left behind by an abandoned
    /// job is read off before the next job's own).
    owed_readyok: usize,
    /// From the handshake.
    pub info: EngineInfo,
}

/// The engine's end as the worker sees it: its session's output ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the engine is gone (its session ended)")]
pub struct Gone;

/// How one worker's engines are made.
#[derive(Debug, Clone)]
pub struct EngineMaker {
    /// The engine command, the configuration and the log directory.
    pub spec: Arc<SessionSpec>,
    /// The option guard's caps (threads, hash MiB) and allow list: serve's.
    pub guard: Guard,
    /// Where the engine's stderr goes.
    pub stderr: NonBlocking,
    /// This worker's positions log file name (`positions-<sid>.jsonl`), `None` for none.
    pub positions: Option<std::path::PathBuf>,
    /// The worker's session id (the records' `session` between jobs).
    pub sid: String,
    /// The job the records belong to (their `session` during a job).
    pub label: Label,
}

impl EngineMaker {
    /// Starts the engine and its session on a new thread, sends `uci` and reads the reply
    /// up to `uciok`; then `UCI_AnalyseMode` and `UCI_Chess960` are set where the engine has
    /// them (as lichess's example provider does).
    ///
    /// # Errors
    /// A message when the engine does not start or ends before its `uciok`.
    pub fn start(&self) -> Result<EngineLink, String> {
        let (gui_in, input) = std::io::pipe().map_err(|e| format!("no pipe: {e}"))?;
        let (output, gui_out) = std::io::pipe().map_err(|e| format!("no pipe: {e}"))?;
        let (started, is_started) = std::sync::mpsc::channel();
        let maker = self.clone();
        let relay = std::thread::Builder::new()
            .name(format!("engine {}", self.sid))
            .spawn(move || maker.run_relay(gui_in, gui_out, &started))
            .map_err(|e| format!("no thread: {e}"))?;
        is_started
            .recv()
            .unwrap_or_else(|_| Err("the engine's thread ended".to_owned()))?;
        let mut link = EngineLink {
            input: Arc::new(Mutex::new(Some(input))),
            output: read_lines(output, &self.sid)?,
            relay: Some(relay),
            owed_readyok: 0,
            info: EngineInfo::default(),
        };
        link.info = link.handshake().map_err(|e| e.to_string())?;
        if link.info.analyse_mode {
            link.send("setoption name UCI_AnalyseMode value true")
                .map_err(|e| e.to_string())?;
        }
        if link.info.chess960 {
            link.send("setoption name UCI_Chess960 value true")
                .map_err(|e| e.to_string())?;
        }
        Ok(link)
    }

    /// The relay thread: runs the session until the engine is gone for good or the worker
    /// closes its input.
    fn run_relay(
        &self,
        gui_in: PipeReader,
        gui_out: PipeWriter,
        started: &std::sync::mpsc::Sender<Result<(), String>>,
    ) {
        let runtime = match tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
        {
            Ok(runtime) => runtime,
            Err(e) => {
                let _ = started.send(Err(format!("no async runtime: {e}")));
                return;
            }
        };
        let _entered = runtime.enter();
        let spec = &self.spec;
        let grace = Duration::from_millis(spec.config.engine.quit_grace_ms);
        let session = spec.session(Some(self.guard.clone()));
        let relay = match Relay::start(&spec.command, session, self.stderr.clone(), grace) {
            Ok(relay) => relay,
            Err(e) => {
                let _ = started.send(Err(format!("the engine did not start: {e}")));
                return;
            }
        };
        let positions = self.positions.as_ref().and_then(|path| {
            PositionLog::open_rotating(path, self.sid.clone(), spec.rotation())
                .inspect_err(|e| tracing::warn!("cannot open {}: {e}", path.display()))
                .ok()
                .map(|log| log.with_label(Arc::clone(&self.label)))
        });
        tracing::info!("worker {}: engine pid {:?}", self.sid, relay.engine_pid());
        let _ = started.send(Ok(()));
        // The session's GUI reader thread outlives the relay (it holds the output until the
        // worker closes the input): close the output here, so the worker sees the end.
        let out = Arc::new(Mutex::new(Some(gui_out)));
        let ended = runtime.block_on(
            relay
                .with_positions(positions)
                .run(gui_in, Closable(Arc::clone(&out)))
                .instrument(tracing::info_span!("worker", id = %self.sid)),
        );
        tracing::info!(
            "worker {}: engine session ended (status {}, {} positions judged, {} rejected)",
            self.sid,
            ended.status,
            ended.judged,
            ended.rejected
        );
        out.lock().unwrap_or_else(PoisonError::into_inner).take();
        runtime.shutdown_timeout(Duration::from_millis(100));
    }
}

/// The session's GUI output, closed by the relay thread when the session ends.
struct Closable(Arc<Mutex<Option<PipeWriter>>>);

impl std::io::Write for Closable {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match self
            .0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .as_mut()
        {
            Some(pipe) => pipe.write(buf),
            None => Err(std::io::ErrorKind::BrokenPipe.into()),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match self
            .0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .as_mut()
        {
            Some(pipe) => pipe.flush(),
            None => Ok(()),
        }
    }
}

impl EngineLink {
    /// The shared input (to send `stop` from another thread).
    pub fn input(&self) -> Input {
        Arc::clone(&self.input)
    }

    /// Sends one line to the session.
    ///
    /// # Errors
    /// [`Gone`] when the session no longer reads.
    pub fn send(&mut self, line: &str) -> Result<(), Gone> {
        send(&self.input, line)?;
        if line == "isready" {
            self.owed_readyok += 1;
        }
        Ok(())
    }

    /// How many `isready` lines sent through [`send`](Self::send) still wait for their
    /// `readyok` (the session answers each one, the engine's or its own after a restart).
    pub fn owed_readyok(&self) -> usize {
        self.owed_readyok
    }

    /// The next line the session sends the GUI, without its terminator.
    ///
    /// # Errors
    /// [`Gone`] at the end of the session's output.
    pub fn line(&mut self) -> Result<String, Gone> {
        let line = self.output.recv().map_err(|_| Gone)?;
        self.count(&line);
        Ok(line)
    }

    /// [`line`](Self::line) waiting at most `wait`: `Ok(None)` when nothing came.
    ///
    /// # Errors
    /// [`Gone`] at the end of the session's output.
    pub fn line_within(&mut self, wait: Duration) -> Result<Option<String>, Gone> {
        match self.output.recv_timeout(wait) {
            Ok(line) => {
                self.count(&line);
                Ok(Some(line))
            }
            Err(RecvTimeoutError::Timeout) => Ok(None),
            Err(RecvTimeoutError::Disconnected) => Err(Gone),
        }
    }

    fn count(&mut self, line: &str) {
        if line == "readyok" {
            self.owed_readyok = self.owed_readyok.saturating_sub(1);
        }
    }

    fn handshake(&mut self) -> Result<EngineInfo, Gone> {
        self.send("uci")?;
        let mut info = EngineInfo::default();
        loop {
            let line = self.line()?;
            match EngineLine::parse(line.as_bytes()) {
                EngineLine::UciOk => return Ok(info),
                EngineLine::Id(b"name") => {
                    info.name = line
                        .split_once("name")
                        .map_or("", |(_, name)| name)
                        .trim()
                        .to_owned();
                }
                EngineLine::Option(option) if option.name_is("UCI_Variant") => {
                    let mut words = line.split_ascii_whitespace();
                    while let Some(word) = words.next() {
                        if word == "var"
                            && let Some(var) = words.next()
                        {
                            info.variants.push(var.to_owned());
                        }
                    }
                }
                EngineLine::Option(option) if option.name_is("UCI_Chess960") => {
                    info.chess960 = true;
                }
                EngineLine::Option(option) if option.name_is("UCI_AnalyseMode") => {
                    info.analyse_mode = true;
                }
                _ => {}
            }
        }
    }

    /// `quit`, then waits for the session to end (the relay kills an engine that outstays
    /// its quit grace).
    pub fn quit(mut self) {
        let _ = self.send("quit");
        self.close();
    }

    /// Closes the session's input (the GUI's end of input: the session ends, its engine
    /// quits or is killed after the quit grace), reads what it still sends until its end, and
    /// waits for its thread.
    fn close(&mut self) {
        self.input
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        if let Some(relay) = self.relay.take() {
            while self.line().is_ok() {}
            let _ = relay.join();
        }
    }
}

impl Drop for EngineLink {
    fn drop(&mut self) {
        self.close();
    }
}

/// The session's output as lines (terminators dropped, invalid UTF-8 replaced), read on a
/// thread of its own so that a job can wait for a line with a timeout.
fn read_lines(output: PipeReader, sid: &str) -> Result<Receiver<String>, String> {
    let (lines, receiver) = std::sync::mpsc::channel();
    std::thread::Builder::new()
        .name(format!("engine output {sid}"))
        .spawn(move || {
            let mut output = BufReader::new(output);
            let mut line = Vec::new();
            loop {
                line.clear();
                match output.read_until(b'\n', &mut line) {
                    Ok(0) | Err(_) => return,
                    Ok(_) => {}
                }
                while line.last().is_some_and(|b| matches!(b, b'\n' | b'\r')) {
                    line.pop();
                }
                if lines
                    .send(String::from_utf8_lossy(&line).into_owned())
                    .is_err()
                {
                    return;
                }
            }
        })
        .map_err(|e| format!("no thread: {e}"))?;
    Ok(receiver)
}

/// Sends one line on `input`.
///
/// # Errors
/// [`Gone`] when the session no longer reads.
pub fn send(input: &Input, line: &str) -> Result<(), Gone> {
    let mut input = input.lock().unwrap_or_else(PoisonError::into_inner);
    let Some(pipe) = input.as_mut() else {
        return Err(Gone);
    };
    pipe.write_all(format!("{line}\n").as_bytes())
        .map_err(|_| Gone)
}
