//! How `fenguard serve` and `fenguard connect` notice a peer that went away without a word
//! (link down, host gone, a frozen process; SPEC section 12: dead peers detected on both sides
//! within 30 s).
//!
//! Two mechanisms, both in the shell (the session never sees them):
//! - [`keepalive`]: TCP keepalive and `TCP_USER_TIMEOUT` on every TCP socket, TLS or not, of
//!   both commands. It needs nothing from the peer but its kernel, so it also guards plain
//!   clients such as DroidFish's network engine.
//! - [`heartbeat`]: a line the daemon sends a `connect` client that asked for it, when the
//!   connection has been quiet; `connect` declares the server lost when it hears nothing for
//!   its peer timeout. It also catches a daemon whose host still answers TCP but whose process
//!   does not (stopped, swapped out, wedged before admission).

pub mod heartbeat;
pub mod keepalive;
pub mod tls_stream;
