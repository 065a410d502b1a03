//! The `[metrics]` section of the configuration (SPEC section 13): where `serve` and `provide`
//! answer `/metrics` (Prometheus text) and `/health`.
//!
//! ```
//! let config = fenguard::config::Config::from_toml("[metrics]\nlisten = \"127.0.0.1:9355\"\n", "x.toml").unwrap();
//! assert_eq!(config.metrics.listen, "127.0.0.1:9355");
//! ```

use serde::Deserialize;

/// The `[metrics]` section.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct MetricsConfig {
    /// `HOST:PORT` of the metrics listener. Empty (the default): no listener. A loopback
    /// address unless `tls_cert` and `tls_key` are set.
    pub listen: String,
    /// PEM certificate chain: the listener speaks HTTPS. Default empty.
    pub tls_cert: String,
    /// PEM private key for `tls_cert`. Default empty.
    pub tls_key: String,
}
