//! What the engine announced that decides the rules (SPEC sections 10 and 12): its
//! `UCI_Variant` combo and its `var` values, and its check options (`UCI_Horde`,
//! cutechess-style `UCI_CapaRandom`, ...). The rules fenguard judges by are the rules the
//! engine plays: a GUI `setoption` selects a variant only when the engine offers it.
//!
//! ```text
//! engine> option name UCI_Variant type combo default chess var chess var crazyhouse var shogi
//! engine> uciok
//! gui>    setoption name UCI_Variant value crazyhouse  -> crazyhouse rules (offered)
//! gui>    setoption name UCI_Variant value shogi       -> shogi, passed unchecked (offered)
//! gui>    setoption name UCI_Variant value horde       -> rules unchanged: not offered
//! gui>    setoption name UCI_Horde value true          -> rules unchanged: no such option
//! ```
//!
//! Names and `var` values compare as UCI compares names: ASCII case-insensitively, whitespace
//! runs as one space. The offer is known once the engine's `uciok` is read (the GUI's
//! `setoption` waits for it: `inbox.rs`); before any `uciok`, or after a new `uci` until its
//! `uciok`, nothing is offered. An engine restarted by fenguard is the same program: the offer
//! read from the first handshake stands (a handshake relayed to a GUI that sent `uci` again is
//! read afresh).

use std::collections::{HashMap, HashSet};

use super::commands::normalized_name;
use crate::uci::{EngineOption, SetOption, tokens};

/// Most `var` values and check option names remembered (memory stays bounded whatever the
/// engine announces; Fairy-Stockfish offers about 90 variants).
const MAX_NAMES: usize = 4096;

/// The engine's announcement, as far as it decides the rules.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EngineOffer {
    /// The engine's `uciok` was read after its option lines: the offer is complete.
    pub known: bool,
    /// The `var` values of `option name UCI_Variant type combo`: normalized, to the engine's
    /// own spelling (single spaces); `None` when the engine announced no such option.
    pub variants: Option<HashMap<String, String>>,
    /// The names of its `type check` options (normalized).
    pub checks: HashSet<String>,
}

/// Why a GUI `setoption` does not change the rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotOffered {
    /// The engine's option list is not known yet (no `uciok` read since the last `uci`).
    Unknown,
    /// The engine announced no such option.
    NoOption,
    /// The engine's `UCI_Variant` has no such `var`.
    NoVar,
}

impl EngineOffer {
    /// The GUI sent `uci`: the engine announces its options afresh.
    pub fn on_uci(&mut self) {
        *self = EngineOffer::default();
    }

    /// The engine's `uciok`: its option list is complete.
    pub fn on_uciok(&mut self) {
        self.known = true;
    }

    /// An engine `option` line (`line`, read as `option`).
    pub fn on_engine_option(&mut self, line: &[u8], option: &EngineOption<'_>) {
        let name = normalized_name(option.name);
        if option.kind.eq_ignore_ascii_case(b"check") {
            if self.checks.len() < MAX_NAMES {
                self.checks.insert(name);
            }
            return;
        }
        self.checks.remove(&name);
        if name == "uci_variant" && option.kind.eq_ignore_ascii_case(b"combo") {
            let vars = self.variants.get_or_insert_with(HashMap::new);
            for var in combo_vars(line) {
                if vars.len() < MAX_NAMES {
                    vars.entry(normalized_name(var.as_bytes())).or_insert(var);
                }
            }
        }
    }

