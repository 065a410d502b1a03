//! The rules layer (SPEC sections 6, 7 and 10): what a move means under the rules of the game
//! being played. One trait, [`GameRules`] (read / write / play a move, the legal moves, the
//! FEN, the castling notation, whether a castling right needs Chess960), implemented by chess
//! and Chess960 (`shakmaty::Chess`, [`chess`]), the 8x8 variants of shakmaty
//! ([`crate::variant::eight::Position8`], the giveaway model included) and the 10x8 boards
//! ([`crate::variant::board10::Board10`]); [`Game`] is the dispatch enum over the three, as
//! shakmaty's `VariantPosition` is over its variants, and is what the session and
//! `fenguard check` hold. On it, generic over the trait, one move-list module ([`moves`]:
//! `position ... moves`, `go searchmoves`, the `bestmove` / `ponder` check) and one pv
//! rewriter ([`rewrite`], its cache owned by the search it serves).
//!
//! Pure: no I/O. Imports `fen`, `uci` (tokens, [`Notation`], move diagnostics) and `variant`;
//! imported by `session` and `check`.
//!
//! ```
//! use fenguard::rules::{Game, GameRules, Rules, play_moves};
//! use fenguard::uci::{Notation, parse_position};
//!
//! let line = b"position startpos moves e2e4 e7e5 g1f3";
//! let cmd = parse_position(line).unwrap();
//! let start = Game::start(&Rules::Chess).unwrap();
//! let out = play_moves(start, &cmd.moves, Notation::Standard, Notation::Chess960, false);
//! assert!(out.is_complete());
//! assert!(out.position.has_legal_moves());
//! ```

pub mod chess;
mod eight;
mod game;
mod judge;
pub mod legality;
pub mod moves;
pub mod rewrite;
mod ruleset;
mod ten;

use std::fmt;

pub use chess::{read_move, read_uci, write_move};
pub use game::{Game, GameAnalysis, GameMove, Written};
pub use moves::{
    MovesOutcome, check_bestmove, is_no_ponder_move, play_moves, play_moves_from,
    translate_searchmoves,
};
pub use rewrite::{Kind, LineRewriter, rewrite_engine_line, rewrite_engine_line_full};
pub use ruleset::Rules;

use crate::fen::{CastlingStyle, EpMode};
pub use crate::uci::Notation;
use crate::uci::Token;

/// The legal move a UCI text means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reading<M = shakmaty::Move> {
    /// The legal move.
    pub mv: M,
    /// The text also reads as castling (standard notation only): `ambiguous-castling-move`.
    pub ambiguous: bool,
}

/// Why a UCI text is not a legal move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReadError<M = shakmaty::Move> {
    /// Not a UCI move of this board (`bad-move-syntax`).
    Syntax,
    /// `0000` (`null-move`).
    Null,
    /// Well-formed but not legal (`illegal-move`); also piece drops (`Q@f7`) in chess.
    Illegal,
    /// A pawn move to the last rank without a piece (`missing-promotion`); holds the legal
    /// queen promotion that repairs it.
    MissingPromotion(M),
}

impl<M> Reading<M> {
    /// The same reading of another move type (a [`Game`]'s arm into [`GameMove`]).
    pub fn map<N>(self, f: impl FnOnce(M) -> N) -> Reading<N> {
        Reading {
            mv: f(self.mv),
            ambiguous: self.ambiguous,
        }
    }
}

impl<M> ReadError<M> {
    /// The same error of another move type.
    pub fn map<N>(self, f: impl FnOnce(M) -> N) -> ReadError<N> {
        match self {
            ReadError::Syntax => ReadError::Syntax,
            ReadError::Null => ReadError::Null,
            ReadError::Illegal => ReadError::Illegal,
            ReadError::MissingPromotion(m) => ReadError::MissingPromotion(f(m)),
        }
    }
}

/// The rules of a game, asked by the move lists, the pv rewriter, the session and `check`
/// the same few questions whatever the variant. A value is a position under those rules.
///
/// Castling notation is asked as [`Notation`] (the `UCI_Chess960` value of a side); each
/// implementation maps it to its own (10x8: king-to-target outside Chess960 mode,
/// king-takes-rook in Chess960 mode and always in caparandom).
pub trait GameRules: Clone + fmt::Debug {
    /// A legal move (only meaningful in the position it was read in).
    type Move: Copy + fmt::Debug + PartialEq;
    /// A move as written for a side (`Display` writes its UCI text).
    type Uci: Clone + fmt::Debug + fmt::Display;

