//! The offline `fenguard check` command (SPEC section 4).

use std::process::ExitCode;

/// Options of `fenguard check`.
#[derive(Debug, Clone, clap::Args)]
pub struct CheckArgs {}

/// Runs `fenguard check`; exit status 0 all valid, 1 some invalid, 2 usage or I/O error.
pub fn run(_args: CheckArgs) -> ExitCode {
    ExitCode::from(2)
}
