//! Arbitrary bytes through the FEN core: `analyze` under both castling rule sets, `repair`,
//! and every castling style x en passant mode written back and read again.
//!
//! Invariants: no panic; every span lies within the input; valid exactly when no diagnostic
//! is an error, and then `position()` is `Some`; a written FEN reads back valid and writes
//! the same text (normalization is idempotent), also after a repair; a position valid under
//! standard rules is valid under Chess960 rules with the same FEN and needs no Chess960.

#![no_main]

use fenguard::fen::{Analysis, CastlingStyle, EpMode, Options, analyze, write_fen};
use libfuzzer_sys::fuzz_target;
use shakmaty::Chess;

const STYLES: [CastlingStyle; 2] = [CastlingStyle::XFen, CastlingStyle::Shredder];
const EPS: [EpMode; 3] = [EpMode::Legal, EpMode::XFen, EpMode::Fen];

fn options(chess960_allowed: bool) -> Options {
    Options {
        chess960_allowed,
        ..Options::default()
    }
}

/// Every written form of `pos` reads back valid under `opts` and writes the same text.
fn assert_round_trip(pos: &Chess, opts: &Options) {
    for style in STYLES {
        for ep in EPS {
            let written = write_fen(pos, style, ep);
            let again = analyze(written.as_bytes(), opts);
            assert!(
                again.is_valid(),
                "written FEN {written:?} is invalid: {:?}",
                again.diagnostics()
            );
            assert_eq!(again.fen(style, ep).as_deref(), Some(written.as_str()));
        }
    }
}

fn check(data: &[u8], opts: &Options) -> Analysis {
    let analysis = analyze(data, opts);
    for d in analysis.diagnostics() {
        if let Some(span) = &d.span {
            assert!(
                span.start <= span.end && span.end <= data.len(),
                "span out of the input: {d:?}"
            );
        }
    }
    let has_error = analysis.diagnostics().iter().any(|d| d.is_error());
    assert_eq!(
        analysis.is_valid(),
        !has_error,
        "{:?}",
        analysis.diagnostics()
    );
    assert_eq!(analysis.is_valid(), analysis.position().is_some());
    if let Some(pos) = analysis.position() {
        for style in STYLES {
            for ep in EPS {
                assert_eq!(analysis.fen(style, ep), Some(write_fen(pos, style, ep)));
            }
        }
        assert_round_trip(pos, opts);
        let repaired = analysis
            .repair()
            .expect("a valid analysis repairs to itself");
        assert!(repaired.changes.is_empty(), "{:?}", repaired.changes);
    } else {
        for style in STYLES {
            assert_eq!(analysis.fen(style, EpMode::Legal), None);
        }
        if let Some(repaired) = analysis.repair() {
            assert!(analysis.is_repairable());
            assert!(
                !repaired.changes.is_empty(),
                "an invalid input repaired with no change"
            );
            for change in &repaired.changes {
                assert!(
                    change.fix.is_some(),
                    "repaired an error without a fix: {change:?}"
                );
            }
            assert_round_trip(&repaired.position, opts);
        }
    }
    analysis
}

fuzz_target!(|data: &[u8]| {
    let chess960 = check(data, &options(true));
    let standard = check(data, &options(false));
    if standard.is_valid() {
        assert!(!standard.needs_chess960());
        assert!(
            chess960.is_valid(),
            "valid only under standard rules: {:?}",
            chess960.diagnostics()
        );
        for style in STYLES {
            for ep in EPS {
                assert_eq!(standard.fen(style, ep), chess960.fen(style, ep));
            }
        }
    }
});
