//! Surviving the engine: its exit reported to the GUI, a hung engine detected, and a new engine
//! brought back to the state the GUI built (SPEC section 5, `engine.restart`).
//!
//! What the session remembers for a restart: the GUI's `setoption` lines as forwarded (not
//! fenguard's own; one per option name, the last value, in the order they were last set, plus
//! the `UCI_Chess960` line fenguard sent itself in detect mode), whether `ucinewgame` was sent,
//! and the last valid or repaired `position` as sent to the engine.
//!
//! When the engine ends on its own (or was killed because it hung), the GUI gets at once:
//! `info string fenguard: engine exited (status N)` (or `(signal N)`), `bestmove 0000` if a
//! search was open, and one `readyok` per `isready` not yet answered. Then, while restarts
//! remain (at most `engine.max_restarts` in any 60 s), [`Action::RestartEngine`] asks the shell
//! for a new engine after a backoff (100 ms, doubling per restart in the last minute, at most
//! 2 s). Once it runs, the session replays `uci` (its output swallowed, unless the GUI still
//! waits for its own `uciok`; then only the handshake lines it has not seen: `handshake.rs`),
//! the `setoption` lines (one the engine may have died of followed by its own `isready`, and
//! dropped when the engine dies again before answering it: `option_blame.rs`), `ucinewgame`,
//! the position and `isready` (swallowing until `readyok`), and only then releases the GUI
//! lines that arrived meanwhile.
//! Too many restarts: `info string fenguard: engine keeps exiting; giving up` and
//! [`Action::Finish`] with a non-zero status.
//!
//! A hung engine (`hang.rs`) is killed; the exit that follows is handled as above.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use bytes::Bytes;
use tracing::Level;

use super::record::{Event, ExitReason};
use super::{Action, EXIT_ENGINE_DIED, EngineExit, Session};
use crate::config::EngineConfig;

/// The restart rules (`engine.restart`, `max_restarts`, `startup_timeout_ms`,
/// `ping_timeout_ms` of SPEC section 5).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RestartPolicy {
    /// Restart an engine that exited on its own or hung.
    pub enabled: bool,
    /// Restarts allowed in any 60 s; one more and fenguard gives up.
    pub max_per_minute: u32,
    /// Longest wait for `uciok` after `uci`.
    pub startup_timeout: Duration,
    /// Longest wait for `readyok` after `isready`.
    pub ping_timeout: Duration,
}

impl Default for RestartPolicy {
    /// Restarts off (a session built without a configuration exits with its engine), the
    /// configuration's default timeouts.
    fn default() -> Self {
        RestartPolicy {
            enabled: false,
            max_per_minute: 5,
            startup_timeout: Duration::from_secs(30),
            ping_timeout: Duration::from_secs(10),
        }
    }
}

impl From<&EngineConfig> for RestartPolicy {
    fn from(config: &EngineConfig) -> Self {
        RestartPolicy {
            enabled: config.restart,
            max_per_minute: config.max_restarts,
            startup_timeout: Duration::from_millis(config.startup_timeout_ms),
            ping_timeout: Duration::from_millis(config.ping_timeout_ms),
        }
    }
}

/// First wait before a restart; doubled for each restart in the last minute.
const FIRST_BACKOFF: Duration = Duration::from_millis(100);
/// Longest wait before a restart.
const MAX_BACKOFF: Duration = Duration::from_secs(2);
/// The rolling window of the restart limit.
const WINDOW: Duration = Duration::from_secs(60);
/// GUI bytes held during a restart before the shell stops reading the GUI.
const QUEUE_CAP: usize = 1 << 20;
/// Most `setoption` lines remembered (distinct names).
const MAX_OPTIONS: usize = 512;

/// Where the engine is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Phase {
    /// Running and in sync with the GUI: lines pass.
    Running,
    /// Gone; the shell starts a new one after the backoff.
    Waiting,
    /// New engine: `uci` sent, waiting for `uciok`.
    Handshake,
    /// Replay sent, waiting for the `readyok` of fenguard's `isready`.
    Barrier,
}

