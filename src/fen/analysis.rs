//! The pipeline: parse, validate, build the shakmaty position; and repair as a separate step.

use std::num::NonZeroU32;

use shakmaty::{Bitboard, Board, CastlingMode, Chess, Color, FromSetup, Position, Setup, Square};

use super::castling::{self, CastlingStyle, Requested};
use super::diagnostic::{Code, Diagnostic, Severity};
use super::geometry::Geometry;
use super::parse::{EpField, parse};
use super::sink::Sink;
use super::validate::{Places, validate};
use super::write::{EpMode, FenDisplay};

/// How to analyze.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// `true` (default): Chess960 castling rules, which every standard position also
    /// satisfies. `false`: standard rules (`--standard`), where a right only Chess960 allows
    /// is the error `castling-needs-chess960`.
    pub chess960_allowed: bool,
    /// The board shape; only [`Geometry::STANDARD`] is validated beyond syntax today.
    pub geometry: Geometry,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            chess960_allowed: true,
            geometry: Geometry::STANDARD,
        }
    }
}

/// The fields of a position as read, before any repair.
#[derive(Debug, Clone)]
struct Fields {
    board: Board,
    turn: Color,
    halfmove: Option<u32>,
    fullmove: Option<u32>,
}

/// The result of [`analyze`]: diagnostics, and the position when it is valid.
#[derive(Debug, Clone)]
pub struct Analysis {
    diagnostics: Vec<Diagnostic>,
    fields: Option<Fields>,
    kept_rights: Bitboard,
    kept_ep: Option<Square>,
    position: Option<Chess>,
}

/// A repaired position and what the repair changed.
#[derive(Debug, Clone)]
pub struct Repaired {
    /// The repaired, valid position (castling mode Chess960).
    pub position: Chess,
    /// The diagnostics the repair fixed (each has a `fix`), in input order.
    pub changes: Vec<Diagnostic>,
}

impl Repaired {
    /// The repaired position written as FEN.
    pub fn fen(&self, castling: CastlingStyle, ep: EpMode) -> String {
        FenDisplay {
            position: &self.position,
            castling,
            ep,
        }
        .to_string()
    }
}

/// Parses and validates one FEN (no repair). `input` is raw bytes: non-UTF-8 and NUL bytes
/// are diagnosed with their span, never a panic. Surrounding whitespace is ignored; spans are
/// byte ranges into `input`.
pub fn analyze(input: &[u8], opts: &Options) -> Analysis {
    let mut sink = Sink::detailed();
    let mut analysis = Analysis::empty();
    analyze_into(input, opts, &mut sink, &mut analysis);
    analysis.diagnostics = sink.into_list();
    analysis
        .diagnostics
        .sort_by_key(|d| d.span.as_ref().map_or(usize::MAX, |s| s.start));
    analysis
}

/// The valid position of `input`, or `None` when [`analyze`] would find an error: the same
/// verdict and position as `analyze(input, opts).position()`, without building diagnostics
/// (it stops at the first error). The fast path for bulk checking.
pub fn valid_position(input: &[u8], opts: &Options) -> Option<Chess> {
    let mut analysis = Analysis::empty();
    analyze_into(input, opts, &mut Sink::lean(), &mut analysis);
    analysis.position
}

/// Fills `analysis` (which starts empty; filled in place, as it is large) and
/// leaves the diagnostics in `diagnostics` (unsorted, in the order found).
fn analyze_into(input: &[u8], opts: &Options, diagnostics: &mut Sink, analysis: &mut Analysis) {
    let parsed = parse(input, opts.geometry, diagnostics);
    // A 10x8 board read as chess fails to parse; only then is it worth asking whether it is
    // one, and that one diagnostic replaces the parse errors.
    if diagnostics.errors() > 0
        && opts.geometry == Geometry::STANDARD
        && let Some(d) = super::needs_variant(input)
    {
        diagnostics.clear();
        diagnostics.add(d.code, d.severity, d.span, || d.message);
        return;
    }
    let Some(parsed) = &parsed else {
        return;
    };
    let (Some(board), Some(turn)) = (parsed.board.clone(), parsed.turn) else {
        return;
    };
    let requested = match parsed.spans[2].clone() {
        None => Some(Requested::NONE),
        Some(span) => castling::read(
            &input[span.clone()],
            span.start,
            &board,
            parsed.promoted,
            diagnostics,
        ),
    };
    let Some(requested) = requested else {
        return;
    };
    let ep = match parsed.ep {
        EpField::Square(sq) => Some(sq),
        EpField::None | EpField::Bad => None,
    };
    let places = Places {
        piece_at: &parsed.piece_at,
        placement: parsed.spans[0].clone().unwrap_or(0..0),
        ep: parsed.spans[3].clone(),
        promoted: parsed.promoted,
    };
    let checked = validate(
        &board,
        turn,
        &requested,
        ep,
        !opts.chess960_allowed,
        &places,
        diagnostics,
    );
    if diagnostics.done() {
        return;
    }
    if let (Some(_), Some(h), Some(span)) = (ep, parsed.halfmove, parsed.spans[4].clone())
        && h > 0
    {
        diagnostics.add(Code::HalfmoveWithEp, Severity::Warning, Some(span), || {
            format!(
                "halfmove clock {h} with an en passant square; a double pawn push resets it to 0"
            )
        });
    }
    if let (Some(h), Some(span)) = (parsed.halfmove, parsed.spans[4].clone())
        && h >= 100
    {
        diagnostics.add(Code::FiftyMoveDraw, Severity::Warning, Some(span), || {
            format!("halfmove clock {h}: 100 or more, a draw can be claimed (fifty-move rule)")
        });
    }
    let fields = Fields {
        board,
        turn,
        halfmove: parsed.halfmove,
        fullmove: parsed.fullmove,
    };
    analysis.kept_rights = checked.rights;
    analysis.kept_ep = checked.ep;
    if diagnostics.errors() == 0 {
        match build(&fields, checked.rights, checked.ep) {
            Ok(pos) => {
                if diagnostics.is_detailed() {
                    notes(&pos, ep, parsed.spans[3].clone(), diagnostics);
                }
                analysis.position = Some(pos);
            }
            Err(kinds) => {
                diagnostics.add(Code::ImpossibleCheck, Severity::Error, None, || {
                    format!("position rejected by the move generator: {kinds:?}")
                });
            }
        }
    }
    analysis.fields = Some(fields);
}

