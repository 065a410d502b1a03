//! The pipeline for one 10x8 X-FEN: read, validate, build the [`Board10`], and repair as a
//! separate step (SPEC section 6's list: castling rights without their king or rook, an en
//! passant square that cannot be, malformed counters).

use shakmaty::Color;

use super::castling::{self, Rights, Rules};
use super::parse::{Parsed, error, parse};
use super::piece::{Piece10, Role10, Variant10};
use super::position::{Board10, attacked, attackers, back_rank, color_index, forward};
use super::square::{SQUARES, Square10};
use crate::fen::{Code, Diagnostic, Severity};

/// How to analyze a 10x8 FEN.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// The variant whose pieces and castling rules apply.
    pub variant: Variant10,
    /// `true` (default): Chess960 castling rules (any king and rook placement), which every
    /// standard position also satisfies. `false` (`--standard`): a castling right must use
    /// the variant's king file and a corner rook (`castling-needs-chess960` otherwise).
    /// caparandom is Chess960-style either way.
    pub chess960_allowed: bool,
}

impl Options {
    /// Chess960 rules allowed, for `variant`.
    pub fn new(variant: Variant10) -> Options {
        Options {
            variant,
            chess960_allowed: true,
        }
    }
}

/// The result of [`Board10::from_fen`]: diagnostics in input order, the position when it is
/// valid, and the repaired position when every error has a safe repair.
#[derive(Debug, Clone)]
pub struct Analysis10 {
    diagnostics: Vec<Diagnostic>,
    board: Option<Board10>,
    repairable: Option<Board10>,
}

impl Analysis10 {
    /// Whether no diagnostic is an error.
    pub fn is_valid(&self) -> bool {
        self.board.is_some()
    }

    /// All findings (errors, warnings, notes), in input order (placeless ones last).
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    /// The valid position, `None` when invalid.
    pub fn board(&self) -> Option<&Board10> {
        self.board.as_ref()
    }

    /// The position with every error repaired (rights dropped, en passant square dropped,
    /// counters set to 0 and 1); `None` when some error has no safe repair. On a valid
    /// analysis, the position itself.
    pub fn repair(&self) -> Option<&Board10> {
        self.board.as_ref().or(self.repairable.as_ref())
    }

    /// Whether a castling right kept needs Chess960 rules: its king is not on the variant's
    /// king file or its rook not on the a- or j-file (always `false` without a position).
    pub fn needs_chess960(&self) -> bool {
        self.repair().is_some_and(Board10::needs_chess960)
    }
}

impl Board10 {
    /// Parses and validates a 10x8 X-FEN / Shredder-FEN (no repair; see
    /// [`Analysis10::repair`]). `input` is raw bytes; spans are byte ranges into it.
    pub fn from_fen(input: &[u8], opts: &Options) -> Analysis10 {
        let mut diags = Vec::new();
        let parsed = parse(input, opts.variant, &mut diags);
        let (board, repairable) = match build(input, &parsed, opts, &mut diags) {
            Some((board, clean)) => {
                let fixable = diags.iter().all(|d| !d.is_error() || d.fix.is_some());
                match (clean && !diags.iter().any(Diagnostic::is_error), fixable) {
                    (true, _) => (Some(board), None),
                    (false, true) => (None, Some(board)),
                    (false, false) => (None, None),
                }
            }
            None => (None, None),
        };
        if let Some(b) = &board {
            notes(b, &parsed, &mut diags);
        }
        diags.sort_by_key(|d| d.span.as_ref().map_or(usize::MAX, |s| s.start));
        Analysis10 {
            diagnostics: diags,
            board,
            repairable,
        }
    }

    /// The valid position of `input`, or `None` when [`Board10::from_fen`] finds an error:
    /// the same verdict and position without the notes (checkmate, an en passant square
    /// nobody can use) and their move generation. The fast path for bulk checking.
    pub fn valid_from_fen(input: &[u8], opts: &Options) -> Option<Board10> {
        let mut diags = Vec::new();
        let parsed = parse(input, opts.variant, &mut diags);
        let (board, clean) = build(input, &parsed, opts, &mut diags)?;
        (clean && !diags.iter().any(Diagnostic::is_error)).then_some(board)
    }

