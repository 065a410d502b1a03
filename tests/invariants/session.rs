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
//!
//! Reply order (issue 9): the model keeps the session's rule, one queue of owed replies
//! (`uciok`, `readyok`, searches) in the GUI's order. fenguard's own `bestmove 0000` is written
//! exactly when every reply owed before it is answered (the engine's `bestmove` / `readyok` /
//! `uciok` takes the first owed one of its kind; an engine exit answers all); `go perft` owes
//! nothing. After the GUI's `uci`, until the engine's `uciok`, a `position` or `setoption` and
//! every GUI input after it wait: nothing is written for them until the `uciok`, whose
//! actions then hold theirs, in order, each starting with its `gui>` transcript entry (the
//! driver runs with the transcript on to see where each begins).

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use bytes::Bytes;
use fenguard::config::{CastlingOut, Chess960Mode, EnPassantOut, OnInvalid};
use fenguard::session::Input as SessionInput;
use fenguard::session::{Action, Direction, EngineExit, Rules, Session, Settings, first_token};
use fenguard::uci::{UciCommand, canonical_line, parse_setoption, tokens};

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

/// A GUI input as the shell hands it to the session: a line, or a piece of an over-long line
/// (`first`: its first piece; `last`: the piece that ends it).
#[derive(Debug, Clone, PartialEq, Eq)]
enum Call {
    Line(Vec<u8>),
    Piece {
        bytes: Vec<u8>,
        first: bool,
        last: bool,
    },
}

/// The session and a model of what the GUI and the engine have seen.
pub struct Driver {
    /// The session under test.
    pub session: Session,
    now: Instant,
    /// The GUI's input framing: an over-long GUI line is open (its next piece continues it).
    gui_overlong: bool,
    /// The over-long GUI line being handled is a `position` line: rejected, never sent.
    gui_overlong_dropped: bool,
    /// The engine exited while the over-long GUI line being handled was forwarded: its rest
    /// is dropped (it would reach a restarted engine as a stray line).
    gui_overlong_cut: bool,
    /// The session has handled the first piece of an over-long GUI line but not its last.
    gui_piece_open: bool,
    /// An over-long engine line is open.
    engine_overlong: bool,
    /// The GUI's input stream ends in the middle of a line.
    gui_mid_line: bool,
    /// The last `position` was rejected (nothing was sent to the engine for it).
    rejected: bool,
    /// The GUI sent `uci` and the engine's `uciok` has not been read.
    awaiting_uciok: bool,
    /// GUI inputs waiting for the engine's `uciok`, in order.
    pending: VecDeque<Call>,
    /// The GUI's end of input came while inputs waited: it follows them.
    eof_pending: bool,
    /// The waiting inputs dropped last.
    dropped: VecDeque<Call>,
    /// The rules the session applied after the last GUI line (read from the session).
    rules: Rules,
    /// The replies the GUI is owed, oldest first.
    owed: VecDeque<Owed>,
    /// Every `Action` returned, in order.
    pub actions: Vec<Action>,
}

/// A reply in the model: engine-owed (`Uciok`, `Ready`, `Engine`: a search) or fenguard's own
/// `bestmove 0000` (`held`: a `go infinite` / `go ponder` after a rejection, waiting for `stop`
/// / `ponderhit`; it holds nothing up).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Owed {
    Uciok,
    Ready,
    Engine,
    Own {
        held: bool,
    },
    /// fenguard's own `readyok` for an `isready` it did not send.
    OwnReady,
}

/// The line the engine gets for the GUI's `line` (SPEC 12): a UCI command in canonical form,
/// any other line as it is.
fn expected_sent(line: &[u8]) -> Vec<u8> {
    match UciCommand::from_word(first_token(line)) {
        Some(c) => canonical_line(line, c).unwrap_or_else(|| line.to_vec()),
        None => line.to_vec(),
    }
}

