//! Group 2, search commands: `go depth / nodes / movetime / wtime+btime / infinite / mate`,
//! `searchmoves`, `ponder` + `ponderhit`, `ponder` + `stop`, `stop` with no search, a second
//! `stop`, `ucinewgame`, `quit` during a search; one legal `bestmove` each, legal `pv`s,
//! `info` in UCI's and lichess's broker's grammar, the movetime overshoot.

use std::time::{Duration, Instant};

use super::cases::position_of;
use super::driver::{Ctx, Search};
use super::engine::Received;
use super::judge::{bestmove_errors, bestmove_of, movetime_verdict};
use super::report::{CheckResult, Status};
use super::search_info::{self, Seen};
use crate::rules::{Game, Rules};
use crate::uci::{Notation, command_word};

const G: &str = "search";
/// How long a pondering / infinite search is watched before `ponderhit` / `stop`.
const WATCH: Duration = Duration::from_millis(400);

/// Runs the group.
pub fn run(ctx: &mut Ctx) -> Vec<CheckResult> {
    let mut out = Vec::new();
    let mut seen = Seen::default();
    ctx.fresh(&[]);
    // (check, position, go, the side to move's clock in ms).
    let bounded: [(&str, &str, &str, Option<u128>); 7] = [
        (
            "go-depth",
            "position startpos moves e2e4",
            "go depth 6",
            None,
        ),
        (
            "go-nodes",
            "position startpos moves d2d4 d7d5",
            "go nodes 20000",
            None,
        ),
        (
            "go-clock",
            "position startpos moves e2e4 c7c5",
            "go wtime 10000 btime 10000 winc 100 binc 100",
            Some(10000),
        ),
        (
            "go-movestogo",
            "position startpos moves g1f3",
            "go wtime 5000 btime 5000 movestogo 10",
            Some(5000),
        ),
        // fastchess --compliance's first searches: one side's clock only, 100 ms.
        (
            "go-wtime-only",
            "position fen 3r2k1/p5n1/1pq1p2p/2p3p1/2P1P1n1/1P1P2pP/PN1Q2K1/5R2 w - - 0 27",
            "go wtime 100",
            Some(100),
        ),
        (
            "go-btime-only",
            "position fen rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
            "go btime 100",
            Some(100),
        ),
        (
            "go-mate",
            "position fen r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
            "go mate 1",
            None,
        ),
    ];
    for (name, pos, go, clock) in bounded {
        ctx.step(&format!("{G}.{name}"));
        let root = chess(pos);
        // `go nodes 20000` takes any engine milliseconds; one that ignores it (Toga II)
        // searches until `stop`: --quick waits 5 s for it, not the 20 s of a search.
        let full = ctx.limits.search;
        if name == "go-nodes" && ctx.limits.quick {
            ctx.limits.search = full.min(Duration::from_secs(5));
        }
        let s = ctx.search(pos, go, ctx.limits.search);
        let mut r = judge(ctx, name, &root, &s, &mut seen);
        ctx.limits.search = full;
        if r.status == Status::Pass {
            if let (Some(at), Some(clock)) = (s.at, clock) {
                let used = at.as_millis();
                if used > clock {
                    r.status = Status::Fail;
                    r.detail = format!("used {used} ms of its {clock} ms clock: lost on time");
                } else {
                    r.detail = format!("{}; used {used} ms of {clock} ms", r.detail);
                }
            }
            let best = s
                .bestmove
                .as_deref()
                .and_then(|b| bestmove_of(b.as_bytes()));
            if name == "go-mate" && best.is_some_and(|(b, _)| b != "h5f7") {
                r.status = Status::Warn;
                r.detail = format!("{}; missed the mate in 1 (h5f7)", r.detail);
            }
        }
        out.push(ctx.finish(r));
    }
    out.push(searchmoves(ctx, &mut seen));
    out.push(movetime(ctx, &mut seen));
    out.push(waiting(
        ctx,
        "go-infinite",
        "go infinite",
        "stop",
        &mut seen,
    ));
    out.push(waiting(
        ctx,
        "ponder-ponderhit",
        "go ponder wtime 2000 btime 2000",
        "ponderhit",
        &mut seen,
    ));
    out.push(waiting(
        ctx,
        "ponder-stop",
        "go ponder wtime 2000 btime 2000",
        "stop",
        &mut seen,
    ));
    out.push(stray_stop(ctx, "stop-idle", false));
    out.push(stray_stop(ctx, "stop-twice", true));
    out.push(ucinewgame(ctx, &mut seen));
    out.push(quit_searching(ctx));
    out.extend(search_info::info_checks(&seen));
    out
}

