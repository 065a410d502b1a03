//! Diagnostics about moves: in `position ... moves`, `go searchmoves`, and the engine's output.
//!
//! Codes are SPEC section 7's `moves` and `engine` groups, kebab-case and stable.

use std::fmt;
use std::ops::Range;

/// A move diagnostic code (SPEC 7, groups `moves` and `engine`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveCode {
    /// `bad-move-syntax`: not long algebraic (`e2e4`, `e7e8q`).
    BadMoveSyntax,
    /// `illegal-move`: well-formed but not legal in the position before it.
    IllegalMove,
    /// `missing-promotion`: a pawn move to the last rank without a piece; repair: queen.
    MissingPromotion,
    /// `ambiguous-castling-move` (warning): a move whose notation reads two ways; see
    /// [`super::castling`].
    AmbiguousCastlingMove,
    /// `null-move`: `0000`. Engines do not accept it in a move list (Stockfish 15.1 stops
    /// reading the list there), so fenguard treats it as an error.
    NullMove,
    /// `illegal-bestmove`: the engine's `bestmove` or `ponder` is not legal.
    IllegalBestmove,
}

impl MoveCode {
    /// The stable kebab-case name.
    pub const fn as_str(self) -> &'static str {
        match self {
            MoveCode::BadMoveSyntax => "bad-move-syntax",
            MoveCode::IllegalMove => "illegal-move",
            MoveCode::MissingPromotion => "missing-promotion",
            MoveCode::AmbiguousCastlingMove => "ambiguous-castling-move",
            MoveCode::NullMove => "null-move",
            MoveCode::IllegalBestmove => "illegal-bestmove",
        }
    }

    /// The code's severity: warning for `ambiguous-castling-move`, error otherwise.
    pub const fn severity(self) -> Severity {
        match self {
            MoveCode::AmbiguousCastlingMove => Severity::Warning,
            _ => Severity::Error,
        }
    }
}

impl fmt::Display for MoveCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How serious a diagnostic is (SPEC 7): an error makes the input invalid, a warning keeps it
/// valid, a note informs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Severity {
    /// Makes the input invalid.
    Error,
    /// Keeps the input valid.
    Warning,
    /// Informs.
    Note,
}

impl Severity {
    /// `error`, `warning` or `note`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
        }
    }
}

/// One diagnostic about a move, as data (the shape of SPEC 4's JSON diagnostics).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveDiagnostic {
    /// What is wrong.
    pub code: MoveCode,
    /// Copied from [`MoveCode::severity`].
    pub severity: Severity,
    /// 1-based index of the move in its list (`moves`, `searchmoves`, pv, `bestmove` = 1,
    /// `ponder` = 2).
    pub index: usize,
    /// The move as given, lossily decoded.
    pub text: String,
    /// Half-open byte range of the move in its line, when known.
    pub span: Option<Range<usize>>,
    /// Human message naming the move index, the move text and the position before it (FEN).
    pub message: String,
    /// The replacement move that repairs it (`e7e8q` for a missing promotion), if any.
    pub fix: Option<String>,
}

impl MoveDiagnostic {
    /// Builds a diagnostic; `message` is the full human text.
    pub fn new(
        code: MoveCode,
        index: usize,
        text: &[u8],
        span: Option<Range<usize>>,
        message: String,
    ) -> MoveDiagnostic {
        MoveDiagnostic {
            code,
            severity: code.severity(),
            index,
            text: String::from_utf8_lossy(text).into_owned(),
            span,
            message,
            fix: None,
        }
    }
}

impl fmt::Display for MoveDiagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code, self.message)
    }
}
