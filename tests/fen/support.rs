//! Helpers shared by the FEN diagnostic tests (included with `#[path]`).

use std::ops::Range;

use fenguard::fen::{Code, Diagnostic, Options, Severity, analyze};

/// Two kings, nothing else: the start of many test FENs.
pub const KINGS: &str = "4k3/8/8/8/8/8/8/4K3";

/// The single diagnostic with `code` (fails when there is not exactly one).
pub fn only(input: &str, code: Code, opts: &Options) -> Diagnostic {
    let analysis = analyze(input.as_bytes(), opts);
    let found: Vec<&Diagnostic> = analysis
        .diagnostics()
        .iter()
        .filter(|d| d.code == code)
        .collect();
    assert_eq!(found.len(), 1, "{input:?}: {:#?}", analysis.diagnostics());
    found[0].clone()
}

/// Asserts the severity and span of the single `code` diagnostic under default options.
pub fn assert_diag(input: &str, code: Code, severity: Severity, span: Option<Range<usize>>) {
    let d = only(input, code, &Options::default());
    assert_eq!(
        (d.severity, d.span),
        (severity, span),
        "{input:?}: {}",
        d.message
    );
}
