//! The `[provider]` section of the configuration (SPEC sections 5 and 13): where lichess and
//! its work broker are, the OAuth token and provider secret files, the name and caps the
//! engine is registered with, and how many workers pull jobs.
//!
//! ```
//! let config = fenguard::config::Config::from_toml("[provider]\nworkers = 2\n", "x.toml").unwrap();
//! assert_eq!(config.provider.workers, 2);
//! assert_eq!(config.provider.lila_url, "https://lichess.org");
//! ```

use serde::Deserialize;

/// lichess.org, where engines are registered (`/api/external-engine`).
pub const LICHESS: &str = "https://lichess.org";

/// lichess's work broker (lila-engine), where jobs are acquired and answered.
pub const LICHESS_BROKER: &str = "https://engine.lichess.ovh";

/// The `[provider]` section.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ProviderConfig {
    /// lila's base URL (registration). Default `https://lichess.org`; `http://` only for a
    /// loopback address (tests, a local lila).
    pub lila_url: String,
    /// The work broker's base URL. Default `https://engine.lichess.ovh`.
    pub broker_url: String,
    /// File holding the lichess OAuth token (scopes `engine:read` `engine:write`). Empty:
    /// `$LICHESS_API_TOKEN`, else `$XDG_CONFIG_HOME/fenguard/lichess-token`.
    pub token_file: String,
    /// File holding the provider secret: created (mode 0600, 32 random bytes as 43 URL-safe
    /// base64 characters) on first use, then reused, so restarts and other machines with the
    /// same file pull from the same queue. Empty: `$XDG_CONFIG_HOME/fenguard/provider-secret`.
    pub secret_file: String,
    /// The engine's name on lichess (1 to 200 characters); an engine of this name is updated,
    /// not registered twice. Empty: the engine's `id name`.
    pub name: String,
    /// `maxThreads` advertised, and the cap on every job's `threads`. Unset: the machine's
    /// cores.
    pub max_threads: Option<u32>,
    /// `maxHash` advertised (MiB), and the cap on every job's `hash`. Default 512 (as
    /// lichess's example provider).
    pub max_hash_mb: u32,
    /// lichess variant names offered. Empty: the engine's `UCI_Variant` list intersected with
    /// lichess's names (`chess` alone for an engine without `UCI_Variant`).
    pub variants: Vec<String>,
    /// Workers in this process, each with its own engine, pulling jobs at once. Default 1.
    pub workers: usize,
    /// An engine idle this many seconds is stopped (started again for the next job). 0: kept
    /// running. Default 300 (as lichess's example provider).
    pub keep_alive_s: u64,
}

impl Default for ProviderConfig {
    fn default() -> ProviderConfig {
        ProviderConfig {
            lila_url: LICHESS.to_owned(),
            broker_url: LICHESS_BROKER.to_owned(),
            token_file: String::new(),
            secret_file: String::new(),
            name: String::new(),
            max_threads: None,
            max_hash_mb: 512,
            variants: Vec::new(),
            workers: 1,
            keep_alive_s: 300,
        }
    }
}
