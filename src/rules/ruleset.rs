//! Which rules a game is played under: [`Rules`], picked once from a variant name (the
//! session's `UCI_Variant`, `fenguard check --variant`).

use crate::variant::Variant;
use crate::variant::board10::Variant10;

/// The rules a session (or a `check` run) applies to positions and moves.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Rules {
    /// Chess and Chess960: positions parsed, validated, repaired; moves checked.
    #[default]
    Chess,
    /// An 8x8 variant of shakmaty (crazyhouse, atomic, kingofthehill, 3check, horde,
    /// racingkings, antichess, giveaway): checked like chess.
    Eight(Variant),
    /// A 10x8 variant (capablanca, caparandom, gothic, janus, embassy): checked like chess.
    Ten(Variant10),
    /// A variant fenguard has no rules for (its lowercase `UCI_Variant` name): everything
    /// passes unchanged.
    Unchecked(String),
}

impl Rules {
    /// The rules for `variant`: chess, an 8x8 variant, a 10x8 board, or unchecked.
    pub fn for_variant(variant: &Variant) -> Rules {
        if let Some(v10) = Variant10::from_variant(variant) {
            return Rules::Ten(v10);
        }
        match variant {
            Variant::Chess => Rules::Chess,
            v if v.is_8x8_variant() => Rules::Eight(v.clone()),
            other => Rules::Unchecked(other.uci_name().to_owned()),
        }
    }

    /// The variant name records carry (`None` for chess, SPEC 8).
    pub fn record_name(&self) -> Option<String> {
        match self {
            Rules::Chess => None,
            Rules::Eight(v) => Some(v.uci_name().to_owned()),
            Rules::Ten(v) => Some(v.variant().uci_name().to_owned()),
            Rules::Unchecked(name) => Some(name.clone()),
        }
    }

    /// Whether positions and moves are checked (every rules value but [`Rules::Unchecked`]).
    pub fn checked(&self) -> bool {
        !matches!(self, Rules::Unchecked(_))
    }
}
