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
//!
//! The restart's states are [`super::Phase`]'s (`Waiting`, `Handshake`, `Barrier`); the GUI
//! lines that arrive meanwhile wait in the session's one inbox (`inbox.rs`), the deadlines in
//! its timer table (`timers.rs`).

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use bytes::Bytes;
use tracing::Level;

use super::record::{Event, ExitReason};
use super::{Action, EXIT_ENGINE_DIED, EngineExit, Phase, Session};
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
/// Most `setoption` lines remembered (distinct names).
const MAX_OPTIONS: usize = 512;

/// What a restart restores, and the restarts so far (the phase is [`super::Phase`], the
/// deadlines `timers.rs`', the held lines the inbox's).
#[derive(Debug)]
pub(super) struct Restart {
    pub(super) policy: RestartPolicy,
    /// `(lower-case option name, line as forwarded)`, in the order last set.
    pub(super) options: Vec<(Vec<u8>, Bytes)>,
    pub(super) ucinewgame: bool,
    /// The last valid or repaired `position` as sent.
    pub(super) position: Option<Bytes>,
    /// The last `position` sent was invalid (`on_invalid = "forward"`): not replayed.
    position_invalid: bool,
    /// GUI `setoption` lines the engine may have died of (`option_blame.rs`).
    pub(super) suspects: super::option_blame::Suspects,
    /// GUI `setoption` lines the engine may have died of during a search
    /// (`search_blame.rs`).
    pub(super) search_suspects: super::search_blame::SearchSuspects,
    /// fenguard killed the engine because it hung.
    pub(super) hung: bool,
    /// Restarts so far.
    pub(super) count: u32,
    /// When recent restarts happened.
    recent: VecDeque<Instant>,
}

impl Restart {
    pub(super) fn new(policy: RestartPolicy) -> Restart {
        Restart {
            policy,
            options: Vec::new(),
            ucinewgame: false,
            position: None,
            position_invalid: false,
            suspects: super::option_blame::Suspects::default(),
            search_suspects: super::search_blame::SearchSuspects::default(),
            hung: false,
            count: 0,
            recent: VecDeque::new(),
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
        self.timers.startup_timeout = policy.startup_timeout;
        self.timers.ping_timeout = policy.ping_timeout;
        self
    }

    /// Restarts so far.
    pub fn restarts(&self) -> u32 {
        self.restart.count
    }

    /// The engine process was started as `command args` with process id `pid` at `now`; after
    /// an exit this starts the replay (`uci` first).
    pub(super) fn engine_started(
        &mut self,
        command: String,
        args: Vec<String>,
        pid: Option<u32>,
        now: Instant,
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
        if self.quitting {
            // The GUI quit while the engine was away, and the shell's restart timer fired as
            // the quit came: this engine gets `quit` at once, and its exit ends the session.
            self.forward_to_engine(&mut out, Bytes::from_static(b"quit\n"));
            out.push(Action::StartQuitGrace);
            return out;
        }
        if self.phase == Phase::Waiting {
            self.phase = Phase::Handshake;
            self.forward_to_engine(&mut out, Bytes::from_static(b"uci\n"));
            self.timers.on_uci(now);
        }
        out
    }

    /// The engine process ended at `now`: reported to the GUI, then
    /// [`Action::RestartEngine`] or [`Action::Finish`].
    pub(super) fn engine_exited(&mut self, exit: EngineExit, now: Instant) -> Vec<Action> {
        if std::mem::take(&mut self.inbox.eof) {
            // The GUI's input ended behind lines waiting for `uciok`: nothing more comes, so
            // the session ends as after the end of input (what the lines ask is answered).
            self.quitting = true;
        }
        if std::mem::take(&mut self.gui_piece_open) {
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
        self.timers.on_exit();
        if !failed {
            // The engine is gone: what it still owed is answered by fenguard (as an engine
            // that quits mid-search writes its `bestmove`; a GUI that only closed its output
            // still reads), unless fenguard had to kill it after the GUI's `quit`: a bare
            // engine that ignores `quit` answers nothing either.
            if self.quitting && exit.killed {
                self.forget_owed(&mut out, Some(now));
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
    fn schedule_restart(&mut self, out: &mut Vec<Action>, now: Instant) {
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
        recent.retain(|&t| now.saturating_duration_since(t) < WINDOW);
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
        self.phase = Phase::Waiting;
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
    fn give_up(&mut self, out: &mut Vec<Action>, now: Instant) {
        self.owed.engine_gone(false);
        self.release(out, now);
        self.answer_held_lines(out);
        out.push(Action::Finish(EXIT_ENGINE_DIED));
    }
}
