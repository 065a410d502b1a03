//! The adapter settings of a session (SPEC section 15): option presets, hidden and renamed
//! options, the engine's identity, the clock margin, holding an early `bestmove`, the opening
//! book. Built once from the configuration ([`Adapter::from_config`]); the behaviour lives in
//! `presets.rs`, `identity.rs`, `time_safety.rs`, `ponder_hold.rs` and `book.rs`.
//!
//! ```
//! use fenguard::config::Config;
//! use fenguard::session::{Adapter, Session};
//!
//! let config = Config::from_toml("[engine.options]\nHash = 64\n", "x.toml").unwrap();
//! let session = Session::new(false).with_adapter(Adapter::from_config(&config, None, 1));
//! # let _ = session;
//! ```

use std::collections::HashSet;
use std::sync::Arc;

use crate::book::Book;
use crate::config::{Config, OptionPresets, OptionsMode, TimeConfig, Variation};

/// The adapter settings and the little state they need. The default does nothing.
#[derive(Debug, Clone, Default)]
pub struct Adapter {
    /// `[engine.options]`.
    pub(super) presets: OptionPresets,
    /// `engine.options_mode = "force"`.
    pub(super) force: bool,
    /// `engine.hide_options`, lower-case.
    pub(super) hide: Vec<String>,
    /// `engine.rename_options` as `(engine's name, GUI's name)`.
    pub(super) rename: Vec<(String, String)>,
    /// `engine.id_name`, `engine.id_author` (`None`: the engine's).
    pub(super) id_name: Option<String>,
    pub(super) id_author: Option<String>,
    /// `[time]`.
    pub(super) time: TimeConfig,
    /// `search.hold_early_bestmove`.
    pub(super) hold_early_bestmove: bool,
    /// `[book]`, when a book is loaded.
    pub(super) book: Option<BookUse>,
    /// The presets went to the first engine (restarts replay them with the GUI's options).
    pub(super) presets_sent: bool,
    /// The option names (lower-case) the engine announced since the GUI's last `uci`.
    pub(super) offered: HashSet<String>,
}

/// A loaded book and how it is used.
#[derive(Debug, Clone)]
pub(super) struct BookUse {
    pub(super) book: Arc<Book>,
    pub(super) depth: u32,
    pub(super) variation: Variation,
    /// xorshift64 state for `weighted` / `random` (never 0).
    pub(super) rng: u64,
}

impl BookUse {
    /// A number below `n` (`n` > 0).
    pub(super) fn draw(&mut self, n: u64) -> u64 {
        let mut x = self.rng;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.rng = x;
        x % n.max(1)
    }
}

impl Adapter {
    /// The settings of `config` (`[engine]`'s adapter keys, `[time]`, `[search]`, `[book]`),
    /// with `book` the loaded `book.file` and `seed` the start of the book's random choices.
    pub fn from_config(config: &Config, book: Option<Arc<Book>>, seed: u64) -> Adapter {
        let e = &config.engine;
        let non_empty = |s: &str| (!s.is_empty()).then(|| s.to_owned());
        Adapter {
            presets: e.options.clone(),
            force: e.options_mode == OptionsMode::Force,
            hide: e
                .hide_options
                .iter()
                .map(|n| n.to_ascii_lowercase())
                .collect(),
            rename: e
                .rename_options
                .iter()
                .map(|(old, new)| (old.clone(), new.clone()))
                .collect(),
            id_name: non_empty(&e.id_name),
            id_author: non_empty(&e.id_author),
            time: config.time.clone(),
            hold_early_bestmove: config.search.hold_early_bestmove,
            book: book.map(|book| BookUse {
                book,
                depth: config.book.depth,
                variation: config.book.variation,
                rng: seed | 1,
            }),
            presets_sent: false,
            offered: HashSet::new(),
        }
    }
}

impl super::Session {
    /// Sets the adapter settings (a session starts without any).
    pub fn with_adapter(mut self, adapter: Adapter) -> super::Session {
        self.adapter = adapter;
        self
    }
}
