//! Daemon addresses, as written in `serve.listen`, `--listen` and `fenguard connect ADDR`.
//!
//! ```
//! use fenguard::serve::addr::Addr;
//!
//! assert_eq!("unix:/run/fg.sock".parse::<Addr>().unwrap(), Addr::Unix("/run/fg.sock".into()));
//! let tls: Addr = "tls://engines.example.org:7355".parse().unwrap();
//! assert!(matches!(tls, Addr::Tcp { tls: true, .. }));
//! ```
//!
//! `HOST:PORT` is plain TCP, `tls://HOST:PORT` TLS, `unix:/PATH` a Unix socket. HOST may be a
//! name (for `connect`), an IPv4 address or a bracketed IPv6 address (`[::1]:7355`).

use std::net::{IpAddr, SocketAddr, ToSocketAddrs as _};
use std::path::PathBuf;
use std::str::FromStr;

/// A daemon address.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Addr {
    /// TCP, with or without TLS.
    Tcp {
        /// The host as written (a name or an address, without brackets).
        host: String,
        /// The port.
        port: u16,
        /// Written `tls://`.
        tls: bool,
    },
    /// A Unix socket path.
    Unix(PathBuf),
}

/// A malformed address.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("bad address `{0}` (expected HOST:PORT, tls://HOST:PORT or unix:/PATH)")]
pub struct AddrError(pub String);

impl FromStr for Addr {
    type Err = AddrError;

    fn from_str(text: &str) -> Result<Addr, AddrError> {
        let bad = || AddrError(text.to_owned());
        if let Some(path) = text.strip_prefix("unix:") {
            return if path.is_empty() {
                Err(bad())
            } else {
                Ok(Addr::Unix(PathBuf::from(path)))
            };
        }
        let (rest, tls) = match text.strip_prefix("tls://") {
            Some(rest) => (rest, true),
            None => (text.strip_prefix("tcp://").unwrap_or(text), false),
        };
        let (host, port) = rest.rsplit_once(':').ok_or_else(bad)?;
        let host = host
            .strip_prefix('[')
            .and_then(|h| h.strip_suffix(']'))
            .unwrap_or(host);
        let port = port.parse().map_err(|_| bad())?;
        if host.is_empty() || host.contains(['/', ' ']) {
            return Err(bad());
        }
        Ok(Addr::Tcp {
            host: host.to_owned(),
            port,
            tls,
        })
    }
}

impl std::fmt::Display for Addr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Addr::Unix(path) => write!(f, "unix:{}", path.display()),
            Addr::Tcp { host, port, tls } => {
                let scheme = if *tls { "tls://" } else { "" };
                if host.contains(':') {
                    write!(f, "{scheme}[{host}]:{port}")
                } else {
                    write!(f, "{scheme}{host}:{port}")
                }
            }
        }
    }
}

impl Addr {
    /// The socket address to bind or connect to (a name is resolved; the first result).
    ///
    /// # Errors
    /// The resolver's error, or `None` for a Unix socket.
    pub fn socket_addr(&self) -> std::io::Result<SocketAddr> {
        match self {
            Addr::Tcp { host, port, .. } => (host.as_str(), *port)
                .to_socket_addrs()?
                .next()
                .ok_or_else(|| std::io::Error::other(format!("`{host}` has no address"))),
            Addr::Unix(_) => Err(std::io::Error::other("a Unix socket has no IP address")),
        }
    }

    /// The address as a listener serves it: `tls://` written out when it serves TLS.
    pub fn as_served(&self) -> Addr {
        match self {
            Addr::Tcp { host, port, .. } => Addr::Tcp {
                host: host.clone(),
                port: *port,
                tls: self.needs_tls(),
            },
            Addr::Unix(path) => Addr::Unix(path.clone()),
        }
    }

    /// Whether every address the host resolves to is loopback (a Unix socket: true).
    ///
    /// # Errors
    /// The resolver's error.
    pub fn resolves_to_loopback(&self) -> std::io::Result<bool> {
        match self {
            Addr::Tcp { host, port, .. } => {
                let mut any = false;
                for at in (host.as_str(), *port).to_socket_addrs()? {
                    if !at.ip().is_loopback() {
                        return Ok(false);
                    }
                    any = true;
                }
                Ok(any)
            }
            Addr::Unix(_) => Ok(true),
        }
    }

    /// Whether a listener here serves TLS: written `tls://`, or a TCP address outside
    /// loopback (SPEC section 11: TLS is required there).
    pub fn needs_tls(&self) -> bool {
        match self {
            Addr::Unix(_) => false,
            Addr::Tcp { tls: true, .. } => true,
            Addr::Tcp { host, .. } => {
                !host.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback()) && host != "localhost"
            }
        }
    }

    /// Whether the address is loopback or a Unix socket (allowed without tokens).
    pub fn is_local(&self) -> bool {
        match self {
            Addr::Unix(_) => true,
            Addr::Tcp { host, .. } => {
                host == "localhost" || host.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_loopback_needs_no_tls() {
        let addr: Addr = "127.0.0.1:7355".parse().unwrap();
        assert!(!addr.needs_tls() && addr.is_local());
    }

    #[test]
    fn any_other_address_needs_tls() {
        let addr: Addr = "0.0.0.0:7355".parse().unwrap();
        assert!(addr.needs_tls() && !addr.is_local());
        let addr: Addr = "[::1]:7355".parse().unwrap();
        assert!(!addr.needs_tls());
        assert_eq!(addr.to_string(), "[::1]:7355");
    }

    #[test]
    fn a_listener_outside_loopback_is_shown_with_tls() {
        let addr: Addr = "0.0.0.0:7356".parse().unwrap();
        assert_eq!(addr.as_served().to_string(), "tls://0.0.0.0:7356");
    }

    #[test]
    fn loopback_names_and_addresses_resolve_to_loopback() {
        for text in ["127.0.0.1:1", "[::1]:1", "127.8.9.10:1"] {
            assert!(
                text.parse::<Addr>()
                    .unwrap()
                    .resolves_to_loopback()
                    .unwrap(),
                "{text}"
            );
        }
        assert!(
            !"192.0.2.1:1"
                .parse::<Addr>()
                .unwrap()
                .resolves_to_loopback()
                .unwrap()
        );
    }

    #[test]
    fn bad_addresses_are_errors() {
        for text in ["7355", "host:", "unix:", "host:99999", ":7355"] {
            assert!(text.parse::<Addr>().is_err(), "{text}");
        }
    }
}