    /// The start position of `variant`.
    pub fn start(variant: Variant10) -> Board10 {
        Board10::from_fen(variant.start_fen().as_bytes(), &Options::new(variant))
            .board
            .expect("the start position is valid")
    }

    /// Whether a castling right needs Chess960 rules (king off the variant's king file or
    /// rook off the corner).
    pub fn needs_chess960(&self) -> bool {
        [Color::White, Color::Black].into_iter().any(|c| {
            self.castles[color_index(c)].iter().flatten().any(|rook| {
                self.king(c).file() != self.variant.king_file() || !matches!(rook.file(), 0 | 9)
            })
        })
    }
}

/// Validates the parsed fields; returns the position built from what survives (rights and en
/// passant square that stand, default counters for malformed ones) and whether nothing was
/// dropped, or `None` when there is no board to build (syntax, kings).
fn build(
    input: &[u8],
    parsed: &Parsed,
    opts: &Options,
    diags: &mut Vec<Diagnostic>,
) -> Option<(Board10, bool)> {
    let squares = parsed.squares?;
    let turn = parsed.turn?;
    let placement = parsed.spans[0].clone();
    let at = |sq: Square10| {
        let at = parsed.piece_at[sq.index()] as usize;
        Some(at..at + 1)
    };
    let mut kings = [Square10::at(0); 2];
    let mut kings_ok = true;
    for color in [Color::White, Color::Black] {
        let king = Piece10 {
            color,
            role: Role10::King,
        };
        let found: Vec<Square10> = Square10::all()
            .filter(|s| squares[s.index()] == Some(king))
            .collect();
        match found.as_slice() {
            [k] => kings[color_index(color)] = *k,
            [] => {
                kings_ok = false;
                diags.push(error(
                    Code::MissingKing,
                    placement.clone(),
                    format!("there is no {color} king; expected exactly one"),
                ));
            }
            [_, more @ ..] => {
                kings_ok = false;
                for &sq in more {
                    diags.push(error(
                        Code::TooManyKings,
                        at(sq),
                        format!(
                            "{} {color} kings; expected exactly one (another on {sq})",
                            found.len()
                        ),
                    ));
                }
            }
        }
        let mine = Square10::all().filter(|s| squares[s.index()].is_some_and(|p| p.color == color));
        let (pieces, pawns) = mine.fold((0, 0), |(n, p), s| {
            (
                n + 1,
                p + usize::from(squares[s.index()].is_some_and(|p| p.role == Role10::Pawn)),
            )
        });
        if pieces > 20 || pawns > 10 {
            diags.push(error(
                Code::TooMuchMaterial,
                placement.clone(),
                format!("{color} has {pieces} pieces ({pawns} pawns); at most 20 pieces and 10 pawns on a 10x8 board"),
            ));
        }
    }
    for sq in Square10::all() {
        if matches!(sq.rank(), 0 | 7) && squares[sq.index()].is_some_and(|p| p.role == Role10::Pawn)
        {
            diags.push(error(
                Code::PawnOnBackRank,
                at(sq),
                format!("pawn on {sq}; pawns never stand on the first or eighth rank"),
            ));
        }
    }
    if !kings_ok {
        return None;
    }
    let them = turn.other();
    if attacked(&squares, kings[color_index(them)], turn) {
        diags.push(error(
            Code::OppositeCheck,
            at(kings[color_index(them)]),
            format!("{them} is in check but it is {turn} to move"),
        ));
    } else if attacked(&squares, kings[color_index(turn)], them)
        && attackers(&squares, kings[color_index(turn)], them) > 2
    {
        diags.push(error(
            Code::ImpossibleCheck,
            at(kings[color_index(turn)]),
            format!("the {turn} king is checked by more than two pieces; no move gives that"),
        ));
    }
    let rules = Rules {
        variant: opts.variant,
        standard: !opts.chess960_allowed,
    };
    let rights: Rights = match parsed.spans[2].clone() {
        None => [[None; 2]; 2],
        Some(span) => castling::read(&input[span.clone()], span.start, &squares, &rules, diags)?,
    };
    let mut clean = true;
    let ep = match parsed.ep {
        Ok(Some(sq)) => check_ep(sq, &squares, turn, parsed.spans[3].clone(), diags),
        Ok(None) => None,
        Err(()) => {
            clean = false;
            None
        }
    };
    if let (Some(_), Some(h), Some(span)) = (ep, parsed.halfmove, parsed.spans[4].clone())
        && h > 0
    {
        diags.push(Diagnostic::new(
            Code::HalfmoveWithEp,
            Severity::Warning,
            Some(span),
            format!(
                "halfmove clock {h} with an en passant square; a double pawn push resets it to 0"
            ),
        ));
    }
    if let (Some(h), Some(span)) = (parsed.halfmove, parsed.spans[4].clone())
        && h >= 100
    {
        diags.push(Diagnostic::new(
            Code::FiftyMoveDraw,
            Severity::Warning,
            Some(span),
            format!("halfmove clock {h}: 100 or more, a draw can be claimed (fifty-move rule)"),
        ));
    }
    let board = Board10 {
        variant: opts.variant,
        squares,
        turn,
        castles: rights,
        ep,
        halfmoves: parsed.halfmove.unwrap_or(0),
        fullmoves: parsed.fullmove.unwrap_or(1),
        kings,
    };
    Some((board, clean))
}

