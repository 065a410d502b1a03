//! The seam between the session and the rules (SPEC sections 6, 7 and 10): one [`Game`], the
//! position being played, whatever the rules. The session asks it the same few questions in
//! every variant, never `if variant`:
//!
//! - [`Game::start`] (what `position startpos` means under the rules) and [`Game::analyze`]
//!   (a `position fen` FEN: diagnostics with spans into the FEN, the position, the repair);
//! - [`Game::read`] / [`Game::write`] / [`Game::play`] one move (castling in either notation,
//!   drops in crazyhouse), on which `game_moves.rs` builds the move lists: `position ...
//!   moves`, `go searchmoves`, the engine's `bestmove` / `info ... pv`;
//! - [`Game::append_fen`] (the canonical FEN for the engine), [`Game::needs_chess960`].
//!
//! Arms: [`Game::Chess`] is chess and Chess960 (`shakmaty::Chess`, the `fen` core; its move
//! lists keep the `uci` module's fast path), [`Game::Eight`] an 8x8 variant of shakmaty
//! ([`Position8`]), [`Game::Ten`] a 10x8 board ([`Board10`]). Unchecked variants have no game.
//!
//! Castling notation is asked as [`Notation`] (the `UCI_Chess960` value of a side); each arm
//! maps it to its own: for 10x8, king-to-target outside Chess960 mode, king-takes-rook in
//! Chess960 mode and always in caparandom ([`Notation10::for_engine`]), so `e1h1` is a castle
//! in embassy but king-takes-rook in 8x8 Chess960.

use shakmaty::uci::UciMove;
use shakmaty::{Chess, Move, Position};

use super::variant::Rules;
use crate::fen::{self, CastlingStyle, Diagnostic, EpMode, FenDisplay, Geometry};
use crate::uci::castling::ReadError;
use crate::uci::{Notation, read_move, write_move};
use crate::variant::board10::{self, Board10, Move10, Notation as Notation10, UciError10};
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
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GameMove {
    /// A shakmaty move (chess and the 8x8 variants; drops included).
    Shakmaty(Move),
    /// A 10x8 move.
    Ten(Move10),
}

/// Why a UCI text is not a legal move of a [`Game`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReadFail {
    /// Not a UCI move of this board (`bad-move-syntax`).
    Syntax,
    /// `0000` (`null-move`).
    Null,
    /// Well-formed, not legal (`illegal-move`).
    Illegal,
    /// A pawn move to the last rank without a piece; holds the queen promotion repairing it.
    MissingPromotion(GameMove),
}

