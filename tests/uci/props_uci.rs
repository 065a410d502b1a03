//! Property tests of the UCI line layer on arbitrary and UCI-like lines: no panics, spans in
//! the line, rewrites that keep every other token, and engine moves that replay to the same
//! position. The invariants are shared with the `uci_lines` fuzz target
//! (`tests/invariants/uci.rs`).

#[path = "../invariants/uci.rs"]
mod invariants;

use proptest::prelude::*;

/// Words of UCI lines and moves that matter in the fixed positions (castles both ways,
/// promotions, null moves), mixed with arbitrary tokens.
fn word() -> impl Strategy<Value = Vec<u8>> {
    const WORDS: &[&str] = &[
        "position",
        "startpos",
        "fen",
        "moves",
        "go",
        "searchmoves",
        "infinite",
        "ponder",
        "bestmove",
        "info",
        "pv",
        "currmove",
        "refutation",
        "currline",
        "string",
        "depth",
        "score",
        "cp",
        "mate",
        "wdl",
        "setoption",
        "name",
        "value",
        "option",
        "type",
        "UCI_Chess960",
        "true",
        "e1g1",
        "e1h1",
        "e1c1",
        "e1a1",
        "e8g8",
        "e8h8",
        "e8c8",
        "e8a8",
        "b1a1",
        "b1c1",
        "f1h1",
        "f1g1",
        "e1f1",
        "c8b8",
        "e2e4",
        "e7e5",
        "a7a8q",
        "0000",
        "(none)",
        "1",
        "w",
        "-",
    ];
    prop_oneof![
        4 => proptest::sample::select(WORDS).prop_map(|w| w.as_bytes().to_vec()),
        1 => proptest::collection::vec(any::<u8>(), 1..6),
    ]
}

fn separator() -> impl Strategy<Value = &'static [u8]> {
    prop_oneof![8 => Just(&b" "[..]), 1 => Just(&b"\t"[..]), 1 => Just(&b"  "[..])]
}

fn uci_like_line() -> impl Strategy<Value = Vec<u8>> {
    (
        proptest::collection::vec((word(), separator()), 0..14),
        prop_oneof![Just(&b"\n"[..]), Just(&b"\r\n"[..]), Just(&b""[..])],
    )
        .prop_map(|(words, end)| {
            let mut line = Vec::new();
            for (w, sep) in words {
                line.extend_from_slice(&w);
                line.extend_from_slice(sep);
            }
            line.extend_from_slice(end);
            line
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn uci_layer_keeps_its_invariants_on_arbitrary_bytes(
        line in proptest::collection::vec(any::<u8>(), 0..80),
    ) {
        invariants::check_line(&line);
    }

    #[test]
    fn uci_layer_keeps_its_invariants_on_uci_like_lines(line in uci_like_line()) {
        invariants::check_line(&line);
    }
}
