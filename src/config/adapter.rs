//! The adapter settings of the configuration (SPEC section 15): the engine's options and
//! identity as the GUI sees them (`[engine]` keys), `[time]`, `[search]` and `[book]`.
//!
//! ```
//! let text = "[engine.options]\nThreads = 8\nSyzygyPath = \"/tb\"\n[time]\noverhead_ms = 50\n";
//! let config = fenguard::config::Config::from_toml(text, "x.toml").unwrap();
//! assert_eq!(config.engine.options.get("Threads"), Some("8"));
//! assert_eq!(config.time.overhead_ms, 50);
//! ```

use serde::Deserialize;

/// `[engine.options]`: `NAME = VALUE` pairs in the order of the file; a value is a string, an
/// integer, a float or a boolean, sent to the engine as written (`Threads = 8` becomes
/// `setoption name Threads value 8`; an empty string sends no `value`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OptionPresets(pub Vec<(String, String)>);

impl OptionPresets {
    /// The value preset for `name` (ASCII case-insensitive, as UCI compares option names).
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// Whether no option is preset.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl<'de> Deserialize<'de> for OptionPresets {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visit;
        impl<'de> serde::de::Visitor<'de> for Visit {
            type Value = OptionPresets;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a table of option names and values")
            }
            fn visit_map<M: serde::de::MapAccess<'de>>(
                self,
                mut map: M,
            ) -> Result<Self::Value, M::Error> {
                let mut out = Vec::new();
                while let Some((name, value)) = map.next_entry::<String, OptionValue>()? {
                    if name.trim().is_empty() || name.contains(['\n', '\r']) {
                        return Err(serde::de::Error::custom(format!(
                            "bad option name `{name}`"
                        )));
                    }
                    out.push((name, value.0));
                }
                Ok(OptionPresets(out))
            }
        }
        d.deserialize_map(Visit)
    }
}

/// One option value: a TOML string, integer, float or boolean, as text.
struct OptionValue(String);

impl<'de> Deserialize<'de> for OptionValue {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visit;
        impl serde::de::Visitor<'_> for Visit {
            type Value = OptionValue;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a string, a number or a boolean")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<OptionValue, E> {
                if v.contains(['\n', '\r']) {
                    return Err(E::custom("an option value cannot hold a line break"));
                }
                Ok(OptionValue(v.to_owned()))
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<OptionValue, E> {
                Ok(OptionValue(v.to_string()))
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<OptionValue, E> {
                Ok(OptionValue(v.to_string()))
            }
            fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<OptionValue, E> {
                Ok(OptionValue(v.to_string()))
            }
            fn visit_bool<E: serde::de::Error>(self, v: bool) -> Result<OptionValue, E> {
                Ok(OptionValue(v.to_string()))
            }
        }
        d.deserialize_any(Visit)
    }
}

/// `engine.options_mode`: what a GUI `setoption` for a preset option does.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OptionsMode {
    /// The GUI's value is forwarded and wins (until the GUI sets it again, also after a
    /// restart).
    #[default]
    Default,
    /// The preset wins: the GUI's `setoption` is answered with an `info string` and not
    /// forwarded.
    Force,
}

/// The `[time]` section: a safety margin taken off the GUI's clock before the engine sees it.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct TimeConfig {
    /// Milliseconds subtracted from `wtime`, `btime` and `movetime` of every `go`. Default 0.
    pub overhead_ms: u64,
    /// A reduced time is never below this many milliseconds (a time already below it is
    /// forwarded as given). Default 10.
    pub min_ms: u64,
}

impl Default for TimeConfig {
    fn default() -> Self {
        TimeConfig {
            overhead_ms: 0,
            min_ms: 10,
        }
    }
}

/// The `[search]` section.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SearchConfig {
    /// A `bestmove` the engine writes during `go ponder` / `go infinite` (against UCI's rule)
    /// is held until the GUI's `ponderhit` / `stop`. Default true.
    pub hold_early_bestmove: bool,
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            hold_early_bestmove: true,
        }
    }
}

/// The `[book]` section: a PolyGlot opening book fenguard answers from.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct BookConfig {
    /// The PolyGlot `.bin` file; empty: no book. Default empty.
    pub file: String,
    /// Book moves are played up to this many plies of the game (from the FEN's move
    /// counters). Default 16.
    pub depth: u32,
    /// Which of the position's book moves: `best` (highest weight), `weighted` (at random,
    /// by weight) or `random` (any, uniformly). Default `best`.
    pub variation: Variation,
}

impl Default for BookConfig {
    fn default() -> Self {
        BookConfig {
            file: String::new(),
            depth: 16,
            variation: Variation::Best,
        }
    }
}

/// `book.variation`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Variation {
    /// The entry with the highest weight (the first of equal ones).
    #[default]
    Best,
    /// At random, in proportion to the weights.
    Weighted,
    /// Any entry, uniformly.
    Random,
}

#[cfg(test)]
mod tests {
    use crate::config::{Config, ConfigError, OptionsMode, Variation};

    fn key_of(text: &str) -> Option<String> {
        match Config::from_toml(text, "f.toml") {
            Err(ConfigError::Invalid { key, .. }) => key,
            other => panic!("expected an invalid config, got {other:?}"),
        }
    }

    #[test]
    fn presets_keep_the_file_order_and_read_every_scalar() {
        let text = "[engine]\noptions_mode = \"force\"\n[engine.options]\nThreads = 8\n\
            SyzygyPath = \"/tb\"\nPonder = false\n\"Move Overhead\" = 30\n";
        let config = Config::from_toml(text, "f.toml").unwrap();
        let names: Vec<(&str, &str)> = config
            .engine
            .options
            .0
            .iter()
            .map(|(n, v)| (n.as_str(), v.as_str()))
            .collect();
        assert_eq!(
            names,
            [
                ("Threads", "8"),
                ("SyzygyPath", "/tb"),
                ("Ponder", "false"),
                ("Move Overhead", "30")
            ]
        );
        assert_eq!(config.engine.options_mode, OptionsMode::Force);
        assert_eq!(config.engine.options.get("threads"), Some("8"));
    }

    #[test]
    fn bad_adapter_values_name_their_key() {
        assert_eq!(
            key_of("[engine]\noptions_mode = \"strict\"\n").as_deref(),
            Some("engine.options_mode")
        );
        assert_eq!(
            key_of("[book]\nvariation = \"worst\"\n").as_deref(),
            Some("book.variation")
        );
        assert_eq!(
            key_of("[time]\noverhead = 5\n").as_deref(),
            Some("time.overhead")
        );
        assert_eq!(
            key_of("[engine]\nrename_options = { Hash = \"\" }\n").as_deref(),
            Some("engine.rename_options.Hash")
        );
        assert_eq!(
            key_of("[profiles.a.profiles.b]\n").as_deref(),
            Some("profiles.a.profiles")
        );
    }

    #[test]
    fn book_defaults() {
        let config = Config::default();
        assert_eq!(config.book.depth, 16);
        assert_eq!(config.book.variation, Variation::Best);
        assert!(config.search.hold_early_bestmove);
        assert_eq!(config.time.min_ms, 10);
    }
}
