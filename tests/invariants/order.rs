//! Reply order (issue 9, SPEC 6 "Order"): a [`Session`] in front of a model engine that
//! answers its input in order (`uci` -> `uciok`, `isready` -> `readyok`, `go` -> `bestmove`,
//! `go perft` -> node counts), driven by random interleavings of GUI commands, engine steps,
//! engine crashes and restarts. Shared by `tests/props_session.rs` and the `session_order`
//! fuzz target (included with `#[path]`).
//!
//! Property: every reply the GUI asked for (`uciok` per `uci`, `readyok` per `isready`,
//! `bestmove` per `go` but `go perft`) reaches it once, in the order asked, whoever answers it
//! (the engine, or fenguard after a rejected position or a crash). One relaxation, as in UCI:
//! a `readyok` may come before the `bestmove` of an earlier `go` (engines answer `isready`
//! while they search). fenguard's `rejected position` notice comes only after every reply
//! asked before that `position`. Once the engine has answered all its input, nothing is owed.

use std::collections::VecDeque;

use bytes::Bytes;
use std::time::Instant;

use fenguard::session::Input as SessionInput;
use fenguard::session::{Action, EngineExit, RestartPolicy, Session, Settings, first_token};

/// The GUI commands the driver picks from.
pub const GUI: &[&str] = &[
    "uci",
    "isready",
    "go depth 1",
    "go perft 1",
    "position startpos",
    "position fen 4k3/8/8/8/8/8/8/8 w - - 0 1",
    "position fen 4rkr1/4p1p1/8/8/8/8/8/5K1R w K - 0 1",
    "setoption name Hash value 1",
    "setoption name UCI_Chess960 value true",
    "setoption name fenguard Bogus value 1",
    "setoption name UCI_Variant value crazyhouse",
    "setoption name UCI_Variant value chess",
    "ucinewgame",
    "stop",
];

/// One event of an interleaving.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    /// The GUI sends `GUI[i]`.
    Gui(usize),
    /// The engine answers the next line of its input.
    EngineStep,
    /// The engine crashes (exit status 1).
    Crash,
    /// The shell starts the engine fenguard asked for.
    Start,
}

impl Event {
    /// The event a fuzz byte names.
    pub fn from_byte(b: u8) -> Event {
        match b % 32 {
            0 => Event::Crash,
            1..=3 => Event::Start,
            4..=15 => Event::EngineStep,
            n => Event::Gui(usize::from(n - 16) % GUI.len()),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Uciok,
    Readyok,
    Bestmove,
}

/// The session, the model engine and what the GUI asked and received.
pub struct OrderDriver {
    session: Session,
    /// Lines the engine has read and not answered yet.
    engine_input: VecDeque<Bytes>,
    alive: bool,
    restart_asked: bool,
    /// The replies asked, in order, and whether each has arrived.
    asked: Vec<(Kind, bool)>,
    /// For each `position` that may be rejected, not yet matched to a notice: how many replies
    /// were asked before it. (Under an unchecked variant it is forwarded and has no notice: a
    /// notice is checked against the oldest entry, a bound no later than its own.)
    rejections: VecDeque<usize>,
    /// Every line written to the GUI.
    pub gui: Vec<Bytes>,
}

fn answer(line: &[u8]) -> Vec<&'static str> {
    match first_token(line) {
        b"uci" => vec![
            "id name Model",
            "option name UCI_Chess960 type check default false",
            "option name UCI_Variant type combo default chess var chess var crazyhouse",
            "uciok",
        ],
        b"isready" => vec!["readyok"],
        b"go" if line.windows(5).any(|w| w == b"perft") => vec!["a2a3: 1", "Nodes searched: 20"],
        b"go" => vec!["bestmove e2e4"],
        _ => Vec::new(),
    }
}

impl OrderDriver {
    /// A driver around a session with restarts on (no limit).
    pub fn new() -> OrderDriver {
        let session =
            Session::with_settings(false, Settings::default()).with_restart(RestartPolicy {
                enabled: true,
                max_per_minute: u32::MAX,
                ..RestartPolicy::default()
            });
        OrderDriver {
            session,
            engine_input: VecDeque::new(),
            alive: true,
            restart_asked: false,
            asked: Vec::new(),
            rejections: VecDeque::new(),
            gui: Vec::new(),
        }
    }

    /// Runs the events named by `data`, then lets the engine answer everything and checks
    /// that nothing is still owed.
    pub fn run(data: &[u8]) -> OrderDriver {
        let mut driver = OrderDriver::new();
        for &b in data {
            driver.event(Event::from_byte(b));
        }
        driver.drain();
        driver
    }

