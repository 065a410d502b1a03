//! The 8x8 variants (SPEC section 10) through shakmaty's `variant` feature: analyze a FEN,
//! repair it, write it back, and play UCI moves, drops included. Pure: no I/O.
//!
//! One type, [`Position8`], wraps `shakmaty::variant::VariantPosition` and is what the session
//! asks: [`Position8::startpos`] (the variant's start), [`analyze`] (diagnostics and the
//! position), [`Position8::legal_moves`], [`Position8::read_move`] /
//! [`Position8::write_move`] (both castling notations, as `rules::chess`), [`Position8::play`]
//! and [`Position8::fen`].
//!
//! FEN extras (module `eight_fen`): crazyhouse pockets `[Pp]` or a ninth rank `/Pp` and
//! promoted markers `Q~`; three-check counters `3+3` before the clocks (remaining, as
//! python-chess, Fairy-Stockfish and shakmaty write them) or lichess `+0+0` after them (given;
//! read only). Everything else is chess FEN, read by the `fen` core (syntax diagnostics,
//! python-chess castling letters); validity is shakmaty's `VariantPosition::from_setup`, its
//! errors mapped to `fen::Code`s. python-chess 1.11.2's `chess.variant` is the oracle
//! (`scripts/variant8_oracle.py`); the differences are listed in docs/variants.md.
//!
//! Antichess and giveaway: shakmaty's `Antichess` has no castling (lichess antichess,
//! Fairy-Stockfish `antichess`), so antichess castling rights are `variant-rule`. python-chess's
//! `GiveawayBoard`, Fairy-Stockfish's and cutechess's `giveaway` castle: giveaway is
//! [`super::giveaway::Giveaway`], antichess with castling, and its `startpos` has `KQkq`.
//!
//! ```
//! use fenguard::fen::{CastlingStyle, EpMode, Options};
//! use fenguard::uci::Notation;
//! use fenguard::variant::Variant;
//! use fenguard::variant::eight::{Position8, analyze};
//!
//! let analysis = analyze(&Variant::Crazyhouse, b"4k3/8/8/8/8/8/8/4K3[Qp] w - - 0 1", &Options::default());
//! let mut pos = analysis.position().expect("valid").clone();
//! let drop = pos.read_move(b"Q@e7", Notation::Standard).expect("legal drop").mv;
//! pos.play(drop);
//! assert_eq!(pos.fen(CastlingStyle::XFen, EpMode::Legal), "4k3/4Q3/8/8/8/8/8/4K3[p] b - - 1 1");
//!
//! let start = Position8::startpos(&Variant::ThreeCheck).expect("8x8 variant");
//! assert_eq!(start.fen(CastlingStyle::XFen, EpMode::Legal),
//!            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3+3 0 1");
//! ```

use shakmaty::uci::UciMove;
use shakmaty::variant::{Variant as ShakmatyVariant, VariantPosition};
use shakmaty::{Bitboard, CastlingMode, Color, File, Move, Position, PositionErrorKinds, Setup};

use super::Variant;
use super::eight_diag::{Places, diagnose, too_much_material};
use super::eight_fen;
pub use super::eight_pos::Pos8;
use super::eight_write;
use super::giveaway::Giveaway;
use crate::fen::{CastlingStyle, Code, Diagnostic, EpMode, Options, Severity};
use crate::rules::{ReadError, Reading};
use crate::uci::Notation;

/// A position of an 8x8 variant: the variant's rules decided once, the session asks this type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Position8 {
    variant: Variant,
    pos: Pos8,
}

/// shakmaty's variant for one of ours; `None` for chess, 10x8 and unmodelled variants.
fn shakmaty_variant(variant: &Variant) -> Option<ShakmatyVariant> {
    Some(match variant {
        Variant::Crazyhouse => ShakmatyVariant::Crazyhouse,
        Variant::Atomic => ShakmatyVariant::Atomic,
        Variant::KingOfTheHill => ShakmatyVariant::KingOfTheHill,
        Variant::ThreeCheck => ShakmatyVariant::ThreeCheck,
        Variant::Horde => ShakmatyVariant::Horde,
        Variant::RacingKings => ShakmatyVariant::RacingKings,
        Variant::Antichess | Variant::Giveaway => ShakmatyVariant::Antichess,
        _ => return None,
    })
}

