//! Group 3, move generation: `go perft N` (Stockfish's and Fairy-Stockfish's spelling) on a
//! suite of positions compared with [`crate::rules::perft`]; a difference is divided down to
//! the move that is wrong. An engine without perft has its `bestmove` and `pv` checked over
//! the suite instead. Also used by the Chess960 and variant groups.

use std::time::Duration;

use super::cases::{CHESS_PERFT, SuitePosition, chess_suite};
use super::driver::Ctx;
use super::judge::{DivideDiff, bestmove_errors, compare_divide, divide, parse_perft, pv_error};
use super::report::{CheckResult, Status};
use crate::rules::{Game, GameRules};
use crate::uci::Notation;

/// Whether the engine answers `go perft 1` from the start position with `Nodes searched: 20`.
/// An engine that reads it as a plain `go` is stopped.
pub fn detect_perft(ctx: &mut Ctx) -> bool {
    ctx.engine.send(b"position startpos");
    ctx.engine.send(b"go perft 1");
    let r = ctx.engine.read_until(Duration::from_secs(3), |l| {
        l.starts_with(b"Nodes searched") || crate::uci::command_word(l) == b"bestmove"
    });
    let found = r
        .last()
        .is_some_and(|l| l.line.starts_with(b"Nodes searched"));
    if !found {
        if !r.matched {
            ctx.engine.send(b"stop");
            let _ = ctx
                .engine
                .read_until_word(Duration::from_secs(5), "bestmove");
        }
        ctx.fresh(&[]);
    }
    let _ = ctx.engine.take_transcript();
    found
}

/// Runs the group: perft over the chess suite, or the bestmove check without perft.
pub fn run(ctx: &mut Ctx) -> Vec<CheckResult> {
    ctx.step("movegen.perft");
    ctx.fresh(&[]);
    let perft = detect_perft(ctx);
    ctx.perft = perft;
    let suite = chess_suite(&CHESS_PERFT, false);
    let depth = ctx.limits.perft_depth;
    let mut out = Vec::new();
    if perft {
        for p in &suite {
            let r = perft_check(
                ctx,
                "movegen",
                &format!("perft-{}", p.name),
                p,
                depth,
                Notation::Standard,
            );
            out.push(r);
        }
        let user = std::mem::take(&mut ctx.user_perft);
        for (i, (p, d)) in user.iter().enumerate() {
            let name = format!("perft-user-{}", i + 1);
            out.push(perft_check(
                ctx,
                "movegen",
                &name,
                p,
                *d,
                Notation::Standard,
            ));
        }
        ctx.user_perft = user;
    } else {
        out.push(CheckResult::new(
            "movegen",
            "perft",
            Status::Skip,
            "no `go perft N` (read as a plain `go`): bestmove and pv legality checked instead",
        ));
        out.push(legality_check(
            ctx,
            "movegen",
            "bestmove-legal",
            &suite,
            Notation::Standard,
        ));
    }
    ctx.fresh(&[]);
    out.push(super::castling::castle_played(
        ctx,
        "movegen",
        &super::castling::STANDARD_CASTLES,
        Notation::Standard,
    ));
    out
}

