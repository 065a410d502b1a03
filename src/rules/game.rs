//! [`Game`]: the position being played, whatever the rules; the dispatch enum over the three
//! implementations of [`GameRules`], as shakmaty's `VariantPosition` is over its variants. The
//! session and `fenguard check` ask it the same few questions in every variant, never
//! `if variant`:
//!
//! - [`Game::start`] (what `position startpos` means under the rules) and [`Game::analyze`]
//!   (a `position fen` FEN: diagnostics with spans into the FEN, the position, the repair);
//! - the [`GameRules`] questions: read / write / play one move, the legal moves, the FEN,
//!   whether a castling right needs Chess960.
//!
//! Arms: [`Game::Chess`] is chess and Chess960 (`shakmaty::Chess`, the `fen` core),
//! [`Game::Eight`] an 8x8 variant of shakmaty ([`Position8`]), [`Game::Ten`] a 10x8 board
//! ([`Board10`]). Unchecked variants have no game.

use std::fmt;

use shakmaty::uci::UciMove;
use shakmaty::{Chess, Move};

use super::moves::play_each;
use super::{GameRules, Kind, MovesOutcome, ReadError, Reading, Rules, chess};
use crate::fen::{self, CastlingStyle, Diagnostic, EpMode, Geometry};
use crate::uci::{Notation, Token};
use crate::variant::board10::{self, Board10, Move10};
use crate::variant::eight::{self, Position8};

/// The position of the game being played.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Game {
    /// Chess and Chess960 (castling mode Chess960).
    Chess(Chess),
    /// An 8x8 variant of shakmaty (crazyhouse, atomic, ...); boxed, so that the chess arm
    /// keeps its size.
    Eight(Box<Position8>),
    /// A 10x8 board (capablanca, caparandom, gothic, janus, embassy); boxed.
    Ten(Box<Board10>),
}

/// A legal move of a [`Game`] (only meaningful in the position it was read in).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameMove {
    /// A shakmaty move (chess and the 8x8 variants; drops included).
    Shakmaty(Move),
    /// A 10x8 move.
    Ten(Move10),
}

/// A move as written for a side: a shakmaty UCI move, or 10x8 text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Written {
    /// Chess and the 8x8 variants.
    Uci(UciMove),
    /// 10x8.
    Text(String),
}

impl fmt::Display for Written {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Written::Uci(u) => u.fmt(f),
            Written::Text(t) => f.write_str(t),
        }
    }
}

/// A `position fen` FEN analyzed under some rules.
#[derive(Debug, Clone)]
pub struct GameAnalysis {
    /// Whether no finding is an error (the FEN is valid as given).
    pub valid: bool,
    /// Every finding, spans into the FEN.
    pub diagnostics: Vec<Diagnostic>,
    /// The position: the valid one, else (when `repair` was asked) the repaired one.
    pub game: Option<Game>,
}

impl Game {
    /// The start position under `rules` (`None` for unchecked variants).
    pub fn start(rules: &Rules) -> Option<Game> {
        match rules {
            Rules::Chess => Some(Game::Chess(Chess::default())),
            Rules::Eight(v) => Position8::startpos(v).map(|p| Game::Eight(Box::new(p))),
            Rules::Ten(v) => Some(Game::Ten(Box::new(Board10::start(*v)))),
            Rules::Unchecked(_) => None,
        }
    }

    /// Analyzes `fen` under `rules`; `chess960_allowed` as [`fen::Options`]; with `repair`, an
    /// invalid FEN whose every error has a safe repair gives the repaired position.
    pub fn analyze(
        rules: &Rules,
        fen: &[u8],
        chess960_allowed: bool,
        repair: bool,
    ) -> GameAnalysis {
        let options = fen::Options {
            chess960_allowed,
            geometry: Geometry::STANDARD,
        };
        match rules {
            Rules::Chess | Rules::Unchecked(_) => {
                let a = fen::analyze(fen, &options);
                let repaired = match a.position() {
                    None if repair => a.repair().map(|r| r.position),
                    _ => None,
                };
                let valid = a.is_valid();
                let (diagnostics, position) = a.into_parts();
                GameAnalysis {
                    valid,
                    diagnostics,
                    game: position.or(repaired).map(Game::Chess),
                }
            }
            Rules::Eight(v) => {
                let a = eight::analyze(v, fen, &options);
                let game = if repair { a.repair() } else { a.position() };
                GameAnalysis {
                    valid: a.is_valid(),
                    diagnostics: a.diagnostics().to_vec(),
                    game: game.cloned().map(|p| Game::Eight(Box::new(p))),
                }
            }
            Rules::Ten(v) => {
                let opts = board10::Options {
                    variant: *v,
                    chess960_allowed,
                };
                let a = Board10::from_fen(fen, &opts);
                let game = if repair { a.repair() } else { a.board() };
                GameAnalysis {
                    valid: a.is_valid(),
                    diagnostics: a.diagnostics().to_vec(),
                    game: game.cloned().map(|b| Game::Ten(Box::new(b))),
                }
            }
        }
    }

    /// The valid position of `fen` under `rules`, `None` when [`Game::analyze`] finds an
    /// error: the same verdict and position without building diagnostics where the rules
    /// have such a fast path (chess, 10x8). For bulk checking.
    pub fn valid(rules: &Rules, fen: &[u8], chess960_allowed: bool) -> Option<Game> {
        let options = fen::Options {
            chess960_allowed,
            geometry: Geometry::STANDARD,
        };
        match rules {
            Rules::Chess | Rules::Unchecked(_) => {
                fen::valid_position(fen, &options).map(Game::Chess)
            }
            Rules::Eight(_) => Game::analyze(rules, fen, chess960_allowed, false).game,
            Rules::Ten(v) => {
                let opts = board10::Options {
                    variant: *v,
                    chess960_allowed,
                };
                Board10::valid_from_fen(fen, &opts).map(|b| Game::Ten(Box::new(b)))
            }
        }
    }