impl Position8 {
    /// The start position of `variant` (what `position startpos` means in it), `None` when
    /// `variant` is not an 8x8 variant ([`Variant::is_8x8_variant`]).
    pub fn startpos(variant: &Variant) -> Option<Position8> {
        let v = shakmaty_variant(variant)?;
        let pos = match variant {
            Variant::Giveaway => Pos8::Giveaway(Giveaway::default()),
            _ => Pos8::Shakmaty(VariantPosition::new(v)),
        };
        Some(Position8 {
            variant: variant.clone(),
            pos,
        })
    }

    /// The variant.
    pub fn variant(&self) -> &Variant {
        &self.variant
    }

    /// The position (castling mode Chess960), a shakmaty [`Position`].
    pub fn position(&self) -> &Pos8 {
        &self.pos
    }

    /// The position as FEN: X-FEN or Shredder-FEN castling, en passant by `ep`, pockets and
    /// promoted markers in crazyhouse, remaining checks `W+B` before the clocks in three-check
    /// (python-chess 1.11.2 `board.fen()` / `board.shredder_fen()`).
    pub fn fen(&self, castling: CastlingStyle, ep: EpMode) -> String {
        eight_write::write(&self.pos, castling, ep)
    }

    /// The legal moves in UCI, written in `notation` (castles as king-takes-rook in Chess960
    /// notation), drops as `P@e4`, in shakmaty's generation order; none once the game is
    /// over by the variant's rules (as python-chess).
    pub fn legal_moves(&self, notation: Notation) -> Vec<String> {
        if self.pos.is_variant_end() {
            return Vec::new();
        }
        self.pos
            .legal_moves()
            .into_iter()
            .map(|mv| self.write_move(mv, notation).0.to_string())
            .collect()
    }

    /// The legal move the UCI text `text` means, read in `notation` (the rules of
    /// [`crate::rules::chess`]: king-takes-own-rook is castling in both notations).
    ///
    /// # Errors
    /// [`ReadError`]: `Syntax`, `Null`, `Illegal` or `MissingPromotion`.
    pub fn read_move(&self, text: &[u8], notation: Notation) -> Result<Reading, ReadError> {
        let uci = UciMove::from_ascii(text).map_err(|_| ReadError::Syntax)?;
        if self.pos.is_variant_end() && uci != UciMove::Null {
            return Err(ReadError::Illegal);
        }
        crate::rules::read_uci(&self.pos, uci, notation)
    }

    /// Writes the legal move `mv` in `notation`; the flag is `ambiguous-castling-move`.
    pub fn write_move(&self, mv: Move, notation: Notation) -> (UciMove, bool) {
        crate::rules::write_move(&self.pos, mv, notation)
    }

    /// Plays the legal move `mv` (from [`Position8::read_move`] or the legal moves).
    pub fn play(&mut self, mv: Move) {
        self.pos.play_unchecked(mv);
    }

    /// Whether the game is over by the variant's rules or by checkmate or stalemate.
    pub fn is_game_over(&self) -> bool {
        self.pos.is_game_over()
    }

    /// Whether a castling right needs Chess960 (king off the e-file or rook off the corner).
    pub fn needs_chess960(&self) -> bool {
        needs_chess960(self.pos.board(), self.pos.castles().castling_rights())
    }
}

fn needs_chess960(board: &shakmaty::Board, rights: Bitboard) -> bool {
    rights.into_iter().any(|rook| {
        let color = Color::from_white(rook.rank() == shakmaty::Rank::First);
        let king =
            (board.kings() & board.by_color(color) & Bitboard::from_rank(rook.rank())).first();
        king.is_none_or(|k| k.file() != File::E || !matches!(rook.file(), File::A | File::H))
    })
}

/// The result of [`analyze`]: diagnostics (spans into the input), the position when valid,
/// the repaired position when every error has a safe repair.
#[derive(Debug, Clone)]
pub struct Analysis8 {
    diagnostics: Vec<Diagnostic>,
    position: Option<Position8>,
    repaired: Option<Position8>,
}

impl Analysis8 {
    /// Whether no diagnostic is an error.
    pub fn is_valid(&self) -> bool {
        self.position.is_some()
    }

    /// Every finding, in input order.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    /// The valid position.
    pub fn position(&self) -> Option<&Position8> {
        self.position.as_ref()
    }

    /// The position after SPEC section 6's repairs (castling rights and en passant squares
    /// dropped, counters defaulted); the position itself when valid; `None` when some error
    /// has no safe repair.
    pub fn repair(&self) -> Option<&Position8> {
        self.position.as_ref().or(self.repaired.as_ref())
    }
}

