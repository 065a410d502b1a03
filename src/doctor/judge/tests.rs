//! Unit tests of the move judging: legality, perft divide, hostile verdicts, movetime.

use super::*;
use crate::doctor::report::Status;
use crate::rules::{Game, Rules};
use crate::uci::Notation;

fn game(fen: &str) -> Game {
    Game::analyze(&Rules::Chess, fen.as_bytes(), true, false)
        .game
        .expect("valid FEN")
}

fn start() -> Game {
    Game::start(&Rules::Chess).unwrap()
}

#[test]
fn bestmove_and_ponder_are_checked_in_the_root() {
    let root = start();
    assert!(bestmove_errors(b"bestmove e2e4 ponder e7e5", &root, Notation::Standard).is_empty());
    assert_eq!(
        bestmove_errors(b"bestmove e2e5", &root, Notation::Standard).len(),
        1
    );
    assert_eq!(
        bestmove_errors(b"bestmove e2e4 ponder e2e4", &root, Notation::Standard).len(),
        1
    );
    assert_eq!(
        bestmove_of(b"bestmove g1f3 ponder g8f6"),
        Some(("g1f3".to_owned(), Some("g8f6".to_owned())))
    );
    assert_eq!(
        bestmove_of(b"bestmove g1f3 "),
        Some(("g1f3".to_owned(), None))
    );
}