/// A GUI input held during a restart.
#[derive(Debug)]
pub(super) enum Held {
    Line(Bytes, Option<Instant>),
    Piece(Bytes, bool),
}

/// The restart state of a session.
#[derive(Debug)]
pub(super) struct Restart {
    pub(super) policy: RestartPolicy,
    pub(super) phase: Phase,
    /// `(lower-case option name, line as forwarded)`, in the order last set.
    pub(super) options: Vec<(Vec<u8>, Bytes)>,
    pub(super) ucinewgame: bool,
    /// The last valid or repaired `position` as sent.
    pub(super) position: Option<Bytes>,
    /// GUI `setoption` lines the engine may have died of (`option_blame.rs`).
    pub(super) suspects: super::option_blame::Suspects,
    /// GUI `setoption` lines the engine may have died of during a search
    /// (`search_blame.rs`).
    pub(super) search_suspects: super::search_blame::SearchSuspects,
    /// For each `isready` of the replay, the suspect it tests (`None`: the final one).
    pub(super) barrier: VecDeque<Option<Vec<u8>>>,
    /// The last `position` sent was invalid (`on_invalid = "forward"`): not replayed.
    position_invalid: bool,
    /// The GUI sent `uci` and has not had its `uciok`.
    pub(super) gui_awaits_uciok: bool,
    /// The handshake lines the GUI has seen since its `uci`.
    pub(super) shown: super::handshake::Shown,
    pub(super) uci_deadline: Option<Instant>,
    /// GUI `isready` lines the engine has not answered.
    pub(super) pings: u32,
    pub(super) ping_deadline: Option<Instant>,
    /// When the engine's output was last read (`None`: not yet, or the shell gave no time).
    pub(super) last_output: Option<Instant>,
    /// The GUI sent `stop` during a search: the engine's `bestmove` is due by then.
    pub(super) stop_deadline: Option<Instant>,
    /// When a read last found a backlog in the engine's output pipe (the shell's
    /// [`Session::on_engine_backlog_at`]): the engine is blocked writing, so behind, not hung.
    pub(super) last_backlog: Option<Instant>,
    /// When a passed deadline was first put off for output that kept arriving without a
    /// backlog (cleared by `uciok`, `readyok`, `bestmove`, a backlog, an exit or a stalled
    /// GUI): such put-offs end after one more timeout, so an engine that keeps printing but
    /// never answers is still caught.
    pub(super) overdue_since: Option<Instant>,
    /// A `setoption` or `ucinewgame` went to the engine since its last `readyok`: it may be
    /// allocating a hash table or loading a network, so `readyok` / `bestmove` get
    /// `startup_timeout` rather than `ping_timeout`.
    pub(super) slow_pending: bool,
    /// The engine got the start of an over-long GUI line but not its end yet.
    pub(super) gui_piece_open: bool,
    /// fenguard killed the engine because it hung.
    pub(super) hung: bool,
    /// Restarts so far.
    pub(super) count: u32,
    /// When recent restarts happened (`None`: the shell gave no time).
    recent: VecDeque<Option<Instant>>,
    pub(super) held: VecDeque<Held>,
    pub(super) held_bytes: usize,
}

impl Restart {
    pub(super) fn new(policy: RestartPolicy) -> Restart {
        Restart {
            policy,
            phase: Phase::Running,
            options: Vec::new(),
            ucinewgame: false,
            position: None,
            suspects: super::option_blame::Suspects::default(),
            search_suspects: super::search_blame::SearchSuspects::default(),
            barrier: VecDeque::new(),
            position_invalid: false,
            gui_awaits_uciok: false,
            shown: super::handshake::Shown::default(),
            uci_deadline: None,
            pings: 0,
            ping_deadline: None,
            last_output: None,
            stop_deadline: None,
            last_backlog: None,
            overdue_since: None,
            slow_pending: false,
            gui_piece_open: false,
            hung: false,
            count: 0,
            recent: VecDeque::new(),
            held: VecDeque::new(),
            held_bytes: 0,
        }
    }

