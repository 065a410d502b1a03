//! The `[serve]` section of the configuration (SPEC sections 5 and 11).
//!
//! ```
//! let config = fenguard::config::Config::from_toml("[serve]\nmax_sessions = 2\n", "x.toml").unwrap();
//! assert_eq!(config.serve.max_sessions, 2);
//! assert_eq!(config.serve.listen, vec!["127.0.0.1:7355".to_owned()]);
//! ```

use std::path::PathBuf;

use serde::Deserialize;

use crate::session::guard::DEFAULT_ALLOW;

/// The `[serve]` section: the daemon's listeners, TLS, tokens, limits and option guard.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ServeConfig {
    /// Addresses to listen on: `HOST:PORT` (plain TCP: loopback only), `tls://HOST:PORT`
    /// (TLS; any address outside loopback is TLS even without the prefix), `unix:/PATH` (a
    /// Unix socket, mode 0600). Default `["127.0.0.1:7355"]`.
    pub listen: Vec<String>,
    /// PEM certificate chain for TLS listeners. Default empty (no TLS).
    pub tls_cert: String,
    /// PEM private key for TLS listeners. Default empty.
    pub tls_key: String,
    /// Token hashes (SHA-256 hex, one a line), written by `fenguard token new`. Empty: the
    /// default `$XDG_CONFIG_HOME/fenguard/tokens` (else `~/.config/fenguard/tokens`). A missing
    /// or empty file means no tokens: loopback and Unix listeners only, no `auth` line.
    pub tokens_file: String,
    /// Sessions at once; one more is refused with a line saying so. Default 16.
    pub max_sessions: usize,
    /// A connection with no bytes either way for this many milliseconds is closed (its engine
    /// quits). 0: never. Default 3600000 (an hour).
    pub idle_timeout_ms: u64,
    /// Seconds of quiet on a TCP connection (TLS or not) before TCP keepalive probes start,
    /// and between probes (0: no keepalive). Default 5.
    pub keepalive_s: u64,
    /// A TCP peer that leaves what was sent (data or keepalive probes) unacknowledged this many
    /// seconds is dead (`TCP_USER_TIMEOUT`): its session ends and its engine is killed, within
    /// `peer_timeout_s` + `keepalive_s` of the peer's last word (0: the system's default,
    /// about 15 minutes with data in flight). Default 20.
    pub peer_timeout_s: u64,
    /// Cap on the engine's `Threads` (0: none). Default 0.
    pub max_threads: u64,
    /// Cap on the engine's `Hash` in MiB (0: none). Default 0.
    pub max_hash_mb: u64,
    /// Options a client may set (an entry ending in `*` is a prefix); string options and
    /// names holding `path` or `file` are refused anyway. Default: `Hash`, `Threads`,
    /// `MultiPV`, `Ponder`, `Move Overhead`, `Skill Level`, `Contempt`, `UCI_*`.
    pub allow_options: Vec<String>,
}

impl Default for ServeConfig {
    fn default() -> Self {
        ServeConfig {
            listen: vec!["127.0.0.1:7355".to_owned()],
            tls_cert: String::new(),
            tls_key: String::new(),
            tokens_file: String::new(),
            max_sessions: 16,
            idle_timeout_ms: 3_600_000,
            keepalive_s: 5,
            peer_timeout_s: 20,
            max_threads: 0,
            max_hash_mb: 0,
            allow_options: DEFAULT_ALLOW.iter().map(|s| (*s).to_owned()).collect(),
        }
    }
}

impl ServeConfig {
    /// The dead-peer settings of every TCP connection the daemon accepts.
    #[cfg(unix)]
    pub fn dead_peer(&self) -> crate::net::keepalive::DeadPeer {
        crate::net::keepalive::DeadPeer::from_secs(self.keepalive_s, self.peer_timeout_s)
    }

    /// The tokens file: `tokens_file`, else the default (see the field); `None` when no
    /// default can be found (no `XDG_CONFIG_HOME` nor `HOME`).
    pub fn tokens_path(&self, var: impl Fn(&str) -> Option<String>) -> Option<PathBuf> {
        if !self.tokens_file.is_empty() {
            return Some(PathBuf::from(&self.tokens_file));
        }
        default_tokens_file(var)
    }
}

/// `$XDG_CONFIG_HOME/fenguard/tokens`, else `$HOME/.config/fenguard/tokens`.
pub fn default_tokens_file(var: impl Fn(&str) -> Option<String>) -> Option<PathBuf> {
    let non_empty = |name: &str| var(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    non_empty("XDG_CONFIG_HOME")
        .or_else(|| non_empty("HOME").map(|home| home.join(".config")))
        .map(|dir| dir.join("fenguard").join("tokens"))
}

#[cfg(test)]
mod tests {
    use crate::config::Config;

    #[test]
    fn unknown_serve_key_is_named() {
        let err = Config::from_toml("[serve]\nmax_session = 3\n", "x.toml").unwrap_err();
        assert!(err.to_string().contains("serve.max_session"), "{err}");
    }

    #[test]
    fn allow_options_replace_the_default_list() {
        let config = Config::from_toml("[serve]\nallow_options = [\"Hash\"]\n", "x.toml").unwrap();
        assert_eq!(config.serve.allow_options, vec!["Hash".to_owned()]);
    }

    #[test]
    fn example_serve_config_is_valid() {
        let text = include_str!("../../config/serve.toml");
        let config = Config::from_toml(text, "config/serve.toml").unwrap();
        assert_eq!(config.serve.max_threads, 8);
    }

    #[test]
    fn default_tokens_file_prefers_xdg_config_home() {
        let var = |name: &str| (name == "XDG_CONFIG_HOME").then(|| "/x".to_owned());
        assert_eq!(
            super::default_tokens_file(var),
            Some("/x/fenguard/tokens".into())
        );
    }
}
