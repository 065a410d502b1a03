//! Pieces of the 10x8 variants and the per-variant rules that are plain data: piece letters,
//! start positions, castling targets, promotion pieces.

use shakmaty::Color;

use crate::variant::Variant;

/// A piece kind. The archbishop (knight+bishop) is written `A`/`a`, except in janus, where the
/// same mover is the janus `J`/`j` (Fairy-Stockfish's letter); the chancellor (knight+rook)
/// is `C`/`c`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Role10 {
    /// `P`: moves like a chess pawn; a double step from its second rank.
    Pawn,
    /// `N`.
    Knight,
    /// `B`.
    Bishop,
    /// `R`.
    Rook,
    /// `Q`.
    Queen,
    /// `K`.
    King,
    /// `A` (janus: `J`): knight + bishop.
    Archbishop,
    /// `C`: knight + rook.
    Chancellor,
}

impl Role10 {
    /// Moves like a knight (knight, archbishop, chancellor).
    pub const fn leaps(self) -> bool {
        matches!(
            self,
            Role10::Knight | Role10::Archbishop | Role10::Chancellor
        )
    }

    /// Slides along ranks and files (rook, queen, chancellor).
    pub const fn slides_orthogonally(self) -> bool {
        matches!(self, Role10::Rook | Role10::Queen | Role10::Chancellor)
    }

    /// Slides along diagonals (bishop, queen, archbishop).
    pub const fn slides_diagonally(self) -> bool {
        matches!(self, Role10::Bishop | Role10::Queen | Role10::Archbishop)
    }
}

/// A piece: color and kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Piece10 {
    /// Its color.
    pub color: Color,
    /// Its kind.
    pub role: Role10,
}

/// One of the five 10x8 variants (Fairy-Stockfish `UCI_Variant` names).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Variant10 {
    /// `capablanca`: `rnabqkbcnr`, king castles to c or i.
    Capablanca,
    /// `caparandom`: Capablanca Random Chess; Chess960-style castling (king to c or i),
    /// moves written king-takes-rook.
    CapaRandom,
    /// `gothic`: `rnbqckabnr`, king castles to c or i.
    Gothic,
    /// `janus`: `rjnbkqbnjr`, janus `J` instead of archbishop, no chancellor; king to b or i.
    Janus,
    /// `embassy`: `rnbqkcabnr`, king castles to b or h.
    Embassy,
}

impl Variant10 {
    /// The five, in SPEC order.
    pub const ALL: [Variant10; 5] = [
        Variant10::Capablanca,
        Variant10::CapaRandom,
        Variant10::Gothic,
        Variant10::Janus,
        Variant10::Embassy,
    ];

    /// The 10x8 variant `v` names, `None` for any other.
    pub fn from_variant(v: &Variant) -> Option<Variant10> {
        Some(match v {
            Variant::Capablanca => Variant10::Capablanca,
            Variant::CapaRandom => Variant10::CapaRandom,
            Variant::Gothic => Variant10::Gothic,
            Variant::Janus => Variant10::Janus,
            Variant::Embassy => Variant10::Embassy,
            _ => return None,
        })
    }

    /// The shared [`Variant`] name type.
    pub fn variant(self) -> Variant {
        match self {
            Variant10::Capablanca => Variant::Capablanca,
            Variant10::CapaRandom => Variant::CapaRandom,
            Variant10::Gothic => Variant::Gothic,
            Variant10::Janus => Variant::Janus,
            Variant10::Embassy => Variant::Embassy,
        }
    }