/// Codes of the `fen` core's findings that are about syntax (or reading castling letters),
/// which hold in every 8x8 variant; position findings come from shakmaty's variant rules.
fn is_syntax(code: Code) -> bool {
    use Code::*;
    matches!(
        code,
        EmptyInput
            | MissingField
            | ExtraField
            | TooManyRanks
            | TooFewRanks
            | RankTooLong
            | RankTooShort
            | UnknownPiece
            | BadDigit
            | BadActiveColor
            | BadCastlingChar
            | DuplicateCastlingRight
            | CastlingOrder
            | CastlingWithoutAnyRook
            | BadEpSquare
            | BadHalfmoveClock
            | BadFullmoveNumber
            | FullmoveZero
            | TrailingSlash
            | PromotedMarker
            | CounterTooLarge
            | HalfmoveWithEp
            | FiftyMoveDraw
            | NeedsVariant
    )
}

/// Analyzes `input` as a FEN of the 8x8 `variant` (a variant for which
/// [`Variant::is_8x8_variant`] holds; any other gets one `variant-rule` error). Raw bytes,
/// never a panic; spans are byte ranges into `input`. `opts.chess960_allowed == false`
/// (`--standard`) makes a right only Chess960 allows the error `castling-needs-chess960`.
pub fn analyze(variant: &Variant, input: &[u8], opts: &Options) -> Analysis8 {
    let mut out = Analysis8 {
        diagnostics: Vec::new(),
        position: None,
        repaired: None,
    };
    let Some(v) = shakmaty_variant(variant) else {
        out.diagnostics.push(Diagnostic::new(
            Code::VariantRule,
            Severity::Error,
            None,
            format!("`{}` is not an 8x8 variant", variant.uci_name()),
        ));
        return out;
    };
    let crazyhouse = *variant == Variant::Crazyhouse;
    let split = eight_fen::split(input, crazyhouse, *variant == Variant::ThreeCheck);
    let chess = crate::fen::analyze(&split.text, opts);
    let mut diags = split.diagnostics.clone();
    for d in chess.diagnostics() {
        if !is_syntax(d.code) || (crazyhouse && d.code == Code::PromotedMarker) {
            continue;
        }
        let mut d = d.clone();
        d.span = d.span.map(|s| split.input_span(&s));
        if d.code == Code::NeedsVariant {
            // A 10x8 board under an 8x8 variant: name the variant actually set.
            let set = format!("while the variant is {}", variant.uci_name());
            d.message = d.message.replace("while the variant is chess", &set);
        }
        diags.push(d);
    }
    let syntax_ok = diags.iter().all(|d| !d.is_error());
    let syntax_repairable = diags.iter().all(|d| !d.is_error() || d.fix.is_some());
    let mut piece_at = [0usize; 64];
    let text_fields = eight_fen::field_spans(&split.text);
    if syntax_repairable && text_fields[0].is_some() && !split.text.is_empty() {
        let mut setup = eight_fen::setup(&split.text, &mut piece_at);
        setup.pockets = split.pockets.or(crazyhouse.then(Default::default));
        setup.remaining_checks = split.checks;
        let span_of = |n: usize| text_fields[n].as_ref().map(|s| split.input_span(s));
        let places = Places {
            placement: span_of(0).unwrap_or(0..input.len()),
            castling: span_of(2),
            ep: span_of(3),
            checks: split.checks_span.clone(),
            piece_at: piece_at.map(|at| split.input_span(&(at..at + 1)).start),
        };
        drop_rights(opts.chess960_allowed, &mut setup, &places, &mut diags);
        let (position, repaired) = build(variant, v, setup, &places, &mut diags);
        if syntax_ok && diags.iter().all(|d| !d.is_error()) {
            out.position = position;
        } else if diags.iter().all(|d| !d.is_error() || d.fix.is_some()) {
            out.repaired = repaired.or(position);
        }
    }
    if let Some(pos) = &out.position {
        notes(pos, &mut diags);
    }
    diags.sort_by_key(|d| d.span.as_ref().map_or(usize::MAX, |s| s.start));
    out.diagnostics = diags;
    out
}

