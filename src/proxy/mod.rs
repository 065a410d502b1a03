//! The tokio shell: owns the pipes, the engine child process and signals.
//!
//! [`run`] loads the configuration, resolves and starts the engine, installs logging and runs
//! the [`relay`] loop on a current-thread runtime on the main thread (on Linux the engine's
//! parent-death signal is tied to the thread that started it; restarts happen there too). The
//! conversation itself is carried by reader threads ([`core`]) with blocking reads and writes. Exit
//! status: 0 after `quit` or the GUI's end of input, 1 when the engine exited on its own and
//! was not (or no longer) restarted, 2 for a configuration or engine start error, 128 + n after
//! signal n.

pub mod core;
pub mod engine;
pub mod outbox;
pub mod reader;
pub mod relay;
pub mod respawn;
pub mod signals;
pub mod spec;
pub mod stdio;
pub mod watch;

use std::process::ExitCode;
use std::time::Duration;

use crate::logging::init;
use spec::{SessionSpec, ShellArgs};

/// Exit status for a usage, configuration or engine start error.
pub const EXIT_USAGE: u8 = 2;

/// Options of the proxy: `fenguard [--config FILE] [--log-dir DIR] [-v...] [-- ENGINE [ARGS...]]`.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct ProxyArgs {
    /// The options every shell takes.
    #[command(flatten)]
    pub shell: ShellArgs,
}

/// Runs the proxy over stdio until the GUI quits; returns the exit status.
pub fn run(args: &ProxyArgs) -> ExitCode {
    match run_inner(args) {
        Ok(status) => ExitCode::from(status),
        Err(message) => {
            eprintln!("fenguard: {message}");
            ExitCode::from(EXIT_USAGE)
        }
    }
}

fn run_inner(args: &ProxyArgs) -> Result<u8, String> {
    let spec = SessionSpec::load(&args.shell)?;
    let mut logs = init(&spec.log_settings(spec.config.log.positions));
    tracing::info!("fenguard {} starting", env!("CARGO_PKG_VERSION"));

    let gui =
        stdio::gui_stdio().map_err(|e| format!("cannot use fenguard's stdin and stdout: {e}"))?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the async runtime: {e}"))?;
    let status = runtime.block_on(async {
        let grace = Duration::from_millis(spec.config.engine.quit_grace_ms);
        let stderr = logs.stderr.clone();
        let relay = relay::Relay::start(&spec.command, spec.session(None), stderr, grace)
            .map_err(|e| e.to_string())?
            .with_positions(logs.positions.take())
            .with_signals(signals::Signals::install());
        let ended = relay.run(gui.0, gui.1).await;
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
