//! Missing fields are read from what the other fields look like (SPEC 6, repair bullet; SPEC 7
//! `missing-field`): every combination of missing fields of FENs with distinct values, a
//! property over played positions, and the diagnostic's field name and place.
//!
//! Rule under test: a value stays in its own field or the input is rejected; a value never
//! moves into another field's place.

use crate::support;

use fenguard::fen::{CastlingStyle, Code, EpMode, Options, Severity, analyze};
use proptest::prelude::*;
use shakmaty::{Chess, EnPassantMode, Position, fen::Fen};

/// The six fields of `fen` with those in `drop` (indices 1-5) left out.
fn without(fen: &str, drop: &[usize]) -> String {
    fen.split(' ')
        .enumerate()
        .filter(|(i, _)| !drop.contains(i))
        .map(|(_, f)| f)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The six fields of `fen` with those in `drop` replaced by their defaults `w - - 0 1`.
fn defaulted(fen: &str, drop: &[usize]) -> String {
    const DEFAULTS: [&str; 6] = ["", "w", "-", "-", "0", "1"];
    fen.split(' ')
        .enumerate()
        .map(|(i, f)| if drop.contains(&i) { DEFAULTS[i] } else { f })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The FEN fenguard reads `input` as (every ep square kept), or `None` when it rejects it
/// with a `missing-field` error. Panics when the input is invalid for another reason.
fn read(input: &str) -> Option<String> {
    let analysis = analyze(input.as_bytes(), &Options::default());
    let field_error = analysis
        .diagnostics()
        .iter()
        .any(|d| d.code == Code::MissingField && d.is_error());
    if field_error {
        assert!(analysis.repair().is_none(), "{input}: repaired");
        return None;
    }
    let fen = analysis.fen(CastlingStyle::XFen, EpMode::Fen);
    assert!(fen.is_some(), "{input}: {:#?}", analysis.diagnostics());
    fen
}

/// Two bases whose five fields after the placement all differ from the defaults (the first
/// with a nonzero halfmove clock), and the issue's case.
const BASES: [&str; 3] = [
    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 3 12",
    "rnbqkbnr/pppp1ppp/8/8/3pP3/8/PPP2PPP/RNBQKBNR b Kq e3 0 40",
    "4k3/8/8/8/8/8/8/Q3K3 w - - 0 120",
];

/// Every subset of fields 2-5 dropped from each base (the active color kept): `true` where
/// one reading remains (the values kept in place, defaults for the dropped fields), `false`
/// where two readings remain (rejected). Rows: base, dropped fields, one reading.
const TABLE: &[(usize, &[usize], bool)] = &[
    (0, &[], true),
    (0, &[5], false), // `3`: halfmove clock or fullmove number
    (0, &[4], false), // `12`
    (0, &[4, 5], true),
    (0, &[3], true), // `b KQkq 3 12`: en passant missing
    (0, &[3, 5], false),
    (0, &[3, 4], false),
    (0, &[3, 4, 5], true),
    (0, &[2], true), // `b e3 3 12`: castling missing
    (0, &[2, 5], false),
    (0, &[2, 4], false),
    (0, &[2, 4, 5], true),
    (0, &[2, 3], true), // `b 3 12`
    (0, &[2, 3, 5], false),
    (0, &[2, 3, 4], false),
    (0, &[2, 3, 4, 5], true),
    (1, &[], true),
    (1, &[5], true), // `0`: as halfmove clock or fullmove number, the same values
    (1, &[4], false),
    (1, &[4, 5], true),
    (1, &[3], true),
    (1, &[3, 5], true),
    (1, &[3, 4], false),
    (1, &[3, 4, 5], true),
    (1, &[2], true),
    (1, &[2, 5], true),
    (1, &[2, 4], false),
    (1, &[2, 4, 5], true),
    (1, &[2, 3], true),
    (1, &[2, 3, 5], true),
    (1, &[2, 3, 4], false),
    (1, &[2, 3, 4, 5], true),
    (2, &[3], true), // the issue: `w - 0 120`
    (2, &[2], true), // the same text
    (2, &[2, 3], true),
    (2, &[4], false),
    (2, &[5], true),
];

#[test]
fn every_combination_of_missing_fields_keeps_values_in_place_or_is_rejected() {
    for &(base, drop, one_reading) in TABLE {
        let fen = BASES[base];
        let input = without(fen, drop);
        let want = one_reading.then(|| read(&defaulted(fen, drop)).expect("the defaulted FEN"));
        assert_eq!(read(&input), want, "{input:?} (dropped {drop:?})");
    }
}

#[test]
fn the_issue_case_keeps_fullmove_120_and_halfmove_0() {
    assert_eq!(
        read("4k3/8/8/8/8/8/8/Q3K3 w - 0 120").as_deref(),
        Some("4k3/8/8/8/8/8/8/Q3K3 w - - 0 120")
    );
}

#[test]
fn a_missing_en_passant_field_is_named_at_its_place() {
    let input = "4k3/8/8/8/8/8/8/Q3K3 w - 0 120";
    let d = support::only(input, Code::MissingField, &Options::default());
    assert_eq!((d.severity, d.span), (Severity::Warning, Some(25..25)));
    assert!(
        d.message.starts_with("missing en passant "),
        "{}",
        d.message
    );
    assert!(
        d.message
            .contains("`0` as the halfmove clock, `120` as the fullmove number"),
        "{}",
        d.message
    );
    assert_eq!(d.fix.as_deref(), Some("insert the defaults `-` here"));
}

#[test]
fn a_missing_castling_field_is_named_at_its_place() {
    let input = "4k3/8/8/8/4P3/8/8/4K3 b e3 0 9";
    let d = support::only(input, Code::MissingField, &Options::default());
    assert_eq!((d.severity, d.span), (Severity::Warning, Some(24..24)));
    assert!(d.message.starts_with("missing castling "), "{}", d.message);
}

#[test]
fn a_lone_counter_is_rejected_naming_both_readings() {
    let input = "4k3/8/8/8/8/8/8/Q3K3 w - - 120";
    let d = support::only(input, Code::MissingField, &Options::default());
    assert_eq!((d.severity, d.span), (Severity::Error, Some(27..30)));
    assert!(
        d.message
            .contains("`120` reads as the halfmove clock or the fullmove number"),
        "{}",
        d.message
    );
    assert_eq!(d.fix, None);
    assert!(
        analyze(input.as_bytes(), &Options::default())
            .repair()
            .is_none()
    );
}

#[test]
fn a_lone_zero_counter_is_the_halfmove_clock_as_python_chess_reads_it() {
    let input = "4k3/8/8/8/8/8/8/Q3K3 w - - 0";
    let d = support::only(input, Code::MissingField, &Options::default());
    assert_eq!((d.severity, d.span), (Severity::Warning, Some(28..28)));
    assert_eq!(d.message, "missing fullmove number; expected six fields");
    assert_eq!(
        read(input).as_deref(),
        Some("4k3/8/8/8/8/8/8/Q3K3 w - - 0 1")
    );
}

#[test]
fn a_missing_active_color_is_never_guessed() {
    for (input, end) in [
        ("4k3/8/8/8/8/8/8/Q3K3 - - 0 1", 22),
        ("4k3/8/8/8/8/8/8/Q3K3 KQ - 0 1", 23),
        ("4k3/8/8/8/8/8/8/Q3K3 0 1", 22),
    ] {
        let d = support::only(input, Code::MissingField, &Options::default());
        assert_eq!(
            (d.severity, d.span),
            (Severity::Error, Some(21..end)),
            "{input}"
        );
        assert!(
            d.message.starts_with("missing active color"),
            "{}",
            d.message
        );
        assert_eq!(read(input), None);
    }
}

#[test]
fn values_out_of_order_are_rejected_not_moved() {
    let input = "4k3/8/8/8/4P3/8/8/4K3 b e3 KQ 0";
    let d = support::only(input, Code::MissingField, &Options::default());
    assert_eq!((d.severity, d.span), (Severity::Error, Some(24..26)));
    assert!(
        d.message.contains(
            "`e3` looks like the en passant square but stands where the castling field belongs"
        ),
        "{}",
        d.message
    );
    assert_eq!(read(input), None);
    // Only the one finding: no field is read from another field's value.
    let analysis = analyze(input.as_bytes(), &Options::default());
    assert_eq!(
        analysis.diagnostics().len(),
        1,
        "{:#?}",
        analysis.diagnostics()
    );
}

#[test]
fn dash_counters_with_a_missing_field_still_repair_to_defaults() {
    // Public case R16 writes `-` for counters; with one field fewer it still has one reading.
    let input = "4k3/8/8/8/8/8/8/Q3K3 w - - -";
    let analysis = analyze(input.as_bytes(), &Options::default());
    let repaired = analysis.repair().expect("repairable");
    assert_eq!(
        repaired.fen(CastlingStyle::XFen, EpMode::Fen),
        "4k3/8/8/8/8/8/8/Q3K3 w - - 0 1"
    );
}

/// A position after `plies` pseudo-random legal moves from the start, its FEN with every ep
/// square written.
fn played(choices: &[usize], halfmove_bump: u32) -> String {
    let mut pos = Chess::default();
    for &c in choices {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        pos.play_unchecked(moves[c % moves.len()]);
    }
    let mut fen = Fen::from_position(&pos, EnPassantMode::Always).to_string();
    if halfmove_bump > 0 {
        let mut fields: Vec<String> = fen.split(' ').map(str::to_owned).collect();
        let h: u32 = fields[4].parse().unwrap_or(0);
        fields[4] = (h + halfmove_bump).to_string();
        fen = fields.join(" ");
    }
    fen
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Dropping any subset of fields 2-5 from a valid FEN: either fenguard reads the values
    /// where they stood (defaults for the dropped fields: the same verdict, position and
    /// repair as the FEN with the defaults written in place), or it rejects the input with a
    /// `missing-field` error. Never a value in another field.
    #[test]
    fn dropping_fields_keeps_values_in_place_or_rejects(
        choices in proptest::collection::vec(any::<usize>(), 0..60),
        bump in prop_oneof![Just(0u32), 1u32..150],
        drop_mask in 0u8..16,
    ) {
        let fen = played(&choices, bump);
        let drop: Vec<usize> = (2..=5).filter(|f| drop_mask & (1 << (f - 2)) != 0).collect();
        let input = without(&fen, &drop);
        let filled = defaulted(&fen, &drop);
        let opts = Options::default();
        let got = analyze(input.as_bytes(), &opts);
        let field_error = got
            .diagnostics()
            .iter()
            .any(|d| d.code == Code::MissingField && d.is_error());
        if field_error {
            prop_assert!(!got.is_valid() && got.repair().is_none(), "{input}");
        } else {
            let want = analyze(filled.as_bytes(), &opts);
            prop_assert_eq!(got.is_valid(), want.is_valid(), "{} vs {}", input, filled);
            prop_assert_eq!(
                got.fen(CastlingStyle::Shredder, EpMode::Fen),
                want.fen(CastlingStyle::Shredder, EpMode::Fen),
                "{} vs {}", input, filled
            );
            prop_assert_eq!(
                got.repair().map(|r| r.fen(CastlingStyle::Shredder, EpMode::Fen)),
                want.repair().map(|r| r.fen(CastlingStyle::Shredder, EpMode::Fen)),
                "{} vs {}", input, filled
            );
        }
    }
}
