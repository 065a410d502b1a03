//! `--minimize`: delta debugging (Zeller's ddmin) over a failing session's steps, then over the
//! moves of each `position ... moves` line left, keeping a failure of the same kind (a crash
//! with the same signal or exit status, or a hang); the result is written as a UCI script.
//!
//! ```
//! use fenguard::replay::minimize::ddmin;
//!
//! // The "failure" needs items 3 and 7 together.
//! let items: Vec<u32> = (0..10).collect();
//! let min = ddmin(&items, |c| c.contains(&3) && c.contains(&7));
//! assert_eq!(min, vec![3, 7]);
//! ```

use std::collections::HashMap;
use std::time::Duration;

use super::engine::Engine;
use super::plan::{Step, StepKind};
use super::run::{At, Failure, Target, run};

/// The smallest subsequence of `items` found for which `fails` holds (1-minimal: removing any
/// one item makes it pass), given that it holds for `items`. Each distinct candidate is tested
/// once.
pub fn ddmin<T: Clone>(items: &[T], mut fails: impl FnMut(&[T]) -> bool) -> Vec<T> {
    let mut seen: HashMap<Vec<usize>, bool> = HashMap::new();
    let mut test = |idx: &[usize]| -> bool {
        if let Some(&r) = seen.get(idx) {
            return r;
        }
        let candidate: Vec<T> = idx.iter().map(|&i| items[i].clone()).collect();
        let r = fails(&candidate);
        seen.insert(idx.to_vec(), r);
        r
    };
    let mut current: Vec<usize> = (0..items.len()).collect();
    let mut n = 2;
    while current.len() >= 2 {
        let chunk = current.len().div_ceil(n);
        let chunks: Vec<Vec<usize>> = current.chunks(chunk).map(<[usize]>::to_vec).collect();
        let mut reduced = false;
        for c in &chunks {
            if test(c) {
                current.clone_from(c);
                n = 2;
                reduced = true;
                break;
            }
        }
        if !reduced && chunks.len() > 2 {
            for (k, _) in chunks.iter().enumerate() {
                let complement: Vec<usize> = chunks
                    .iter()
                    .enumerate()
                    .filter(|(j, _)| *j != k)
                    .flat_map(|(_, c)| c.iter().copied())
                    .collect();
                if test(&complement) {
                    current = complement;
                    n = (n - 1).max(2);
                    reduced = true;
                    break;
                }
            }
        }
        if !reduced {
            if n >= current.len() {
                break;
            }
            n = (2 * n).min(current.len());
        }
    }
    if current.len() == 1 && test(&[]) {
        current.clear();
    }
    current.iter().map(|&i| items[i].clone()).collect()
}

/// A `position` line split at its `moves`: the part before and the moves.
fn split_moves(line: &str) -> Option<(String, Vec<String>)> {
    let words: Vec<&str> = line.split_ascii_whitespace().collect();
    let at = words.iter().position(|w| *w == "moves")?;
    let moves: Vec<String> = words[at + 1..].iter().map(|w| (*w).to_owned()).collect();
    Some((words[..at].join(" "), moves))
}

fn with_moves(head: &str, moves: &[String]) -> String {
    if moves.is_empty() {
        head.to_owned()
    } else {
        format!("{head} moves {}", moves.join(" "))
    }
}

/// What `--minimize` found.
#[derive(Debug, Clone)]
pub struct Minimized {
    /// The steps left.
    pub steps: Vec<Step>,
    /// The failure they still give.
    pub failure: Failure,
    /// How many runs of the engine it took.
    pub runs: usize,
}

/// Shrinks `steps`, which fail with `failure` (a crash or hang) against `target`.
pub fn minimize(target: &Target, steps: &[Step], failure: &Failure) -> Minimized {
    let last = match failure {
        Failure::Crash {
            at: At::Step(i), ..
        }
        | Failure::Hang {
            at: At::Step(i), ..
        } => *i + 1,
        Failure::Crash {
            at: At::Handshake, ..
        }
        | Failure::Hang {
            at: At::Handshake, ..
        } => 0,
        _ => steps.len(),
    };
    let mut runs = 0;
    let mut kept = failure.clone();
    let mut fails = |candidate: &[Step]| -> bool {
        runs += 1;
        let found = run(target, candidate).ok().and_then(|o| o.fatal().cloned());
        match found {
            Some(f) if f.same_kind(failure) => {
                kept = f;
                true
            }
            _ => false,
        }
    };
    let mut current = ddmin(&steps[..last.min(steps.len())], &mut fails);
    for i in 0..current.len() {
        if current[i].kind != StepKind::Position {
            continue;
        }
        let Some((head, moves)) = split_moves(&current[i].line) else {
            continue;
        };
        if moves.is_empty() {
            continue;
        }
        let base = current.clone();
        let fewer = ddmin(&moves, |m| {
            let mut candidate = base.clone();
            candidate[i].line = with_moves(&head, m);
            fails(&candidate)
        });
        current[i].line = with_moves(&head, &fewer);
    }
    // The failure of the result as it stands (the last run may have been another candidate).
    let _ = fails(&current);
    Minimized {
        steps: current,
        failure: kept,
        runs,
    }
}

/// The UCI script of `steps`: `uci` and `isready` first, so that it works piped into the
/// engine (`engine < repro.uci`), then the lines.
pub fn script(steps: &[Step]) -> String {
    let mut text = String::from("uci\nisready\n");
    for step in steps {
        text.push_str(&step.line);
        text.push('\n');
    }
    text
}

/// Whether `script`, piped into the engine at once (input closed after it), makes it fail as
/// `failure` does: a crash (a failing exit) or a hang (still running after `bound`).
pub fn fails_piped(target: &Target, script: &str, failure: &Failure, bound: Duration) -> bool {
    let Ok(mut engine) = Engine::start(&target.program, &target.args) else {
        return false;
    };
    engine.send_all_and_close(script);
    match (engine.exit_within(bound), failure) {
        (
            Some(exit),
            Failure::Crash {
                exit: Some(want), ..
            },
        ) => exit == *want,
        (Some(exit), Failure::Crash { exit: None, .. }) => exit.failed(),
        (None, Failure::Hang { .. }) => true,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ddmin_finds_one_item() {
        let items: Vec<u32> = (0..17).collect();
        assert_eq!(ddmin(&items, |c| c.contains(&11)), vec![11]);
    }

    #[test]
    fn ddmin_keeps_what_always_fails_empty() {
        assert_eq!(ddmin(&[1, 2, 3], |_| true), Vec::<i32>::new());
    }

    #[test]
    fn position_lines_split_at_moves() {
        let (head, moves) = split_moves("position startpos moves e2e4 e7e5").unwrap();
        assert_eq!(head, "position startpos");
        assert_eq!(moves, ["e2e4", "e7e5"]);
        assert_eq!(
            with_moves(&head, &moves[..1]),
            "position startpos moves e2e4"
        );
        assert_eq!(with_moves(&head, &[]), "position startpos");
        assert!(split_moves("position fen 8/8/8/8/8/8/8/8 w - - 0 1").is_none());
    }
}
