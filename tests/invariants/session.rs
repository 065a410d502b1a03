//! A driver that feeds a [`Session`] a sequence of GUI and engine events, shaped the way the
//! proxy's line codec delivers them, and checks the session's invariants after each one.
//! Shared by `tests/props_session.rs` and the `session_lines` fuzz target (included with
//! `#[path]`).
//!
//! Invariants: no panic; every line written to either side ends with the input line's
//! terminator or `\n` and holds no other `\n`; nothing is written to the GUI in the middle of
//! an engine line (so the GUI only ever receives whole lines); fenguard's own `info string`
//! lines are valid UTF-8 without control characters; engine events write nothing to the
//! engine; lines fenguard does not intercept are relayed byte for byte (an engine line cut
//! short at the end of its output is not relayed at all); after a rejected
//! `position`, `go` is answered `bestmove 0000` to the GUI and nothing reaches the engine.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use bytes::Bytes;
use fenguard::config::{CastlingOut, Chess960Mode, EnPassantOut, OnInvalid};
use fenguard::session::{Action, EngineExit, Session, Settings, first_token};
use fenguard::uci::{parse_setoption, tokens};

/// One input event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Input<'a> {
    /// A GUI line (terminator included, if any); the last piece of an over-long GUI line
    /// when one is open.
    Gui(&'a [u8]),
    /// An engine line; the last piece of an over-long engine line when one is open.
    Engine(&'a [u8]),
    /// A piece (no `\n`) of an over-long GUI line.
    GuiOverlong(&'a [u8]),
    /// A piece (no `\n`) of an over-long engine line.
    EngineOverlong(&'a [u8]),
    /// The GUI closed its output.
    GuiEof,
    /// The engine exited with this status.
    EngineExit(u8),
}

impl<'a> Input<'a> {
    /// The event a fuzz chunk names by its first byte: `g` GUI line, `e` engine line, `o` / `O`
    /// a piece of an over-long GUI / engine line, `q` GUI end of input, `x` engine exit; any
    /// other byte, by its parity, a GUI or engine line holding the whole chunk.
    pub fn from_chunk(chunk: &'a [u8]) -> Input<'a> {
        let Some((&kind, rest)) = chunk.split_first() else {
            return Input::Gui(chunk);
        };
        match kind {
            b'g' => Input::Gui(rest),
            b'e' => Input::Engine(rest),
            b'o' => Input::GuiOverlong(rest),
            b'O' => Input::EngineOverlong(rest),
            b'q' => Input::GuiEof,
            b'x' => Input::EngineExit(rest.first().copied().unwrap_or(0)),
            k if k % 2 == 0 => Input::Gui(chunk),
            _ => Input::Engine(chunk),
        }
    }
}

/// Settings picked by two bytes: `a` chooses `on_invalid`, `chess960`, `castling` and
/// `en_passant`; `b` turns off `check_moves`, `report_to_gui`, `log.positions` (bits 0-2).
pub fn settings_from(a: u8, b: u8) -> Settings {
    let mut s = Settings::default();
    let p = &mut s.positions;
    p.on_invalid = [OnInvalid::Repair, OnInvalid::Reject, OnInvalid::Forward][usize::from(a % 3)];
    p.chess960 = if a & 4 == 0 {
        Chess960Mode::Gui
    } else {
        Chess960Mode::Detect
    };
    p.castling =
        [CastlingOut::Auto, CastlingOut::Xfen, CastlingOut::Shredder][usize::from((a >> 3) % 3)];
    p.en_passant =
        [EnPassantOut::Legal, EnPassantOut::Xfen, EnPassantOut::Fen][usize::from((a >> 5) % 3)];
    p.check_moves = b & 1 == 0;
    p.report_to_gui = b & 2 == 0;
    s.log_positions = b & 4 == 0;
    s
}

const OWN_INFO: &[u8] = b"info string fenguard: ";
const NULL_MOVE: &[u8] = b"bestmove 0000";

/// The session and a model of what the GUI and the engine have seen.
pub struct Driver {
    /// The session under test.
    pub session: Session,
    now: Instant,
    /// An over-long GUI line is open (its next piece continues it).
    gui_overlong: bool,
    /// The open over-long GUI line is a `position` line: rejected, never sent (issue 5).
    gui_overlong_dropped: bool,
    /// The engine exited while the open over-long GUI line was being forwarded: its rest is
    /// dropped (it would reach a restarted engine as a stray line).
    gui_overlong_cut: bool,
    /// An over-long engine line is open.
    engine_overlong: bool,
    /// The GUI's input stream ends in the middle of a line.
    gui_mid_line: bool,
    /// The last `position` was rejected (nothing was sent to the engine for it).
    rejected: bool,
    /// The searches the GUI is owed a `bestmove` for, oldest first.
    owed: VecDeque<Owed>,
    /// Every `Action` returned, in order.
    pub actions: Vec<Action>,
}

/// A search in the model: the engine's, or fenguard's own `bestmove 0000` (`held`: a `go
/// infinite` / `go ponder` after a rejection, waiting for `stop` / `ponderhit`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Owed {
    Engine,
    Own { held: bool },
}

fn terminator(line: &[u8]) -> &[u8] {
    if line.ends_with(b"\r\n") {
        b"\r\n"
    } else if line.ends_with(b"\n") {
        b"\n"
    } else {
        b""
    }
}

fn to_engine(actions: &[Action]) -> Vec<&Bytes> {
    actions
        .iter()
        .filter_map(|a| match a {
            Action::ToEngine(b) => Some(b),
            _ => None,
        })
        .collect()
}

/// The lines written to the GUI, in order.
pub fn to_gui(actions: &[Action]) -> Vec<&Bytes> {
    actions
        .iter()
        .filter_map(|a| match a {
            Action::ToGui(b) => Some(b),
            _ => None,
        })
        .collect()
}

fn is_null_answer(line: &[u8]) -> bool {
    line.strip_prefix(NULL_MOVE)
        .is_some_and(|t| t == b"\n" || t == b"\r\n")
}

/// A line fenguard wrote itself: valid UTF-8, no control characters but its terminator.
fn assert_clean_own_line(line: &[u8]) {
    let text = std::str::from_utf8(line).unwrap_or_else(|e| panic!("{e}: {line:?}"));
    let body = text.trim_end_matches(['\r', '\n']);
    assert!(
        !body.chars().any(char::is_control),
        "control character in {body:?}"
    );
}

impl Driver {
    /// A driver around a new session with `settings`.
    pub fn new(settings: Settings, transcript: bool) -> Driver {
        Driver {
            session: Session::with_settings(transcript, settings),
            now: Instant::now(),
            gui_overlong: false,
            gui_overlong_dropped: false,
            gui_overlong_cut: false,
            engine_overlong: false,
            gui_mid_line: false,
            rejected: false,
            owed: VecDeque::new(),
            actions: Vec::new(),
        }
    }

    /// Runs a fuzz input: two settings bytes, then chunks separated by `\n`, each a line
    /// (`\n` restored, except on the last chunk) whose first byte picks the event.
    pub fn run(data: &[u8]) -> Driver {
        let (a, b, rest) = match data {
            [a, b, rest @ ..] => (*a, *b, rest),
            _ => (0, 0, &[][..]),
        };
        let mut driver = Driver::new(settings_from(a, b), b & 8 != 0);
        let mut chunks = rest.split(|&c| c == b'\n').peekable();
        let mut line = Vec::new();
        while let Some(chunk) = chunks.next() {
            line.clear();
            line.extend_from_slice(chunk);
            if chunks.peek().is_some() {
                line.push(b'\n');
            }
            let input = match Input::from_chunk(&line) {
                Input::GuiOverlong(p) => Input::GuiOverlong(p.strip_suffix(b"\n").unwrap_or(p)),
                Input::EngineOverlong(p) => {
                    Input::EngineOverlong(p.strip_suffix(b"\n").unwrap_or(p))
                }
                other => other,
            };
            driver.step(input);
        }
        driver
    }

    /// Feeds one event and checks the invariants.
    pub fn step(&mut self, input: Input<'_>) {
        self.now += Duration::from_millis(1);
        let mid_before = self.gui_mid_line;
        let out = match input {
            Input::Gui(line) if self.gui_overlong => {
                self.gui_overlong = false;
                let out = self
                    .session
                    .on_gui_overlong(Bytes::copy_from_slice(line), false);
                let sent: &[&[u8]] = if self.gui_overlong_dropped || self.gui_overlong_cut {
                    &[]
                } else {
                    &[line]
                };
                assert_eq!(to_engine(&out), sent);
                out
            }
            Input::Gui(line) => {
                if line.is_empty() {
                    return; // the codec never yields an empty line
                }
                self.gui_line(line, mid_before)
            }
            Input::Engine(line) if self.engine_overlong => {
                self.engine_overlong = false;
                self.engine_piece(line, false)
            }
            Input::Engine(line) => {
                if line.is_empty() {
                    return;
                }
                self.engine_line(line, mid_before)
            }
            Input::GuiOverlong(piece) => {
                if piece.is_empty() {
                    return;
                }
                let first = !std::mem::replace(&mut self.gui_overlong, true);
                if first {
                    self.gui_overlong_dropped = first_token(piece) == b"position";
                    self.gui_overlong_cut = false;
                }
                let out = self
                    .session
                    .on_gui_overlong(Bytes::copy_from_slice(piece), first);
                if self.gui_overlong_cut {
                    assert!(to_engine(&out).is_empty(), "{out:?}");
                } else if self.gui_overlong_dropped {
                    // Rejected: nothing sent, and `go` is answered until a valid position.
                    assert!(to_engine(&out).is_empty(), "{out:?}");
                    self.rejected = true;
                } else {
                    assert_eq!(to_engine(&out), [piece]);
                    assert!(to_gui(&out).is_empty());
                }
                out
            }
            Input::EngineOverlong(piece) => {
                if piece.is_empty() {
                    return;
                }
                let first = !std::mem::replace(&mut self.engine_overlong, true);
                self.engine_piece(piece, first)
            }
            Input::GuiEof => {
                let out = self.session.on_gui_eof();
                assert!(to_engine(&out).is_empty() && to_gui(&out).is_empty());
                out
            }
            Input::EngineExit(code) => {
                let exit = EngineExit {
                    code: Some(i32::from(code)),
                    ..EngineExit::default()
                };
                let out = self.session.on_engine_exit(exit);
                self.gui_overlong_cut |= self.gui_overlong;
                assert!(matches!(out.last(), Some(Action::Finish(_))), "{out:?}");
                assert!(to_engine(&out).is_empty());
                // Whatever the engine still owed is answered by fenguard now.
                for o in self.owed.iter_mut() {
                    if *o == Owed::Engine {
                        *o = Owed::Own { held: false };
                    }
                }
                self.release();
                out
            }
        };
        let from_engine = matches!(input, Input::Engine(_) | Input::EngineOverlong(_));
        self.check_gui_stream(&out, from_engine);
        self.actions.extend(out);
    }

    /// Nothing reaches the GUI in the middle of a line except the rest of that engine line,
    /// and every line fenguard writes itself is clean.
    fn check_gui_stream(&mut self, out: &[Action], from_engine: bool) {
        for (i, line) in to_gui(out).into_iter().enumerate() {
            let continues = from_engine && i == 0;
            if self.gui_mid_line && !continues {
                assert!(
                    line.starts_with(b"\n"),
                    "{line:?} written inside an engine line"
                );
            }
            if !continues && line.starts_with(OWN_INFO) && !from_engine {
                assert_clean_own_line(line);
            }
            if let Some(last) = line.last() {
                self.gui_mid_line = *last != b'\n';
            }
        }
    }

    fn engine_piece(&mut self, piece: &[u8], first: bool) -> Vec<Action> {
        let out = self
            .session
            .on_engine_overlong(Bytes::copy_from_slice(piece), first);
        assert!(to_engine(&out).is_empty());
        assert_eq!(to_gui(&out).first().map(|b| &b[..]), Some(piece));
        out
    }

    fn engine_line(&mut self, line: &[u8], mid_before: bool) -> Vec<Action> {
        let differ = self.session.chess960().notations_differ();
        let out = self
            .session
            .on_engine_line_at(Bytes::copy_from_slice(line), self.now);
        assert!(
            to_engine(&out).is_empty(),
            "engine line answered to the engine"
        );
        let gui = to_gui(&out);
        // A line without its end is the engine's output cut short: logged, never relayed
        // nor read (what the engine owed is answered at its exit).
        if line.last() != Some(&b'\n') {
            assert!(gui.is_empty(), "engine fragment relayed: {gui:?}");
            return out;
        }
        assert_lines_end(&gui, terminator(line));
        let mut released = 0;
        if first_token(line) == b"bestmove" {
            if let Some(i) = self.owed.iter().position(|o| *o == Owed::Engine) {
                self.owed.remove(i);
            }
            released = self.release();
        }
        let nulls = gui.iter().filter(|l| is_null_answer(l)).count();
        if !mid_before {
            assert!(nulls >= released, "{gui:?}");
        }
        let relay = if mid_before {
            gui.first()
        } else {
            gui.len().checked_sub(1 + released).and_then(|i| gui.get(i))
        };
        let relay = relay.expect("an engine line is relayed");
        let word = first_token(line);
        if differ && (word == b"info" || word == b"bestmove") {
            assert_eq!(tokens(relay).count(), tokens(line).count());
            assert_eq!(terminator(relay), terminator(line));
        } else {
            assert_eq!(&relay[..], line);
        }
        out
    }

    /// Pops the own searches at the front that are not held: the `bestmove 0000` lines the
    /// session must send now, in order, behind any `bestmove` the engine still owes.
    fn release(&mut self) -> usize {
        let mut n = 0;
        while self.owed.front() == Some(&Owed::Own { held: false }) {
            self.owed.pop_front();
            n += 1;
        }
        n
    }

    fn gui_line(&mut self, line: &[u8], mid_before: bool) -> Vec<Action> {
        let settings = self.session.settings().clone();
        let out = self
            .session
            .on_gui_line_at(Bytes::copy_from_slice(line), self.now);
        let (engine, gui) = (to_engine(&out), to_gui(&out));
        let term = terminator(line);
        assert_lines_end(&engine, term);
        assert_lines_end(&gui, term);
        let nulls = gui.iter().filter(|l| is_null_answer(l)).count();
        let unchanged = engine.len() == 1 && engine[0] == line;
        match first_token(line) {
            b"position" => {
                self.rejected = engine.is_empty();
                let p = &settings.positions;
                if p.on_invalid == OnInvalid::Forward {
                    assert!(!self.rejected, "forward mode rejected {line:?}");
                }
                if self.rejected && p.report_to_gui && !mid_before {
                    let told = b"info string fenguard: rejected position: ";
                    assert!(gui.iter().any(|l| l.starts_with(told)), "{gui:?}");
                }
                assert_eq!(nulls, 0);
            }
            b"go" => {
                // A new `go` ends a held search: its `bestmove 0000` is owed first.
                for o in self.owed.iter_mut() {
                    if let Owed::Own { held } = o {
                        *held = false;
                    }
                }
                let mut released = self.release();
                let waits = tokens(line).any(|t| t.text == b"infinite" || t.text == b"ponder");
                if self.rejected {
                    assert!(
                        engine.is_empty(),
                        "go after a rejected position reached the engine"
                    );
                    self.owed.push_back(Owed::Own { held: waits });
                } else if engine.is_empty() {
                    // No listed `searchmoves` move was legal: fenguard answers (at `stop` /
                    // `ponderhit` for `go infinite` / `go ponder`).
                    self.owed.push_back(Owed::Own { held: waits });
                } else {
                    assert_eq!(engine.len(), 1);
                    assert!(tokens(engine[0]).count() <= tokens(line).count());
                    self.owed.push_back(Owed::Engine);
                }
                released += self.release();
                if !mid_before {
                    assert_eq!(nulls, released, "{gui:?}");
                }
            }
            b"stop" | b"ponderhit" if self.owed.contains(&Owed::Own { held: true }) => {
                if let Some(o) = self
                    .owed
                    .iter_mut()
                    .find(|o| **o == Owed::Own { held: true })
                {
                    *o = Owed::Own { held: false };
                }
                assert!(engine.is_empty());
                let released = self.release();
                if !mid_before {
                    assert_eq!(nulls, released);
                }
            }
            b"setoption" => {
                let own = parse_setoption(line).is_some_and(|o| {
                    tokens(o.name)
                        .next()
                        .is_some_and(|t| t.text.eq_ignore_ascii_case(b"fenguard"))
                });
                let chess960 = parse_setoption(line)
                    .is_some_and(|o| o.name_is("UCI_Chess960") && o.check_value().is_some());
                if own {
                    assert!(engine.is_empty());
                } else if chess960 {
                    // Only the check value's spelling may change (`True` -> `true`).
                    assert_eq!(engine.len(), 1);
                    assert!(
                        engine[0].eq_ignore_ascii_case(line),
                        "{line:?} became {engine:?}"
                    );
                } else {
                    assert!(unchanged, "{line:?} became {engine:?}");
                }
            }
            _ => {
                assert!(unchanged, "{line:?} became {engine:?}");
                assert!(gui.is_empty());
            }
        }
        out
    }
}

/// Every line ends with the input's terminator or `\n` and holds no other `\n`.
fn assert_lines_end(lines: &[&Bytes], term: &[u8]) {
    for line in lines {
        let body = line.strip_prefix(b"\n").unwrap_or(line);
        let body = body.strip_suffix(b"\n").unwrap_or(body);
        assert!(!body.contains(&b'\n'), "{line:?} holds a line break");
        assert!(
            line.ends_with(term) || line.ends_with(b"\n"),
            "{line:?} does not end with {term:?} or a line feed"
        );
    }
}
