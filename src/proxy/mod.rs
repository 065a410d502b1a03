//! The tokio shell: owns the pipes, the engine child process and signals.
//!
//! [`run`] loads the configuration, resolves and starts the engine, installs logging and runs
//! the [`relay`] loop on a current-thread runtime on the main thread (on Linux the engine's
//! parent-death signal is tied to the thread that started it; restarts happen there too). The
//! conversation itself is carried by reader threads ([`core`]) with blocking reads and writes. Exit
//! status: 0 after `quit` or the GUI's end of input, 1 when the engine exited on its own and
//! was not (or no longer) restarted, 2 for a configuration or engine start error, 128 + n after
//! signal n.

pub mod codec;
pub mod core;
pub mod engine;
pub mod gate;
pub mod outbox;
pub mod reader;
pub mod relay;
pub mod respawn;
pub mod signals;
pub mod stdio;
pub mod ticker;
pub mod watch;

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use crate::cli::ProxyArgs;
use crate::config::{Config, default_log_dir};
use crate::logging::{LogSettings, init, session_id};
use crate::session::{RestartPolicy, Session, Settings};

/// Exit status for a usage, configuration or engine start error.
pub const EXIT_USAGE: u8 = 2;

/// Runs the proxy over stdio until the GUI quits; returns the exit status.
pub fn run(args: ProxyArgs) -> ExitCode {
    match run_inner(&args) {
        Ok(status) => ExitCode::from(status),
        Err(message) => {
            eprintln!("fenguard: {message}");
            ExitCode::from(EXIT_USAGE)
        }
    }
}

/// The configuration (`--config` path `explicit`, else `$FENGUARD_CONFIG`, else the defaults:
/// [`Config::load`]) and the engine to start: the command line's `-- ENGINE ARGS...` when
/// given, else `engine.command` / `engine.args`, its program resolved on `PATH` (and the games
/// directories, [`engine::resolve`]). Shared by the stdio proxy and `fenguard serve`.
///
/// # Errors
/// The message for a configuration that cannot be read or an engine that cannot be found.
pub fn config_and_engine(
    explicit: Option<&Path>,
    engine: &[OsString],
) -> Result<(Config, PathBuf, Vec<OsString>), String> {
    let from_env = std::env::var_os("FENGUARD_CONFIG")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from);
    let config = Config::load(explicit, from_env).map_err(|e| format!("config error: {e}"))?;
    let (command, engine_args) = match engine.split_first() {
        Some((command, rest)) => (command.clone(), rest.to_vec()),
        None => (
            OsString::from(&config.engine.command),
            config.engine.args.iter().map(OsString::from).collect(),
        ),
    };
    let program = engine::resolve(&command, std::env::var_os("PATH").as_deref())
        .map_err(|e| e.to_string())?;
    Ok((config, program, engine_args))
}

fn run_inner(args: &ProxyArgs) -> Result<u8, String> {
    let (config, program, engine_args) = config_and_engine(args.config.as_deref(), &args.engine)?;

    let log_dir = args.log_dir.clone().or_else(|| {
        if config.log.dir.is_empty() {
            default_log_dir(|name| std::env::var(name).ok())
        } else {
            Some(PathBuf::from(&config.log.dir))
        }
    });
    let transcript = config.log.transcript || args.verbose >= 1;
    let mut logs = init(&LogSettings {
        dir: log_dir,
        level: config.log.level,
        verbose: args.verbose,
        positions: config.log.positions,
        transcript,
        session_id: session_id(),
        rotation: config.log.rotation(),
    });
    tracing::info!("fenguard {} starting", env!("CARGO_PKG_VERSION"));

    let gui =
        stdio::gui_stdio().map_err(|e| format!("cannot use fenguard's stdin and stdout: {e}"))?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the async runtime: {e}"))?;
    let status = runtime.block_on(async {
        let command = respawn::EngineCommand {
            program: program.clone(),
            args: engine_args.clone(),
            config: config.engine.clone(),
        };
        let engine = command.spawn().map_err(|e| e.to_string())?;
        let settings = Settings {
            positions: config.positions.clone(),
            log_positions: config.log.positions,
        };
        let mut session = Session::with_settings(transcript, settings)
            .with_restart(RestartPolicy::from(&config.engine))
            .with_commands(config.guard.commands);
        let start = command.started(&mut session, engine.child.id());
        let grace = Duration::from_millis(config.engine.quit_grace_ms);
        let session_logs = relay::SessionLogs {
            positions: logs.positions.take(),
            stderr: logs.stderr.clone(),
        };
        let gui = (core::GuiIn(Box::new(gui.0)), core::GuiOut(Box::new(gui.1)));
        let ended = relay::run(
            engine,
            session,
            session_logs,
            grace,
            start,
            &command,
            gui,
            signals::Signals::install(),
        )
        .await;
        logs.positions = ended.positions;
        Ok::<u8, String>(ended.status)
    });
    if let Err(message) = &status {
        tracing::info!("{message}");
    }
    tracing::info!(
        "fenguard exiting with status {}",
        status.as_ref().map_or(EXIT_USAGE, |s| *s)
    );
    runtime.shutdown_timeout(Duration::from_millis(100));
    drop(logs);
    status
}
