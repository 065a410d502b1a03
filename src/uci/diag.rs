//! Diagnostics about moves: in `position ... moves`, `go searchmoves`, and the engine's output.
//!
//! A move diagnostic is fenguard's one [`Diagnostic`] type (codes of SPEC section 7's `moves`
//! and `engine` groups: [`Code::BadMoveSyntax`], [`Code::IllegalMove`],
//! [`Code::MissingPromotion`], [`Code::AmbiguousCastlingMove`], [`Code::NullMove`],
//! [`Code::IllegalBestmove`]) together with the move it is about.

use std::fmt;
use std::ops::{Deref, DerefMut, Range};

pub use crate::fen::{Code, Diagnostic, Severity};

/// The severity of a move code: warning for `ambiguous-castling-move`, error otherwise.
pub const fn move_severity(code: Code) -> Severity {
    match code {
        Code::AmbiguousCastlingMove => Severity::Warning,
        _ => Severity::Error,
    }
}

/// A [`Diagnostic`] about one move of a list, with the move it is about. Dereferences to the
/// diagnostic (`d.code`, `d.severity`, `d.span`: a half-open byte range of the move in its
/// line, `d.message`: naming the move index, the move text and the position before it as a
/// FEN, `d.fix`: the replacement move, e.g. `e7e8q` for a missing promotion).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveDiagnostic {
    /// 1-based index of the move in its list (`moves`, `searchmoves`, pv, `bestmove` = 1,
    /// `ponder` = 2).
    pub index: usize,
    /// The move as given, lossily decoded.
    pub text: String,
    /// What is wrong, how bad, where, and the repair.
    pub diagnostic: Diagnostic,
}

impl MoveDiagnostic {
    /// Builds a diagnostic of severity [`move_severity`]; `message` is the full human text.
    pub fn new(
        code: Code,
        index: usize,
        text: &[u8],
        span: Option<Range<usize>>,
        message: String,
    ) -> MoveDiagnostic {
        MoveDiagnostic {
            index,
            text: String::from_utf8_lossy(text).into_owned(),
            diagnostic: Diagnostic::new(code, move_severity(code), span, message),
        }
    }
}

impl MoveDiagnostic {
    /// The same diagnostic with its span (if any) replaced by `f(span)`.
    pub fn map_span(mut self, f: impl FnOnce(Range<usize>) -> Range<usize>) -> MoveDiagnostic {
        self.diagnostic.span = self.diagnostic.span.map(f);
        self
    }
}

impl Deref for MoveDiagnostic {
    type Target = Diagnostic;

    fn deref(&self) -> &Diagnostic {
        &self.diagnostic
    }
}

impl DerefMut for MoveDiagnostic {
    fn deref_mut(&mut self) -> &mut Diagnostic {
        &mut self.diagnostic
    }
}

impl From<MoveDiagnostic> for Diagnostic {
    fn from(d: MoveDiagnostic) -> Diagnostic {
        d.diagnostic
    }
}

impl fmt::Display for MoveDiagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code, self.message)
    }
}
