//! fenguard's own settings as UCI options (SPEC section 6): announced to the GUI before the
//! engine's `uciok` with the prefix `fenguard `, changed by `setoption name fenguard <X> value
//! <v>`, which fenguard applies and never forwards.
//!
//! ```text
//! option name fenguard OnBadPosition type combo default repair var repair var reject var forward
//! option name fenguard Castling type combo default auto var auto var xfen var shredder
//! option name fenguard EnPassant type combo default legal var legal var xfen var fen
//! option name fenguard Chess960 type combo default gui var gui var detect
//! option name fenguard CheckMoves type check default true
//! option name fenguard ReportToGui type check default true
//! option name fenguard LogPositions type check default true
//! ```
//!
//! Names and values compare ASCII case-insensitively; defaults come from the configuration.
//! `OnInvalid`, the first name of `OnBadPosition`, is still accepted in `setoption` but never
//! announced: no handshake line may hold the words `error`, `illegal` or `invalid` (pychess's
//! engine probe refuses an engine that prints one; SPEC 6).

use crate::config::{CastlingOut, Chess960Mode, EnPassantOut, OnInvalid, PositionsConfig};
use crate::uci::{SetOption, parse_check_value, tokens};

/// The settings the position interception uses: `[positions]` plus `log.positions`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    /// `positions.*` (SPEC section 5).
    pub positions: PositionsConfig,
    /// `log.positions`: write `position` and `search` records.
    pub log_positions: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            positions: PositionsConfig::default(),
            log_positions: true,
        }
    }
}

/// The option names after `fenguard `, in announcement order.
const NAMES: [&str; 7] = [
    "OnBadPosition",
    "Castling",
    "EnPassant",
    "Chess960",
    "CheckMoves",
    "ReportToGui",
    "LogPositions",
];

fn on_invalid_name(v: OnInvalid) -> &'static str {
    match v {
        OnInvalid::Repair => "repair",
        OnInvalid::Reject => "reject",
        OnInvalid::Forward => "forward",
    }
}

fn castling_name(v: CastlingOut) -> &'static str {
    match v {
        CastlingOut::Auto => "auto",
        CastlingOut::Xfen => "xfen",
        CastlingOut::Shredder => "shredder",
    }
}

fn ep_name(v: EnPassantOut) -> &'static str {
    match v {
        EnPassantOut::Legal => "legal",
        EnPassantOut::Xfen => "xfen",
        EnPassantOut::Fen => "fen",
    }
}

fn chess960_name(v: Chess960Mode) -> &'static str {
    match v {
        Chess960Mode::Gui => "gui",
        Chess960Mode::Detect => "detect",
    }
}

impl Settings {
    /// The `option` lines announcing fenguard's settings (with their current values as
    /// defaults), each ending in `\n`.
    pub fn announce(&self) -> Vec<String> {
        let p = &self.positions;
        let combo = |name: &str, default: &str, vars: &[&str]| {
            let mut line = format!("option name fenguard {name} type combo default {default}");
            for v in vars {
                line.push_str(" var ");
                line.push_str(v);
            }
            line.push('\n');
            line
        };
        let check = |name: &str, default: bool| {
            format!("option name fenguard {name} type check default {default}\n")
        };
        vec![
            combo(
                NAMES[0],
                on_invalid_name(p.on_invalid),
                &["repair", "reject", "forward"],
            ),
            combo(
                NAMES[1],
                castling_name(p.castling),
                &["auto", "xfen", "shredder"],
            ),
            combo(NAMES[2], ep_name(p.en_passant), &["legal", "xfen", "fen"]),
            combo(NAMES[3], chess960_name(p.chess960), &["gui", "detect"]),
            check(NAMES[4], p.check_moves),
            check(NAMES[5], p.report_to_gui),
            check(NAMES[6], self.log_positions),
        ]
    }

    /// Applies `setoption name fenguard <X> value <v>`. Returns `Ok(None)` when the option is
    /// not one of fenguard's (its first name token is not `fenguard`), `Ok(Some(text))` with
    /// a description of the change when applied.
    ///
    /// # Errors
    /// A message naming the option and the values it takes, for an unknown `fenguard` option
    /// or a bad value.
    pub fn apply(&mut self, opt: &SetOption<'_>) -> Result<Option<String>, String> {
        let Some(name) = own_option(opt.name) else {
            return Ok(None);
        };
        let Some(name) = name else {
            return Err(format!(
                "unknown option `{}` (fenguard's options: {})",
                String::from_utf8_lossy(opt.name),
                NAMES.join(", ")
            ));
        };
        let raw = crate::uci::trim_uci(opt.value.unwrap_or_default());
        let value = String::from_utf8_lossy(raw).to_ascii_lowercase();
        let bad = |expected: &str| {
            format!(
                "bad value `{}` for option fenguard {name} (expected {expected})",
                String::from_utf8_lossy(raw)
            )
        };
        let p = &mut self.positions;
        match name {
            "OnBadPosition" => {
                p.on_invalid =
                    config_word(&value).ok_or_else(|| bad("repair, reject or forward"))?;
            }
            "Castling" => {
                p.castling = config_word(&value).ok_or_else(|| bad("auto, xfen or shredder"))?;
            }
            "EnPassant" => {
                p.en_passant = config_word(&value).ok_or_else(|| bad("legal, xfen or fen"))?;
            }
            "Chess960" => {
                p.chess960 = config_word(&value).ok_or_else(|| bad("gui or detect"))?;
            }
            _ => {
                let flag = parse_check_value(raw).ok_or_else(|| bad("true or false"))?;
                match name {
                    "CheckMoves" => p.check_moves = flag,
                    "ReportToGui" => p.report_to_gui = flag,
                    _ => self.log_positions = flag,
                }
            }
        }
        Ok(Some(format!("fenguard {name} set to {value}")))
    }
}

/// The option `name` of a `setoption` read as one of fenguard's: `None` when its first token
/// is not `fenguard`; `Some(None)` for a `fenguard ...` name that is none of [`OPTION_NAMES`];
/// else the option's name as announced (`OnInvalid` reads as `OnBadPosition`), matched ASCII
/// case-insensitively.
///
/// ```
/// use fenguard::session::options::own_option;
///
/// assert_eq!(own_option(b"FENGUARD  oninvalid"), Some(Some("OnBadPosition")));
/// assert_eq!(own_option(b"fenguard Nope"), Some(None));
/// assert_eq!(own_option(b"Hash"), None);
/// ```
pub fn own_option(name: &[u8]) -> Option<Option<&'static str>> {
    let mut toks = tokens(name);
    if !toks
        .next()
        .is_some_and(|t| t.text.eq_ignore_ascii_case(b"fenguard"))
    {
        return None;
    }
    let rest: Vec<&[u8]> = toks.map(|t| t.text).collect();
    Some(match rest.as_slice() {
        [old] if old.eq_ignore_ascii_case(b"OnInvalid") => Some(NAMES[0]),
        [one] => NAMES
            .iter()
            .find(|n| n.as_bytes().eq_ignore_ascii_case(one))
            .copied(),
        _ => None,
    })
}

/// fenguard's own option names (after `fenguard `), in announcement order: the names
/// `[serve] client_options` takes.
pub const OPTION_NAMES: [&str; 7] = NAMES;

/// A combo value read as the configuration file reads it (the `[positions]` enums'
/// lowercase serde names), so the UCI option and the config key accept the same words.
fn config_word<T: serde::de::DeserializeOwned>(word: &str) -> Option<T> {
    let de = serde::de::value::StrDeserializer::<serde::de::value::Error>::new(word);
    T::deserialize(de).ok()
}