    /// A `setoption` line forwarded to the engine, for option `name`.
    pub(super) fn note_setoption(&mut self, name: &[u8], line: &Bytes) {
        let key = name.to_ascii_lowercase();
        self.options.retain(|(k, _)| *k != key);
        if self.options.len() >= MAX_OPTIONS {
            self.options.remove(0);
        }
        self.options.push((key, line.clone()));
    }

    pub(super) fn note_ucinewgame(&mut self) {
        self.ucinewgame = true;
    }

    /// A `position` was sent: `valid` when its verdict was valid or repaired.
    pub(super) fn note_position(&mut self, sent: &Bytes, valid: bool) {
        self.position_invalid = !valid;
        if valid {
            self.position = Some(sent.clone());
        }
    }
}

impl Session {
    /// Sets the restart rules (a session starts with restarts off).
    pub fn with_restart(mut self, policy: RestartPolicy) -> Session {
        self.restart.policy = policy;
        self
    }

    /// Restarts so far.
    pub fn restarts(&self) -> u32 {
        self.restart.count
    }

    /// So many GUI lines wait for a restarting engine that the shell should stop reading the
    /// GUI for now.
    pub fn gui_paused(&self) -> bool {
        self.restart.held_bytes >= QUEUE_CAP
    }

    /// The engine process was started as `command args` with process id `pid` at `now`; after
    /// an exit this starts the replay (`uci` first).
    pub fn on_engine_start_at(
        &mut self,
        command: String,
        args: Vec<String>,
        pid: Option<u32>,
        now: Option<Instant>,
    ) -> Vec<Action> {
        let mut message = format!("engine started: {command}");
        for arg in &args {
            message.push(' ');
            message.push_str(arg);
        }
        if let Some(pid) = pid {
            message.push_str(&format!(" (pid {pid})"));
        }
        let restart = self.restart.count;
        let mut out = vec![
            Action::Log(Level::INFO, message),
            self.record(Event::EngineStart {
                command,
                args,
                pid,
                restart,
            }),
        ];
        self.restart.hung = false;
        if self.restart.phase == Phase::Waiting {
            self.restart.phase = Phase::Handshake;
            self.forward_to_engine(&mut out, Bytes::from_static(b"uci\n"));
            self.restart.uci_deadline = now.map(|now| now + self.restart.policy.startup_timeout);
        }
        out
    }

