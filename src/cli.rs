//! Command-line interface (clap): `fenguard [proxy options] [-- ENGINE ARGS]` and the
//! subcommands (SPEC section 4). Each command owns its options (`ProxyArgs` in
//! [`proxy`](crate::proxy), `CheckArgs` in [`check`](crate::check) ...); this module only names
//! them, and no command imports it.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// `fenguard`: a UCI proxy that validates, repairs and translates chess positions.
#[derive(Debug, Parser)]
#[command(
    name = "fenguard",
    version,
    about,
    args_conflicts_with_subcommands = true
)]
pub struct Cli {
    /// Offline commands; without one, fenguard runs as the proxy over stdio.
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Options of the proxy.
    #[command(flatten)]
    pub proxy: crate::proxy::ProxyArgs,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Lint and normalize FENs from arguments, `--file F`, or standard input (`-`).
    Check(crate::check::CheckArgs),
    /// Read `positions.jsonl`: records in full, filtered, followed, or games as PGN.
    Log(crate::logview::LogArgs),
    /// The daemon: guarded engine sessions for GUIs on other machines (SPEC section 11).
    Serve(crate::serve::ServeArgs),
    /// Your engine on lichess.org's analysis board: lichess's external-engine provider.
    Provide(crate::provide::ProvideArgs),
    /// Stdio client of a daemon, for a GUI to register as its engine.
    Connect(crate::connect::ConnectArgs),
    /// Send what the GUI sent in a logged session again, to find where the engine crashed,
    /// hung or answered an illegal move; `--minimize` prints a minimal failing UCI script.
    Replay(crate::replay::ReplayArgs),
    /// Access tokens of the daemon: `token new [--label L]`, `token list`, `token revoke LABEL|PREFIX`.
    Token(crate::token::TokenArgs),
    /// Make `fenguard-NAME` (link or copy) and its profile, for GUIs that cannot pass arguments.
    Wrap(crate::profile::WrapArgs),
    /// The engine check-up for engine authors: UCI compliance, perft, hostile input, variants.
    Doctor(crate::doctor::DoctorArgs),
}

/// Parses the command line and runs the chosen command; returns the process exit status.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Check(args)) => crate::check::run(args),
        Some(Command::Log(args)) => crate::logview::run(args),
        Some(Command::Serve(args)) => crate::serve::run(args),
        Some(Command::Provide(args)) => crate::provide::run(&args),
        Some(Command::Connect(args)) => crate::connect::run(&args),
        Some(Command::Token(args)) => crate::token::run(&args),
        Some(Command::Replay(args)) => crate::replay::run(&args),
        Some(Command::Wrap(args)) => crate::profile::wrap::run(&args),
        Some(Command::Doctor(args)) => crate::doctor::run(&args),
        None => crate::proxy::run(&cli.proxy),
    }
}
