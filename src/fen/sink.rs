//! Where the analysis puts its findings: the full list of diagnostics, or, in lean mode (the
//! bulk `fenguard check --format fen` path), only how many errors were seen, so that no
//! message is ever formatted and the analysis can stop at the first error.

use std::ops::Range;

use super::diagnostic::{Code, Diagnostic, Severity};

/// Collects diagnostics (detailed mode) or only counts errors (lean mode).
#[derive(Debug)]
pub(crate) struct Sink {
    list: Vec<Diagnostic>,
    detailed: bool,
    errors: usize,
}

impl Sink {
    /// Keeps every diagnostic with its message and fix.
    pub(crate) fn detailed() -> Self {
        Sink {
            list: Vec::new(),
            detailed: true,
            errors: 0,
        }
    }

    /// Counts errors only; messages and fixes are never built.
    pub(crate) fn lean() -> Self {
        Sink {
            list: Vec::new(),
            detailed: false,
            errors: 0,
        }
    }

    /// Whether diagnostics are kept (messages wanted).
    pub(crate) fn is_detailed(&self) -> bool {
        self.detailed
    }

    /// Records a finding; `message` is called only in detailed mode.
    pub(crate) fn add(
        &mut self,
        code: Code,
        severity: Severity,
        span: Option<Range<usize>>,
        message: impl FnOnce() -> String,
    ) -> Added<'_> {
        if severity == Severity::Error {
            self.errors += 1;
        }
        if !self.detailed {
            return Added(None);
        }
        self.list
            .push(Diagnostic::new(code, severity, span, message()));
        Added(self.list.last_mut())
    }

    /// Forgets every finding (a later reading replaces them).
    pub(crate) fn clear(&mut self) {
        self.list.clear();
        self.errors = 0;
    }

    /// Errors recorded so far.
    pub(crate) fn errors(&self) -> usize {
        self.errors
    }

    /// Lean and an error seen: the input is known to be invalid, further work is wasted.
    pub(crate) fn done(&self) -> bool {
        !self.detailed && self.errors > 0
    }

    /// The kept diagnostics, in the order recorded.
    pub(crate) fn into_list(self) -> Vec<Diagnostic> {
        self.list
    }
}

/// The diagnostic just recorded (none in lean mode), to attach its repair.
pub(crate) struct Added<'a>(Option<&'a mut Diagnostic>);

impl Added<'_> {
    /// Attaches a fixed repair description.
    pub(crate) fn fix(self, fix: &'static str) {
        if let Some(d) = self.0 {
            d.fix = Some(fix.to_owned());
        }
    }

    /// Attaches a repair description built only in detailed mode.
    pub(crate) fn fix_with(self, fix: impl FnOnce() -> String) {
        if let Some(d) = self.0 {
            d.fix = Some(fix());
        }
    }
}
