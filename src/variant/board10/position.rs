//! The 10x8 position: a mailbox of 80 squares, side to move, castling rights (as rook
//! squares, like shakmaty), the en passant square, counters; attacks and playing a move.

use shakmaty::Color;

use super::piece::{Piece10, Role10, Variant10};
use super::square::{DIAGONAL, KING, KNIGHT, ORTHOGONAL, SQUARES, Square10};

/// Castling side, from the king's point of view.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Side {
    /// Towards the a-file.
    Queen = 0,
    /// Towards the j-file.
    King = 1,
}

/// A move. Castling is the king's move with `to` its target square and the rook's square in
/// [`MoveKind::Castle`]; how it is written depends on the [`super::Notation`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move10 {
    /// The square the piece leaves (the king's, for castling).
    pub from: Square10,
    /// The square it goes to (the king's target, for castling).
    pub to: Square10,
    /// The piece a pawn becomes on the last rank.
    pub promotion: Option<Role10>,
    /// What else the move does.
    pub kind: MoveKind,
}

/// The special part of a move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// A plain move or capture (promotions included).
    Normal,
    /// A pawn's two-square step.
    DoublePush,
    /// A pawn capturing en passant.
    EnPassant,
    /// Castling with the rook on `rook`.
    Castle {
        /// The castling rook's square.
        rook: Square10,
    },
}

/// A valid 10x8 position (built by [`super::Board10::from_fen`] or a start position).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Board10 {
    pub(crate) variant: Variant10,
    pub(crate) squares: [Option<Piece10>; SQUARES],
    pub(crate) turn: Color,
    /// `[color][side]`: the castling rook's square.
    pub(crate) castles: [[Option<Square10>; 2]; 2],
    /// The square a pawn just passed, as written or played (the writer filters by mode).
    pub(crate) ep: Option<Square10>,
    pub(crate) halfmoves: u32,
    pub(crate) fullmoves: u32,
    pub(crate) kings: [Square10; 2],
}

pub(crate) const fn color_index(c: Color) -> usize {
    match c {
        Color::White => 0,
        Color::Black => 1,
    }
}

/// The back rank of `color` (0 or 7).
pub(crate) const fn back_rank(c: Color) -> i8 {
    match c {
        Color::White => 0,
        Color::Black => 7,
    }
}

/// Rank steps forward for `color`'s pawns.
pub(crate) const fn forward(c: Color) -> i8 {
    match c {
        Color::White => 1,
        Color::Black => -1,
    }
}

/// Whether `sq` is attacked by a piece of `by` on `squares` (a mailbox).
pub(crate) fn attacked(squares: &[Option<Piece10>; SQUARES], sq: Square10, by: Color) -> bool {
    let is = |s: Option<Square10>, test: fn(Role10) -> bool| {
        s.and_then(|s| squares[s.index()])
            .is_some_and(|p| p.color == by && test(p.role))
    };
    let back = -forward(by);
    if is(sq.offset(1, back), |r| r == Role10::Pawn)
        || is(sq.offset(-1, back), |r| r == Role10::Pawn)
    {
        return true;
    }
    if KNIGHT
        .iter()
        .any(|&(f, r)| is(sq.offset(f, r), Role10::leaps))
    {
        return true;
    }
    if KING
        .iter()
        .any(|&(f, r)| is(sq.offset(f, r), |r| r == Role10::King))
    {
        return true;
    }
    ray_hits(squares, sq, by, &ORTHOGONAL, Role10::slides_orthogonally)
        || ray_hits(squares, sq, by, &DIAGONAL, Role10::slides_diagonally)
}

/// Whether a slider of `by` for which `test` holds sees `sq` along one of `dirs`.
fn ray_hits(
    squares: &[Option<Piece10>; SQUARES],
    sq: Square10,
    by: Color,
    dirs: &[(i8, i8)],
    test: fn(Role10) -> bool,
) -> bool {
    for &(df, dr) in dirs {
        let mut at = sq;
        while let Some(next) = at.offset(df, dr) {
            if let Some(p) = squares[next.index()] {
                if p.color == by && test(p.role) {
                    return true;
                }
                break;
            }
            at = next;
        }
    }
    false
}

