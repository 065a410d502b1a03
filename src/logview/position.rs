//! The boards of a `position` record (SPEC section 14), for the terminal and the HTML report:
//! the GUI's board (its FEN as given with the diagnostics' squares and fields marked, or the
//! position before the move a diagnostic is about, that move's squares marked), the engine's
//! start board when fenguard repaired or normalized the FEN (the changes marked), and the
//! position the engine searched (`final_fen`, the last move marked).

use serde_json::Value;

use crate::fen::{CastlingStyle, EpMode};
use crate::rules::{Game, GameRules, Rules, play_moves};
use crate::uci::{Notation, parse_position};
use crate::variant::Variant;
use crate::view::{Board, Finding, MarkKind, Marks, Shape};

/// One drawn board: the board, its marks and its caption.
#[derive(Debug, Clone)]
pub struct Drawn {
    /// The board.
    pub board: Board,
    /// What it marks.
    pub marks: Marks,
    /// What it shows: `GUI's FEN`, `engine got (repaired)`, `engine's position after 12 moves`.
    pub caption: String,
}

/// The boards of one full `position` record.
#[derive(Debug, Clone, Default)]
pub struct PositionBoards {
    /// The GUI's board, marked where its diagnostics point.
    pub gui: Option<Drawn>,
    /// The engine's start position, when it draws differently from the GUI's FEN.
    pub engine_start: Option<Drawn>,
    /// The position the engine searched.
    pub searched: Option<Drawn>,
}

fn text(v: &Value) -> Option<&str> {
    v.as_str()
}

/// The variant's board shape of a record (its `variant` field).
pub fn shape_of(record: &Value) -> Shape {
    Shape::for_variant(record["variant"].as_str())
}

/// The board of the position `final_fen` names, marked with `bestmove` (an arrow), for a
/// search.
pub fn searched_board(record: &Value, bestmove: Option<&str>) -> Option<Drawn> {
    let shape = shape_of(record);
    let fen = text(&record["final_fen"])?;
    let board = Board::from_fen(fen, shape)?;
    let mut marks = Marks::default();
    if let Some(mv) = bestmove.filter(|m| *m != "0000" && *m != "(none)") {
        marks.arrow(&board, mv);
    }
    let n = record["moves_out"].as_array().map_or(0, Vec::len);
    Some(Drawn {
        board,
        marks,
        caption: format!("engine's position after {n} moves"),
    })
}

impl PositionBoards {
    /// The boards of `record`, a full `position` record.
    pub fn of(record: &Value) -> PositionBoards {
        let shape = shape_of(record);
        let variant = Variant::from_uci_name(record["variant"].as_str().unwrap_or("chess"));
        let rules = Rules::for_variant(&variant);
        let raw = text(&record["raw"]).unwrap_or_default();
        let findings: Vec<Finding> = record["diagnostics"]
            .as_array()
            .into_iter()
            .flatten()
            .map(Finding::from_json)
            .collect();
        let cmd = parse_position(raw.as_bytes()).ok();
        let fen_range = cmd.as_ref().and_then(|c| match &c.start {
            crate::uci::PositionStart::Fen(r) => Some(r.clone()),
            crate::uci::PositionStart::Startpos => None,
        });
        let start_fen: Option<String> = match (&fen_range, text(&record["fen_in"])) {
            (Some(r), _) => Some(raw[r.clone()].to_owned()),
            (None, Some("startpos")) | (None, None) if cmd.is_some() => {
                Game::start(&rules).map(|g| g.xfen())
            }
            (None, Some(fen)) if fen != "startpos" => Some(fen.to_owned()),
            _ => None,
        };
        let mut out = PositionBoards::default();
        // The first finding on a move: the board before it.
        let on_move = cmd.as_ref().and_then(|c| {
            findings.iter().find_map(|f| {
                let span = f.span.as_ref()?;
                let k = c
                    .moves
                    .iter()
                    .position(|t| t.span.start <= span.start && span.end <= t.span.end)?;
                Some((k, f))
            })
        });
        if let (Some((k, f)), Some(cmd)) = (on_move, &cmd) {
            let notation = Notation::from_chess960(record["chess960"].as_bool() == Some(true));
            let start = match &fen_range {
                Some(r) => Game::analyze(&rules, &raw.as_bytes()[r.clone()], true, true).game,
                None => Game::start(&rules),
            };
            if let Some(start) = start {
                let before = play_moves(start, &cmd.moves[..k], notation, notation, true);
                let fen = before.position.fen(CastlingStyle::XFen, EpMode::Legal);
                if let Some(board) = Board::from_fen(&fen, shape) {
                    let mut marks = Marks::default();
                    let mv = String::from_utf8_lossy(cmd.moves[k].text).into_owned();
                    let kind = MarkKind::of_severity(&f.severity);
                    marks.move_squares(&board, &mv, kind, &f.code);
                    out.gui = Some(Drawn {
                        board,
                        marks,
                        caption: format!("GUI's position before move {} ({mv})", k + 1),
                    });
                }
            }
        }
        if out.gui.is_none()
            && let Some(fen) = &start_fen
            && let Some(board) = Board::from_fen(fen, shape)
        {
            let mut marks = Marks::default();
            if let Some(r) = &fen_range {
                for f in &findings {
                    marks.finding(&board, f, r.start);
                }
            }
            let caption = match fen_range {
                Some(_) => "GUI's FEN",
                None => "start position",
            };
            out.gui = Some(Drawn {
                board,
                marks,
                caption: caption.to_owned(),
            });
        }
        if on_move.is_none()
            && let (Some(gui), Some(fen_out)) = (&mut out.gui, text(&record["fen_out"]))
            && fen_out != "startpos"
            && let Some(board) = Board::from_fen(fen_out, shape)
            && (!gui.board.changed_squares(&board).is_empty()
                || !gui.board.changed_fields(&board).is_empty())
        {
            let mut marks = Marks::default();
            marks.changes(&gui.board, &board);
            for (sq, k) in &marks.squares {
                gui.marks.square(*sq, *k);
            }
            for (f, k) in &marks.fields {
                gui.marks.field(f, *k);
            }
            let how = match text(&record["verdict"]) {
                Some("repaired") => "repaired",
                _ => "normalized",
            };
            out.engine_start = Some(Drawn {
                board,
                marks,
                caption: format!("engine got ({how})"),
            });
        }
        out.searched = searched_board(record, None);
        out
    }
}