/// The position (when shakmaty finds no error) and the repaired one (castling rights and en
/// passant square dropped), with shakmaty's errors as diagnostics.
fn build(
    variant: &Variant,
    v: ShakmatyVariant,
    setup: Setup,
    places: &Places,
    diags: &mut Vec<Diagnostic>,
) -> (Option<Position8>, Option<Position8>) {
    // Giveaway: shakmaty's antichess without the castling rights, which are checked apart.
    let castles = (*variant == Variant::Giveaway).then(|| super::giveaway::castles(&setup));
    let kept = castles.clone().map(|c| c.unwrap_or_else(|c| c));
    let wrap = |pos| Position8 {
        variant: variant.clone(),
        pos: match (pos, kept.clone()) {
            (VariantPosition::Antichess(inner), Some(castles)) => {
                Pos8::Giveaway(Giveaway::new(inner, castles))
            }
            (pos, _) => Pos8::Shakmaty(pos),
        },
    };
    let mut plain = setup.clone();
    if castles.is_some() {
        plain.castling_rights = Bitboard::EMPTY;
    }
    let too_much = too_much_material(variant, &setup);
    let result = match VariantPosition::from_setup(v, plain, CastlingMode::Chess960) {
        Ok(pos) => Ok(pos),
        // python-chess's material rules, not shakmaty's promotion counting (racing kings
        // keeps shakmaty's, which are python-chess's too).
        Err(e) if *variant != Variant::RacingKings => e.ignore_too_much_material(),
        Err(e) => Err(e),
    };
    let mut kinds = match &result {
        Ok(_) => PositionErrorKinds::empty(),
        Err(e) => e.kinds(),
    };
    if *variant != Variant::RacingKings {
        kinds.set(PositionErrorKinds::TOO_MUCH_MATERIAL, too_much);
    }
    let bad_rights = matches!(castles, Some(Err(_)));
    if bad_rights {
        kinds |= PositionErrorKinds::INVALID_CASTLING_RIGHTS;
    }
    diags.extend(diagnose(variant, &setup, kinds, places));
    match result {
        Ok(pos) if !too_much && !bad_rights => (Some(wrap(pos)), None),
        Ok(pos) if !too_much => (None, Some(wrap(pos))),
        Ok(_) => (None, None),
        Err(e) => {
            let repaired = match e.ignore_invalid_castling_rights() {
                Ok(pos) => Some(pos),
                Err(e) => e.ignore_invalid_ep_square().ok(),
            }
            .filter(|_| !too_much);
            (None, repaired.map(wrap))
        }
    }
}

/// Castling rights fenguard drops before asking shakmaty: under standard rules the rights only
/// Chess960 allows (`castling-needs-chess960`), and those of a king marked promoted, which
/// python-chess does not let castle (`castling-without-king`). Each with the fix.
fn drop_rights(
    chess960_allowed: bool,
    setup: &mut Setup,
    places: &Places,
    diags: &mut Vec<Diagnostic>,
) {
    if !chess960_allowed && needs_chess960(&setup.board, setup.castling_rights) {
        for rook in setup.castling_rights {
            if needs_chess960(&setup.board, Bitboard::from_square(rook)) {
                setup.castling_rights.discard(rook);
                diags.push(Diagnostic::new(
                    Code::CastlingNeedsChess960,
                    Severity::Error,
                    places.castling.clone(),
                    format!("castling with the rook on {rook} needs Chess960 rules; standard chess expects king on the e-file, rook on the a- or h-file"),
                ).with_fix("drop the castling right"));
            }
        }
    }
    for color in Color::ALL {
        let rank = Bitboard::from_rank(color.backrank());
        let king = setup.board.kings() & setup.board.by_color(color) & setup.promoted;
        if king.is_empty() {
            continue;
        }
        // python-chess: a king marked promoted (`k~`) is no king for castling.
        for rook in setup.castling_rights & rank {
            setup.castling_rights.discard(rook);
            diags.push(Diagnostic::new(
                Code::CastlingWithoutKing,
                Severity::Error,
                places.castling.clone(),
                format!("castling right for the rook on {rook}, but the {color} king is marked promoted (`~`), and a promoted king cannot castle"),
            ).with_fix("drop the castling right"));
        }
    }
}

/// Notes on a valid position: the game is over (checkmate, stalemate, a variant win).
fn notes(pos: &Position8, diags: &mut Vec<Diagnostic>) {
    if pos.pos.legal_moves().is_empty() || pos.pos.is_variant_end() {
        let what = if pos.pos.is_variant_end() {
            format!(
                "the game is over by the rules of {}",
                pos.variant.uci_name()
            )
        } else if pos.pos.is_check() {
            "checkmate".to_owned()
        } else {
            "stalemate".to_owned()
        };
        diags.push(Diagnostic::new(
            Code::NoLegalMoves,
            Severity::Note,
            None,
            format!("{what}: {} has no legal moves", pos.pos.turn()),
        ));
    }
}
