//! `valid_position`, the lean path of `fenguard check --format fen`: verdicts and positions
//! (its agreement with `analyze` on every kind of input is a property in `fen_props.rs`).

use fenguard::fen::{CastlingStyle, EpMode, Geometry, Options, valid_position, write_fen};
use shakmaty::{Chess, Position};

const STANDARD: Options = Options {
    chess960_allowed: false,
    geometry: Geometry::STANDARD,
};

#[test]
fn lean_accepts_a_valid_fen_with_its_normalized_position() {
    let lean = valid_position(b"  r3k2r/8/8/8/8/8/8/R3K2R  w KQkq -", &Options::default());
    let written = lean.map(|p| write_fen(&p, CastlingStyle::Shredder, EpMode::Legal));
    assert_eq!(
        written.as_deref(),
        Some("r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1")
    );
}

#[test]
fn lean_rejects_a_position_without_black_king() {
    assert_eq!(
        valid_position(b"8/8/8/8/8/8/8/4K3 w - - 0 1", &Options::default()),
        None
    );
}

#[test]
fn lean_rejects_a_chess960_right_under_standard_rules() {
    let input = b"4k3/8/8/8/8/8/8/1R2K3 w B - 0 1";
    assert!(valid_position(input, &Options::default()).is_some());
    assert_eq!(valid_position(input, &STANDARD), None);
}

#[test]
fn lean_keeps_a_checkmated_position_valid() {
    let input = b"rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
    let lean = valid_position(input, &Options::default()).map(|p: Chess| p.is_checkmate());
    assert_eq!(lean, Some(true));
}
