//! fenguard: a UCI proxy that validates, repairs and translates chess positions.
//!
//! Layers, pure to impure:
//! - [`fen`]: parse, diagnose, validate, repair and write FEN / X-FEN / Shredder-FEN (no I/O).
//! - [`uci`]: UCI protocol lines: parsing, tokens, the castling notations' names (no I/O).
//! - [`rules`]: what moves mean: one `GameRules` trait for chess, the 8x8 variants and 10x8,
//!   the `Game` dispatch enum, move lists and the pv rewrite (no I/O).
//! - [`framing`]: lines and capped pieces of lines out of bytes (no I/O; the shells and
//!   `check` share its `MAX_LINE`).
//! - [`session`]: the sans-I/O proxy state machine (GUI line or engine line in, actions out).
//! - [`proxy`]: the tokio shell that owns the pipes, the child process and signals; its
//!   [`relay`](proxy::relay) and [`SessionSpec`](proxy::spec::SessionSpec) serve the daemon too.
//! - [`check`]: the offline `fenguard check` command.
//! - [`clock`]: a `go` line's clock times with a safety margin off (`[time]`, `connect
//!   --rtt-overhead`; no I/O).
//! - [`doctor`]: `fenguard doctor`, the engine check-up (a shell: it runs the engine itself).
//! - [`logview`]: the offline `fenguard log` command (reads `positions.jsonl`).
//! - [`generate`]: man pages, completions and the diagnostics reference (hidden command).
//! - [`serve`], [`connect`], [`token`]: the daemon, its stdio client and its access tokens;
//!   `net`: how both notice a peer that went away (keepalive, heartbeat).
//! - [`replay`]: `fenguard replay`, a logged session sent again to an engine (a shell).
//! - [`view`]: boards drawn from FENs for the terminal, SVG and the HTML report (no I/O).
//! - [`variant`]: which rules a game is played under (SPEC section 10).
//! - [`provide`]: `fenguard provide` for lichess's external-engine API (issue 18); so far its
//!   pure part, what a broker job becomes on the engine's side.

pub mod book;
pub mod check;
pub mod cli;
pub mod clock;
pub mod config;
pub mod connect;
pub mod doctor;
pub mod fen;
pub mod framing;
pub mod generate;
pub mod logging;
pub mod logview;
pub mod metrics;
#[cfg(unix)]
pub mod net;
pub mod poslog;
pub mod profile;
pub mod provide;
pub mod proxy;
pub mod replay;
pub mod rules;
pub mod serve;
pub mod session;
pub mod token;
pub mod uci;
pub mod variant;
pub mod view;