/// How many pieces of `by` attack `sq` (for impossible-check): each piece of `by` is asked
/// alone, the others replaced by a blocker that attacks nothing (a pawn of the other color),
/// so lines stay as they are.
pub(crate) fn attackers(squares: &[Option<Piece10>; SQUARES], sq: Square10, by: Color) -> usize {
    let blocker = Some(Piece10 {
        color: by.other(),
        role: Role10::Pawn,
    });
    let mut n = 0;
    for s in Square10::all() {
        if squares[s.index()].is_some_and(|p| p.color == by) {
            let mut alone = *squares;
            for t in Square10::all() {
                if t != s && squares[t.index()].is_some_and(|p| p.color == by) {
                    alone[t.index()] = blocker;
                }
            }
            n += usize::from(attacked(&alone, sq, by));
        }
    }
    n
}

impl Board10 {
    /// The variant whose rules apply.
    pub fn variant(&self) -> Variant10 {
        self.variant
    }

    /// The side to move.
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// The piece on `sq`.
    pub fn piece_at(&self, sq: Square10) -> Option<Piece10> {
        self.squares[sq.index()]
    }

    /// The king of `color`.
    pub fn king(&self, color: Color) -> Square10 {
        self.kings[color_index(color)]
    }

    /// The castling rook of `color` on `side`, when that right exists.
    pub fn castling_rook(&self, color: Color, side: Side) -> Option<Square10> {
        self.castles[color_index(color)][side as usize]
    }

    /// Halfmove clock (plies since the last capture or pawn move).
    pub fn halfmoves(&self) -> u32 {
        self.halfmoves
    }

    /// Fullmove number (from 1).
    pub fn fullmoves(&self) -> u32 {
        self.fullmoves
    }

    /// Whether the side to move is in check.
    pub fn is_check(&self) -> bool {
        attacked(&self.squares, self.king(self.turn), self.turn.other())
    }

    /// Whether `m` is a castle.
    pub fn is_castle(&self, m: Move10) -> bool {
        matches!(m.kind, MoveKind::Castle { .. })
    }

    /// Plays `m`, which must be legal here (from [`Board10::legal_moves`] or
    /// [`Board10::parse_uci`]): moves the pieces, updates castling rights, the en passant
    /// square, the halfmove clock and the fullmove number.
    pub fn play(&mut self, m: Move10) {
        let us = self.turn;
        let ci = color_index(us);
        let moving = self.squares[m.from.index()];
        let captured = self.squares[m.to.index()];
        self.ep = None;
        let mut reset = captured.is_some();
        match m.kind {
            MoveKind::Castle { rook } => {
                let side = if rook.file() > m.from.file() { 1 } else { -1 };
                let rook_to =
                    m.to.offset(-side, 0)
                        .expect("the target is inside the rank");
                let rook_piece = self.squares[rook.index()];
                self.squares[m.from.index()] = None;
                self.squares[rook.index()] = None;
                self.squares[m.to.index()] = moving;
                self.squares[rook_to.index()] = rook_piece;
                self.kings[ci] = m.to;
                self.castles[ci] = [None, None];
                reset = false;
            }
            _ => {
                self.squares[m.from.index()] = None;
                self.squares[m.to.index()] = match m.promotion {
                    Some(role) => Some(Piece10 { color: us, role }),
                    None => moving,
                };
                if moving.is_some_and(|p| p.role == Role10::Pawn) {
                    reset = true;
                }
                match m.kind {
                    MoveKind::EnPassant => {
                        let victim = m.to.offset(0, -forward(us)).expect("on the board");
                        self.squares[victim.index()] = None;
                    }
                    MoveKind::DoublePush => self.ep = m.from.offset(0, forward(us)),
                    _ => {}
                }
                if moving.is_some_and(|p| p.role == Role10::King) {
                    self.kings[ci] = m.to;
                    self.castles[ci] = [None, None];
                }
            }
        }
        for rights in &mut self.castles {
            for right in rights.iter_mut() {
                if *right == Some(m.from) || *right == Some(m.to) {
                    *right = None;
                }
            }
        }
        self.halfmoves = if reset {
            0
        } else {
            self.halfmoves.saturating_add(1)
        };
        if us == Color::Black {
            self.fullmoves = self.fullmoves.saturating_add(1);
        }
        self.turn = us.other();
    }
}
