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
fn movetime_is_judged_on_the_p90_so_one_stall_in_8_does_not_change_the_verdict() {
    // A healthy engine on a loaded machine: one stall of +772 ms among eight runs.
    let healthy = [3, 5, 2, 8, 4, 772, 6, 1];
    let (s, d) = movetime_verdict(1000, &healthy);
    assert_eq!(s, Status::Pass, "{d}");
    assert!(d.contains("p90 8 ms, max 772 ms"), "{d}");
    assert!(d.contains("move overhead of at least 772 ms"), "{d}");
    // Every order of the same samples, and every stall position: the same verdict.
    for k in 0..8 {
        let mut v = [3, 5, 2, 8, 4, 6, 1, 7];
        v[k] = 900;
        assert_eq!(movetime_verdict(1000, &v).0, Status::Pass);
    }
}

#[test]
fn movetime_fails_an_overshoot_above_max_50_ms_or_10_percent() {
    assert_eq!(movetime_tolerance(300), 50);
    assert_eq!(movetime_tolerance(1000), 100);
    // A 50% overshoot of a 1 s movetime (it warned before).
    let (s, d) = movetime_verdict(1000, &[500; 8]);
    assert_eq!(s, Status::Fail);
    assert!(d.contains("fail: p90 above 100 ms"), "{d}");
    // Just inside and just outside the tolerance at 300 ms.
    assert_eq!(movetime_verdict(300, &[50; 8]).0, Status::Pass);
    assert_eq!(movetime_verdict(300, &[51; 8]).0, Status::Fail);
    // Two slow runs of 8 are the engine's, not the machine's.
    let (s, _) = movetime_verdict(300, &[1, 2, 3, 4, 5, 6, 180, 190]);
    assert_eq!(s, Status::Fail);
    // Two of 20 are left out.
    let mut twenty = vec![10; 18];
    twenty.extend([400, 500]);
    assert_eq!(movetime_verdict(500, &twenty).0, Status::Pass);
    // One run past a second: lost on time with any move overhead.
    let (s, d) = movetime_verdict(300, &[1, 1, 1, 1, 1, 1, 1, 1500]);
    assert_eq!(s, Status::Fail);
    assert!(d.contains("one run over 1000 ms"), "{d}");
    assert_eq!(movetime_verdict(300, &[]).0, Status::Fail);
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
