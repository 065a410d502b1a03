//! The two UCI castling notations (SPEC 3 and 7), as a side's `UCI_Chess960` value says:
//! [`Notation::Standard`] writes castling as the king's two-square move (`e1g1`),
//! [`Notation::Chess960`] as the king taking its own rook (`e1h1`). Reading and writing moves
//! in them is the rules layer's ([`crate::rules`]); this module only names them.

/// A UCI castling notation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Notation {
    /// `UCI_Chess960` false: castling as the king's two-square move (`e1g1`).
    Standard,
    /// `UCI_Chess960` true: castling as the king taking its own rook (`e1h1`).
    Chess960,
}

impl Notation {
    /// The notation for a `UCI_Chess960` value.
    pub const fn from_chess960(chess960: bool) -> Notation {
        if chess960 {
            Notation::Chess960
        } else {
            Notation::Standard
        }
    }
}