/// A `position fen` FEN analyzed under some rules.
#[derive(Debug, Clone)]
pub struct GameAnalysis {
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
                let (diagnostics, position) = a.into_parts();
                GameAnalysis {
                    diagnostics,
                    game: position.or(repaired).map(Game::Chess),
                }
            }
            Rules::Eight(v) => {
                let a = eight::analyze(v, fen, &options);
                let game = if repair { a.repair() } else { a.position() };
                GameAnalysis {
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
                    diagnostics: a.diagnostics().to_vec(),
                    game: game.cloned().map(|b| Game::Ten(Box::new(b))),
                }
            }
        }
    }

    /// Whether a castling right needs Chess960 (king or rook off its standard file).
    pub fn needs_chess960(&self) -> bool {
        match self {
            Game::Chess(c) => fen::position_needs_chess960(c),
            Game::Eight(p) => p.needs_chess960(),
            Game::Ten(b) => b.needs_chess960(),
        }
    }

    /// Appends the position's FEN (castling field by `castling`, en passant by `ep`).
    pub fn append_fen(&self, castling: CastlingStyle, ep: EpMode, buf: &mut Vec<u8>) {
        match self {
            Game::Chess(position) => FenDisplay {
                position,
                castling,
                ep,
            }
            .append_to(buf),
            Game::Eight(p) => buf.extend_from_slice(p.fen(castling, ep).as_bytes()),
            Game::Ten(b) => b.append_fen(castling, ep, buf),
        }
    }

    /// The position as python-chess / pyffish write it: X-FEN castling, legal ep square.
    pub fn xfen(&self) -> String {
        let mut buf = Vec::with_capacity(96);
        self.append_fen(CastlingStyle::XFen, EpMode::Legal, &mut buf);
        String::from_utf8_lossy(&buf).into_owned()
    }

    /// Whether the side to move has a legal move (by the variant's rules: none once the
    /// game is over).
    pub fn has_legal_moves(&self) -> bool {
        match self {
            Game::Chess(c) => !c.legal_moves().is_empty(),
            Game::Eight(p) => !p.legal_moves(Notation::Chess960).is_empty(),
            Game::Ten(b) => !b.legal_moves().is_empty(),
        }
    }

    /// The legal move `text` means, read in `notation`; the flag is `ambiguous-castling-move`
    /// (a standard-notation text that is both a king move and a castle: taken as the king
    /// move).
    ///
    /// # Errors
    /// [`ReadFail`].
    pub fn read(&self, text: &[u8], notation: Notation) -> Result<(GameMove, bool), ReadFail> {
        let from_shakmaty = |r: Result<crate::uci::Reading, ReadError>| match r {
            Ok(r) => Ok((GameMove::Shakmaty(r.mv), r.ambiguous)),
            Err(ReadError::Syntax) => Err(ReadFail::Syntax),
            Err(ReadError::Null) => Err(ReadFail::Null),
            Err(ReadError::Illegal) => Err(ReadFail::Illegal),
            Err(ReadError::MissingPromotion(m)) => {
                Err(ReadFail::MissingPromotion(GameMove::Shakmaty(m)))
            }
        };
        match self {
            Game::Chess(c) => from_shakmaty(read_move(c, text, notation)),
            Game::Eight(p) => from_shakmaty(p.read_move(text, notation)),
            Game::Ten(b) => {
                if text == b"0000" {
                    return Err(ReadFail::Null);
                }
                let Ok(text) = std::str::from_utf8(text) else {
                    return Err(ReadFail::Syntax);
                };
                match b.parse_uci(text, notation10(b, notation)) {
                    Ok(m) => Ok((GameMove::Ten(m), false)),
                    Err(UciError10::Syntax(_)) => Err(ReadFail::Syntax),
                    Err(UciError10::Illegal(_)) => Err(ReadFail::Illegal),
                    Err(UciError10::MissingPromotion(_)) => {
                        let queen = format!("{text}q");
                        b.parse_uci(&queen, notation10(b, notation))
                            .map(|m| ReadFail::MissingPromotion(GameMove::Ten(m)))
                            .map_or(Err(ReadFail::Illegal), Err)
                    }
                }
            }
        }
    }

    /// Writes the legal move `mv` in `notation`; the flag says a castle had to be written
    /// king-takes-rook in standard notation (`ambiguous-castling-move`).
    pub fn write(&self, mv: &GameMove, notation: Notation) -> (String, bool) {
        let (uci, ambiguous) = self.write_uci(mv, notation);
        match uci {
            Written::Uci(u) => (u.to_string(), ambiguous),
            Written::Text(t) => (t, ambiguous),
        }
    }

    /// As [`Game::write`], without a `String` for shakmaty moves.
    pub(super) fn write_uci(&self, mv: &GameMove, notation: Notation) -> (Written, bool) {
        match (self, mv) {
            (Game::Chess(c), GameMove::Shakmaty(m)) => {
                let (u, a) = write_move(c, *m, notation);
                (Written::Uci(u), a)
            }
            (Game::Eight(p), GameMove::Shakmaty(m)) => {
                let (u, a) = p.write_move(*m, notation);
                (Written::Uci(u), a)
            }
            (Game::Ten(b), GameMove::Ten(m)) => (
                Written::Text(b.write_uci(*m, notation10(b, notation))),
                false,
            ),
            // A move of another game: cannot happen (moves are read in the position).
            _ => (Written::Text("0000".to_owned()), false),
        }
    }

    /// Plays the legal move `mv` (read in this position).
    pub fn play(&mut self, mv: &GameMove) {
        match (self, mv) {
            (Game::Chess(c), GameMove::Shakmaty(m)) => c.play_unchecked(*m),
            (Game::Eight(p), GameMove::Shakmaty(m)) => p.play(*m),
            (Game::Ten(b), GameMove::Ten(m)) => b.play(*m),
            _ => {}
        }
    }
}

/// A move as written for a side: a shakmaty UCI move, or 10x8 text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Written {
    /// Chess and the 8x8 variants.
    Uci(UciMove),
    /// 10x8.
    Text(String),
}

/// The 10x8 notation a side with `UCI_Chess960` = `notation` speaks in `b`'s variant.
fn notation10(b: &Board10, notation: Notation) -> Notation10 {
    Notation10::for_engine(b.variant(), notation == Notation::Chess960)
}