/// The shakmaty position; errors python-chess does not count (its stricter material rules)
/// are ignored. (Stepping checkers are `impossible-check` in `validate`, as in shakmaty.)
fn build(
    fields: &Fields,
    rights: Bitboard,
    ep: Option<Square>,
) -> Result<Chess, shakmaty::PositionErrorKinds> {
    let setup = Setup {
        board: fields.board.clone(),
        promoted: Bitboard::EMPTY,
        pockets: None,
        turn: fields.turn,
        castling_rights: rights,
        ep_square: ep,
        remaining_checks: None,
        halfmoves: fields.halfmove.unwrap_or(0),
        fullmoves: fields
            .fullmove
            .and_then(NonZeroU32::new)
            .unwrap_or(NonZeroU32::MIN),
    };
    match Chess::from_setup(setup, CastlingMode::Chess960) {
        Ok(pos) => Ok(pos),
        Err(e) => match e.ignore_too_much_material() {
            Ok(pos) => Ok(pos),
            Err(e) => e.ignore_impossible_check().map_err(|e| e.kinds()),
        },
    }
}

/// Notes on a valid position: checkmate or stalemate, an en passant square nobody can use.
fn notes(
    pos: &Chess,
    ep: Option<Square>,
    ep_span: Option<std::ops::Range<usize>>,
    diags: &mut Sink,
) {
    if !king_can_step(pos) && pos.legal_moves().is_empty() {
        let what = if pos.is_check() {
            "checkmate"
        } else {
            "stalemate"
        };
        diags.add(Code::NoLegalMoves, Severity::Note, None, || {
            format!("{what}: {} has no legal moves", pos.turn())
        });
    }
    if let Some(sq) = ep
        && pos.legal_ep_square().is_none()
    {
        diags.add(Code::EpNotCapturable, Severity::Note, ep_span, || {
            format!("no legal en passant capture on {sq}; X-FEN and python-chess's default omit it")
        });
    }
}

/// A quick proof that the side to move has a legal move: its king can step to a square
/// nobody attacks. Saves the full move generation on almost every position.
fn king_can_step(pos: &Chess) -> bool {
    let board = pos.board();
    let us = pos.turn();
    let Some(king) = board.king_of(us) else {
        return false;
    };
    let occupied = board.occupied().without(king);
    (shakmaty::attacks::king_attacks(king) & !board.by_color(us))
        .into_iter()
        .any(|to| board.attacks_to(to, !us, occupied).is_empty())
}

impl Analysis {
    /// Nothing found yet, no position.
    fn empty() -> Analysis {
        Analysis {
            diagnostics: Vec::new(),
            fields: None,
            kept_rights: Bitboard::EMPTY,
            kept_ep: None,
            position: None,
        }
    }

    /// Whether no diagnostic is an error (python-chess `is_valid()` on inputs it accepts).
    pub fn is_valid(&self) -> bool {
        self.position.is_some()
    }

    /// All findings, errors, warnings and notes, roughly in input order.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    /// The valid position (castling mode Chess960), or `None` when invalid.
    pub fn position(&self) -> Option<&Chess> {
        self.position.as_ref()
    }

    /// The diagnostics and the position ([`Analysis::diagnostics`], [`Analysis::position`]),
    /// moved out without a copy.
    pub fn into_parts(self) -> (Vec<Diagnostic>, Option<Chess>) {
        (self.diagnostics, self.position)
    }

    /// Whether a castling right of the position needs Chess960 (SPEC section 7): its king is
    /// not on the e-file or its rook not on the a- or h-file. Counts the rights validation
    /// keeps.
    pub fn needs_chess960(&self) -> bool {
        self.fields
            .as_ref()
            .is_some_and(|f| castling::needs_chess960(&f.board, self.kept_rights))
    }

    /// Whether every error has a safe repair (SPEC section 6).
    pub fn is_repairable(&self) -> bool {
        self.fields.is_some()
            && self
                .diagnostics
                .iter()
                .all(|d| !d.is_error() || d.fix.is_some())
    }

    /// Applies SPEC section 6's repair list: drops castling rights without their king or rook
    /// (or needing Chess960 under standard rules), drops an en passant square that cannot be
    /// or that explains nothing, replaces malformed counters with 0 and 1. Returns `None`
    /// when some error has no safe repair; on a valid analysis, the position with no changes.
    pub fn repair(&self) -> Option<Repaired> {
        if !self.is_repairable() {
            return None;
        }
        let fields = self.fields.as_ref()?;
        let position = match &self.position {
            Some(pos) => pos.clone(),
            None => build(fields, self.kept_rights, self.kept_ep).ok()?,
        };
        let changes = self
            .diagnostics
            .iter()
            .filter(|d| d.is_error())
            .cloned()
            .collect();
        Some(Repaired { position, changes })
    }

    /// The normalized FEN of the valid position, `None` when invalid.
    pub fn fen(&self, castling: CastlingStyle, ep: EpMode) -> Option<String> {
        self.position.as_ref().map(|position| {
            FenDisplay {
                position,
                castling,
                ep,
            }
            .to_string()
        })
    }
}