    /// The position as python-chess / pyffish write it: X-FEN castling, legal ep square.
    pub fn xfen(&self) -> String {
        self.fen(CastlingStyle::XFen, EpMode::Legal)
    }
}

/// Applies `$body` to the arm's position, bound to `$p`.
macro_rules! each {
    ($game:expr, $p:ident => $body:expr) => {
        match $game {
            Game::Chess($p) => $body,
            Game::Eight($p) => $body,
            Game::Ten($p) => $body,
        }
    };
}

impl GameRules for Game {
    type Move = GameMove;
    type Uci = Written;

    fn read(
        &self,
        text: &[u8],
        notation: Notation,
    ) -> Result<Reading<GameMove>, ReadError<GameMove>> {
        match self {
            Game::Chess(c) => c
                .read(text, notation)
                .map(|r| r.map(GameMove::Shakmaty))
                .map_err(|e| e.map(GameMove::Shakmaty)),
            Game::Eight(p) => p
                .read(text, notation)
                .map(|r| r.map(GameMove::Shakmaty))
                .map_err(|e| e.map(GameMove::Shakmaty)),
            Game::Ten(b) => b
                .read(text, notation)
                .map(|r| r.map(GameMove::Ten))
                .map_err(|e| e.map(GameMove::Ten)),
        }
    }

    fn write(&self, mv: GameMove, notation: Notation) -> (Written, bool) {
        match (self, mv) {
            (Game::Chess(c), GameMove::Shakmaty(m)) => {
                let (u, a) = c.write(m, notation);
                (Written::Uci(u), a)
            }
            (Game::Eight(p), GameMove::Shakmaty(m)) => {
                let (u, a) = p.write(m, notation);
                (Written::Uci(u), a)
            }
            (Game::Ten(b), GameMove::Ten(m)) => {
                let (t, a) = b.write(m, notation);
                (Written::Text(t), a)
            }
            // A move of another game: cannot happen (moves are read in the position).
            _ => (Written::Text("0000".to_owned()), false),
        }
    }

    fn append_uci(uci: &Written, buf: &mut Vec<u8>) {
        match uci {
            Written::Uci(u) => chess::append_uci(u, buf),
            Written::Text(t) => buf.extend_from_slice(t.as_bytes()),
        }
    }

    fn uci_is(uci: &Written, text: &[u8]) -> bool {
        match uci {
            Written::Uci(u) => chess::uci_is(u, text),
            Written::Text(t) => t.as_bytes() == text,
        }
    }

    fn play(&mut self, mv: GameMove) {
        match (self, mv) {
            (Game::Chess(c), GameMove::Shakmaty(m)) => c.play(m),
            (Game::Eight(p), GameMove::Shakmaty(m)) => GameRules::play(&mut **p, m),
            (Game::Ten(b), GameMove::Ten(m)) => GameRules::play(&mut **b, m),
            _ => {}
        }
    }

    fn legal_moves(&self) -> Vec<GameMove> {
        match self {
            Game::Chess(c) => GameRules::legal_moves(c)
                .into_iter()
                .map(GameMove::Shakmaty)
                .collect(),
            Game::Eight(p) => GameRules::legal_moves(&**p)
                .into_iter()
                .map(GameMove::Shakmaty)
                .collect(),
            Game::Ten(b) => GameRules::legal_moves(&**b)
                .into_iter()
                .map(GameMove::Ten)
                .collect(),
        }
    }

    fn has_legal_moves(&self) -> bool {
        each!(self, p => p.has_legal_moves())
    }

    fn append_fen(&self, castling: CastlingStyle, ep: EpMode, buf: &mut Vec<u8>) {
        each!(self, p => p.append_fen(castling, ep, buf))
    }

    fn needs_chess960(&self) -> bool {
        each!(self, p => p.needs_chess960())
    }

    fn message_fen(&self) -> String {
        each!(self, p => p.message_fen())
    }

    fn syntax_hint(&self) -> &'static str {
        each!(self, p => p.syntax_hint())
    }

    fn may_hold_castle(&self, line: &[u8]) -> bool {
        each!(self, p => p.may_hold_castle(line))
    }

    fn horizon(&self, kinds: &[Kind]) -> usize {
        each!(self, p => p.horizon(kinds))
    }

    fn reads_like(&self, other: &Game) -> bool {
        match (self, other) {
            (Game::Chess(a), Game::Chess(b)) => a.reads_like(b),
            (Game::Eight(a), Game::Eight(b)) => a.reads_like(b),
            (Game::Ten(a), Game::Ten(b)) => a.reads_like(b),
            _ => false,
        }
    }

    /// The list played on the arm's own rules (one dispatch for the whole list, not three a
    /// move), its outcome then given in the game's types: the same outcome.
    fn play_list(
        self,
        moves: &[Token<'_>],
        first: usize,
        notations: (Notation, Notation),
        repair: bool,
    ) -> MovesOutcome<Game> {
        match self {
            Game::Chess(c) => play_each(
                c,
                moves,
                first,
                notations,
                repair,
                (Game::Chess, Written::Uci),
            ),
            Game::Eight(p) => play_each(
                *p,
                moves,
                first,
                notations,
                repair,
                (|p| Game::Eight(Box::new(p)), Written::Uci),
            ),
            Game::Ten(b) => play_each(
                *b,
                moves,
                first,
                notations,
                repair,
                (|b| Game::Ten(Box::new(b)), Written::Text),
            ),
        }
    }
}