    /// Feeds one event.
    pub fn event(&mut self, event: Event) {
        match event {
            Event::Gui(i) => {
                let line = GUI[i % GUI.len()];
                let word = first_token(line.as_bytes());
                match word {
                    b"uci" => self.asked.push((Kind::Uciok, false)),
                    b"isready" => self.asked.push((Kind::Readyok, false)),
                    b"go" if !line.contains("perft") => self.asked.push((Kind::Bestmove, false)),
                    _ => {}
                }
                if line.starts_with("position fen ") {
                    // Maybe rejected: no kings, or Chess960 the engine did not offer.
                    self.rejections.push_back(self.asked.len());
                }
                let out = self.session.handle(
                    SessionInput::GuiLine(Bytes::from(format!("{line}\n"))),
                    Instant::now(),
                );
                self.apply(out);
            }
            Event::EngineStep => {
                if !self.alive {
                    return;
                }
                if let Some(line) = self.engine_input.pop_front() {
                    for reply in answer(&line) {
                        let out = self.session.handle(
                            SessionInput::EngineLine(Bytes::from(format!("{reply}\n"))),
                            Instant::now(),
                        );
                        self.apply(out);
                    }
                }
            }
            Event::Crash => {
                if !self.alive {
                    return;
                }
                self.alive = false;
                self.engine_input.clear();
                let exit = EngineExit {
                    code: Some(1),
                    ..EngineExit::default()
                };
                let out = self
                    .session
                    .handle(SessionInput::EngineExited(exit), Instant::now());
                self.apply(out);
            }
            Event::Start => {
                if !std::mem::take(&mut self.restart_asked) {
                    return;
                }
                self.alive = true;
                let out = self.session.handle(
                    SessionInput::EngineStarted {
                        command: "model".into(),
                        args: Vec::new(),
                        pid: None,
                    },
                    Instant::now(),
                );
                self.apply(out);
            }
        }
    }

    /// Lets the engine answer all its input (starting it when asked) and checks that every
    /// reply asked has arrived.
    pub fn drain(&mut self) {
        for _ in 0..10_000 {
            if self.restart_asked {
                self.event(Event::Start);
            } else if self.alive && !self.engine_input.is_empty() {
                self.event(Event::EngineStep);
            } else {
                break;
            }
        }
        let missing: Vec<usize> = (0..self.asked.len())
            .filter(|&i| !self.asked[i].1)
            .collect();
        assert!(
            missing.is_empty(),
            "replies never received: {missing:?} of {:?}; GUI got {:?}",
            self.asked,
            self.gui
        );
    }

    fn apply(&mut self, out: Vec<Action>) {
        for action in out {
            match action {
                Action::ToEngine(line) => {
                    assert!(self.alive, "line for an engine that is gone: {line:?}");
                    self.engine_input.push_back(line);
                }
                Action::ToGui(line) => self.gui_receives(line),
                Action::RestartEngine { .. } => self.restart_asked = true,
                Action::Finish(_) | Action::KillEngine => {
                    panic!("unexpected {action:?}")
                }
                _ => {}
            }
        }
    }

    fn gui_receives(&mut self, line: Bytes) {
        let kind = match first_token(&line) {
            b"uciok" => Some(Kind::Uciok),
            b"readyok" => Some(Kind::Readyok),
            b"bestmove" => Some(Kind::Bestmove),
            _ => None,
        };
        if line.starts_with(b"info string fenguard: rejected position: ") {
            // One notice per rejection here (the positions have one error each).
            let before = self.rejections.pop_front().expect("an asked rejection");
            let open: Vec<usize> = (0..before).filter(|&i| !self.asked[i].1).collect();
            assert!(
                open.is_empty(),
                "rejection notice overtook replies {open:?}: {:?}",
                self.gui
            );
        }
        self.gui.push(line.clone());
        let Some(kind) = kind else {
            return;
        };
        let Some(j) = self.asked.iter().position(|&(k, done)| k == kind && !done) else {
            panic!("{line:?} was not asked for (or came twice): {:?}", self.gui);
        };
        for i in 0..j {
            let (earlier, done) = self.asked[i];
            let allowed = kind == Kind::Readyok && earlier == Kind::Bestmove;
            assert!(
                done || allowed,
                "{line:?} overtook the {earlier:?} asked before it: {:?}",
                self.gui
            );
        }
        self.asked[j].1 = true;
    }
}

impl Default for OrderDriver {
    fn default() -> Self {
        OrderDriver::new()
    }
}
