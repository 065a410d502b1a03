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
    /// Token hashes (SHA-256 hex, one a line, each optionally followed by a label), written by
    /// `fenguard token new`. Empty: the default `$XDG_CONFIG_HOME/fenguard/tokens` (else
    /// `~/.config/fenguard/tokens`), where a missing or empty file means no tokens: loopback
    /// and Unix listeners only, no `auth` line. Set here, the file must exist (else the daemon
    /// does not start: exit 2).
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
    /// Cap on the engine's `Threads`; `0`: none. Unset: the machine's cores (see
    /// [`caps`](super::caps)).
    pub max_threads: Option<u64>,
    /// Cap on the engine's `Hash` in MiB; `0`: none. Unset: half the machine's memory divided
    /// by `max_sessions` (see [`caps`](super::caps)).
    pub max_hash_mb: Option<u64>,
    /// Unauthenticated connections held at once, OpenSSH `MaxStartups` style `"start:rate:full"`
    /// (or `"full"`): from `start` held, each new connection drops the oldest unauthenticated
    /// one with probability `rate`% rising linearly to 100% at `full`. Default `"10:30:100"`.
    pub max_startups: Startups,
    /// Unauthenticated connections held at once from one IP address; one more drops the
    /// oldest of that address. 0: no per-address cap. Default 10.
    pub max_startups_per_addr: usize,
    /// Session positions logs (`positions-<id>.jsonl`, with their rotated files) kept in the
    /// log directory: at each session start the oldest beyond this count are removed. 0: keep
    /// every one. Default 100.
    pub keep_session_logs: usize,
    /// Options a client may set (an entry ending in `*` is a prefix); string options and
    /// names holding `path` or `file` are refused anyway. Default: `Hash`, `Threads`,
    /// `MultiPV`, `Ponder`, `Move Overhead`, `Skill Level`, `Contempt`, `UCI_*`.
    pub allow_options: Vec<String>,
    /// fenguard's own options (`setoption name fenguard NAME ...`) a client may set, by `NAME`
    /// (`OnBadPosition`, `Castling`, `EnPassant`, `Chess960`, `CheckMoves`, `ReportToGui`,
    /// `LogPositions`; ASCII case-insensitive). Any other is refused with `info string
    /// fenguard: option not allowed: fenguard NAME`, so the operator's `[positions]` and
    /// `log.positions` hold for every session (also for `fenguard provide`). Default empty:
    /// none.
    pub client_options: Vec<String>,
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
            max_threads: None,
            max_hash_mb: None,
            max_startups: Startups::default(),
            max_startups_per_addr: 10,
            keep_session_logs: 100,
            allow_options: DEFAULT_ALLOW.iter().map(|s| (*s).to_owned()).collect(),
            client_options: Vec::new(),
        }
    }
}

/// `serve.max_startups`: `start:rate:full` (OpenSSH's `MaxStartups` form) or a single `full`.
///
/// ```
/// use fenguard::serve::config::Startups;
///
/// let s: Startups = "10:30:100".parse().unwrap();
/// assert_eq!((s.start, s.rate, s.full), (10, 30, 100));
/// assert_eq!("50".parse::<Startups>().unwrap(), Startups { start: 50, rate: 100, full: 50 });
/// assert!("10:30:5".parse::<Startups>().is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Startups {
    /// Unauthenticated connections held with no early drop.
    pub start: usize,
    /// Percent chance of an early drop at `start`, 1-100.
    pub rate: u32,
    /// At this many, every new connection drops the oldest unauthenticated one.
    pub full: usize,
}

impl Default for Startups {
    fn default() -> Self {
        Startups {
            start: 10,
            rate: 30,
            full: 100,
        }
    }
}

impl std::str::FromStr for Startups {
    type Err = String;

    fn from_str(text: &str) -> Result<Startups, String> {
        let bad = || {
            format!("expected \"start:rate:full\" (e.g. \"10:30:100\") or \"full\", got `{text}`")
        };
        let parts: Vec<&str> = text.split(':').collect();
        let num = |s: &str| s.trim().parse::<usize>().map_err(|_| bad());
        let startups = match parts.as_slice() {
            [full] => {
                let full = num(full)?;
                Startups {
                    start: full,
                    rate: 100,
                    full,
                }
            }
            [start, rate, full] => Startups {
                start: num(start)?,
                rate: u32::try_from(num(rate)?).map_err(|_| bad())?,
                full: num(full)?,
            },
            _ => return Err(bad()),
        };
        if startups.full == 0
            || startups.start > startups.full
            || !(1..=100).contains(&startups.rate)
        {
            return Err(bad());
        }
        Ok(startups)
    }
}

impl std::fmt::Display for Startups {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}:{}", self.start, self.rate, self.full)
    }
}

impl<'de> Deserialize<'de> for Startups {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Startups, D::Error> {
        String::deserialize(d)?
            .parse()
            .map_err(serde::de::Error::custom)
    }
}

impl ServeConfig {
    /// What is wrong with `client_options`: a name that is none of fenguard's options.
    pub fn client_options_fault(&self) -> Option<String> {
        let names = crate::session::options::OPTION_NAMES;
        let unknown = self
            .client_options
            .iter()
            .find(|n| !names.iter().any(|k| k.eq_ignore_ascii_case(n.trim())))?;
        Some(format!(
            "unknown fenguard option `{unknown}` (expected some of {})",
            names.join(", ")
        ))
    }

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
    fn client_options_default_to_none_and_name_fenguard_options() {
        assert!(Config::default().serve.client_options.is_empty());
        let ok =
            Config::from_toml("[serve]\nclient_options = [\"onbadposition\"]\n", "x.toml").unwrap();
        assert_eq!(ok.serve.client_options, vec!["onbadposition".to_owned()]);
        let err =
            Config::from_toml("[serve]\nclient_options = [\"Hash\"]\n", "x.toml").unwrap_err();
        assert!(err.to_string().contains("serve.client_options"), "{err}");
        assert!(
            err.to_string().contains("unknown fenguard option `Hash`"),
            "{err}"
        );
    }

    #[test]
    fn example_serve_config_is_valid() {
        let text = include_str!("../../config/serve.toml");
        let config = Config::from_toml(text, "config/serve.toml").unwrap();
        assert_eq!(config.serve.max_threads, Some(8));
    }

    #[test]
    fn max_startups_is_checked_and_named() {
        let err = Config::from_toml("[serve]\nmax_startups = \"1:2\"\n", "x.toml").unwrap_err();
        assert!(err.to_string().contains("serve.max_startups"), "{err}");
        let ok = Config::from_toml("[serve]\nmax_startups = \"5:50:20\"\n", "x.toml").unwrap();
        assert_eq!(ok.serve.max_startups.to_string(), "5:50:20");
    }

    #[test]
    fn explicit_zero_caps_differ_from_unset_ones() {
        let config = Config::from_toml("[serve]\nmax_threads = 0\n", "x.toml").unwrap();
        assert_eq!(
            (config.serve.max_threads, config.serve.max_hash_mb),
            (Some(0), None)
        );
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
