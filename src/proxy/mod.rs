//! The tokio shell: owns the pipes, the engine child process and signals.

use std::process::ExitCode;

use crate::cli::ProxyArgs;

/// Runs the proxy over stdio until the GUI quits; returns the exit status.
pub fn run(_args: ProxyArgs) -> ExitCode {
    ExitCode::from(2)
}