    /// The legal move `text` (one token) means, read in `notation`; [`Reading::ambiguous`] is
    /// `ambiguous-castling-move` (a standard-notation text that is both a king move and a
    /// castle: taken as the king move).
    ///
    /// # Errors
    /// [`ReadError`] says why it is not a legal move.
    fn read(
        &self,
        text: &[u8],
        notation: Notation,
    ) -> Result<Reading<Self::Move>, ReadError<Self::Move>>;

    /// The move lists' fast path: `Some` when `text` is a legal move that both castling
    /// notations read alike, with nothing to report, and that both write alike: then it is
    /// `(read(text, n).mv, write(mv, n).0)` for either notation `n`. `None` (the default)
    /// sends `text` to [`GameRules::read`] and [`GameRules::write`].
    fn read_plain(&self, _text: &[u8]) -> Option<(Self::Move, Self::Uci)> {
        None
    }

    /// Writes the legal move `mv` in `notation`; the flag says a castle had to be written
    /// king-takes-rook in standard notation (`ambiguous-castling-move`).
    fn write(&self, mv: Self::Move, notation: Notation) -> (Self::Uci, bool);

    /// Appends the UCI text of `uci`.
    fn append_uci(uci: &Self::Uci, buf: &mut Vec<u8>);

    /// Whether `uci` is written `text`.
    fn uci_is(uci: &Self::Uci, text: &[u8]) -> bool {
        let mut own = Vec::with_capacity(8);
        Self::append_uci(uci, &mut own);
        own == text
    }

    /// Plays the legal move `mv` (read in this position).
    fn play(&mut self, mv: Self::Move);

    /// The legal moves, in the generator's order (none once the game is over by the
    /// variant's rules).
    fn legal_moves(&self) -> Vec<Self::Move>;

    /// Whether the side to move has a legal move.
    fn has_legal_moves(&self) -> bool;

    /// Appends the position's FEN (castling field by `castling`, en passant by `ep`).
    fn append_fen(&self, castling: CastlingStyle, ep: EpMode, buf: &mut Vec<u8>);

    /// The position's FEN as a `String`.
    fn fen(&self, castling: CastlingStyle, ep: EpMode) -> String {
        let mut buf = Vec::with_capacity(96);
        self.append_fen(castling, ep, &mut buf);
        String::from_utf8(buf)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
    }

    /// Whether a castling right needs Chess960 (king or rook off its standard file).
    fn needs_chess960(&self) -> bool;

    /// The FEN a move diagnostic names the position by (X-FEN, legal en passant squares).
    fn message_fen(&self) -> String {
        self.fen(CastlingStyle::XFen, EpMode::Legal)
    }

    /// What completes "`{text}` is not a UCI move" in a `bad-move-syntax` message.
    fn syntax_hint(&self) -> &'static str {
        " of this board"
    }

    /// A cheap filter of the pv rewriter: `false` when no token of `line` can be a castle of
    /// this board (the line is then relayed as it came).
    fn may_hold_castle(&self, _line: &[u8]) -> bool {
        true
    }

    /// The pv rewriter's horizon: from which index of `kinds` (the tokens of a move sequence
    /// still to replay, [`rewrite::kind`]) on no token can be a castle in this position, so
    /// that the replay may stop there.
    fn horizon(&self, kinds: &[Kind]) -> usize {
        kinds.len()
    }

    /// Whether `other` reads moves exactly as `self` (board, side, castling rights, en
    /// passant; counters may differ): the pv rewriter's cache stays valid across them.
    fn reads_like(&self, other: &Self) -> bool;

    /// [`play_moves_from`] from this position: `moves` (the list's moves from the `first`th,
    /// 1-based) read in `notations.0` and written in `notations.1`, one at a time. [`Game`]
    /// picks its arm once for the whole list.
    fn play_list(
        self,
        moves: &[Token<'_>],
        first: usize,
        notations: (Notation, Notation),
        repair: bool,
    ) -> MovesOutcome<Self> {
        moves::play_each(self, moves, first, notations, repair, (|p| p, |u| u))
    }
}

/// The number of leaf positions `depth` plies below `pos` (perft, move-generation check): every
/// legal move, recursively, as shakmaty's `perft` counts them (a position the variant has ended
/// has no legal moves). Depth 0 is 1.
pub fn perft<R: GameRules>(pos: &R, depth: u32) -> u64 {
    let moves = pos.legal_moves();
    match depth {
        0 => 1,
        1 => moves.len() as u64,
        _ => moves
            .into_iter()
            .map(|m| {
                let mut after = pos.clone();
                after.play(m);
                perft(&after, depth - 1)
            })
            .sum(),
    }
}