    /// Whether the engine plays what the GUI's `opt` asks for: its `UCI_Variant` with that
    /// `var`, or a check option it announced. `Ok` holds the value as the engine must read it
    /// to play it: the `var` in the engine's own spelling (Fairy-Stockfish accepts `Horde`
    /// for its combo but then plays chess: it looks the value up case-sensitively), or the
    /// check value as `true` / `false` (engines compare check values exactly).
    ///
    /// # Errors
    /// Why it does not ([`NotOffered`]).
    pub fn offers(&self, opt: &SetOption<'_>) -> Result<String, NotOffered> {
        if !self.known {
            return Err(NotOffered::Unknown);
        }
        if opt.name_is("UCI_Variant") {
            let vars = self.variants.as_ref().ok_or(NotOffered::NoOption)?;
            let value = normalized_name(opt.value.unwrap_or_default());
            return vars.get(&value).cloned().ok_or(NotOffered::NoVar);
        }
        if !self.checks.contains(&normalized_name(opt.name)) {
            return Err(NotOffered::NoOption);
        }
        Ok(opt.check_value().unwrap_or_default().to_string())
    }
}

/// The `var` values of an `option ... type combo` line, as spelled (each runs up to the next
/// keyword token; its words joined by one space).
fn combo_vars(line: &[u8]) -> Vec<String> {
    let mut vars = Vec::new();
    let mut current: Option<Vec<&[u8]>> = None;
    for t in tokens(line) {
        match t.text {
            b"var" | b"default" | b"min" | b"max" | b"type" => {
                if let Some(words) = current.take() {
                    vars.push(String::from_utf8_lossy(&words.join(&b' ')).into_owned());
                }
                if t.text == b"var" {
                    current = Some(Vec::new());
                }
            }
            word => {
                if let Some(words) = current.as_mut() {
                    words.push(word);
                }
            }
        }
    }
    if let Some(words) = current {
        vars.push(String::from_utf8_lossy(&words.join(&b' ')).into_owned());
    }
    vars.retain(|v| !v.is_empty());
    vars
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::uci::{parse_option, parse_setoption};

    fn offer(lines: &[&str]) -> EngineOffer {
        let mut offer = EngineOffer::default();
        for line in lines {
            let opt = parse_option(line.as_bytes()).unwrap();
            offer.on_engine_option(line.as_bytes(), &opt);
        }
        offer.on_uciok();
        offer
    }

    fn asks(offer: &EngineOffer, line: &str) -> Result<String, NotOffered> {
        offer.offers(&parse_setoption(line.as_bytes()).unwrap())
    }

    #[test]
    fn variant_is_offered_only_with_its_var_in_any_case() {
        let o = offer(&["option name UCI_Variant type combo default chess var chess var Horde"]);
        assert_eq!(
            asks(&o, "setoption name uci_variant value HORDE"),
            Ok("Horde".to_owned())
        );
        assert_eq!(
            asks(&o, "setoption name UCI_Variant value crazyhouse"),
            Err(NotOffered::NoVar)
        );
        assert_eq!(
            asks(&o, "setoption name UCI_Horde value true"),
            Err(NotOffered::NoOption)
        );
    }

    #[test]
    fn nothing_is_offered_before_uciok_or_without_the_option() {
        let mut o = EngineOffer::default();
        assert_eq!(
            asks(&o, "setoption name UCI_Variant value chess"),
            Err(NotOffered::Unknown)
        );
        o.on_uciok();
        assert_eq!(
            asks(&o, "setoption name UCI_Variant value chess"),
            Err(NotOffered::NoOption)
        );
    }

    #[test]
    fn check_options_are_offered_when_announced_as_check() {
        let o = offer(&[
            "option name UCI_CapaRandom type check default false",
            "option name UCI_Giveaway type string default",
        ]);
        assert_eq!(
            asks(&o, "setoption name UCI_CAPARANDOM value TRUE"),
            Ok("true".to_owned())
        );
        assert_eq!(
            asks(&o, "setoption name UCI_Giveaway value true"),
            Err(NotOffered::NoOption)
        );
    }

    #[test]
    fn a_new_uci_forgets_the_offer() {
        let mut o = offer(&["option name UCI_Horde type check default false"]);
        o.on_uci();
        assert_eq!(o, EngineOffer::default());
    }
}
