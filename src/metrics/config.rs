//! The `[metrics]` section of the configuration (SPEC section 13): where `serve` and `provide`
//! answer `/metrics` (Prometheus text) and `/health`, and how many connections the listener
//! holds.
//!
//! ```
//! let config = fenguard::config::Config::from_toml("[metrics]\nlisten = \"127.0.0.1:9355\"\n", "x.toml").unwrap();
//! assert_eq!(config.metrics.listen, "127.0.0.1:9355");
//! assert_eq!(config.metrics.max_connections_per_addr, 8);
//! ```

use serde::Deserialize;

/// The `[metrics]` section.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct MetricsConfig {
    /// `HOST:PORT` of the metrics listener. Empty (the default): no listener. A loopback
    /// address unless `tls_cert` and `tls_key` are set.
    pub listen: String,
    /// PEM certificate chain: the listener speaks HTTPS. Default empty.
    pub tls_cert: String,
    /// PEM private key for `tls_cert`. Default empty.
    pub tls_key: String,
    /// Connections held at once (at least 1); one more drops the oldest that has not sent a
    /// whole request yet, else the oldest. Default
    /// [`MAX_CONNECTIONS`](super::MAX_CONNECTIONS), 32.
    pub max_connections: usize,
    /// Connections held at once from one IP address (0: no per-address cap); one more drops
    /// that address's oldest that has not sent a whole request yet, else its oldest. Default
    /// [`MAX_CONNECTIONS_PER_ADDR`](super::MAX_CONNECTIONS_PER_ADDR), 8.
    pub max_connections_per_addr: usize,
    /// Milliseconds a connection has for its TLS handshake and for each request's headers
    /// (at least 1); then it is closed. Default 10000 ([`HEADER_TIMEOUT`](super::HEADER_TIMEOUT)).
    pub header_timeout_ms: u64,
}

impl Default for MetricsConfig {
    fn default() -> Self {
        MetricsConfig {
            listen: String::new(),
            tls_cert: String::new(),
            tls_key: String::new(),
            max_connections: super::MAX_CONNECTIONS,
            max_connections_per_addr: super::MAX_CONNECTIONS_PER_ADDR,
            header_timeout_ms: u64::try_from(super::HEADER_TIMEOUT.as_millis()).unwrap_or(10_000),
        }
    }
}
