//! `fenguard doctor`: the engine check-up for engine authors (SPEC section 14, issue 20). It
//! runs the engine directly (not through the proxy) and reports, check by check, pass / warn
//! / fail / skip with the transcript lines that prove it, in five groups:
//!
//! 1. [`handshake`]: `uci` → `id` and `uciok`, the reply's lines, every `option` line,
//!    `setoption` with defaults and edge values, `isready` idle and during a search;
//! 2. [`search`]: the `go` forms, `searchmoves`, ponder with `ponderhit` and `stop`, stray
//!    `stop`s, `ucinewgame`, `quit` during a search; legal `bestmove`, `ponder` and `pv`,
//!    `info` grammar (UCI and lichess's broker), the movetime overshoot;
//! 3. [`movegen`]: `go perft N` against fenguard's perft, divided down to the wrong move;
//! 4. [`hostile`]: the malformed-input classes, one line at a time, restarts after crashes;
//! 5. [`variants`]: Chess960 castling and each announced `UCI_Variant`.
//!
//! The verdicts are pure functions ([`judge`], unit-tested); [`engine`] and [`driver`] are the
//! thin process side. Output: [`render`] (text, HTML) or SPEC 14's JSON ([`report`]). Exit
//! status 0 when no check fails, 1 otherwise, 2 when the engine cannot be started; the CI
//! controls (`--fail-on`, `--skip`, `--baseline`) are [`controls`]'.

pub mod cases;
pub mod castling;
pub mod controls;
pub mod driver;
pub mod engine;
pub mod handshake;
pub mod hostile;
pub mod judge;
pub mod lifecycle;
pub mod movegen;
pub mod render;
pub mod report;
pub mod search;
pub mod search_info;
pub mod variants;

use std::io::{IsTerminal as _, Write as _};
use std::process::ExitCode;
use std::time::Instant;

use clap::{Args, ValueEnum};

use driver::{Ctx, Limits};
use report::{CheckResult, EngineInfo, Report, Status};

/// Output formats of `fenguard doctor`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// The report card.
    Text,
    /// One JSON object: `{"engine", "checks", "summary"}`.
    Json,
    /// One self-contained HTML page.
    Html,
}

/// The exit status, in `fenguard doctor --help` and its man page.
const EXIT_STATUS: &str = "Exit status:
  0  no check failed (warnings allowed; with --baseline, every fail is a known one)
  1  a check failed: a crash, exit or hang, or a protocol fault (with --fail-on policy also a
     policy fault; with --fail-on crash only crashes), not accepted by --baseline
  2  the engine cannot be started, or an argument (the --baseline file) is wrong";

/// `fenguard doctor [--variant NAME|all] [--quick|--full] [--format text|json|html] -- ENGINE ARGS`.
#[derive(Debug, Args)]
#[command(after_help = EXIT_STATUS)]
pub struct DoctorArgs {
    /// Also check this `UCI_Variant` (or `all` the engine announces): start position, a few
    /// moves, perft where the engine has it.
    #[arg(long, value_name = "NAME|all")]
    pub variant: Option<String>,
    /// Short limits and suites (the default): under 30 s for Stockfish.
    #[arg(long, conflicts_with = "full")]
    pub quick: bool,
    /// Deeper perft, longer movetime runs, every hostile line.
    #[arg(long)]
    pub full: bool,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,
    /// The fails that fail the run (exit 1): `crash` (crashes, exits, hangs), `protocol` (the
    /// default: also UCI grammar and ordering, wrong moves and perft), `policy` (also how
    /// input UCI does not define is treated: an invalid position searched, a line with
    /// leading spaces ignored). The other fails are reported as warns.
    #[arg(long, value_enum, value_name = "CLASS", default_value = "protocol")]
    pub fail_on: report::Class,
    /// Checks not run (or not judged): an id (`search.movetime`), a group (`hostile`) or a
    /// prefix ending in `*` (`movegen.perft-*`); several, or a comma list.
    #[arg(long, value_name = "CHECK", num_args = 1..)]
    pub skip: Vec<String>,
    /// Accepted fails: a `--format json` report of an earlier run (its fails) or a file of
    /// check ids, one a line. Known fails do not fail the run, new ones do; fixed ones are
    /// listed.
    #[arg(long, value_name = "FILE")]
    pub baseline: Option<std::path::PathBuf>,
    /// Also `go perft` from your own positions (chess, `UCI_Chess960` off), each compared
    /// move by move and divided down like the suite's: `--perft 'FEN:DEPTH'` (depth 1 to 8;
    /// the mode's depth without it). Checks `movegen.perft-user-1`, `-2`, ...
    #[arg(long, value_name = "FEN[:DEPTH]", num_args = 1..)]
    pub perft: Vec<String>,
    /// The engine and its arguments.
    #[arg(last = true, required = true, value_name = "ENGINE [ARGS]")]
    pub engine: Vec<std::ffi::OsString>,
}

