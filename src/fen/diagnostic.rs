//! Diagnostics: stable codes, severities, byte spans and repairs (SPEC section 7).
//!
//! [`Diagnostic`] is fenguard's one diagnostic type, end to end: the FEN core, the move lists
//! (wrapped with their move's index by [`crate::uci::MoveDiagnostic`]), the session's
//! `positions.jsonl` records and `fenguard check --format json` all carry it, and serde writes
//! the same JSON object everywhere (SPEC section 4):
//! `{"code": "missing-king", "severity": "error", "message": "...", "span": [0, 8], "fix": null}`.

use std::fmt;
use std::ops::Range;

use serde::{Serialize, Serializer};

/// How bad a diagnostic is.
///
/// An `Error` makes the position invalid; a `Warning` keeps it valid (normalization fixes it
/// where it can); a `Note` only informs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// Informs only (checkmate, an en passant square nobody can use).
    Note,
    /// The input is sloppy but has one clear reading; the position stays valid.
    Warning,
    /// The position is invalid.
    Error,
}

impl Severity {
    /// The lowercase name used in JSON and human output: `error`, `warning`, `note`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Severity::Note => "note",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

impl Serialize for Severity {
    /// As its lowercase name ([`Severity::as_str`]).
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

macro_rules! codes {
    ($($(#[doc = $doc:literal])* $variant:ident => $name:literal,)*) => {
        /// A stable diagnostic code (SPEC section 7). The kebab-case name from
        /// [`Code::as_str`] is public interface: codes are added, never renamed.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Code { $($(#[doc = $doc])* $variant,)* }

        impl Code {
            /// Every code, in declaration order.
            pub const ALL: &'static [Code] = &[$(Code::$variant,)*];

            /// The stable kebab-case name, e.g. `missing-king`.
            pub const fn as_str(self) -> &'static str {
                match self { $(Code::$variant => $name,)* }
            }

            /// What the code means: its doc comment in this table, one line a source line
            /// (each with its leading space), the reference `fenguard generate diagnostics`
            /// writes (docs/diagnostics.md).
            pub const fn description(self) -> &'static str {
                match self { $(Code::$variant => concat!($($doc, "\n",)*),)* }
            }

            /// Looks a code up by its kebab-case name.
            pub fn from_name(name: &str) -> Option<Code> {
                match name { $($name => Some(Code::$variant),)* _ => None }
            }
        }
    };
}

codes! {
    /// The input is blank.
    EmptyInput => "empty-input",
    /// Fewer than six fields; the missing ones take their defaults (warning).
    MissingField => "missing-field",
    /// More than six fields (EPD operations, a `moves` list in the wrong place).
    ExtraField => "extra-field",
    /// The piece placement has more ranks than the board.
    TooManyRanks => "too-many-ranks",
    /// The piece placement has fewer ranks than the board.
    TooFewRanks => "too-few-ranks",
    /// A rank describes more squares than the board has files.
    RankTooLong => "rank-too-long",
    /// A rank describes fewer squares than the board has files.
    RankTooShort => "rank-too-short",
    /// A character in the piece placement that is no piece, digit or `/`.
    UnknownPiece => "unknown-piece",
    /// An empty-square count that is `0`, too large, or follows another count.
    BadDigit => "bad-digit",
    /// The active color is not `w` or `b`.
    BadActiveColor => "bad-active-color",
    /// A castling character that is not `-`, `KQkq` or a file letter.
    BadCastlingChar => "bad-castling-char",
    /// The same castling right is written twice (warning; python-chess accepts some, refuses others).
    DuplicateCastlingRight => "duplicate-castling-right",
    /// Castling letters out of the canonical order (warning).
    CastlingOrder => "castling-order",
    /// The en passant field is neither `-` nor a square.
    BadEpSquare => "bad-ep-square",
    /// The halfmove clock is not a non-negative number.
    BadHalfmoveClock => "bad-halfmove-clock",
    /// The fullmove number is not a non-negative number.
    BadFullmoveNumber => "bad-fullmove-number",
    /// The fullmove number is 0; read as 1 (warning).
    FullmoveZero => "fullmove-zero",
    /// A `/` after the last rank (warning; ignored).
    TrailingSlash => "trailing-slash",
    /// The promoted-piece marker `~` of python-chess / crazyhouse FENs (warning; dropped).
    PromotedMarker => "promoted-marker",
    /// Checkmate or stalemate (note).
    NoLegalMoves => "no-legal-moves",
    /// A side has no king.
    MissingKing => "missing-king",
    /// A side has more than one king.
    TooManyKings => "too-many-kings",
    /// A pawn stands on the first or eighth rank.
    PawnOnBackRank => "pawn-on-back-rank",
    /// The side not to move is in check.
    OppositeCheck => "opposite-check",
    /// A check that no legal last move can have given.
    ImpossibleCheck => "impossible-check",
    /// More than 16 pieces or more than 8 pawns of one color.
    TooMuchMaterial => "too-much-material",
    /// A castling right whose king is not on its back rank.
    CastlingWithoutKing => "castling-without-king",
    /// A castling right without a rook of its color on the named square.
    CastlingWithoutRook => "castling-without-rook",
    /// `Q`/`q` while that side has no rook on its back rank at all: ignored, as python-chess
    /// does (warning).
    CastlingWithoutAnyRook => "castling-without-any-rook",
    /// A castling right only Chess960 allows, under standard rules.
    CastlingNeedsChess960 => "castling-needs-chess960",
    /// Two castling rights on the same side of one king.
    ConflictingCastlingRights => "conflicting-castling-rights",
    /// The en passant square is not on the sixth (White to move) or third rank.
    EpSquareWrongRank => "ep-square-wrong-rank",
    /// No enemy pawn stands in front of the en passant square.
    EpWithoutPawn => "ep-without-pawn",
    /// The en passant square, or the square the pawn came from, is occupied.
    EpSquareOccupied => "ep-square-occupied",
    /// A valid en passant square that no legal capture uses (note).
    EpNotCapturable => "ep-not-capturable",
    /// An en passant square with a non-zero halfmove clock (warning).
    HalfmoveWithEp => "halfmove-with-ep",
    /// The halfmove clock is 100 or more: a draw can be claimed (warning).
    FiftyMoveDraw => "fifty-move-draw",
    /// A number too large to be a move counter (over 4294967295).
    CounterTooLarge => "counter-too-large",
    /// A line longer than the line cap (1 MiB); not read further (`fenguard check`, the proxy).
    LineTooLong => "line-too-long",
    /// A move that is not long algebraic notation.
    BadMoveSyntax => "bad-move-syntax",
    /// A move that is not legal in its position.
    IllegalMove => "illegal-move",
    /// A pawn move to the last rank without a promotion piece.
    MissingPromotion => "missing-promotion",
    /// A castling move whose standard form reads as a king move (warning).
    AmbiguousCastlingMove => "ambiguous-castling-move",
    /// The null move `0000` in a move list.
    NullMove => "null-move",
    /// Chess960 asked of an engine that does not offer UCI_Chess960.
    EngineLacksChess960 => "engine-lacks-chess960",
    /// The engine's `bestmove` or `ponder` is illegal.
    IllegalBestmove => "illegal-bestmove",
    /// A crazyhouse pocket (`[...]` or a ninth `/` rank) that does not list pieces.
    BadPocket => "bad-pocket",
    /// Three-check counters (`3+3` remaining, or lichess `+0+0` given) that cannot be.
    BadCheckCounters => "bad-check-counters",
    /// A rule of the variant the position breaks (racing kings in check, antichess castling).
    VariantRule => "variant-rule",
    /// A `UCI_Variant` fenguard has no rules for: positions and moves pass unchecked (note).
    VariantNotChecked => "variant-not-checked",
    /// The X-FEN seed's `s` (symmetric) or `m` (modern) castling prefix: no engine or GUI
    /// implements it.
    UnsupportedCastlingPrefix => "unsupported-castling-prefix",
    /// A 10x8 FEN while the variant is chess (names the likely variant).
    NeedsVariant => "needs-variant",
    /// A `position` command that is not `position startpos|fen ... [moves ...]` (the proxy's
    /// code: `fenguard check` reads FENs only).
    BadPositionCommand => "bad-position-command",
}

impl PartialEq<&str> for Code {
    /// A code equals its kebab-case name (`Code::MissingKing == "missing-king"`).
    fn eq(&self, name: &&str) -> bool {
        self.as_str() == *name
    }
}

impl Serialize for Code {
    /// As its stable kebab-case name ([`Code::as_str`]).
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One finding about an input: what, how bad, where, and the repair if there is one.
///
/// Serialized (serde) as SPEC section 4's diagnostic object, fields in this order: `code`
/// (kebab-case), `severity` (`error`, `warning`, `note`), `message`, `span` (`[start, end]`,
/// a half-open byte range, or `null`) and `fix` (string or `null`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    /// The stable code.
    pub code: Code,
    /// Error, warning or note.
    pub severity: Severity,
    /// A human message that says what was found and what was expected.
    pub message: String,
    /// Half-open byte range into the analyzed input (in a `positions.jsonl` record: into
    /// `raw`, the GUI's line), or `None` when the fault has no single place.
    #[serde(serialize_with = "span_pair")]
    pub span: Option<Range<usize>>,
    /// What the repair does (SPEC section 6), when the fault has one safe reading.
    pub fix: Option<String>,
}

impl Diagnostic {
    /// A diagnostic without a fix.
    pub fn new(
        code: Code,
        severity: Severity,
        span: Option<Range<usize>>,
        message: String,
    ) -> Self {
        Diagnostic {
            code,
            severity,
            span,
            message,
            fix: None,
        }
    }

    /// An error without a fix.
    pub fn error(code: Code, span: Option<Range<usize>>, message: impl Into<String>) -> Self {
        Diagnostic::new(code, Severity::Error, span, message.into())
    }

    /// The same diagnostic with its span moved `by` bytes to the right (a span into a FEN
    /// becomes one into the line that holds it).
    pub fn shifted(mut self, by: usize) -> Self {
        self.span = self.span.map(|s| s.start + by..s.end + by);
        self
    }

    /// The same diagnostic with a repair description.
    pub fn with_fix(mut self, fix: impl Into<String>) -> Self {
        self.fix = Some(fix.into());
        self
    }

    /// Whether this diagnostic makes the position invalid.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// Writes a span as `[start, end]`, no span as `null`.
fn span_pair<S: Serializer>(span: &Option<Range<usize>>, serializer: S) -> Result<S::Ok, S::Error> {
    span.as_ref()
        .map(|s| [s.start, s.end])
        .serialize(serializer)
}

impl fmt::Display for Diagnostic {
    /// `error[missing-king]: there is no white king`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}[{}]: {}", self.severity, self.code, self.message)
    }
}
