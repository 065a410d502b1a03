//! The fake engine's rules mode (`FAKE_ENGINE_RULES=1`): it reads `position` lines with
//! fenguard's own rules (chess, Chess960 with `UCI_Chess960`), answers `go` with a legal move
//! (a mate in one when there is one, the first `searchmoves` move that is legal) after one
//! `info` line, refuses an invalid position or move list (`info string error: ...`, then
//! `bestmove 0000`) and counts `go perft N` correctly. A well-behaved engine, so that
//! `fenguard doctor` flags exactly the deliberate faults:
//! - `perft-wrong`: the move `a2a3` is not generated in one position (Kiwipete after
//!   `e1g1 e8c8`), so `go perft 3` from Kiwipete is one short;
//! - `crash-no-kings`: aborts on a `position fen` whose board lacks a king.

use fenguard::rules::{Game, Rules, read_move, write_move};
use fenguard::uci::{Notation, parse_position};
use shakmaty::{Chess, Move, Position as _};

/// Kiwipete (the Chess Programming Wiki's perft position 2).
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

/// The fake's position and how it reads moves.
pub struct Board {
    position: Option<Chess>,
    chess960: bool,
    /// `perft-wrong`: the position where `a2a3` is left out.
    perft_hole: Option<Chess>,
    crash_no_kings: bool,
}

impl Board {
    /// The start position; `faults` as in `FAKE_ENGINE_FAULTS`.
    pub fn new(faults: &[String]) -> Board {
        let has = |f: &str| faults.iter().any(|x| x == f);
        let perft_hole = has("perft-wrong").then(|| {
            let mut pos = chess_of(KIWIPETE);
            for m in ["e1g1", "e8c8"] {
                let mv = read_move(&pos, m.as_bytes(), Notation::Standard)
                    .expect("legal")
                    .mv;
                pos.play_unchecked(mv);
            }
            pos
        });
        Board {
            position: Some(Chess::default()),
            chess960: false,
            perft_hole,
            crash_no_kings: has("crash-no-kings"),
        }
    }

    /// `setoption name UCI_Chess960 value V`.
    pub fn set_option(&mut self, name: &str, value: &str) {
        if name.eq_ignore_ascii_case("UCI_Chess960") {
            self.chess960 = value.eq_ignore_ascii_case("true");
        }
    }

    fn notation(&self) -> Notation {
        Notation::from_chess960(self.chess960)
    }

    /// Reads a `position` line; an error message when it is refused.
    pub fn position(&mut self, line: &[u8]) -> Option<String> {
        self.position = None;
        let cmd = match parse_position(line) {
            Ok(c) => c,
            Err(e) => return Some(format!("bad position command: {e}")),
        };
        let mut pos = match cmd.fen() {
            None => Chess::default(),
            Some(fen) => {
                let board = fen.split(|b| *b == b' ').next().unwrap_or_default();
                if self.crash_no_kings && (!board.contains(&b'K') || !board.contains(&b'k')) {
                    std::process::abort();
                }
                let a = Game::analyze(&Rules::Chess, fen, self.chess960, false);
                match (a.valid, a.game) {
                    (true, Some(Game::Chess(c))) => c,
                    _ => return Some("invalid FEN".to_owned()),
                }
            }
        };
        for (i, m) in cmd.moves.iter().enumerate() {
            match read_move(&pos, m.text, self.notation()) {
                Ok(r) => pos.play_unchecked(r.mv),
                Err(_) => {
                    let text = String::from_utf8_lossy(m.text);
                    return Some(format!("illegal move {} `{text}`", i + 1));
                }
            }
        }
        self.position = Some(pos);
        None
    }

    /// The answer to a search: one `info` line and `bestmove`, or `bestmove 0000` without a
    /// valid position, `bestmove (none)` when the game is over.
    pub fn answer(&self, searchmoves: &[&str]) -> String {
        let Some(pos) = &self.position else {
            return "info string error: no valid position\nbestmove 0000\n".to_owned();
        };
        let legal = pos.legal_moves();
        if legal.is_empty() {
            return "info depth 0 score cp 0\nbestmove (none)\n".to_owned();
        }
        let n = self.notation();
        let allowed: Vec<Move> = searchmoves
            .iter()
            .filter_map(|t| read_move(pos, t.as_bytes(), n).ok().map(|r| r.mv))
            .collect();
        let choices: Vec<Move> = if allowed.is_empty() {
            legal.into_iter().collect()
        } else {
            allowed
        };
        let mate = choices.iter().copied().find(|m| {
            let mut after = pos.clone();
            after.play_unchecked(*m);
            after.is_checkmate()
        });
        let best = mate.unwrap_or(choices[0]);
        let mut after = pos.clone();
        after.play_unchecked(best);
        let best_text = write_move(pos, best, n).0.to_string();
        let ponder = after
            .legal_moves()
            .first()
            .map(|p| write_move(&after, *p, n).0.to_string());
        let score = if mate.is_some() { "mate 1" } else { "cp 0" };
        match ponder {
            Some(p) => format!(
                "info depth 1 score {score} nodes 1 time 0 pv {best_text} {p}\nbestmove {best_text} ponder {p}\n"
            ),
            None => format!(
                "info depth 1 score {score} nodes 1 time 0 pv {best_text}\nbestmove {best_text}\n"
            ),
        }
    }

    /// `go perft depth`: the divide, a blank line, `Nodes searched: N`, a blank line.
    pub fn perft(&self, depth: u32) -> String {
        let Some(pos) = &self.position else {
            return "info string error: no valid position\n".to_owned();
        };
        let mut out = String::new();
        let mut total = 0;
        for m in self.moves(pos) {
            let mut after = pos.clone();
            after.play_unchecked(m);
            let n = self.count(&after, depth.saturating_sub(1));
            total += n;
            out.push_str(&format!("{}: {n}\n", write_move(pos, m, self.notation()).0));
        }
        out.push_str(&format!("\nNodes searched: {total}\n\n"));
        out
    }

    fn moves(&self, pos: &Chess) -> Vec<Move> {
        let mut moves: Vec<Move> = pos.legal_moves().into_iter().collect();
        if self.perft_hole.as_ref().is_some_and(|h| same(h, pos)) {
            moves.retain(|m| write_move(pos, *m, Notation::Standard).0.to_string() != "a2a3");
        }
        moves
    }

    fn count(&self, pos: &Chess, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.moves(pos);
        if depth == 1 {
            return moves.len() as u64;
        }
        moves
            .into_iter()
            .map(|m| {
                let mut after = pos.clone();
                after.play_unchecked(m);
                self.count(&after, depth - 1)
            })
            .sum()
    }
}

/// Same board, side and castling rights.
fn same(a: &Chess, b: &Chess) -> bool {
    a.board() == b.board()
        && a.turn() == b.turn()
        && a.castles().castling_rights() == b.castles().castling_rights()
}

fn chess_of(fen: &str) -> Chess {
    match Game::analyze(&Rules::Chess, fen.as_bytes(), false, false).game {
        Some(Game::Chess(c)) => c,
        _ => unreachable!("a valid FEN"),
    }
}
