//! `fenguard check` boards: chess, Chess960, 10x8, crazyhouse pockets, a repair's two boards,
//! and each diagnostic kind that names a square, with and without colour.

use crate::common::check::{check, stdout};
use crate::snapshot;

/// One FEN for each diagnostic kind that names a square (and the legend line it must give).
const KINDS: &[(&str, &str)] = &[
    (
        "4k3/8/8/8/8/8/8/4K3 w K - 0 1",
        "[h1 castling] castling-without-rook",
    ),
    ("4k2P/8/8/8/8/8/8/4K3 w - - 0 1", "[h8] pawn-on-back-rank"),
    ("4k3/8/8/8/8/8/8/4K1Kk w - - 0 1", "[e8] too-many-kings"),
    ("4k3/4R3/8/8/8/8/8/4K3 w - - 0 1", "[e8] opposite-check"),
    (
        "4k3/8/8/8/8/8/8/4K2R b K e3 0 1",
        "[e3 e4 ep] ep-without-pawn",
    ),
    (
        "4k3/8/8/3pP3/8/8/8/4K3 w - d5 0 1",
        "[d5 ep] ep-square-wrong-rank",
    ),
    (
        "4k3/8/3p4/3pP3/8/8/8/4K3 w - d6 0 1",
        "[d6 ep] ep-square-occupied",
    ),
    (
        "4k3/8/8/8/8/8/4K3/R6R w K - 0 1",
        "[h1 castling] castling-without-king",
    ),
    (
        "4k3/8/9/8/8/8/8/4K3 w - - 0 1",
        "[a6 b6 c6 d6 e6 f6 g6 h6 i6] rank-too-long",
    ),
    ("4k3/8/8/3X4/8/8/8/4K3 w - - 0 1", "[d5] unknown-piece"),
];

#[test]
fn each_square_kind_marks_its_square_in_letters() {
    let fens: Vec<&str> = KINDS.iter().map(|(f, _)| *f).collect();
    let o = check(&["--color", "never", "-"], &(fens.join("\n") + "\n"));
    let out = stdout(&o);
    for (fen, legend) in KINDS {
        assert!(out.contains(legend), "{fen}: no `{legend}` in\n{out}");
    }
    snapshot("check_kinds", &out);
}

#[test]
fn each_square_kind_marks_its_square_in_colour() {
    let fens: Vec<&str> = KINDS.iter().map(|(f, _)| *f).collect();
    let o = check(&["--color", "always", "-"], &(fens.join("\n") + "\n"));
    let out = stdout(&o);
    // The error mark is a red background, the carets red.
    assert!(out.contains("\x1b[48;5;196m"), "{out}");
    assert!(out.contains("\x1b[1;31m^"), "{out}");
    snapshot("check_kinds_color", &out);
}

#[test]
fn a_repair_shows_both_boards_with_the_change_marked() {
    let o = check(
        &[
            "--repair",
            "--color",
            "never",
            "4k3/8/8/8/8/8/8/4K3 w K - 0 1",
        ],
        "",
    );
    let out = stdout(&o);
    assert!(out.contains("    as given"), "{out}");
    assert!(out.contains("repaired"), "{out}");
    assert!(out.contains("[castling -]"), "{out}");
    snapshot("check_repair", &out);
}

#[test]
fn a_normalized_position_shows_both_boards() {
    // The en passant square nobody can use is dropped.
    let o = check(
        &[
            "--color",
            "never",
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
        ],
        "",
    );
    let out = stdout(&o);
    assert!(out.contains("normalized"), "{out}");
    assert!(out.contains("[ep -]"), "{out}");
    snapshot("check_normalized", &out);
}

#[test]
fn chess960_board_in_letters_and_unicode_colour() {
    let fen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
    let letters = check(&["--board", "always", "--color", "never", fen], "");
    snapshot("check_chess960", &stdout(&letters));
    let colour = check(
        &["--board", "always", "--color", "always", "--unicode", fen],
        "",
    );
    assert!(stdout(&colour).contains('♚'));
    snapshot("check_chess960_color", &stdout(&colour));
    // Under standard rules the rights need Chess960: the king and rook squares are marked.
    let standard = check(&["--standard", "--color", "never", fen], "");
    snapshot("check_chess960_standard", &stdout(&standard));
}

#[test]
fn capablanca_board_is_ten_files_wide() {
    let fen = "rnabqkbcnr/pppppppppp/10/10/4P5/10/PPPP1PPPPP/RNABQKBCNR b KQkq - 0 1";
    let o = check(
        &[
            "--variant",
            "capablanca",
            "--board",
            "always",
            "--color",
            "never",
            fen,
        ],
        "",
    );
    let out = stdout(&o);
    assert!(out.contains("   a  b  c  d  e  f  g  h  i  j"), "{out}");
    snapshot("check_capablanca", &out);
    let bad = "rnabqkbcnr/pppppppppp/11/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1";
    let o = check(&["--variant", "capablanca", "--color", "always", bad], "");
    snapshot("check_capablanca_color", &stdout(&o));
}

#[test]
fn crazyhouse_pockets_are_drawn() {
    let fen = "r1bqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Nn] w KQkq - 0 1";
    let o = check(
        &[
            "--variant",
            "crazyhouse",
            "--board",
            "always",
            "--color",
            "never",
            fen,
        ],
        "",
    );
    let out = stdout(&o);
    assert!(out.contains("black in hand: n"), "{out}");
    assert!(out.contains("white in hand: N"), "{out}");
    snapshot("check_crazyhouse", &out);
    let o = check(
        &[
            "--variant",
            "crazyhouse",
            "--board",
            "always",
            "--color",
            "always",
            fen,
        ],
        "",
    );
    snapshot("check_crazyhouse_color", &stdout(&o));
}

#[test]
fn board_never_and_valid_auto_draw_nothing() {
    let fen = "4k3/8/8/8/8/8/8/4K3 w K - 0 1";
    let o = check(&["--board", "never", fen], "");
    assert!(!stdout(&o).contains(" a  b  c"), "{}", stdout(&o));
    let o = check(&["4k3/8/8/8/8/8/8/4K3 w - - 0 1"], "");
    assert_eq!(stdout(&o), "line 1: valid: 4k3/8/8/8/8/8/8/4K3 w - - 0 1\n");
}

#[test]
fn no_color_and_a_pipe_give_letters() {
    // Standard output is a pipe here: `auto` means no colour, letters.
    let o = check(&["4k3/8/8/8/8/8/8/4K3 w K - 0 1"], "");
    assert!(!stdout(&o).contains('\x1b'), "{}", stdout(&o));
    assert!(stdout(&o).contains(" [.]"), "{}", stdout(&o));
}
