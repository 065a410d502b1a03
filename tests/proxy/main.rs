//! The stdio proxy as a process, around the fake engine and real Stockfish: relay, lifecycle,
//! signals, stalls, restarts (one table-driven process suite: `process_table`,
//! `process_runner`), hostile input, the position interception (public-report rows
//! end to end) and the SPEC 12 guard.
//!
//! One test binary (`cargo test --test proxy`); each module is a former test crate of its own
//! name, so `cargo test --test proxy MODULE::` runs what `--test MODULE` ran.

#[path = "../common/mod.rs"]
mod common;
#[path = "../serve/serve_support.rs"]
mod serve_support;

mod broker_stockfish;
mod guard_rules_stockfish;
mod guard_stockfish;
mod gui_parsers;
mod order_replies;
mod positions_log;
mod positions_more_detect;
mod positions_more_epd;
mod positions_options;
mod positions_translation;
mod process_pipes;
mod process_runner;
mod process_table;
mod proxy_lifecycle;
mod proxy_quit;
mod proxy_relay;
mod proxy_signals;
mod proxy_stderr_text;
mod public_reports;
mod resilience_hostile;
mod resilience_more_engine_end;
mod resilience_more_options;
mod resilience_restart;
mod resilience_stalls;
mod stockfish_order;
mod stockfish_relay;
