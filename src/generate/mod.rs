//! `fenguard generate` (hidden): what a package ships beside the binary, written from the
//! program's own definitions so that it cannot drift from them.
//!
//! - `generate man DIR`: the man pages, from the clap definitions ([`man`]): `fenguard.1`, one
//!   page a subcommand (`fenguard-check.1`, `fenguard-token-new.1`, ...), and `fenguard.toml.5`
//!   from the commented `config/fenguard.toml` compiled into the binary ([`config_page`]).
//! - `generate completions SHELL`: a completion script (clap_complete) on stdout.
//! - `generate diagnostics`: the Markdown reference of every diagnostic code
//!   ([`crate::fen::Code`], `docs/diagnostics.md`) on stdout.
//!
//! ```text
//! $ fenguard generate man target/man && man -l target/man/fenguard-check.1
//! $ fenguard generate completions bash > /usr/share/bash-completion/completions/fenguard
//! ```

pub mod config_page;
pub mod diagnostics;
pub mod man;
mod roff;

use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

/// Options of `fenguard generate`.
#[derive(Debug, clap::Args)]
pub struct GenerateArgs {
    /// What to write.
    #[command(subcommand)]
    pub what: What,
}

/// What `fenguard generate` writes.
#[derive(Debug, clap::Subcommand)]
pub enum What {
    /// Man pages into DIR (created when missing): fenguard.1, fenguard-SUBCOMMAND.1 for each
    /// subcommand, fenguard.toml.5.
    Man {
        /// The directory to write the pages into.
        #[arg(value_name = "DIR")]
        dir: PathBuf,
    },
    /// A completion script for SHELL on standard output.
    Completions {
        /// bash, zsh, fish, powershell or elvish.
        #[arg(value_name = "SHELL")]
        shell: clap_complete::Shell,
    },
    /// The diagnostic codes as Markdown (docs/diagnostics.md) on standard output.
    Diagnostics,
}

/// Runs `fenguard generate`; `cli` is the whole command line's definition. Exit status 0, or 2
/// when a file cannot be written (the error on stderr, naming the file).
pub fn run(args: &GenerateArgs, cli: clap::Command) -> ExitCode {
    let result = match &args.what {
        What::Man { dir } => man::write_all(cli, dir),
        What::Completions { shell } => {
            let mut cli = cli;
            let mut out = Vec::new();
            clap_complete::generate(*shell, &mut cli, "fenguard", &mut out);
            write_stdout(&out)
        }
        What::Diagnostics => write_stdout(diagnostics::markdown().as_bytes()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("fenguard generate: {message}");
            ExitCode::from(2)
        }
    }
}

fn write_stdout(bytes: &[u8]) -> Result<(), String> {
    let mut out = std::io::stdout().lock();
    out.write_all(bytes)
        .and_then(|()| out.flush())
        .map_err(|e| format!("standard output: {e}"))
}
