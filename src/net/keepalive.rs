//! TCP keepalive and `TCP_USER_TIMEOUT`: a socket whose peer went away silently fails within
//! the peer timeout instead of after Linux's `tcp_retries2` (about 15 minutes with data in
//! flight) or never (an idle connection without keepalive).
//!
//! ```
//! use std::time::Duration;
//! use fenguard::net::keepalive::DeadPeer;
//!
//! let dead = DeadPeer::from_secs(5, 20);
//! assert_eq!(dead.keepalive, Some(Duration::from_secs(5)));
//! assert_eq!(dead.peer_timeout, Some(Duration::from_secs(20)));
//! assert_eq!(DeadPeer::from_secs(0, 0), DeadPeer::OFF);
//!
//! let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
//! let socket = std::net::TcpStream::connect(listener.local_addr().unwrap()).unwrap();
//! dead.apply(&socket).unwrap();
//! ```
//!
//! Keepalive probes start after `keepalive` without traffic and repeat every `keepalive`. The
//! user timeout ends the connection when what was sent (data or probes) stays unacknowledged
//! for `peer_timeout`. So a quiet connection to a dead peer ends between `peer_timeout` and
//! `peer_timeout + keepalive` after the peer's last word, and a busy one (a searching engine's
//! `info` lines) `peer_timeout` after the first line that got no acknowledgement. A blocked
//! read or write then fails (`ETIMEDOUT`, or the unreachable error that came with the loss),
//! which both commands treat as the end of the connection.

use std::os::fd::AsFd;
use std::time::Duration;

use socket2::{SockRef, TcpKeepalive};

/// Dead-peer settings of one TCP socket (`[serve] keepalive_s` and `peer_timeout_s`, or
/// `connect --keepalive-s` and `--peer-timeout-s`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DeadPeer {
    /// Quiet time before the first keepalive probe, and between probes; `None`: no keepalive.
    pub keepalive: Option<Duration>,
    /// Longest time sent bytes may stay unacknowledged (`TCP_USER_TIMEOUT`); `None`: the
    /// system's default (retransmissions for about 15 minutes).
    pub peer_timeout: Option<Duration>,
}

impl DeadPeer {
    /// Neither keepalive nor a user timeout: the system's defaults.
    pub const OFF: DeadPeer = DeadPeer {
        keepalive: None,
        peer_timeout: None,
    };

    /// From whole seconds; 0 turns that part off.
    pub fn from_secs(keepalive_s: u64, peer_timeout_s: u64) -> DeadPeer {
        let some = |s: u64| (s > 0).then(|| Duration::from_secs(s));
        DeadPeer {
            keepalive: some(keepalive_s),
            peer_timeout: some(peer_timeout_s),
        }
    }

    /// Sets the options on `socket` (a TCP socket: `std`'s, tokio's, anything with a
    /// descriptor). Where the system has no `TCP_USER_TIMEOUT` (not Linux), the keepalive probe
    /// count is chosen so that probing alone gives up after about `peer_timeout`.
    ///
    /// # Errors
    /// When the system refuses an option (the socket is not TCP, or a value is out of range).
    pub fn apply<S: AsFd>(&self, socket: &S) -> std::io::Result<()> {
        let socket = SockRef::from(socket);
        if let Some(every) = self.keepalive {
            let mut params = TcpKeepalive::new().with_time(every).with_interval(every);
            if let Some(timeout) = self.peer_timeout {
                let probes = timeout.as_secs() / every.as_secs().max(1);
                let probes = u32::try_from(probes.saturating_sub(1).max(1)).unwrap_or(u32::MAX);
                params = params.with_retries(probes);
            }
            socket.set_tcp_keepalive(&params)?;
        }
        #[cfg(any(target_os = "linux", target_os = "android"))]
        if let Some(timeout) = self.peer_timeout {
            socket.set_tcp_user_timeout(Some(timeout))?;
        }
        Ok(())
    }
}
