//! The `fenguard` binary: parses arguments and picks a command.

fn main() -> std::process::ExitCode {
    fenguard::cli::main()
}
