//! Variants (SPEC section 10): which rules a game is played under, by its `UCI_Variant` name.
//!
//! Names follow Fairy-Stockfish's `UCI_Variant` list (`option name UCI_Variant type combo
//! default chess var 3check var ... var xiangqi`). fenguard models plain chess and Chess960
//! (the `fen` core), the 8x8 variants that python-chess's `chess.variant` and shakmaty's
//! `variant` feature model, and the 10x8 boards of the X-FEN definition (Capablanca family);
//! every other name is [`Variant::Other`]: passed through unchecked (`variant-not-checked`).
//!
//! ```
//! use fenguard::variant::Variant;
//!
//! assert_eq!(Variant::from_uci_name("Capablanca"), Variant::Capablanca);
//! assert!(Variant::Capablanca.is_10x8());
//! assert_eq!(Variant::from_uci_name("shogi"), Variant::Other("shogi".to_owned()));
//! assert_eq!(Variant::ThreeCheck.uci_name(), "3check");
//! ```

pub mod board10;
pub mod eight;
mod eight_diag;
mod eight_fen;
mod eight_pos;
#[cfg(test)]
mod eight_tests;
mod eight_write;
pub mod giveaway;

use board10::Variant10;

/// A variant by its Fairy-Stockfish `UCI_Variant` name.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub enum Variant {
    /// Standard chess (`chess`, also Fairy-Stockfish's `normal` and `fischerandom`: Chess960 is
    /// chess with `UCI_Chess960`).
    #[default]
    Chess,
    /// `crazyhouse`: captured pieces go to the capturer's pocket and may be dropped (`P@e4`).
    Crazyhouse,
    /// `atomic`: captures explode the 8 neighbouring squares (pawns excepted).
    Atomic,
    /// `kingofthehill`: a king on d4, e4, d5 or e5 wins.
    KingOfTheHill,
    /// `3check`: the third check wins; the FEN carries check counters.
    ThreeCheck,
    /// `horde`: White has 36 pawns and no king.
    Horde,
    /// `racingkings`: no checks; the first king on the 8th rank wins.
    RacingKings,
    /// `antichess`: captures are compulsory, losing all pieces wins; no castling.
    Antichess,
    /// `giveaway`: antichess with castling (Fairy-Stockfish's and python-chess's `giveaway`).
    Giveaway,
    /// A 10x8 variant of the X-FEN definition (Capablanca family), an entry of
    /// [`board10::TABLE`]: [`Variant::Capablanca`], [`Variant::CapaRandom`],
    /// [`Variant::Gothic`], [`Variant::Janus`], [`Variant::Embassy`].
    Ten(Variant10),
    /// Any other name: not modelled, passed through unchanged.
    Other(String),
}

#[allow(non_upper_case_globals)]
impl Variant {
    /// `capablanca`: 10x8, archbishop and chancellor, king to the c- or i-file when castling.
    pub const Capablanca: Variant = Variant::Ten(Variant10::Capablanca);
    /// `caparandom`: Capablanca Random Chess (10x8 Chess960-style start positions).
    pub const CapaRandom: Variant = Variant::Ten(Variant10::CapaRandom);
    /// `gothic`: 10x8, Capablanca pieces in another start position.
    pub const Gothic: Variant = Variant::Ten(Variant10::Gothic);
    /// `janus`: 10x8 with two janus pieces (`J`/`j`, knight+bishop); king to b or i.
    pub const Janus: Variant = Variant::Ten(Variant10::Janus);
    /// `embassy`: 10x8, Capablanca pieces, king to b or h.
    pub const Embassy: Variant = Variant::Ten(Variant10::Embassy);
}

impl Variant {
    /// The variant named `name` (compared case-insensitively, as UCI option values are);
    /// `normal`, `fischerandom` and `standard` read as [`Variant::Chess`].
    pub fn from_uci_name(name: &str) -> Variant {
        match name.trim().to_ascii_lowercase().as_str() {
            "chess" | "normal" | "standard" | "fischerandom" | "chess960" => Variant::Chess,
            "crazyhouse" => Variant::Crazyhouse,
            "atomic" => Variant::Atomic,
            "kingofthehill" => Variant::KingOfTheHill,
            "3check" | "threecheck" => Variant::ThreeCheck,
            "horde" => Variant::Horde,
            "racingkings" => Variant::RacingKings,
            "antichess" => Variant::Antichess,
            "giveaway" => Variant::Giveaway,
            other => match Variant10::from_name(other) {
                Some(v10) => Variant::Ten(v10),
                None => Variant::Other(other.to_owned()),
            },
        }
    }

    /// The `UCI_Variant` names of every variant fenguard models, chess first, then the 8x8
    /// variants and the 10x8 table (with its test-only entry under the `test-variants`
    /// feature): the values `fenguard check --variant` accepts besides the
    /// [`Variant::aliases`].
    pub fn modelled_names() -> Vec<&'static str> {
        let mut all = vec![
            "chess",
            "crazyhouse",
            "atomic",
            "kingofthehill",
            "3check",
            "horde",
            "racingkings",
            "antichess",
            "giveaway",
        ];
        all.extend(Variant10::ALL.map(Variant10::name));
        all
    }

    /// The other names [`Variant::from_uci_name`] reads as this variant (lowercase).
    pub fn aliases(&self) -> &'static [&'static str] {
        match self {
            Variant::Chess => &["normal", "standard", "fischerandom", "chess960"],
            Variant::ThreeCheck => &["threecheck"],
            _ => &[],
        }
    }

    /// The Fairy-Stockfish `UCI_Variant` name (lowercase).
    pub fn uci_name(&self) -> &str {
        match self {
            Variant::Chess => "chess",
            Variant::Crazyhouse => "crazyhouse",
            Variant::Atomic => "atomic",
            Variant::KingOfTheHill => "kingofthehill",
            Variant::ThreeCheck => "3check",
            Variant::Horde => "horde",
            Variant::RacingKings => "racingkings",
            Variant::Antichess => "antichess",
            Variant::Giveaway => "giveaway",
            Variant::Ten(v10) => v10.name(),
            Variant::Other(name) => name,
        }
    }

    /// Whether the variant is played on the 10x8 board of the X-FEN definition.
    pub fn is_10x8(&self) -> bool {
        matches!(self, Variant::Ten(_))
    }

    /// Whether the variant is one of the 8x8 variants shakmaty's `variant` feature models.
    pub fn is_8x8_variant(&self) -> bool {
        matches!(
            self,
            Variant::Crazyhouse
                | Variant::Atomic
                | Variant::KingOfTheHill
                | Variant::ThreeCheck
                | Variant::Horde
                | Variant::RacingKings
                | Variant::Antichess
                | Variant::Giveaway
        )
    }
}