#[test]
fn a_castle_written_in_the_other_notation_is_an_error() {
    let g = game("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert!(bestmove_errors(b"bestmove e1h1", &g, Notation::Chess960).is_empty());
    let e = bestmove_errors(b"bestmove e1g1", &g, Notation::Chess960);
    assert!(e.iter().any(|e| e.contains("is written `e1h1`")), "{e:?}");
    assert!(bestmove_errors(b"bestmove e1g1", &g, Notation::Standard).is_empty());
}

#[test]
fn pv_error_names_the_first_illegal_move() {
    let root = start();
    assert_eq!(
        pv_error(b"info depth 2 pv e2e4 e7e5", &root, Notation::Standard),
        None
    );
    let e = pv_error(b"info depth 2 pv e2e4 e2e4", &root, Notation::Standard).unwrap();
    assert!(e.starts_with("pv move 2:"), "{e}");
}

#[test]
fn perft_output_is_read_in_stockfish_shape() {
    let lines: Vec<String> = [
        "info string x",
        "a2a3: 380",
        "b2b3: 420",
        "",
        "Nodes searched: 800",
    ]
    .map(str::to_owned)
    .into();
    let p = parse_perft(&lines);
    assert_eq!(p.total, Some(800));
    assert_eq!(p.divide, [("a2a3".into(), 380), ("b2b3".into(), 420)]);
}

#[test]
fn divide_difference_names_missing_extra_and_wrong_moves() {
    let root = start();
    let ours = divide(&root, 2, Notation::Standard);
    assert_eq!(ours.len(), 20);
    assert!(ours.iter().all(|(_, n)| *n == 20));
    let mut theirs: Vec<(String, u64)> = ours.clone();
    theirs.retain(|(m, _)| m != "a2a3");
    theirs[0].1 = 19;
    theirs.push(("e2e5".into(), 1));
    let diff = compare_divide(&root, Notation::Standard, &ours, &theirs);
    assert_eq!(diff.missing, ["a2a3"]);
    assert_eq!(diff.extra, ["e2e5"]);
    assert_eq!(diff.wrong, [(theirs[0].0.clone(), 20, 19)]);
    assert!(compare_divide(&root, Notation::Standard, &ours, &ours).is_empty());
}

#[test]
fn a_castle_in_either_notation_is_the_same_divide_move() {
    let g = game("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let ours = divide(&g, 1, Notation::Chess960);
    assert!(ours.iter().any(|(m, _)| m == "e1h1"));
    let theirs: Vec<(String, u64)> = ours
        .iter()
        .map(|(m, n)| {
            (
                if m == "e1h1" {
                    "e1g1".into()
                } else {
                    m.clone()
                },
                *n,
            )
        })
        .collect();
    let diff = compare_divide(&g, Notation::Chess960, &ours, &theirs);
    assert!(diff.missing.is_empty() && diff.wrong.is_empty(), "{diff:?}");
    assert_eq!(diff.notation, [("e1g1".to_owned(), "e1h1".to_owned())]);
    assert!(!diff.is_empty());
}

fn answered(best: &str) -> Observed {
    Observed::Answered {
        bestmove: Some(best.to_owned()),
        complaint: None,
    }
}

#[test]
fn hostile_verdicts() {
    let marker = game("7k/8/8/8/8/8/8/K6N w - - 0 1");
    let n = Notation::Standard;
    let refuse = Expect::Refuse { cut: Some(start()) };
    let crash = Observed::Crashed("signal 11 (SIGSEGV)".into());
    assert_eq!(hostile_verdict(&refuse, &crash, &marker, n).0, Status::Fail);
    assert_eq!(
        hostile_verdict(&refuse, &answered("0000"), &marker, n).0,
        Status::Pass
    );
    let (s, d) = hostile_verdict(&refuse, &answered("g1f3"), &marker, n);
    assert_eq!(s, Status::Fail);
    assert!(d.contains("silently cut"), "{d}");
    assert_eq!(
        hostile_verdict(&refuse, &answered("h1g3"), &marker, n).0,
        Status::Warn
    );
    let plain = Expect::Refuse { cut: None };
    let (s, d) = hostile_verdict(&plain, &answered("d7d5"), &marker, n);
    assert_eq!(s, Status::Fail);
    assert!(d.contains("silent nonsense"), "{d}");
    let legal = Expect::Legal {
        position: game("4k3/8/8/8/8/8/8/4K3 w - - 0 1"),
        refusal_ok: true,
    };
    assert_eq!(
        hostile_verdict(&legal, &answered("e1g1"), &marker, n).0,
        Status::Fail
    );
    assert_eq!(
        hostile_verdict(&legal, &answered("e1d1"), &marker, n).0,
        Status::Pass
    );
    assert_eq!(
        hostile_verdict(&legal, &answered("0000"), &marker, n).0,
        Status::Pass
    );
    assert_eq!(
        hostile_verdict(&Expect::Survive, &Observed::Hung(3), &marker, n).0,
        Status::Fail
    );
}

#[test]
fn complaints_are_told_from_search_output() {
    assert!(is_complaint("info string Invalid FEN"));
    assert!(is_complaint("Unknown command: xyzzy"));
    assert!(!is_complaint("info depth 1 score cp 3 pv e2e4"));
}

#[test]
fn movetime_is_judged_on_the_median() {
    assert_eq!(movetime_verdict(500, &[3, 5, 900]).0, Status::Pass);
    let (s, d) = movetime_verdict(500, &[1000, 1002, 998]);
    assert_eq!(s, Status::Fail);
    assert!(d.contains("at least 1002 ms"), "{d}");
    assert_eq!(movetime_verdict(500, &[200, 250, 300]).0, Status::Warn);
}

#[test]
fn an_illegal_listed_move_and_a_missing_one_are_named_when_the_totals_agree() {
    let root = start();
    let ours = divide(&root, 2, Notation::Standard);
    let mut theirs = ours.clone();
    theirs.push(("z9z9".into(), 0));
    let diff = compare_divide(&root, Notation::Standard, &ours, &theirs);
    assert_eq!(diff.extra, ["z9z9"]);
    assert!(diff.missing.is_empty() && diff.wrong.is_empty());
    let mut theirs = ours.clone();
    let (gone, n) = theirs.pop().unwrap();
    theirs[0].1 += n;
    let diff = compare_divide(&root, Notation::Standard, &ours, &theirs);
    assert_eq!(diff.missing, [gone]);
    assert_eq!(diff.wrong.len(), 1);
}

#[test]
fn a_king_to_target_castle_under_chess960_is_named() {
    // The inner rook on b1: O-O-O is `e1b1`; `e1c1` is the king's target square.
    let g = game("rr2k3/8/8/8/8/8/8/RR2K3 w Bb - 0 1");
    let ours = divide(&g, 1, Notation::Chess960);
    assert!(ours.iter().any(|(m, _)| m == "e1b1"), "{ours:?}");
    let theirs: Vec<(String, u64)> = ours
        .iter()
        .map(|(m, n)| {
            (
                if m == "e1b1" {
                    "e1c1".into()
                } else {
                    m.clone()
                },
                *n,
            )
        })
        .collect();
    let diff = compare_divide(&g, Notation::Chess960, &ours, &theirs);
    assert!(!diff.is_empty(), "{diff:?}");
    let text = crate::doctor::movegen::diff_text(&diff, Notation::Chess960);
    assert!(text.contains("e1c1"), "{text}");
}
