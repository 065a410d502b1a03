//! Pieces of the 10x8 variants and the variants themselves as data ([`TABLE`]): piece
//! letters, start positions, castling files, promotion pieces.

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

/// A 10x8 variant described as data, as Fairy-Stockfish's `variant.cpp` describes its
/// variants: a new 10x8 variant is one entry of [`TABLE`] (everything else, from the FEN
/// reader to the move generator, the UCI notation and `fenguard check`, reads these fields).
#[derive(Debug, PartialEq, Eq)]
pub struct Rules10 {
    /// The `UCI_Variant` name (lowercase).
    pub name: &'static str,
    /// The start position as X-FEN (Fairy-Stockfish's `start_fen`).
    pub start_fen: &'static str,
    /// The lowercase letter of the knight+bishop mover (`a`, janus `j`), `None` without one.
    pub archbishop: Option<u8>,
    /// The lowercase letter of the knight+rook mover (`c`), `None` without one.
    pub chancellor: Option<u8>,
    /// The king's start file outside Chess960 rules, 0 = a.
    pub king_file: i8,
    /// The king's target files when castling: (queenside, kingside), 0 = a.
    pub castle_targets: (i8, i8),
    /// A Chess960-style variant: any king and rook placement may castle, and
    /// Fairy-Stockfish writes castles king-takes-rook.
    pub random: bool,
    /// The pieces a pawn may promote to, in Fairy-Stockfish's order.
    pub promotions: &'static [Role10],
}

const CAPABLANCA_PROMOTIONS: &[Role10] = &[
    Role10::Archbishop,
    Role10::Chancellor,
    Role10::Queen,
    Role10::Rook,
    Role10::Bishop,
    Role10::Knight,
];

/// The 10x8 variants, in SPEC order (an index is a [`Variant10`]).
pub const TABLE: &[Rules10] = &[
    Rules10 {
        name: "capablanca",
        start_fen: "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1",
        archbishop: Some(b'a'),
        chancellor: Some(b'c'),
        king_file: 5,
        castle_targets: (2, 8),
        random: false,
        promotions: CAPABLANCA_PROMOTIONS,
    },
    Rules10 {
        name: "caparandom",
        // The default array is Capablanca's.
        start_fen: "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1",
        archbishop: Some(b'a'),
        chancellor: Some(b'c'),
        king_file: 5,
        castle_targets: (2, 8),
        random: true,
        promotions: CAPABLANCA_PROMOTIONS,
    },
    Rules10 {
        name: "gothic",
        start_fen: "rnbqckabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQCKABNR w KQkq - 0 1",
        archbishop: Some(b'a'),
        chancellor: Some(b'c'),
        king_file: 5,
        castle_targets: (2, 8),
        random: false,
        promotions: CAPABLANCA_PROMOTIONS,
    },
    Rules10 {
        name: "janus",
        start_fen: "rjnbkqbnjr/pppppppppp/10/10/10/10/PPPPPPPPPP/RJNBKQBNJR w KQkq - 0 1",
        archbishop: Some(b'j'),
        chancellor: None,
        king_file: 4,
        castle_targets: (1, 8),
        random: false,
        promotions: &[
            Role10::Archbishop,
            Role10::Queen,
            Role10::Rook,
            Role10::Bishop,
            Role10::Knight,
        ],
    },
    Rules10 {
        name: "embassy",
        start_fen: "rnbqkcabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQKCABNR w KQkq - 0 1",
        archbishop: Some(b'a'),
        chancellor: Some(b'c'),
        king_file: 4,
        castle_targets: (1, 7),
        random: false,
        promotions: CAPABLANCA_PROMOTIONS,
    },
    // The seam's proof (issue 17): a variant only tests know, defined by this entry alone.
    // Capablanca with a third knight for the chancellor; king on f, castling to c or h.
    #[cfg(feature = "test-variants")]
    Rules10 {
        name: "seam10",
        start_fen: "rnabqkbnnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBNNR w KQkq - 0 1",
        archbishop: Some(b'a'),
        chancellor: None,
        king_file: 5,
        castle_targets: (2, 7),
        random: false,
        promotions: &[
            Role10::Archbishop,
            Role10::Queen,
            Role10::Rook,
            Role10::Knight,
        ],
    },
];

/// One of the 10x8 variants: an entry of [`TABLE`].
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Variant10(u8);

const COUNT: usize = TABLE.len();