/// A GUI line fenguard does not send because of a NUL or a lone `\r` (SPEC 12): a UCI command
/// with a NUL in its arguments (not `position`: that one is judged), or a line in which some
/// engine would still read a UCI command. Gives the command.
fn unsent_for_nul(line: &[u8]) -> Option<UciCommand> {
    let word = first_token(line);
    if let Some(c) = UciCommand::from_word(word) {
        let sent = expected_sent(line);
        return (c.takes_arguments() && c != UciCommand::Position && sent.contains(&0))
            .then_some(c);
    }
    // A command some engine would still read (up to a NUL, after a lone `\r`).
    fenguard::uci::hidden_command(line)
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

fn is_perft(line: &[u8]) -> bool {
    tokens(line).skip(1).any(|t| t.text == b"perft")
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

/// Whether `action` starts the actions of a GUI input (its `gui>` transcript entry).
fn starts_gui_input(action: &Action) -> bool {
    matches!(action, Action::Transcript(Direction::FromGui, _))
}

impl Driver {
    /// A driver around a new session with `settings`. Inputs that wait for `uciok` are only
    /// told apart when `transcript` is on.
    pub fn new(settings: Settings, transcript: bool) -> Driver {
        Driver {
            session: Session::with_settings(transcript, settings),
            now: Instant::now(),
            gui_overlong: false,
            gui_overlong_dropped: false,
            gui_overlong_cut: false,
            gui_piece_open: false,
            engine_overlong: false,
            gui_mid_line: false,
            rejected: false,
            awaiting_uciok: false,
            pending: VecDeque::new(),
            eof_pending: false,
            dropped: VecDeque::new(),
            rules: Rules::Chess,
            owed: VecDeque::new(),
            actions: Vec::new(),
        }
    }

    /// Runs a fuzz input: two settings bytes, then chunks separated by `\n`, each a line
    /// (`\n` restored, except on the last chunk) whose first byte picks the event. The
    /// transcript is always on (see [`Driver::new`]).
    pub fn run(data: &[u8]) -> Driver {
        let (a, b, rest) = match data {
            [a, b, rest @ ..] => (*a, *b, rest),
            _ => (0, 0, &[][..]),
        };
        let mut driver = Driver::new(settings_from(a, b), true);
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

    /// Whether the session holds `call` until the engine's `uciok`.
    fn waits(&self, call: &Call) -> bool {
        let word = match call {
            Call::Line(line) => first_token(line),
            Call::Piece { bytes, first, .. } => {
                if *first {
                    first_token(bytes)
                } else {
                    b""
                }
            }
        };
        !self.pending.is_empty()
            || (matches!(call, Call::Line(_))
                && self.awaiting_uciok
                && matches!(word, b"position" | b"setoption"))
    }

    fn call_session(&mut self, call: &Call) -> Vec<Action> {
        match call {
            Call::Line(line) => self.session.handle(
                SessionInput::GuiLine(Bytes::copy_from_slice(line)),
                self.now,
            ),
            Call::Piece { bytes, first, .. } => self.session.handle(
                SessionInput::GuiPiece {
                    chunk: Bytes::copy_from_slice(bytes),
                    first: *first,
                },
                self.now,
            ),
        }
    }

    /// Feeds one event and checks the invariants.
    pub fn step(&mut self, input: Input<'_>) {
        self.now += Duration::from_millis(1);
        let mid_before = self.gui_mid_line;
        let gui_call = match input {
            Input::Gui(line) if self.gui_overlong => {
                self.gui_overlong = false;
                Some(Call::Piece {
                    bytes: line.to_vec(),
                    first: false,
                    last: true,
                })
            }
            Input::Gui(line) => {
                if line.is_empty() {
                    return; // the codec never yields an empty line
                }
                Some(Call::Line(line.to_vec()))
            }
            Input::GuiOverlong(piece) => {
                if piece.is_empty() {
                    return;
                }
                let first = !std::mem::replace(&mut self.gui_overlong, true);
                Some(Call::Piece {
                    bytes: piece.to_vec(),
                    first,
                    last: false,
                })
            }
            _ => None,
        };
        let out = match (input, gui_call) {
            (_, Some(call)) => {
                let out = self.call_session(&call);
                if self.waits(&call) {
                    assert!(out.is_empty(), "{call:?} waits for uciok: {out:?}");
                    self.pending.push_back(call);
                } else {
                    self.check_gui_call(&call, &out, mid_before);
                }
                out
            }
            (Input::Engine(line), _) if self.engine_overlong => {
                self.engine_overlong = false;
                self.engine_piece(line, false)
            }
            (Input::Engine(line), _) => {
                if line.is_empty() {
                    return;
                }
                self.engine_line(line, mid_before)
            }
            (Input::EngineOverlong(piece), _) => {
                if piece.is_empty() {
                    return;
                }
                let first = !std::mem::replace(&mut self.engine_overlong, true);
                self.engine_piece(piece, first)
            }
            (Input::GuiEof, _) => {
                let out = self.session.handle(SessionInput::GuiEof, self.now);
                assert!(to_engine(&out).is_empty() && to_gui(&out).is_empty());
                // Inputs waiting for `uciok` keep waiting: the end of input follows them.
                let closes = out.contains(&Action::CloseEngineInput);
                assert_eq!(closes, self.pending.is_empty(), "{out:?}");
                self.eof_pending |= !closes;
                out
            }
            (Input::EngineExit(code), _) => self.engine_exit(code),
            (Input::Gui(_) | Input::GuiOverlong(_), None) => unreachable!("a GUI call"),
        };
        let from_engine = matches!(input, Input::Engine(_) | Input::EngineOverlong(_));
        self.check_gui_stream(&out, from_engine);
        self.actions.extend(out);
    }

    fn engine_exit(&mut self, code: u8) -> Vec<Action> {
        let exit = EngineExit {
            code: Some(i32::from(code)),
            ..EngineExit::default()
        };
        let out = self
            .session
            .handle(SessionInput::EngineExited(exit), self.now);
        if self.gui_piece_open {
            self.gui_overlong_cut = true;
            self.gui_piece_open = false;
        }
        assert!(matches!(out.last(), Some(Action::Finish(_))), "{out:?}");
        assert!(to_engine(&out).is_empty());
        // Whatever the engine still owed is answered by fenguard now, in order; the inputs
        // waiting for `uciok` are answered as far as the GUI waits (`go`, `isready`), dropped.
        self.owed.retain(|o| *o != Owed::Uciok);
        for o in self.owed.iter_mut() {
            if matches!(o, Owed::Engine | Owed::Ready) {
                *o = Owed::Own { held: false };
            }
        }
        let mut released = self.release_counting(true);
        self.eof_pending = false;
        self.drop_pending();
        for call in std::mem::take(&mut self.dropped) {
            if let Call::Line(line) = call
                && ((first_token(&line) == b"go" && !is_perft(&line))
                    || first_token(&line) == b"isready")
            {
                released += 1;
            }
        }
        // Writes held back behind a broken engine line come first (flushed at the exit), then
        // the exit's own answers, after its log line.
        let logged = out
            .iter()
            .position(|a| matches!(a, Action::Log(..)))
            .unwrap_or(0);
        let answers = to_gui(&out[logged..])
            .iter()
            .filter(|l| is_null_answer(l) || &l[..] == b"readyok\n")
            .count();
        assert_eq!(answers, released, "{out:?}");
        out
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
        let out = self.session.handle(
            SessionInput::EnginePiece {
                chunk: Bytes::copy_from_slice(piece),
                first,
            },
            self.now,
        );
        assert!(to_engine(&out).is_empty());
        assert_eq!(to_gui(&out).first().map(|b| &b[..]), Some(piece));
        out
    }

    fn engine_line(&mut self, line: &[u8], mid_before: bool) -> Vec<Action> {
        let differ = self.session.chess960().notations_differ();
        let out = self.session.handle(
            SessionInput::EngineLine(Bytes::copy_from_slice(line)),
            self.now,
        );
        // A line without its end is the engine's output cut short: logged, never relayed
        // nor read (what the engine owed is answered at its exit).
        if line.last() != Some(&b'\n') {
            assert!(
                to_engine(&out).is_empty(),
                "engine line answered to the engine"
            );
            assert!(to_gui(&out).is_empty(), "engine fragment relayed: {out:?}");
            return out;
        }
        let word = first_token(line);
        // The engine's own actions end where the first released GUI input's begin.
        let own_end = if word == b"uciok" {
            out.iter().position(starts_gui_input).unwrap_or(out.len())
        } else {
            out.len()
        };
        let (mine, released_inputs) = out.split_at(own_end);
        assert!(
            to_engine(mine).is_empty(),
            "engine line answered to the engine"
        );
        let gui = to_gui(mine);
        assert_lines_end(&gui, terminator(line));
        let answer = match word {
            b"bestmove" => Some(Owed::Engine),
            b"readyok" => Some(Owed::Ready),
            b"uciok" => Some(Owed::Uciok),
            _ => None,
        };
        let mut released = 0;
        if let Some(kind) = answer {
            if let Some(i) = self.owed.iter().position(|o| *o == kind) {
                self.owed.remove(i);
            }
            released = self.release();
        }
        let rewritable = differ && (word == b"info" || word == b"bestmove");
        let relay = if mid_before {
            gui.first().copied()
        } else {
            gui.iter()
                .find(|l| &l[..] == line)
                .or_else(|| {
                    gui.iter()
                        .find(|l| rewritable && first_token(l) == word && !l.starts_with(OWN_INFO))
                })
                .copied()
        };
        let relay = relay.expect("an engine line is relayed");
        if rewritable {
            assert_eq!(tokens(relay).count(), tokens(line).count());
            assert_eq!(terminator(relay), terminator(line));
        } else if !mid_before {
            assert_eq!(&relay[..], line);
        }
        if !mid_before {
            let nulls = gui.iter().filter(|l| is_null_answer(l)).count();
            let relayed_null = usize::from(is_null_answer(relay));
            assert_eq!(nulls - relayed_null, released, "{gui:?}");
        }
        if word == b"uciok" {
            // A GUI that sent `uci` more than once waits for the next `uciok` too.
            self.awaiting_uciok = self.owed.contains(&Owed::Uciok);
            self.check_released_inputs(released_inputs);
        } else {
            assert!(
                !released_inputs.iter().any(starts_gui_input),
                "{released_inputs:?}"
            );
        }
        out
    }

    /// The actions of the inputs that waited for `uciok`: each input's begin with its `gui>`
    /// transcript entry (one that must wait again, after a released `uci`, writes nothing).
    fn check_released_inputs(&mut self, mut rest: &[Action]) {
        let all = rest;
        for call in std::mem::take(&mut self.pending) {
            if self.waits(&call) {
                self.pending.push_back(call);
                continue;
            }
            let silent = matches!(call, Call::Piece { first: false, .. })
                && (self.gui_overlong_dropped || self.gui_overlong_cut);
            if silent {
                self.check_gui_call(&call, &[], false);
                continue;
            }
            assert!(
                rest.first().is_some_and(starts_gui_input),
                "released {call:?} does not start with its transcript: {rest:?}"
            );
            let end = rest[1..]
                .iter()
                .position(starts_gui_input)
                .map_or(rest.len(), |i| i + 1);
            let (segment, after) = rest.split_at(end);
            self.check_gui_call(&call, segment, false);
            rest = after;
        }
        if self.eof_pending && self.pending.is_empty() {
            // The end of input that waited behind them: the engine's input is closed now.
            self.eof_pending = false;
            assert!(
                all.contains(&Action::CloseEngineInput),
                "a waiting end of input not forwarded: {all:?}"
            );
        }
        assert!(
            rest.iter().all(|a| !starts_gui_input(a)),
            "actions of no released input: {rest:?}"
        );
    }

    /// The waiting inputs are dropped (kept in `dropped` for the caller): the rest of an
    /// over-long line they leave open is dropped too.
    fn drop_pending(&mut self) {
        if let Some(Call::Piece { bytes, .. }) = self.pending.back()
            && !bytes.ends_with(b"\n")
        {
            self.gui_overlong_cut = true;
        }
        self.dropped = std::mem::take(&mut self.pending);
    }

    /// Pops the own searches that are due: every one before the first reply the engine still
    /// owes (held ones are passed over). Gives how many `bestmove 0000` lines that makes.
    fn release(&mut self) -> usize {
        self.release_counting(false)
    }

    /// [`Self::release`], counting fenguard's own `readyok` lines too when `readies`.
    fn release_counting(&mut self, readies: bool) -> usize {
        let mut n = 0;
        let mut i = 0;
        while i < self.owed.len() {
            match self.owed[i] {
                Owed::Uciok | Owed::Ready | Owed::Engine => break,
                Owed::Own { held: true } => i += 1,
                Owed::Own { held: false } => {
                    self.owed.remove(i);
                    n += 1;
                }
                Owed::OwnReady => {
                    self.owed.remove(i);
                    n += usize::from(readies);
                }
            }
        }
        n
    }

    /// Whether the engine still owes a reply asked before now.
    fn engine_owes(&self) -> bool {
        self.owed
            .iter()
            .any(|o| matches!(o, Owed::Uciok | Owed::Ready | Owed::Engine))
    }

    fn check_gui_call(&mut self, call: &Call, out: &[Action], mid_before: bool) {
        match call {
            Call::Line(line) => self.gui_line(line, out, mid_before),
            Call::Piece { bytes, first, last } => self.gui_piece(bytes, *first, *last, out),
        }
    }

    fn gui_piece(&mut self, piece: &[u8], first: bool, last: bool, out: &[Action]) {
        if first {
            // A UCI command over the line cap is not sent (SPEC 12): a `position` is
            // rejected, a `go` answered `bestmove 0000`, an `isready` `readyok`.
            let reading = fenguard::uci::overlong_command(piece);
            let command = reading.flatten();
            self.gui_overlong_dropped = reading.is_some();
            self.gui_overlong_cut = false;
            match command {
                Some(UciCommand::Position) => self.rejected = true,
                Some(UciCommand::Go) => self.owed.push_back(Owed::Own { held: false }),
                Some(UciCommand::IsReady) => self.owed.push_back(Owed::OwnReady),
                _ => {}
            }
            if reading.is_some() {
                assert!(to_engine(out).is_empty(), "{out:?}");
                self.release();
            }
        }
        self.gui_piece_open = !last;
        if self.gui_overlong_cut || self.gui_overlong_dropped {
            assert!(to_engine(out).is_empty(), "{out:?}");
        } else {
            assert_eq!(to_engine(out), [piece]);
            assert!(to_gui(out).is_empty());
        }
    }

    fn gui_line(&mut self, line: &[u8], out: &[Action], mid_before: bool) {
        let settings = self.session.settings().clone();
        // A variant newly selected (or chess again) starts without a rejected position.
        if self.session.rules() != &self.rules {
            self.rules = self.session.rules().clone();
            self.rejected = false;
        }
        let (engine, gui) = (to_engine(out), to_gui(out));
        let term = terminator(line);
        assert_lines_end(&engine, term);
        assert_lines_end(&gui, term);
        let nulls = gui.iter().filter(|l| is_null_answer(l)).count();
        let expected = expected_sent(line);
        let unchanged = engine.len() == 1 && *engine[0] == expected;
        if let Some(command) = unsent_for_nul(line) {
            assert!(
                engine.is_empty(),
                "{line:?} with a NUL reached the engine: {engine:?}"
            );
            match command {
                UciCommand::Go => self.owed.push_back(Owed::Own { held: false }),
                UciCommand::IsReady => self.owed.push_back(Owed::OwnReady),
                _ => {}
            }
            let released = self.release();
            if !mid_before {
                assert_eq!(nulls, released, "{gui:?}");
            }
            return;
        }
        match first_token(line) {
            b"position" => {
                self.rejected = engine.is_empty();
                let p = &settings.positions;
                if p.on_invalid == OnInvalid::Forward {
                    assert!(!self.rejected, "forward mode rejected {line:?}");
                }
                // The rejection notice waits for the replies the engine still owes.
                if self.rejected && p.report_to_gui && !mid_before && !self.engine_owes() {
                    let told = b"info string fenguard: rejected position: ";
                    assert!(gui.iter().any(|l| l.starts_with(told)), "{gui:?}");
                }
                assert_eq!(nulls, 0);
            }
            b"go" if is_perft(line) => {
                // Not a search: forwarded unchanged, or not sent after a rejected position;
                // never answered with a `bestmove`.
                if self.rejected {
                    assert!(engine.is_empty());
                } else {
                    assert!(unchanged, "{line:?} became {engine:?}");
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
                let released = self.release();
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
                let selects = parse_setoption(line).is_some_and(|o| {
                    let name = String::from_utf8_lossy(o.name);
                    o.name_is("UCI_Variant")
                        || name
                            .get(..4)
                            .is_some_and(|p| p.eq_ignore_ascii_case("uci_"))
                            && !matches!(
                                fenguard::variant::Variant::from_uci_name(&name[4..]),
                                fenguard::variant::Variant::Chess
                                    | fenguard::variant::Variant::Other(_)
                            )
                });
                if own || parse_setoption(line).is_none() {
                    assert!(engine.is_empty());
                } else if selects {
                    // Not sent before the engine's `uciok` (its offer unknown); an offered
                    // variant goes out as the engine spells it.
                    assert!(engine.len() <= 1, "{line:?} became {engine:?}");
                    assert!(
                        engine.iter().all(|e| e.eq_ignore_ascii_case(&expected)),
                        "{line:?} became {engine:?}"
                    );
                } else if chess960 {
                    // Only the check value's spelling may change (`True` -> `true`).
                    assert_eq!(engine.len(), 1);
                    assert!(
                        engine[0].eq_ignore_ascii_case(&expected),
                        "{line:?} became {engine:?}"
                    );
                } else {
                    assert!(unchanged, "{line:?} became {engine:?}");
                }
                assert_eq!(nulls, 0);
            }
            word => {
                assert!(unchanged, "{line:?} became {engine:?}");
                assert!(gui.is_empty());
                match word {
                    b"uci" => {
                        self.awaiting_uciok = true;
                        self.owed.push_back(Owed::Uciok);
                    }
                    b"isready" => self.owed.push_back(Owed::Ready),
                    b"quit" => {
                        self.drop_pending();
                    }
                    _ => {}
                }
            }
        }
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
