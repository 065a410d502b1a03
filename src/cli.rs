//! Command-line interface (clap): `fenguard [proxy options] [-- ENGINE ARGS]` and `fenguard check`.

use std::process::ExitCode;

/// Parses the command line and runs the chosen command.
pub fn main() -> ExitCode {
    ExitCode::SUCCESS
}