fn chess(line: &str) -> Game {
    position_of(&Rules::Chess, line, false).expect("the group's positions are valid")
}

/// The verdict on one search: one `bestmove`, legal, its `ponder` legal; the pv checked
/// later with every line.
fn judge(ctx: &mut Ctx, name: &str, root: &Game, s: &Search, seen: &mut Seen) -> CheckResult {
    for l in &s.lines {
        seen.lines.push((l.clone(), root.clone()));
    }
    let Some(best) = &s.bestmove else {
        let detail = if s.ended {
            format!("the engine ended ({})", ctx.exit_text())
        } else {
            // Still searching: `stop` it, so that the next check starts clean.
            ctx.engine.send(b"stop");
            let late = ctx
                .engine
                .read_until_word(Duration::from_secs(2), "bestmove");
            let after = if late.matched {
                ", only after `stop`"
            } else {
                ""
            };
            format!(
                "no `bestmove` within {} s{after}",
                ctx.limits.search.as_secs()
            )
        };
        let r = ctx.finish(CheckResult::new(G, name, Status::Fail, detail));
        ctx.fresh(&[]);
        return r;
    };
    // fastchess reads the score of the last `info ... score ...` line (not `info string`).
    let scored = |l: &&Received| {
        let t = l.text();
        !t.contains("info string") && t.contains(" score ")
    };
    if !s.infos().any(|l| scored(&l)) {
        seen.no_info.push(name.to_owned());
    }
    let errors = bestmove_errors(best.as_bytes(), root, Notation::Standard);
    if errors.is_empty() {
        CheckResult::new(G, name, Status::Pass, format!("`{best}`"))
    } else {
        CheckResult::new(G, name, Status::Fail, errors.join("; "))
    }
}

fn searchmoves(ctx: &mut Ctx, seen: &mut Seen) -> CheckResult {
    ctx.step("search.searchmoves");
    let pos = "position startpos";
    let s = ctx.search(pos, "go depth 5 searchmoves a2a3 b2b3", ctx.limits.search);
    let mut r = judge(ctx, "searchmoves", &chess(pos), &s, seen);
    if r.status == Status::Pass
        && let Some((b, _)) = s
            .bestmove
            .as_deref()
            .and_then(|b| bestmove_of(b.as_bytes()))
        && b != "a2a3"
        && b != "b2b3"
    {
        r.status = Status::Fail;
        r.detail = format!("`bestmove {b}` is not among `searchmoves a2a3 b2b3`");
    }
    ctx.finish(r)
}

fn movetime(ctx: &mut Ctx, seen: &mut Seen) -> CheckResult {
    ctx.step("search.movetime");
    let t = ctx.limits.movetime;
    let pos = "position startpos moves e2e4 e7e5";
    let mut overshoots = Vec::new();
    let mut failed = None;
    for _ in 0..ctx.limits.movetime_runs {
        let s = ctx.search(pos, &format!("go movetime {t}"), ctx.limits.search);
        let r = judge(ctx, "movetime", &chess(pos), &s, seen);
        if r.status == Status::Fail {
            failed = Some(r);
            break;
        }
        if let Some(at) = s.at {
            overshoots.push(at.as_millis() as i64 - t as i64);
        }
    }
    if let Some(r) = failed {
        return ctx.finish(r);
    }
    let (status, detail) = movetime_verdict(t, &overshoots);
    ctx.finish(CheckResult::new(G, "movetime", status, detail))
}