    /// The `UCI_Variant` name.
    pub fn name(self) -> &'static str {
        match self {
            Variant10::Capablanca => "capablanca",
            Variant10::CapaRandom => "caparandom",
            Variant10::Gothic => "gothic",
            Variant10::Janus => "janus",
            Variant10::Embassy => "embassy",
        }
    }

    /// The start position as X-FEN (Fairy-Stockfish's `start_fen`; caparandom's default is
    /// Capablanca's array).
    pub fn start_fen(self) -> &'static str {
        match self {
            Variant10::Capablanca | Variant10::CapaRandom => {
                "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1"
            }
            Variant10::Gothic => {
                "rnbqckabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQCKABNR w KQkq - 0 1"
            }
            Variant10::Janus => {
                "rjnbkqbnjr/pppppppppp/10/10/10/10/PPPPPPPPPP/RJNBKQBNJR w KQkq - 0 1"
            }
            Variant10::Embassy => {
                "rnbqkcabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQKCABNR w KQkq - 0 1"
            }
        }
    }

    /// The king's target files when castling: (queenside, kingside), 0 = a.
    pub const fn castle_targets(self) -> (i8, i8) {
        match self {
            Variant10::Capablanca | Variant10::CapaRandom | Variant10::Gothic => (2, 8),
            Variant10::Embassy => (1, 7),
            Variant10::Janus => (1, 8),
        }
    }

    /// The king's start file outside Chess960 rules (caparandom: Capablanca's `f`).
    pub const fn king_file(self) -> i8 {
        match self {
            Variant10::Capablanca | Variant10::CapaRandom | Variant10::Gothic => 5,
            Variant10::Janus | Variant10::Embassy => 4,
        }
    }

    /// Whether the variant itself is a Chess960-style one (caparandom): any king and rook
    /// placement may castle, and Fairy-Stockfish writes castles king-takes-rook.
    pub const fn is_random(self) -> bool {
        matches!(self, Variant10::CapaRandom)
    }

    /// The pieces a pawn may promote to, in Fairy-Stockfish's order.
    pub fn promotions(self) -> &'static [Role10] {
        match self {
            Variant10::Janus => &[
                Role10::Archbishop,
                Role10::Queen,
                Role10::Rook,
                Role10::Bishop,
                Role10::Knight,
            ],
            _ => &[
                Role10::Archbishop,
                Role10::Chancellor,
                Role10::Queen,
                Role10::Rook,
                Role10::Bishop,
                Role10::Knight,
            ],
        }
    }

    /// The lowercase letter of `role` in this variant.
    pub const fn letter(self, role: Role10) -> u8 {
        match role {
            Role10::Pawn => b'p',
            Role10::Knight => b'n',
            Role10::Bishop => b'b',
            Role10::Rook => b'r',
            Role10::Queen => b'q',
            Role10::King => b'k',
            Role10::Archbishop if matches!(self, Variant10::Janus) => b'j',
            Role10::Archbishop => b'a',
            Role10::Chancellor => b'c',
        }
    }

    /// The role a lowercase letter names in this variant (`a`/`c` outside janus, `j` in it).
    pub const fn role(self, lower: u8) -> Option<Role10> {
        let janus = matches!(self, Variant10::Janus);
        Some(match lower {
            b'p' => Role10::Pawn,
            b'n' => Role10::Knight,
            b'b' => Role10::Bishop,
            b'r' => Role10::Rook,
            b'q' => Role10::Queen,
            b'k' => Role10::King,
            b'a' if !janus => Role10::Archbishop,
            b'j' if janus => Role10::Archbishop,
            b'c' if !janus => Role10::Chancellor,
            _ => return None,
        })
    }

    /// The piece a FEN character names (uppercase White).
    pub const fn piece(self, c: u8) -> Option<Piece10> {
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        match self.role(c.to_ascii_lowercase()) {
            Some(role) => Some(Piece10 { color, role }),
            None => None,
        }
    }

    /// The FEN character of `piece`.
    pub const fn char(self, piece: Piece10) -> u8 {
        let c = self.letter(piece.role);
        match piece.color {
            Color::White => c.to_ascii_uppercase(),
            Color::Black => c,
        }
    }
}

impl std::fmt::Display for Variant10 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}
