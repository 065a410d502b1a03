//! `fenguard replay LOG [--session ID] [--until SEQ] [--guarded] [--minimize] -- ENGINE ARGS`
//! (SPEC 14): send what the GUI sent in one logged session again, to the bare engine or
//! through fenguard, and say where the engine crashed, hung or answered an illegal move; with
//! `--minimize`, shrink a crash or hang to a short UCI script (on stdout).
//!
//! ```text
//! $ fenguard replay positions.jsonl -- stockfish
//! replay: session 19c…-4242, 6 lines to /usr/games/stockfish (the bare engine)
//!   seq 2  position startpos moves e2e4
//!   seq 3  go nodes 1000  -> bestmove e7e5 (as logged)
//!   seq 5  position fen 8/8/8/8/8/8/8/8 w - - 0 1
//!   seq 6  go depth 5  -> CRASH: killed by signal 11 (SIGSEGV)
//! crash at seq 6 (`go depth 5`): killed by signal 11 (SIGSEGV)
//! ```
//!
//! A shell: it runs the engine ([`engine`]); the reading of the log ([`plan`]), the run's
//! rules ([`run()`]) and the delta debugging ([`minimize`]) are its parts.

pub mod engine;
pub mod guarded;
pub mod minimize;
pub mod plan;
pub mod run;

use std::ffi::OsString;
use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use plan::Plan;
use run::{At, Failure, Outcome, Target};

/// Options of `fenguard replay`.
#[derive(Debug, Clone, clap::Args)]
pub struct ReplayArgs {
    /// The position log (`positions.jsonl`) holding the session.
    #[arg(value_name = "LOG")]
    pub log: PathBuf,
    /// The session to replay (default: the first in the log).
    #[arg(long, value_name = "ID")]
    pub session: Option<String>,
    /// Replay only the records up to this `seq` (included).
    #[arg(long, value_name = "SEQ")]
    pub until: Option<u64>,
    /// Send the lines through fenguard (this executable as the proxy) instead of to the bare
    /// engine, and report a verdict other than the logged one.
    #[arg(long, conflicts_with = "minimize")]
    pub guarded: bool,
    /// The configuration of the guarded proxy (`--guarded`).
    #[arg(long, value_name = "FILE", requires = "guarded")]
    pub config: Option<PathBuf>,
    /// Shrink a crash or hang to a minimal UCI script, printed on stdout (the report goes to
    /// stderr): `fenguard replay --minimize LOG -- ENGINE > repro.uci`.
    #[arg(long)]
    pub minimize: bool,
    /// The least time in milliseconds a `readyok` or `bestmove` gets before the engine is
    /// called hung (a search gets 3 times its logged time when longer).
    #[arg(long, value_name = "MS", default_value_t = 5000)]
    pub hang_ms: u64,
    /// The engine and its arguments.
    #[arg(last = true, required = true, value_name = "ENGINE")]
    pub engine: Vec<OsString>,
}

/// Exit status for bad arguments or an unreadable log.
const EXIT_USAGE: u8 = 2;

/// Runs `fenguard replay`: 0 when nothing failed, 1 when a failure was found, 2 on bad
/// arguments, an unreadable log or an engine that cannot start.
pub fn run(args: &ReplayArgs) -> ExitCode {
    match replay(args) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(message) => {
            eprintln!("fenguard replay: {message}");
            ExitCode::from(EXIT_USAGE)
        }
    }
}

/// The replay; `Ok(true)` when nothing failed.
fn replay(args: &ReplayArgs) -> Result<bool, String> {
    let text = std::fs::read_to_string(&args.log)
        .map_err(|e| format!("cannot read {}: {e}", args.log.display()))?;
    let plan = Plan::read(&text, args.session.as_deref(), args.until, !args.guarded)
        .map_err(|e| format!("{}: {e}", args.log.display()))?;
    if let Some((line, why)) = &plan.torn {
        eprintln!(
            "fenguard replay: warning: {}: line {line}, the last, is not a whole record (a torn write?): left out ({why})",
            args.log.display()
        );
    }
    for gap in &plan.gaps {
        eprintln!(
            "fenguard replay: warning: {}: session {} has a gap: {gap}, lost by the writer (a full disk?): the replay goes on without them",
            args.log.display(),
            plan.session,
        );
    }
    let (program, engine_args) = args.engine.split_first().ok_or("no engine given")?;
    let program = crate::proxy::engine::resolve(program, std::env::var_os("PATH").as_deref())
        .map_err(|e| e.to_string())?;
    let hang = Duration::from_millis(args.hang_ms);
    let mut report: Box<dyn std::io::Write> = if args.minimize {
        Box::new(std::io::stderr())
    } else {
        Box::new(std::io::stdout())
    };
    let mode = if args.guarded {
        "through fenguard"
    } else {
        "the bare engine"
    };
    let _ = writeln!(
        report,
        "replay: session {}, {} lines to {} ({mode})",
        plan.session,
        plan.steps.len(),
        program.display()
    );
    if plan.sessions.len() > 1 && args.session.is_none() {
        let _ = writeln!(
            report,
            "  (the log holds {} sessions; --session ID picks another)",
            plan.sessions.len()
        );
    }
    for note in &plan.notes {
        let _ = writeln!(report, "  note: {note}");
    }
    let bare = Target {
        program: program.clone(),
        args: engine_args.to_vec(),
        hang,
        check_moves: true,
    };
    let logs = guarded::LogDir::new().map_err(|e| format!("temporary directory: {e}"))?;
    let target = if args.guarded {
        let exe = std::env::current_exe().map_err(|e| format!("fenguard's own path: {e}"))?;
        Target {
            program: exe,
            args: guarded::proxy_args(args.config.as_deref(), &logs.0, &program, engine_args),
            hang,
            check_moves: false,
        }
    } else {
        bare.clone()
    };
    let mut outcome = run::run(&target, &plan.steps)
        .map_err(|e| format!("cannot start {}: {e}", target.program.display()))?;
    if args.guarded {
        // The proxy writes its log from a thread of its own: it is whole once it exited.
        outcome.failures.extend(guarded::failures(
            &logs.0.join("positions.jsonl"),
            &plan.steps,
        ));
    }
    write_report(&mut report, &plan, &outcome);
    if args.minimize {
        return minimize_and_print(&mut report, &bare, &plan, &outcome);
    }
    Ok(outcome.failures.is_empty())
}

