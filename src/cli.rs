//! Command-line interface (clap): `fenguard [proxy options] [-- ENGINE ARGS]` and the
//! subcommands. Each command owns its options (`ProxyArgs` in
//! [`proxy`](crate::proxy), `CheckArgs` in [`check`](crate::check) ...); this module only names
//! them, and no command imports it.

use std::process::ExitCode;

use clap::{CommandFactory as _, Parser, Subcommand};

/// What `fenguard --help` (and the man page) says fenguard is.
const LONG_ABOUT: &str = "\
A UCI proxy for chess engines. Register `fenguard -- ENGINE [ARGS...]` as the GUI's engine: \
fenguard starts the engine and relays the UCI conversation both ways. Every `position` \
(FEN, X-FEN, Shredder-FEN, and its moves) is checked: a valid one goes to the engine in \
canonical form, one with a safe repair is repaired, any other is rejected with a diagnostic \
(the GUI's `go` is then answered `bestmove 0000`). Chess960 castling is translated between \
the GUI's and the engine's notation, a crashed or hung engine is restarted with the GUI's \
options and position, and every position is logged to positions.jsonl (`fenguard log` reads \
it).";

/// `fenguard`: a UCI proxy that validates, repairs and translates chess positions.
#[derive(Debug, Parser)]
#[command(
    name = "fenguard",
    version,
    about,
    long_about = LONG_ABOUT,
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
    /// The daemon: guarded engine sessions for GUIs on other machines (Unix only).
    Serve(crate::serve::ServeArgs),
    /// Your engine on lichess.org's analysis board: lichess's external-engine provider.
    Provide(crate::provide::ProvideArgs),
    /// Stdio client of a daemon, for a GUI to register as its engine (Unix only).
    Connect(crate::connect::ConnectArgs),
    /// Send what the GUI sent in a logged session again, to find where the engine crashed,
    /// hung or answered an illegal move; `--minimize` prints a minimal failing UCI script.
    Replay(crate::replay::ReplayArgs),
    /// Access tokens of the daemon: `token new [--label L]`, `token list`, `token revoke LABEL|PREFIX`.
    Token(crate::token::TokenArgs),
    /// Make `fenguard-NAME` (a script on Unix, a copy on Windows) and its profile, for GUIs that cannot pass arguments.
    Wrap(crate::profile::WrapArgs),
    /// The engine check-up for engine authors: UCI compliance, perft, hostile input, variants.
    Doctor(crate::doctor::DoctorArgs),
    /// Man pages, shell completions and the diagnostics reference, for packages (hidden).
    #[command(hide = true)]
    Generate(crate::generate::GenerateArgs),
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
        Some(Command::Generate(args)) => crate::generate::run(&args, Cli::command()),
        None => crate::proxy::run(&cli.proxy),
    }
}
