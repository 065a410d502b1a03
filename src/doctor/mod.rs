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
//! status 0 when no check fails, 1 otherwise, 2 when the engine cannot be started.

pub mod cases;
pub mod driver;
pub mod engine;
pub mod handshake;
pub mod hostile;
pub mod judge;
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

/// `fenguard doctor [--variant NAME|all] [--quick|--full] [--format text|json|html] -- ENGINE ARGS`.
#[derive(Debug, Args)]
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
    /// The engine and its arguments.
    #[arg(last = true, required = true, value_name = "ENGINE [ARGS]")]
    pub engine: Vec<std::ffi::OsString>,
}

/// Runs `fenguard doctor`; exit status 0 when no check fails, 1 when one does, 2 when the
/// engine cannot be started.
pub fn run(args: &DoctorArgs) -> ExitCode {
    let quick = !args.full;
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
    let checks = examine(&mut ctx, &mut info, args.variant.as_deref());
    ctx.engine.kill();
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let report = Report::new(info, checks, t.elapsed().as_secs_f64(), quick);
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

/// Every group in order; a failed handshake ends the run after its checks.
pub fn examine(ctx: &mut Ctx, info: &mut EngineInfo, variant: Option<&str>) -> Vec<CheckResult> {
    let (mut checks, _options) = handshake::run(ctx, info);
    if checks.first().is_some_and(|c| c.status == Status::Fail) {
        return checks;
    }
    checks.extend(search::run(ctx));
    checks.extend(movegen::run(ctx));
    info.perft = ctx.perft;
    checks.extend(hostile::run(ctx));
    checks.extend(variants::chess960(ctx, info.chess960));
    checks.extend(variants::variants(ctx, &info.variants, variant));
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