/// `--minimize`: the script on stdout, what was done on `report`.
fn minimize_and_print(
    report: &mut dyn std::io::Write,
    target: &Target,
    plan: &Plan,
    outcome: &Outcome,
) -> Result<bool, String> {
    let Some(failure) = outcome.fatal() else {
        let _ = writeln!(report, "minimize: no crash or hang to minimize");
        return Ok(outcome.failures.is_empty());
    };
    let found = minimize::minimize(target, &plan.steps, failure);
    let script = minimize::script(&found.steps);
    let _ = writeln!(
        report,
        "minimize: {} of {} lines left after {} runs; they still give: {}",
        found.steps.len(),
        plan.steps.len(),
        found.runs,
        describe(&found.failure, &found.steps)
    );
    let piped = minimize::fails_piped(target, &script, &found.failure, target.hang);
    let _ = writeln!(
        report,
        "minimize: piped into the engine at once (`engine < repro.uci`), the script {}",
        if piped {
            "fails the same way"
        } else {
            "does not fail: feed it line by line, waiting for each answer"
        }
    );
    let mut stdout = std::io::stdout();
    stdout
        .write_all(script.as_bytes())
        .and_then(|()| stdout.flush())
        .map_err(|e| format!("writing the script: {e}"))?;
    Ok(false)
}

/// `seq N (`line`)` of a place in the run.
fn place(at: At, steps: &[plan::Step]) -> String {
    match at {
        At::Handshake => "the uci handshake".to_owned(),
        At::Quit => "quit".to_owned(),
        At::Step(i) => steps.get(i).map_or_else(
            || "the end".to_owned(),
            |s| format!("seq {} (`{}`)", s.seq, s.line),
        ),
    }
}

/// One line for a failure: `crash at seq 6 (`go depth 5`): killed by signal 11 (SIGSEGV)`.
pub fn describe(failure: &Failure, steps: &[plan::Step]) -> String {
    match failure {
        Failure::Crash { at, exit } => {
            let how = exit.map_or_else(|| "its output ended".to_owned(), |e| e.to_string());
            format!("crash at {}: {how}", place(*at, steps))
        }
        Failure::Hang { at, awaited, bound } if bound.is_zero() => {
            format!("hang at {}: no {awaited}", place(*at, steps))
        }
        Failure::Hang { at, awaited, bound } => format!(
            "hang at {}: no {awaited} within {} ms",
            place(*at, steps),
            bound.as_millis()
        ),
        Failure::IllegalBestmove { at, line, message } => format!(
            "illegal bestmove at {}: `{line}`: {message}",
            place(At::Step(*at), steps)
        ),
        Failure::Verdict { at, logged, now } => format!(
            "different verdict at {}: logged {logged}, now {now}",
            place(At::Step(*at), steps)
        ),
    }
}

/// The steps with their answers, then one line per failure, or the summary of a clean run.
fn write_report(out: &mut dyn std::io::Write, plan: &Plan, outcome: &Outcome) {
    let mut same = 0;
    let mut searches = 0;
    for (i, step) in plan.steps.iter().enumerate() {
        let mut line = format!("  seq {}  {}", step.seq, step.line);
        if let Some((_, best)) = outcome.bestmoves.iter().find(|(s, _)| *s == i) {
            searches += 1;
            let logged = step.search.as_ref().and_then(|s| s.bestmove.as_deref());
            let versus = match logged {
                Some(l) if l == best => {
                    same += 1;
                    "as logged".to_owned()
                }
                Some(l) => format!("logged {l}"),
                None => "none logged".to_owned(),
            };
            line.push_str(&format!("  -> bestmove {best} ({versus})"));
        }
        let _ = writeln!(out, "{line}");
    }
    for failure in &outcome.failures {
        let _ = writeln!(out, "{}", describe(failure, &plan.steps));
    }
    if outcome.failures.is_empty() {
        let _ = writeln!(
            out,
            "no failure: {searches} searches, {same} with the logged bestmove"
        );
    }
}