/// Runs `fenguard doctor`; exit status 0 when no check fails, 1 when one does, 2 when the
/// engine cannot be started.
pub fn run(args: &DoctorArgs) -> ExitCode {
    let quick = !args.full;
    let accepted = match &args.baseline {
        None => None,
        Some(path) => match controls::read_baseline(path) {
            Ok(ids) => Some(ids),
            Err(e) => {
                eprintln!("fenguard doctor: {e}");
                return ExitCode::from(2);
            }
        },
    };
    let skips = controls::Skips::new(&args.skip);
    let depth = driver::Limits::new(quick).perft_depth;
    let mut user_perft = Vec::new();
    for arg in &args.perft {
        match movegen::user_position(arg, depth) {
            Ok(p) => user_perft.push(p),
            Err(e) => {
                eprintln!("fenguard doctor: {e}");
                return ExitCode::from(2);
            }
        }
    }
    let path_var = std::env::var_os("PATH");
    let program = match crate::proxy::engine::resolve(&args.engine[0], path_var.as_deref()) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("fenguard doctor: {e}");
            return ExitCode::from(2);
        }
    };
    let rest: Vec<String> = args.engine[1..]
        .iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let mut ctx = match Ctx::start(program.clone(), rest.clone(), Limits::new(quick)) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("fenguard doctor: cannot start `{}`: {e}", program.display());
            return ExitCode::from(2);
        }
    };
    ctx.user_perft = user_perft;
    let bar = progress();
    if let Some(bar) = bar.clone() {
        ctx.progress = Box::new(move |id| {
            bar.set_message(id.to_owned());
            bar.inc(1);
        });
    }
    let t = Instant::now();
    let mut info = EngineInfo {
        command: std::iter::once(program.display().to_string())
            .chain(rest)
            .collect(),
        ..EngineInfo::default()
    };
    let mut checks = examine(&mut ctx, &mut info, args.variant.as_deref(), &skips);
    ctx.engine.kill();
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let ids: Vec<&str> = checks.iter().map(|c| c.id.as_str()).collect();
    for pattern in skips.unknown(&ids, &GROUPS) {
        eprintln!(
            "fenguard doctor: warning: --skip {pattern}: no check of this run has that id or group \
             (ids are GROUP.NAME, e.g. hostile.no-kings; groups: {}; --format json lists the ids)",
            GROUPS.join(", ")
        );
    }
    if let Some(accepted) = &accepted {
        let stray: Vec<&str> = accepted
            .iter()
            .map(String::as_str)
            .filter(|id| !ids.contains(id))
            .collect();
        if !stray.is_empty() {
            eprintln!(
                "fenguard doctor: warning: the baseline names {} check(s) this run does not have: {}",
                stray.len(),
                stray.join(", ")
            );
        }
    }
    skips.apply(&mut checks);
    controls::classify(&mut checks);
    let fail_on = controls::apply_fail_on(&mut checks, args.fail_on);
    let baseline = accepted.map(|ids| {
        let file = args.baseline.as_deref().unwrap_or(std::path::Path::new(""));
        controls::apply_baseline(&mut checks, &ids, &file.display().to_string())
    });
    let mut report = Report::new(info, checks, t.elapsed().as_secs_f64(), quick);
    report.summary.fail_on = fail_on;
    report.summary.baseline = baseline;
    let text = match args.format {
        Format::Text => render::text(&report),
        Format::Html => render::html(&report),
        Format::Json => {
            let mut j = serde_json::to_string_pretty(&report).unwrap_or_default();
            j.push('\n');
            j
        }
    };
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
    if report.failed() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// The check groups, in the order they run (the first part of every check id).
pub const GROUPS: [&str; 6] = [
    "handshake",
    "search",
    "movegen",
    "hostile",
    "chess960",
    "variant",
];

/// Every group in order; a failed handshake ends the run after its checks. A group `skips`
/// names whole is not run (movegen's perft detection still is: the other groups use it).
pub fn examine(
    ctx: &mut Ctx,
    info: &mut EngineInfo,
    variant: Option<&str>,
    skips: &controls::Skips,
) -> Vec<CheckResult> {
    let (mut checks, _options) = handshake::run(ctx, info);
    // Without `uciok` the group stops at its first check: nothing else can be asked.
    if checks.len() == 1 && checks[0].status == Status::Fail {
        return checks;
    }
    if !skips.group("search") {
        checks.extend(search::run(ctx));
        checks.extend(lifecycle::run(ctx));
    }
    if skips.group("movegen") {
        ctx.fresh(&[]);
        ctx.perft = movegen::detect_perft(ctx);
    } else {
        checks.extend(movegen::run(ctx));
    }
    info.perft = ctx.perft;
    if !skips.group("hostile") {
        checks.extend(hostile::run(ctx, skips));
    }
    if !skips.group("chess960") {
        checks.extend(variants::chess960(ctx, info.chess960));
    }
    if !skips.group("variant") {
        checks.extend(variants::variants(ctx, &info.variants, variant));
    }
    checks
}

/// A spinner on stderr when it is a terminal.
fn progress() -> Option<indicatif::ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = indicatif::ProgressBar::new_spinner();
    let style = indicatif::ProgressStyle::with_template("{spinner} {elapsed} {pos} checks: {msg}")
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner());
    bar.set_style(style);
    bar.enable_steady_tick(std::time::Duration::from_millis(120));
    Some(bar)
}