#[allow(non_upper_case_globals)]
impl Variant10 {
    /// `capablanca`: `rnabqkbcnr`, king castles to c or i.
    pub const Capablanca: Variant10 = Variant10(0);
    /// `caparandom`: Capablanca Random Chess; Chess960-style castling (king to c or i),
    /// moves written king-takes-rook.
    pub const CapaRandom: Variant10 = Variant10(1);
    /// `gothic`: `rnbqckabnr`, king castles to c or i.
    pub const Gothic: Variant10 = Variant10(2);
    /// `janus`: `rjnbkqbnjr`, janus `J` instead of archbishop, no chancellor; king to b or i.
    pub const Janus: Variant10 = Variant10(3);
    /// `embassy`: `rnbqkcabnr`, king castles to b or h.
    pub const Embassy: Variant10 = Variant10(4);
}

impl Variant10 {
    /// Every 10x8 variant, in [`TABLE`] order.
    pub const ALL: [Variant10; COUNT] = {
        let mut all = [Variant10(0); COUNT];
        let mut i = 0;
        while i < COUNT {
            all[i] = Variant10(i as u8);
            i += 1;
        }
        all
    };

    /// The variant's rules.
    pub const fn rules(self) -> &'static Rules10 {
        &TABLE[self.0 as usize]
    }

    /// The 10x8 variant named `name` (lowercase `UCI_Variant` name), if any.
    pub fn from_name(name: &str) -> Option<Variant10> {
        Variant10::ALL.into_iter().find(|v| v.name() == name)
    }

    /// The 10x8 variant `v` names, `None` for any other.
    pub fn from_variant(v: &Variant) -> Option<Variant10> {
        match v {
            Variant::Ten(v10) => Some(*v10),
            _ => None,
        }
    }

    /// The shared [`Variant`] name type.
    pub fn variant(self) -> Variant {
        Variant::Ten(self)
    }

    /// The `UCI_Variant` name.
    pub fn name(self) -> &'static str {
        self.rules().name
    }

    /// The start position as X-FEN (Fairy-Stockfish's `start_fen`).
    pub fn start_fen(self) -> &'static str {
        self.rules().start_fen
    }

    /// The king's target files when castling: (queenside, kingside), 0 = a.
    pub const fn castle_targets(self) -> (i8, i8) {
        self.rules().castle_targets
    }

    /// The king's start file outside Chess960 rules (caparandom: Capablanca's `f`).
    pub const fn king_file(self) -> i8 {
        self.rules().king_file
    }

    /// Whether the variant itself is a Chess960-style one (caparandom): any king and rook
    /// placement may castle, and Fairy-Stockfish writes castles king-takes-rook.
    pub const fn is_random(self) -> bool {
        self.rules().random
    }

    /// The pieces a pawn may promote to, in Fairy-Stockfish's order.
    pub fn promotions(self) -> &'static [Role10] {
        self.rules().promotions
    }

    /// The lowercase letter of `role` in this variant (`a` / `c` for a mover the variant
    /// lacks: only [`std::fmt::Display`] of a move asks that).
    pub const fn letter(self, role: Role10) -> u8 {
        let rules = self.rules();
        match role {
            Role10::Pawn => b'p',
            Role10::Knight => b'n',
            Role10::Bishop => b'b',
            Role10::Rook => b'r',
            Role10::Queen => b'q',
            Role10::King => b'k',
            Role10::Archbishop => match rules.archbishop {
                Some(c) => c,
                None => b'a',
            },
            Role10::Chancellor => match rules.chancellor {
                Some(c) => c,
                None => b'c',
            },
        }
    }

    /// The role a lowercase letter names in this variant.
    pub const fn role(self, lower: u8) -> Option<Role10> {
        let rules = self.rules();
        Some(match lower {
            b'p' => Role10::Pawn,
            b'n' => Role10::Knight,
            b'b' => Role10::Bishop,
            b'r' => Role10::Rook,
            b'q' => Role10::Queen,
            b'k' => Role10::King,
            c if matches!(rules.archbishop, Some(a) if a == c) => Role10::Archbishop,
            c if matches!(rules.chancellor, Some(a) if a == c) => Role10::Chancellor,
            _ => return None,
        })
    }

    /// The piece letters of the variant, for messages (`KQRBNACP/kqrbnacp`).
    pub fn piece_letters(self) -> String {
        let rules = self.rules();
        let fairy: String = [rules.archbishop, rules.chancellor]
            .into_iter()
            .flatten()
            .map(char::from)
            .collect();
        let upper = format!("KQRBN{}P", fairy.to_ascii_uppercase());
        format!("{upper}/{}", upper.to_ascii_lowercase())
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

impl std::fmt::Debug for Variant10 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Variant10({})", self.name())
    }
}

impl std::fmt::Display for Variant10 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}
