//! Move generation: pseudo-legal moves, filtered by king safety (play the move on a copy and
//! look at the king); castling Chess960-style towards the variant's target files; perft.

use super::piece::{Piece10, Role10};
use super::position::{Board10, Move10, MoveKind, attacked, back_rank, color_index, forward};
use super::square::{DIAGONAL, KING, KNIGHT, ORTHOGONAL, Square10};

impl Board10 {
    /// Every legal move of the side to move, castles included (each once, the king's move
    /// with its rook's square), promotions once per promotion piece.
    pub fn legal_moves(&self) -> Vec<Move10> {
        let mut moves = Vec::with_capacity(64);
        self.pseudo_legal(&mut moves);
        moves.retain(|&m| self.is_safe(m));
        moves
    }

    /// Whether the mover's king is not attacked after `m` (a pseudo-legal move).
    fn is_safe(&self, m: Move10) -> bool {
        let mut after = self.clone();
        after.play(m);
        !attacked(&after.squares, after.king(self.turn), self.turn.other())
    }

    /// Counts the leaves of the legal move tree `depth` plies deep (perft, as Fairy-Stockfish's
    /// `go perft` counts them).
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.legal_moves();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves
            .into_iter()
            .map(|m| {
                let mut next = self.clone();
                next.play(m);
                next.perft(depth - 1)
            })
            .sum()
    }

    fn pseudo_legal(&self, moves: &mut Vec<Move10>) {
        let us = self.turn;
        for from in Square10::all() {
            let Some(piece) = self.squares[from.index()] else {
                continue;
            };
            if piece.color != us {
                continue;
            }
            match piece.role {
                Role10::Pawn => self.pawn_moves(from, moves),
                Role10::King => self.steps(from, &KING, moves),
                role => {
                    if role.leaps() {
                        self.steps(from, &KNIGHT, moves);
                    }
                    if role.slides_orthogonally() {
                        self.slides(from, &ORTHOGONAL, moves);
                    }
                    if role.slides_diagonally() {
                        self.slides(from, &DIAGONAL, moves);
                    }
                }
            }
        }
        self.castles(moves);
    }

    fn is_ours(&self, sq: Square10) -> bool {
        self.squares[sq.index()].is_some_and(|p| p.color == self.turn)
    }

    fn steps(&self, from: Square10, deltas: &[(i8, i8)], moves: &mut Vec<Move10>) {
        for &(df, dr) in deltas {
            if let Some(to) = from.offset(df, dr)
                && !self.is_ours(to)
            {
                moves.push(plain(from, to));
            }
        }
    }

    fn slides(&self, from: Square10, dirs: &[(i8, i8)], moves: &mut Vec<Move10>) {
        for &(df, dr) in dirs {
            let mut at = from;
            while let Some(to) = at.offset(df, dr) {
                match self.squares[to.index()] {
                    None => moves.push(plain(from, to)),
                    Some(p) => {
                        if p.color != self.turn {
                            moves.push(plain(from, to));
                        }
                        break;
                    }
                }
                at = to;
            }
        }
    }

    fn pawn_moves(&self, from: Square10, moves: &mut Vec<Move10>) {
        let us = self.turn;
        let up = forward(us);
        let last = back_rank(us.other());
        let mut push = |to: Square10, kind: MoveKind| {
            if to.rank() == last {
                for &role in self.variant.promotions() {
                    moves.push(Move10 {
                        from,
                        to,
                        promotion: Some(role),
                        kind,
                    });
                }
            } else {
                moves.push(Move10 {
                    from,
                    to,
                    promotion: None,
                    kind,
                });
            }
        };
        if let Some(one) = from.offset(0, up)
            && self.squares[one.index()].is_none()
        {
            push(one, MoveKind::Normal);
            if from.rank() == back_rank(us) + up
                && let Some(two) = one.offset(0, up)
                && self.squares[two.index()].is_none()
            {
                push(two, MoveKind::DoublePush);
            }
        }
        for df in [-1, 1] {
            let Some(to) = from.offset(df, up) else {
                continue;
            };
            match self.squares[to.index()] {
                Some(p) if p.color != us => push(to, MoveKind::Normal),
                None if Some(to) == self.ep && self.ep_victim_present(to) => {
                    push(to, MoveKind::EnPassant)
                }
                _ => {}
            }
        }
    }

    /// Whether an enemy pawn stands in front of the en passant square `ep` (it just passed it).
    pub(crate) fn ep_victim_present(&self, ep: Square10) -> bool {
        let them = self.turn.other();
        ep.offset(0, -forward(self.turn))
            .and_then(|s| self.squares[s.index()])
            == Some(Piece10 {
                color: them,
                role: Role10::Pawn,
            })
    }

    /// Castles that are pseudo-legal: the right exists, every square the king and the rook
    /// cross or land on is empty (but for the two of them), and the king is not in check and
    /// crosses no attacked square (its landing square is checked by [`Self::is_safe`]).
    fn castles(&self, moves: &mut Vec<Move10>) {
        let us = self.turn;
        let ci = color_index(us);
        let king = self.kings[ci];
        if self.castles[ci] == [None, None] || attacked(&self.squares, king, us.other()) {
            return;
        }
        let (queen_target, king_target) = self.variant.castle_targets();
        for (side, rook) in self.castles[ci].iter().enumerate() {
            let Some(rook) = *rook else {
                continue;
            };
            let rank = back_rank(us);
            let (kto_file, rto_file) = if side == 1 {
                (king_target, king_target - 1)
            } else {
                (queen_target, queen_target + 1)
            };
            let kto = Square10::new(kto_file, rank).expect("target on the board");
            let rto = Square10::new(rto_file, rank).expect("target on the board");
            let span = |a: Square10, b: Square10| a.file().min(b.file())..=a.file().max(b.file());
            let blocked = span(king, kto).chain(span(rook, rto)).any(|f| {
                let sq = Square10::new(f, rank).expect("on the rank");
                sq != king && sq != rook && self.squares[sq.index()].is_some()
            });
            if blocked {
                continue;
            }
            let them = us.other();
            let crossed_attacked = span(king, kto)
                .map(|f| Square10::new(f, rank).expect("on the rank"))
                .filter(|&sq| sq != kto)
                .any(|sq| attacked(&self.squares, sq, them));
            if crossed_attacked {
                continue;
            }
            moves.push(Move10 {
                from: king,
                to: kto,
                promotion: None,
                kind: MoveKind::Castle { rook },
            });
        }
    }
}

fn plain(from: Square10, to: Square10) -> Move10 {
    Move10 {
        from,
        to,
        promotion: None,
        kind: MoveKind::Normal,
    }
}

/// Whether a pawn of the side to move stands beside the pawn that passed `ep` (X-FEN's test:
/// the capture is at least pseudo-legal).
pub(crate) fn ep_pseudo_legal(board: &Board10, ep: Square10) -> bool {
    let us = board.turn;
    let Some(pushed) = ep.offset(0, -forward(us)) else {
        return false;
    };
    [-1, 1].iter().any(|&df| {
        pushed.offset(df, 0).and_then(|s| board.squares[s.index()])
            == Some(Piece10 {
                color: us,
                role: Role10::Pawn,
            })
    })
}

/// Whether a legal en passant capture onto `ep` exists.
pub(crate) fn ep_legal(board: &Board10, ep: Square10) -> bool {
    board.ep == Some(ep)
        && board
            .legal_moves()
            .iter()
            .any(|m| m.kind == MoveKind::EnPassant)
}
