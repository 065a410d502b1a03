//! Command-line interface (clap): `fenguard [proxy options] [-- ENGINE ARGS]` and
//! `fenguard check [OPTIONS] [FEN...]` (SPEC section 4).

use std::ffi::OsString;
use std::path::PathBuf;
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
    pub proxy: ProxyArgs,
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
    /// Stdio client of a daemon, for a GUI to register as its engine.
    Connect(crate::connect::ConnectArgs),
    /// Access tokens of the daemon: `token new [--label L]`, `token list`, `token revoke LABEL|PREFIX`.
    Token(crate::token::TokenArgs),
}

/// Options of the proxy: `fenguard [--config FILE] [--log-dir DIR] [-v...] [-- ENGINE [ARGS...]]`.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct ProxyArgs {
    /// Configuration file (TOML). Default: `$FENGUARD_CONFIG`, else built-in defaults.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Directory for `fenguard.log` and `positions.jsonl` (overrides `log.dir`).
    #[arg(long, value_name = "DIR")]
    pub log_dir: Option<PathBuf>,
    /// More logging: `-v` turns on the transcript, `-vv` debug, `-vvv` trace.
    #[arg(short, long, action = clap::ArgAction::Count)]
    pub verbose: u8,
    /// The engine and its arguments (overrides `engine.command` and `engine.args`).
    #[arg(last = true, value_name = "ENGINE [ARGS...]")]
    pub engine: Vec<OsString>,
}

/// Parses the command line and runs the chosen command; returns the process exit status.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Check(args)) => crate::check::run(args),
        Some(Command::Log(args)) => crate::logview::run(args),
        Some(Command::Serve(args)) => crate::serve::run(args),
        Some(Command::Connect(args)) => crate::connect::run(&args),
        Some(Command::Token(args)) => crate::token::run(&args),
        None => crate::proxy::run(cli.proxy),
    }
}

/// `fenguard check --variant NAME` (SPEC section 10) and the 10x8 debug outputs the
/// differential and perft scripts read.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct VariantArgs {
    /// The rules to check under, by Fairy-Stockfish `UCI_Variant` name: `chess` (standard
    /// and Chess960), or a 10x8 variant: `capablanca`, `caparandom`, `gothic`, `janus`,
    /// `embassy`.
    #[arg(long = "variant", value_name = "NAME", default_value = "chess", value_parser = parse_variant)]
    pub variant: crate::variant::Variant,
    /// Debug output (chess, 10x8 variants and 8x8 variants, `--format json`): each valid
    /// position's legal moves in UCI, with the FEN after each in chess and 10x8, as
    /// `"legal_moves": [["e2e4", "<fen>"], ...]` (castles king-to-target, king-takes-rook in
    /// caparandom and in a chess position only Chess960 allows).
    #[arg(long)]
    pub legal_moves: bool,
    /// Debug output (chess and 10x8 variants, `--format json`): the perft node count of each
    /// valid position to this depth, as `"perft": N`.
    #[arg(long, value_name = "DEPTH")]
    pub perft: Option<u32>,
}

fn parse_variant(name: &str) -> Result<crate::variant::Variant, String> {
    Ok(crate::variant::Variant::from_uci_name(name))
}