/// `go` that must wait (`infinite`, `ponder`): no `bestmove` before `end`, one after it.
fn waiting(ctx: &mut Ctx, name: &str, go: &str, end: &str, seen: &mut Seen) -> CheckResult {
    ctx.step(&format!("{G}.{name}"));
    ctx.fresh(&[]);
    let pos = "position startpos moves e2e4 e7e5";
    let early = ctx.search(pos, go, WATCH);
    if let Some(b) = &early.bestmove {
        let what = if go.contains("ponder") {
            "while pondering"
        } else {
            "during `go infinite`"
        };
        let r = CheckResult::new(
            G,
            name,
            Status::Fail,
            format!("`{b}` {what}, before `{end}`: UCI ends such a search only at `{end}`"),
        );
        return ctx.finish(r);
    }
    ctx.engine.send(end.as_bytes());
    let rest = ctx.engine.read_until_word(ctx.limits.search, "bestmove");
    let mut lines = early.lines;
    lines.extend(rest.lines.iter().cloned());
    let s = Search {
        bestmove: rest.last().map(Received::text),
        at: None,
        lines,
        ended: rest.eof,
    };
    let r = judge(ctx, name, &chess(pos), &s, seen);
    ctx.finish(r)
}

/// `stop` with no search (`twice`: a second `stop` after a search's `bestmove`): no
/// `bestmove` may follow.
fn stray_stop(ctx: &mut Ctx, name: &str, twice: bool) -> CheckResult {
    ctx.step(&format!("{G}.{name}"));
    ctx.fresh(&[]);
    if twice {
        ctx.engine.send(b"position startpos");
        ctx.engine.send(b"go infinite");
        std::thread::sleep(Duration::from_millis(100));
        ctx.engine.send(b"stop");
        let _ = ctx.engine.read_until_word(ctx.limits.search, "bestmove");
    }
    ctx.engine.send(b"stop");
    ctx.engine.send(b"isready");
    let r = ctx.engine.read_until_word(ctx.limits.readyok, "readyok");
    let stray = r
        .lines
        .iter()
        .filter(|l| command_word(&l.line) == b"bestmove")
        .count();
    let what = if twice {
        "a second `stop`"
    } else {
        "`stop` with no search"
    };
    let (status, detail) = if r.eof {
        (
            Status::Fail,
            format!("the engine ended after {what} ({})", ctx.exit_text()),
        )
    } else if !r.matched {
        (Status::Fail, format!("no `readyok` after {what}"))
    } else if stray > 0 {
        (
            Status::Fail,
            format!("{stray} `bestmove` for {what}: a GUI takes it as the answer to its next `go`"),
        )
    } else {
        (Status::Pass, format!("{what} ignored"))
    };
    let result = ctx.finish(CheckResult::new(G, name, status, detail));
    if r.eof {
        ctx.fresh(&[]);
    }
    result
}

fn ucinewgame(ctx: &mut Ctx, seen: &mut Seen) -> CheckResult {
    ctx.step("search.ucinewgame");
    let mut last = None;
    for pos in [
        "position startpos moves e2e4",
        "position startpos moves d2d4",
    ] {
        ctx.engine.send(b"ucinewgame");
        if ctx.ready().is_none() {
            let r = CheckResult::new(
                G,
                "ucinewgame",
                Status::Fail,
                "no `readyok` after `ucinewgame`",
            );
            let r = ctx.finish(r);
            ctx.fresh(&[]);
            return r;
        }
        let s = ctx.search(pos, "go depth 4", ctx.limits.search);
        let r = judge(ctx, "ucinewgame", &chess(pos), &s, seen);
        if r.status != Status::Pass {
            return ctx.finish(r);
        }
        last = Some(r);
    }
    let mut r = last.expect("two games");
    r.detail = "two games, each after `ucinewgame` + `isready`".to_owned();
    ctx.finish(r)
}

fn quit_searching(ctx: &mut Ctx) -> CheckResult {
    ctx.step("search.quit-searching");
    ctx.fresh(&[]);
    ctx.engine.send(b"position startpos");
    ctx.engine.send(b"go infinite");
    std::thread::sleep(Duration::from_millis(200));
    let t = Instant::now();
    ctx.engine.send(b"quit");
    let (status, detail) = match ctx.engine.wait_exit(Duration::from_secs(5)) {
        None => (
            Status::Fail,
            "still running 5 s after `quit` during `go infinite`".to_owned(),
        ),
        Some(s) if s.success() => (
            Status::Pass,
            format!("exited in {} ms", t.elapsed().as_millis()),
        ),
        Some(s) => (
            Status::Fail,
            format!(
                "`quit` during a search: {}",
                super::engine::describe_exit(s)
            ),
        ),
    };
    let r = ctx.finish(CheckResult::new(G, "quit-searching", status, detail));
    ctx.fresh(&[]);
    r
}
