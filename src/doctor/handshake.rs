//! Group 1, handshake and options: `uci` → `id name`, `id author`, `uciok`; the reply's shape;
//! every `option` line; `setoption` of every option with its default and edge values;
//! `isready` idle and during a search.

use std::time::Duration;

use super::driver::Ctx;
use super::judge::{
    OptionSpec, option_errors, option_name_quirks, parse_option_spec, reply_shape, setoption_trials,
};
use super::report::{CheckResult, EngineInfo, Status};

const G: &str = "handshake";

/// Runs the group on a fresh engine (the first handshake of the run): fills `info` and gives
/// the options read.
pub fn run(ctx: &mut Ctx, info: &mut EngineInfo) -> (Vec<CheckResult>, Vec<OptionSpec>) {
    let mut out = Vec::new();
    ctx.step("handshake.uci");
    let hs = ctx.handshake();
    ctx.uci_reply = hs.lines.clone();
    let field = |key: &str| {
        hs.lines.iter().find_map(|l| {
            let rest = l.trim_start().strip_prefix("id ")?.trim_start();
            rest.strip_prefix(key).map(|v| v.trim().to_owned())
        })
    };
    info.name = field("name ");
    info.author = field("author ");
    let ms = hs.elapsed.as_millis();
    let (status, detail) = if let Some(refusal) = &hs.not_uci {
        ctx.engine.note_stderr();
        (
            Status::Fail,
            format!(
                "not a UCI engine (xboard/CECP?): it answered `uci` with `{refusal}` and no `id` or `option` line"
            ),
        )
    } else if !hs.uciok {
        if !ctx.engine.ended() {
            ctx.engine.note_stderr();
        }
        let why = if ctx.engine.ended() {
            format!("the engine ended ({})", ctx.exit_text())
        } else {
            format!("none within {} s", ctx.limits.uciok.as_secs())
        };
        (Status::Fail, format!("no `uciok`: {why}"))
    } else {
        let missing: Vec<&str> = [("id name", &info.name), ("id author", &info.author)]
            .iter()
            .filter(|(_, v)| v.is_none())
            .map(|(k, _)| *k)
            .collect();
        if missing.is_empty() {
            (
                Status::Pass,
                format!("`id name`, `id author`, `uciok` in {ms} ms"),
            )
        } else {
            (
                Status::Fail,
                format!(
                    "no `{}` before `uciok` (fastchess --compliance fails it)",
                    missing.join("`, `")
                ),
            )
        }
    };
    out.push(ctx.finish(CheckResult::new(G, "uci", status, detail)));
    if !hs.uciok {
        return (out, Vec::new());
    }

    let (blank, stray) = reply_shape(&hs.lines);
    let place = |v: &[(usize, String)]| {
        v.iter()
            .map(|(n, t)| format!("line {n} `{}`", t.escape_debug()))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let shape = if !blank.is_empty() {
        CheckResult::new(
            G,
            "reply-lines",
            Status::Warn,
            format!(
                "blank line inside the `uci` reply ({}): most GUIs skip it, CARA stopped reading the options there (CARA#65)",
                place(&blank)
            ),
        )
    } else if !stray.is_empty() {
        CheckResult::new(
            G,
            "reply-lines",
            Status::Warn,
            format!("stray text inside the `uci` reply: {}", place(&stray)),
        )
    } else {
        CheckResult::new(
            G,
            "reply-lines",
            Status::Pass,
            "only `id`, `option`, `uciok` lines",
        )
    };
    out.push(shape.with_transcript(hs.lines.iter().map(|l| format!("< {l}")).collect()));

    let mut options = Vec::new();
    let mut errors = Vec::new();
    let mut quirks = Vec::new();
    for line in hs
        .lines
        .iter()
        .filter(|l| l.trim_start().starts_with("option"))
    {
        match parse_option_spec(line.as_bytes()) {
            Ok(o) => {
                errors.extend(option_errors(&o));
                quirks.extend(option_name_quirks(&o));
                options.push(o);
            }
            Err(e) => errors.push(format!("`{line}`: {e}")),
        }
    }
    info.options = options.len();
    info.chess960 = options.iter().any(|o| o.name == "UCI_Chess960");
    info.variants = options
        .iter()
        .find(|o| o.name == "UCI_Variant" && o.kind == "combo")
        .map(|o| o.vars.clone())
        .unwrap_or_default();
    let n = options.len();
    out.push(listed(
        "options",
        &errors,
        Status::Fail,
        format!("{n} option lines, types and defaults as UCI defines them"),
    ));
    out.push(listed(
        "option-names",
        &quirks,
        Status::Warn,
        "no name or value a GUI's parser splits".to_owned(),
    ));

    out.push(setoptions(ctx, &options));
    out.extend(isready(ctx));
    (out, options)
}

/// A check that passes with `ok` when `found` is empty, else gets `status` listing them.
fn listed(name: &str, found: &[String], status: Status, ok: String) -> CheckResult {
    if found.is_empty() {
        return CheckResult::new(G, name, Status::Pass, ok);
    }
    let mut shown: Vec<String> = found.iter().take(8).cloned().collect();
    if found.len() > 8 {
        shown.push(format!("and {} more", found.len() - 8));
    }
    CheckResult::new(G, name, status, shown.join("; "))
}

/// Every option set to its trial values, each option's lines followed by `isready`.
fn setoptions(ctx: &mut Ctx, options: &[OptionSpec]) -> CheckResult {
    ctx.step("handshake.setoption");
    let _ = ctx.engine.take_transcript();
    let mut crashes = Vec::new();
    let mut hangs = Vec::new();
    let mut sent = 0;
    let mut proof = Vec::new();
    for o in options {
        let trials = setoption_trials(o);
        for line in &trials {
            ctx.engine.send(line.as_bytes());
            sent += 1;
        }
        if ctx.ready().is_some() {
            let _ = ctx.engine.take_transcript();
            continue;
        }
        let last = trials.last().cloned().unwrap_or_default();
        if ctx.engine.ended() {
            let how = ctx.exit_text();
            crashes.push(format!("`{}` ({how})", trials.join("`, `")));
        } else {
            hangs.push(format!("`{last}`"));
        }
        proof.extend(ctx.engine.take_transcript());
        ctx.fresh(&[]);
    }
    let result = if !crashes.is_empty() {
        CheckResult::new(
            G,
            "setoption",
            Status::Fail,
            format!("the engine ended after {}", crashes.join("; ")),
        )
    } else if !hangs.is_empty() {
        CheckResult::new(
            G,
            "setoption",
            Status::Fail,
            format!("no `readyok` after {}", hangs.join("; ")),
        )
    } else {
        CheckResult::new(
            G,
            "setoption",
            Status::Pass,
            format!("{sent} setoption lines (defaults, min, max, every combo value) accepted"),
        )
    };
    result.with_transcript(proof)
}

/// `isready` idle, and during `go infinite`.
fn isready(ctx: &mut Ctx) -> Vec<CheckResult> {
    let mut out = Vec::new();
    ctx.step("handshake.isready");
    ctx.fresh(&[]);
    let (status, detail) = match ctx.ready() {
        Some(t) if t < Duration::from_secs(1) => {
            (Status::Pass, format!("`readyok` in {} ms", t.as_millis()))
        }
        Some(t) => (
            Status::Warn,
            format!("`readyok` took {} ms (GUIs wait about 1 s)", t.as_millis()),
        ),
        None => (Status::Fail, "no `readyok`".to_owned()),
    };
    out.push(ctx.finish(CheckResult::new(G, "isready", status, detail)));

    ctx.step("handshake.isready-searching");
    ctx.engine.send(b"position startpos");
    ctx.engine.send(b"go infinite");
    std::thread::sleep(Duration::from_millis(200));
    let asked = std::time::Instant::now();
    ctx.engine.send(b"isready");
    let r = ctx.engine.read_until_word(ctx.limits.readyok, "readyok");
    let during = r.matched.then(|| asked.elapsed());
    let answered = r
        .lines
        .iter()
        .any(|l| crate::uci::command_word(&l.line) == b"bestmove");
    ctx.engine.send(b"stop");
    if !answered {
        let _ = ctx.engine.read_until_word(ctx.limits.search, "bestmove");
    }
    let (status, detail) = match during {
        Some(t) if t < Duration::from_secs(1) => (
            Status::Pass,
            format!("`readyok` in {} ms during `go infinite`", t.as_millis()),
        ),
        Some(t) => (
            Status::Warn,
            format!("`readyok` took {} ms during a search", t.as_millis()),
        ),
        None if ctx.engine.ended() => (Status::Fail, "the engine ended".to_owned()),
        None => (Status::Fail, "no `readyok` during `go infinite`".to_owned()),
    };
    out.push(ctx.finish(CheckResult::new(G, "isready-searching", status, detail)));
    out
}