/// The en passant square when it can be (on the sixth rank with White to move, the third
/// with Black; an enemy pawn in front of it; it and the square the pawn came from empty).
fn check_ep(
    sq: Square10,
    squares: &[Option<Piece10>; SQUARES],
    turn: Color,
    span: Option<std::ops::Range<usize>>,
    diags: &mut Vec<Diagnostic>,
) -> Option<Square10> {
    let drop = "drop the en passant square";
    let want = back_rank(turn.other()) - 2 * forward(turn);
    if sq.rank() != want {
        diags.push(
            error(
                Code::EpSquareWrongRank,
                span,
                format!(
                    "en passant square {sq} with {turn} to move; expected a square on rank {}",
                    want + 1
                ),
            )
            .with_fix(drop),
        );
        return None;
    }
    let pushed = sq
        .offset(0, -forward(turn))
        .expect("rank 3 or 6 has a neighbour");
    let pawn = Some(Piece10 {
        color: turn.other(),
        role: Role10::Pawn,
    });
    if squares[pushed.index()] != pawn {
        diags.push(
            error(
                Code::EpWithoutPawn,
                span,
                format!(
                    "en passant square {sq} but no {} pawn on {pushed}",
                    turn.other()
                ),
            )
            .with_fix(drop),
        );
        return None;
    }
    let origin = sq
        .offset(0, forward(turn))
        .expect("rank 3 or 6 has a neighbour");
    if squares[sq.index()].is_some() || squares[origin.index()].is_some() {
        diags.push(
            error(
                Code::EpSquareOccupied,
                span,
                format!(
                    "en passant square {sq}: {sq} and {origin} must be empty after a double push"
                ),
            )
            .with_fix(drop),
        );
        return None;
    }
    Some(sq)
}

/// Notes on a valid position: checkmate or stalemate, an en passant square nobody can use.
fn notes(board: &Board10, parsed: &Parsed, diags: &mut Vec<Diagnostic>) {
    let moves = board.legal_moves();
    if moves.is_empty() {
        let what = if board.is_check() {
            "checkmate"
        } else {
            "stalemate"
        };
        diags.push(Diagnostic::new(
            Code::NoLegalMoves,
            Severity::Note,
            None,
            format!("{what}: {} has no legal moves", board.turn),
        ));
    }
    if let Some(sq) = board.ep
        && !moves.iter().any(|m| m.kind == super::MoveKind::EnPassant)
    {
        diags.push(Diagnostic::new(
            Code::EpNotCapturable,
            Severity::Note,
            parsed.spans[3].clone(),
            format!("no legal en passant capture on {sq}; X-FEN omits it"),
        ));
    }
}
