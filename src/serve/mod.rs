//! The daemon, `fenguard serve` (SPEC section 11): many guarded engine sessions, one a
//! connection, in one process.
//!
//! It is a second shell around the same [`Session`](crate::session::Session) as the stdio
//! proxy: each admitted connection gets its own engine process, session, restart policy and
//! positions log (`positions-<session id>.jsonl` in the log directory), and runs the proxy's
//! [relay](crate::proxy::relay) with the connection as the GUI side. Sockets, TLS and tokens
//! live here, never in the session; the session only gets the option [guard](crate::session::guard).
//!
//! Admission, before any engine starts: a pre-auth place ([`admission`]: `max_startups`,
//! `max_startups_per_addr`, the descriptor reserve), the TLS handshake (TLS listeners), then
//! the first line, at most `conn::MAX_AUTH_LINE` bytes within `conn::AUTH_TIMEOUT`:
//! `auth <token>` when tokens are configured (with none, an `auth` line is dropped and a UCI
//! command is the first UCI line; anything else is refused, see [`first_line`]); then
//! `max_sessions`. A refusal is one line, `info string fenguard: refused: REASON`, after a
//! delay growing with the failures of that source ([`refusals`]), then the connection is
//! closed.
//!
//! Lifecycle: everything runs on a current-thread runtime on the main thread, so every engine
//! is started by the main thread and its Linux parent-death signal fires only when the daemon
//! dies (also on SIGKILL). A client's end of input is the session's: the engine gets its
//! input closed and at most 500 ms (`engine.quit_grace_ms` if lower) before it is killed.
//! SIGTERM or SIGINT: stop accepting, `quit` to every engine (through each session), kill
//! what is left after the grace, exit 0. SIGHUP reloads the tokens file: the open sessions of a
//! token no longer in it get `info string fenguard: access revoked; session ending` and end as
//! after a disconnect; the others (and sessions without a token) go on.

#[cfg(unix)]
mod accept;
pub mod addr;
pub mod admission;
pub mod caps;
pub mod config;
#[cfg(unix)]
pub(crate) mod conn;
#[cfg(unix)]
mod daemon;
pub mod first_line;
pub mod refusals;
#[cfg(unix)]
mod session;
#[cfg(unix)]
mod session_logs;
#[cfg(unix)]
pub mod tls;
#[cfg(unix)]
mod unix_socket;

use std::process::ExitCode;

/// `fenguard serve [--config FILE] [--listen ADDR]... [-- ENGINE [ARGS...]]`.
#[derive(Debug, Clone, clap::Args)]
pub struct ServeArgs {
    /// The options every shell takes.
    #[command(flatten)]
    pub shell: crate::proxy::spec::ShellArgs,
    /// Listen here (repeatable; overrides `serve.listen`): HOST:PORT, tls://HOST:PORT,
    /// unix:/PATH.
    #[arg(long, value_name = "ADDR")]
    pub listen: Vec<String>,
}

/// Runs the daemon until a signal ends it; exit status 0, or 2 for a configuration, address,
/// TLS or engine error found at start.
pub fn run(args: ServeArgs) -> ExitCode {
    #[cfg(unix)]
    {
        daemon::run(args)
    }
    #[cfg(not(unix))]
    {
        let _ = args;
        eprintln!("fenguard: serve is not supported on this platform yet (Unix only)");
        ExitCode::from(2)
    }
}