/// `go perft depth` from `p`, compared; a difference divided down to the wrong move.
pub fn perft_check(
    ctx: &mut Ctx,
    group: &'static str,
    name: &str,
    p: &SuitePosition,
    depth: u32,
    notation: Notation,
) -> CheckResult {
    ctx.step(&format!("{group}.{name}"));
    let ours = divide(&p.game, depth, notation);
    let expected: u64 = ours.iter().map(|(_, n)| n).sum();
    let Some(theirs) = engine_perft(ctx, &p.line, depth) else {
        let detail = if ctx.engine.ended() {
            let how = ctx.exit_text();
            format!("the engine ended on `go perft {depth}` ({how})")
        } else {
            format!("no `Nodes searched` for `go perft {depth}`")
        };
        let r = ctx.finish(CheckResult::new(group, name, Status::Fail, detail));
        ctx.fresh(&[]);
        return r;
    };
    let total = theirs.total.unwrap_or(0);
    // No divide printed (only `Nodes searched`): the totals are all there is to compare.
    let listed = !theirs.divide.is_empty();
    let agrees = !listed || compare_divide(&p.game, notation, &ours, &theirs.divide).is_empty();
    if total == expected && agrees {
        let _ = ctx.engine.take_transcript();
        let how = if listed {
            ""
        } else {
            " (no divide printed: totals compared)"
        };
        return CheckResult::new(
            group,
            name,
            Status::Pass,
            format!("perft {depth} = {expected}{how}"),
        );
    }
    let mut detail = if total == expected {
        format!(
            "perft {depth} of `{}` = {expected}, but the divide is not the legal moves'",
            p.line
        )
    } else {
        format!(
            "perft {depth} of `{}`: the engine counts {total}, fenguard {expected}",
            p.line
        )
    };
    if listed {
        detail.push_str(&divide_down(ctx, p, depth, notation, theirs.divide));
    }
    ctx.finish(CheckResult::new(group, name, Status::Fail, detail))
}

/// The engine's `go perft depth` after `position`.
fn engine_perft(ctx: &mut Ctx, position: &str, depth: u32) -> Option<super::judge::PerftOutput> {
    ctx.engine.send(position.as_bytes());
    ctx.engine.send(format!("go perft {depth}").as_bytes());
    let limit = ctx.limits.search;
    let r = ctx
        .engine
        .read_until(limit, |l| l.starts_with(b"Nodes searched"));
    if !r.matched {
        return None;
    }
    let lines: Vec<String> = r.lines.iter().map(|l| l.text()).collect();
    Some(parse_perft(&lines))
}

/// A `--perft FEN[:DEPTH]` argument as a suite position (named by its FEN) and its depth
/// (`default` when none is given).
///
/// # Errors
/// A sentence naming the argument when fenguard rejects the FEN (chess rules) or the depth
/// is not a number from 1 to 8.
pub fn user_position(arg: &str, default: u32) -> Result<(SuitePosition, u32), String> {
    let (fen, depth) = match arg.rsplit_once(':') {
        Some((fen, d)) if !d.contains(' ') => {
            let d: u32 = d
                .trim()
                .parse()
                .ok()
                .filter(|d| (1..=8).contains(d))
                .ok_or_else(|| {
                    format!("--perft `{arg}`: depth `{d}` is not a number from 1 to 8")
                })?;
            (fen.trim(), d)
        }
        _ => (arg.trim(), default),
    };
    let line = format!("position fen {fen}");
    let game =
        super::cases::position_of(&crate::rules::Rules::Chess, &line, false).ok_or_else(|| {
            format!("--perft `{arg}`: not a valid chess position (see `fenguard check '{fen}'`)")
        })?;
    Ok((
        SuitePosition {
            name: fen.to_owned(),
            line,
            game,
        },
        depth,
    ))
}

/// Follows the first move whose count differs down to depth 1, where the move lists differ.
fn divide_down(
    ctx: &mut Ctx,
    p: &SuitePosition,
    depth: u32,
    notation: Notation,
    first: Vec<(String, u64)>,
) -> String {
    let mut game: Game = p.game.clone();
    let mut line = p.line.clone();
    let mut path: Vec<String> = Vec::new();
    let mut theirs = first;
    let mut d = depth;
    loop {
        let ours = divide(&game, d, notation);
        let diff = compare_divide(&game, notation, &ours, &theirs);
        let at = if path.is_empty() {
            "at the root".to_owned()
        } else {
            format!("after `{}`", path.join(" "))
        };
        if !diff.notation.is_empty() || !diff.missing.is_empty() || !diff.extra.is_empty() || d == 1
        {
            return format!(
                "; {at} ({}): {}",
                game.message_fen(),
                diff_text(&diff, notation)
            );
        }
        let Some((mv, _, _)) = diff.wrong.first().cloned() else {
            return format!("; {at}: the divide agrees but the totals differ");
        };
        let Ok(reading) = game.read(mv.as_bytes(), notation) else {
            return String::new();
        };
        game.play(reading.mv);
        path.push(mv.clone());
        line = if line.contains(" moves ") {
            format!("{line} {mv}")
        } else {
            format!("{line} moves {mv}")
        };
        d -= 1;
        match engine_perft(ctx, &line, d) {
            Some(t) => theirs = t.divide,
            None => return format!("; the engine gave no perft after `{}`", path.join(" ")),
        }
    }
}

