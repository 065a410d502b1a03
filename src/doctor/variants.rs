//! Group 5, Chess960 and variants: with `UCI_Chess960` the engine reads and writes
//! king-takes-rook castling, X-FEN and Shredder-FEN castling fields and the inner-rook X-FEN
//! letter (perft, or bestmove legality without it); in each announced `UCI_Variant` the start
//! position and a few moves.

use std::time::Duration;

use super::cases::{CHESS960_PERFT, chess_suite, position_of, variant_notation, variant_suite};
use super::driver::Ctx;
use super::judge::{bestmove_errors, bestmove_of};
use super::movegen::{legality_check, perft_check};
use super::report::{CheckResult, Status};
use crate::rules::Rules;
use crate::uci::Notation;
use crate::variant::Variant;

/// The Chess960 group (skipped without `UCI_Chess960`).
pub fn chess960(ctx: &mut Ctx, offered: bool) -> Vec<CheckResult> {
    const G: &str = "chess960";
    if !offered {
        return vec![CheckResult::new(
            G,
            "option",
            Status::Skip,
            "no `UCI_Chess960` option",
        )];
    }
    let setup = ["setoption name UCI_Chess960 value true".to_owned()];
    if !ctx.fresh(&setup) {
        return vec![ctx.finish(CheckResult::new(
            G,
            "option",
            Status::Fail,
            "no `readyok` after `setoption name UCI_Chess960 value true`",
        ))];
    }
    let mut out = Vec::new();
    let suite = chess_suite(&CHESS960_PERFT, true);
    let depth = ctx.limits.perft_depth;
    if ctx.perft {
        for p in &suite {
            out.push(perft_check(
                ctx,
                G,
                &format!("perft-{}", p.name),
                p,
                depth,
                Notation::Chess960,
            ));
        }
    } else {
        out.push(legality_check(
            ctx,
            G,
            "bestmove-legal",
            &suite,
            Notation::Chess960,
        ));
    }
    ctx.step("chess960.castle-read");
    let line = "position fen rr2k3/8/8/8/8/8/8/RR2K3 w Bb - 0 1 moves e1b1";
    let after = position_of(&Rules::Chess, line, true).expect("O-O-O with the inner rook");
    let s = ctx.search(line, "go depth 1", ctx.limits.search);
    let r = match &s.bestmove {
        None => CheckResult::new(
            G,
            "castle-read",
            Status::Fail,
            format!("no bestmove after `{line}`"),
        ),
        Some(b) => {
            let errors = bestmove_errors(b.as_bytes(), &after, Notation::Chess960);
            if errors.is_empty() {
                CheckResult::new(
                    G,
                    "castle-read",
                    Status::Pass,
                    "`e1b1` (king takes its inner rook) read as O-O-O",
                )
            } else {
                CheckResult::new(
                    G,
                    "castle-read",
                    Status::Fail,
                    format!(
                        "after `e1b1` (O-O-O, king takes rook): {}",
                        errors.join("; ")
                    ),
                )
            }
        }
    };
    out.push(ctx.finish(r));
    out.push(super::castling::castle_played(
        ctx,
        G,
        &super::castling::CHESS960_CASTLES,
        Notation::Chess960,
    ));
    out
}

/// The variants group: `selected` of the announced `variants` (`all`, or one name).
pub fn variants(ctx: &mut Ctx, announced: &[String], selected: Option<&str>) -> Vec<CheckResult> {
    const G: &str = "variant";
    let Some(selected) = selected else {
        return Vec::new();
    };
    let names: Vec<&String> = announced
        .iter()
        .filter(|v| selected == "all" || v.eq_ignore_ascii_case(selected))
        .filter(|v| !v.eq_ignore_ascii_case("chess"))
        .collect();
    if names.is_empty() {
        let detail = if announced.is_empty() {
            "the engine announces no `UCI_Variant`".to_owned()
        } else {
            format!("`{selected}` is not among the engine's variants")
        };
        return vec![CheckResult::new(G, selected, Status::Skip, detail)];
    }
    names.into_iter().map(|v| one_variant(ctx, v)).collect()
}

fn one_variant(ctx: &mut Ctx, name: &str) -> CheckResult {
    const G: &str = "variant";
    ctx.step(&format!("{G}.{name}"));
    let setup = [format!("setoption name UCI_Variant value {name}")];
    if !ctx.fresh(&setup) {
        let r = CheckResult::new(
            G,
            name,
            Status::Fail,
            format!("no `readyok` after `{}`", setup[0]),
        );
        return ctx.finish(r);
    }
    let rules = Rules::for_variant(&Variant::from_uci_name(name));
    let suite = variant_suite(name);
    if suite.is_empty() {
        return unmodelled(ctx, name);
    }
    let notation = variant_notation(&rules);
    let depth = match rules {
        Rules::Ten(_) => ctx.limits.perft_depth.min(3),
        _ => ctx.limits.perft_depth,
    };
    if !ctx.perft {
        let mut r = legality_check(ctx, G, name, &suite, notation);
        r.detail = format!("{} (no perft)", r.detail);
        return r;
    }
    let mut passed = Vec::new();
    for p in &suite {
        let r = perft_check(ctx, G, name, p, depth, notation);
        if r.status != Status::Pass {
            return r;
        }
        passed.push(format!("{}: {}", p.name, r.detail));
    }
    CheckResult::new(G, name, Status::Pass, passed.join("; "))
}

/// A variant fenguard has no rules for: it answers `go` from the start position and after its
/// own moves (not judged for legality).
fn unmodelled(ctx: &mut Ctx, name: &str) -> CheckResult {
    const G: &str = "variant";
    let mut moves: Vec<String> = Vec::new();
    for _ in 0..3 {
        let line = if moves.is_empty() {
            "position startpos".to_owned()
        } else {
            format!("position startpos moves {}", moves.join(" "))
        };
        let s = ctx.search(&line, "go depth 1", ctx.limits.search);
        let best = s
            .bestmove
            .as_deref()
            .and_then(|b| bestmove_of(b.as_bytes()));
        match best {
            Some((b, _)) if b != "0000" && b != "(none)" => moves.push(b),
            Some((b, _)) => {
                let r = CheckResult::new(
                    G,
                    name,
                    Status::Fail,
                    format!("`bestmove {b}` after `{line}`"),
                );
                return ctx.finish(r);
            }
            None => {
                let detail = if s.ended {
                    format!("ended after `{line}` ({})", ctx.exit_text())
                } else {
                    ctx.engine.send(b"stop");
                    let _ = ctx
                        .engine
                        .read_until_word(Duration::from_secs(2), "bestmove");
                    format!("no bestmove after `{line}`")
                };
                return ctx.finish(CheckResult::new(G, name, Status::Fail, detail));
            }
        }
    }
    let _ = ctx.engine.take_transcript();
    CheckResult::new(
        G,
        name,
        Status::Pass,
        format!(
            "played {} from the start (fenguard has no rules for {name}: moves not judged)",
            moves.join(" ")
        ),
    )
}