    /// The engine process ended, at `now` when the shell knows it: reported to the GUI, then
    /// [`Action::RestartEngine`] or [`Action::Finish`].
    pub fn on_engine_exit_at(&mut self, exit: EngineExit, now: Option<Instant>) -> Vec<Action> {
        if std::mem::take(&mut self.eof_pending) {
            // The GUI's input ended behind lines waiting for `uciok`: nothing more comes, so
            // the session ends as after the end of input (what the lines ask is answered).
            self.quitting = true;
        }
        if std::mem::take(&mut self.restart.gui_piece_open) {
            self.dropping_gui_line = true;
        }
        let reason = if self.restart.hung {
            ExitReason::Hung
        } else if exit.killed {
            ExitReason::Killed
        } else if self.quitting {
            ExitReason::Quit
        } else {
            ExitReason::Unexpected
        };
        let how = match (exit.code, exit.signal) {
            (Some(code), _) => format!("with status {code}"),
            (None, Some(signal)) => format!("by signal {signal}"),
            (None, None) => "with unknown status".to_owned(),
        };
        let failed = matches!(reason, ExitReason::Unexpected | ExitReason::Hung) && !self.quitting;
        let (level, message) = match reason {
            ExitReason::Quit => (Level::INFO, format!("engine exited {how}")),
            ExitReason::Killed => (
                Level::WARN,
                format!("engine killed by fenguard; ended {how}"),
            ),
            ExitReason::Hung => (Level::ERROR, format!("hung engine killed; ended {how}")),
            ExitReason::Unexpected => (Level::ERROR, format!("engine exited on its own {how}")),
        };
        let mut out = self.gui_stream.flush_at_exit();
        out.push(Action::Log(level, message));
        let record = self.record(Event::EngineExit {
            code: exit.code,
            signal: exit.signal,
            reason,
        });
        out.push(record);
        self.restart.suspects.on_exit();
        self.restart.uci_deadline = None;
        self.restart.ping_deadline = None;
        self.restart.stop_deadline = None;
        self.restart.last_backlog = None;
        self.restart.overdue_since = None;
        self.pending_to_restart();
        self.restart.pings = 0;
        if !failed {
            // The engine is gone: what it still owed is answered by fenguard (as an engine
            // that quits mid-search writes its `bestmove`; a GUI that only closed its output
            // still reads), unless fenguard had to kill it after the GUI's `quit`: a bare
            // engine that ignores `quit` answers nothing either.
            if self.quitting && exit.killed {
                self.forget_owed(&mut out, now);
            } else {
                self.owed.engine_gone(false);
                self.release(&mut out, now);
                self.answer_held_lines(&mut out);
            }
            out.push(Action::Finish(if self.quitting || exit.killed {
                0
            } else {
                EXIT_ENGINE_DIED
            }));
            return out;
        }
        let status = match (exit.code, exit.signal) {
            (Some(code), _) => format!("status {code}"),
            (None, Some(signal)) => format!("signal {signal}"),
            (None, None) => "unknown status".to_owned(),
        };
        self.say(&mut out, &format!("engine exited ({status})"));
        self.blame_option(&mut out);
        self.blame_search_options(&mut out);
        // What the engine owed is fenguard's to answer, in order; a `uciok` the GUI waits for
        // comes from the new engine's handshake (or is dropped when there is none).
        self.owed.engine_gone(true);
        self.release(&mut out, now);
        self.schedule_restart(&mut out, now);
        out
    }

    /// [`Action::RestartEngine`] after the backoff, or giving up.
    fn schedule_restart(&mut self, out: &mut Vec<Action>, now: Option<Instant>) {
        let policy = self.restart.policy;
        if !policy.enabled {
            out.push(Action::Log(
                Level::ERROR,
                "fenguard exits (engine.restart = false)".to_owned(),
            ));
            self.give_up(out, now);
            return;
        }
        let recent = &mut self.restart.recent;
        if let Some(now) = now {
            recent.retain(|t| t.is_none_or(|t| now.saturating_duration_since(t) < WINDOW));
        }
        if recent.len() >= policy.max_per_minute as usize {
            let text = "engine keeps exiting; giving up";
            out.push(Action::Log(
                Level::ERROR,
                format!("{text} ({} restarts in the last minute)", recent.len()),
            ));
            self.say(out, text);
            self.give_up(out, now);
            return;
        }
        let exponent = u32::try_from(recent.len()).unwrap_or(u32::MAX).min(5);
        let after = (FIRST_BACKOFF * 2u32.pow(exponent)).min(MAX_BACKOFF);
        recent.push_back(now);
        self.restart.count += 1;
        self.restart.phase = Phase::Waiting;
        if self.restart.position_invalid {
            // The engine must not search a position the GUI did not ask for.
            self.rejected = true;
            self.current = None;
        }
        out.push(Action::Log(
            Level::WARN,
            format!(
                "restarting the engine in {} ms (restart {})",
                after.as_millis(),
                self.restart.count
            ),
        ));
        out.push(Action::RestartEngine { after });
    }

    /// No new engine: everything owed and every held GUI line is answered as far as a GUI
    /// waits for an answer, in order, then fenguard finishes.
    fn give_up(&mut self, out: &mut Vec<Action>, now: Option<Instant>) {
        self.owed.engine_gone(false);
        self.release(out, now);
        self.answer_held_lines(out);
        out.push(Action::Finish(EXIT_ENGINE_DIED));
    }
}