/// What differs in one divide, each move named: `missing a2a3; listed but not legal: z9z9;
/// written in the wrong notation (with UCI_Chess960 a castle is king takes rook): e1c1 for
/// e1a1; wrong counts: ...`.
pub fn diff_text(diff: &DivideDiff, notation: Notation) -> String {
    let mut parts = Vec::new();
    if !diff.missing.is_empty() {
        parts.push(format!("missing {}", diff.missing.join(" ")));
    }
    if !diff.extra.is_empty() {
        parts.push(format!("extra (illegal) {}", diff.extra.join(" ")));
    }
    if !diff.notation.is_empty() {
        let mode = match notation {
            Notation::Chess960 => "with UCI_Chess960 a castle is king takes rook",
            Notation::Standard => "without UCI_Chess960 a castle is the king's two-square move",
        };
        let shown: Vec<String> = diff
            .notation
            .iter()
            .map(|(t, o)| format!("`{t}` for `{o}`"))
            .collect();
        parts.push(format!(
            "moves written in the wrong notation ({mode}): {}",
            shown.join(", ")
        ));
    }
    let wrong: Vec<String> = diff
        .wrong
        .iter()
        .take(3)
        .map(|(m, o, e)| format!("`{m}`: {e} instead of {o}"))
        .collect();
    if !wrong.is_empty() {
        parts.push(wrong.join(" "));
    }
    parts.join("; ")
}

/// Without perft: a short search from each suite position; every `bestmove` and `pv` legal.
pub fn legality_check(
    ctx: &mut Ctx,
    group: &'static str,
    name: &str,
    suite: &[SuitePosition],
    notation: Notation,
) -> CheckResult {
    ctx.step(&format!("{group}.{name}"));
    let mut problems = Vec::new();
    for p in suite {
        let s = ctx.search(&p.line, "go depth 3", ctx.limits.search);
        match &s.bestmove {
            None if s.ended => {
                problems.push(format!("ended on `{}` ({})", p.line, ctx.exit_text()));
                ctx.fresh(&[]);
            }
            None => {
                problems.push(format!("no bestmove for `{}`", p.line));
                ctx.engine.send(b"stop");
                let _ = ctx
                    .engine
                    .read_until_word(Duration::from_secs(2), "bestmove");
            }
            Some(b) => {
                problems.extend(bestmove_errors(b.as_bytes(), &p.game, notation));
                for l in s.infos() {
                    problems.extend(pv_error(&l.line, &p.game, notation));
                }
            }
        }
    }
    let r = if problems.is_empty() {
        CheckResult::new(
            group,
            name,
            Status::Pass,
            format!("legal bestmove and pv in {} positions", suite.len()),
        )
    } else {
        problems.truncate(6);
        CheckResult::new(group, name, Status::Fail, problems.join("; "))
    };
    ctx.finish(r)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_perft_argument_is_a_fen_and_an_optional_depth() {
        let (p, d) = user_position("8/8/8/8/8/8/8/K6k w - - 0 1:2", 3).unwrap();
        assert_eq!(
            (p.line.as_str(), d),
            ("position fen 8/8/8/8/8/8/8/K6k w - - 0 1", 2)
        );
        let (_, d) = user_position("8/8/8/8/8/8/8/K6k w - - 0 1", 3).unwrap();
        assert_eq!(d, 3);
        let e = user_position("8/8/8/8/8/8/8/K6k w - - 0 1:x", 3).unwrap_err();
        assert!(e.contains("depth `x`"), "{e}");
        let e = user_position("8/8/8/8/8/8/8/8 w - - 0 1", 3).unwrap_err();
        assert!(e.contains("not a valid chess position"), "{e}");
    }
}
