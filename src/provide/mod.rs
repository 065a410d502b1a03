//! `fenguard provide` (issue 18): a guarded engine for lichess's analysis board through
//! lichess's external-engine API. So far only its pure part: [`work`], what a job from the work
//! broker becomes on the engine's side (the GUI lines the session is fed), and the broker's
//! grammar for what is streamed back ([`crate::uci::broker`]). The shell (registration, the
//! long poll, streaming, workers) is to come, around the same [`crate::session::Session`].

pub mod config;
pub mod work;
