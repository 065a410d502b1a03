//! Logged games as PGN: the moves of a session's `position` records, in SAN (shakmaty), for
//! chess, Chess960 and the 8x8 variants PGN knows (python-chess's `Variant` tag names).
//!
//! A game is a run of `position` records of one session, each extending the one before (same
//! `fen_in`, its moves a prefix of the next one's), or the one before without its last move: a
//! pondering GUI's ponder position (`moves ... P` and `go ponder`) is followed after a ponder
//! miss by the position with the move really played instead of `P`. Rejected and forwarded
//! records are skipped.
//! Its moves are the last record's `moves_out`, played from `fen_out`, read in the engine's
//! notation (`chess960`). A start other than the standard start position gets `SetUp` and
//! `FEN` tags (X-FEN castling); a game in Chess960 mode gets `Variant "Chess960"` and always
//! the FEN tags (the X-FEN seed: the start position of every Chess960 game is stored).

use std::fmt::Write as _;

use serde_json::Value;
use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::uci::UciMove;
use shakmaty::variant::{Variant, VariantPosition};
use shakmaty::{CastlingMode, EnPassantMode, Position};

use crate::rules::read_uci;
use crate::uci::Notation;

/// One game being collected.
#[derive(Debug, Clone)]
pub struct Game {
    /// The session id.
    pub session: String,
    /// `ts` of the game's first record.
    pub ts: String,
    /// Whether its last record passed the filters of `fenguard log`.
    pub passes: bool,
    /// `fen_in` of its records (the grouping key).
    fen_in: Option<String>,
    /// The last record's moves as given (the grouping key).
    moves_in: Vec<String>,
    /// The last record's `fen_out`, `moves_out`, `chess960`.
    fen_out: String,
    moves_out: Vec<String>,
    chess960: bool,
    /// The record's `variant` (the `UCI_Variant` in force), `None` for chess.
    variant: Option<String>,
}

fn strings(value: &Value) -> Vec<String> {
    value
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default()
}

/// Groups full `position` records into games; feed records in file order.
#[derive(Debug, Default)]
pub struct Games {
    open: std::collections::HashMap<String, Game>,
}

impl Games {
    /// Adds a full record (`passes`: whether it passed the filters); returns the game it
    /// closes, if it starts a new one.
    pub fn add(&mut self, record: &Value, passes: bool) -> Option<Game> {
        if record["kind"] != "position"
            || !matches!(record["verdict"].as_str(), Some("valid" | "repaired"))
        {
            return None;
        }
        let fen_out = record["fen_out"].as_str()?.to_owned();
        let session = record["session"].as_str().unwrap_or_default().to_owned();
        let fen_in = record["fen_in"].as_str().map(str::to_owned);
        let moves_in = strings(&record["moves_in"]);
        let game = Game {
            session: session.clone(),
            ts: record["ts"].as_str().unwrap_or_default().to_owned(),
            passes,
            fen_in,
            moves_in,
            fen_out,
            moves_out: strings(&record["moves_out"]),
            chess960: record["chess960"].as_bool().unwrap_or(false),
            variant: record["variant"].as_str().map(str::to_owned),
        };
        match self.open.get_mut(&session) {
            Some(open)
                if open.fen_in == game.fen_in && continues(&open.moves_in, &game.moves_in) =>
            {
                let ts = std::mem::take(&mut open.ts);
                *open = Game { ts, ..game };
                None
            }
            _ => self.open.insert(session, game),
        }
    }

    /// The games still open, at the end of the input.
    pub fn finish(self) -> Vec<Game> {
        let mut games: Vec<Game> = self.open.into_values().collect();
        games.sort_by(|a, b| a.ts.cmp(&b.ts));
        games
    }
}

/// Whether a record with moves `new` goes on the game whose last record had `last`: it extends
/// it, or it extends `last` without its last move (a ponder move the opponent did not play, or
/// python-chess's next search after pondering; two moves at least, so that two one-move games
/// are not taken for one).
fn continues(last: &[String], new: &[String]) -> bool {
    new.starts_with(last) || (last.len() >= 2 && new.starts_with(&last[..last.len() - 1]))
}

fn tag(out: &mut String, name: &str, value: &str) {
    let value = value.replace('\\', "\\\\").replace('"', "\\\"");
    let _ = writeln!(out, "[{name} \"{value}\"]");
}

/// shakmaty's variant and the PGN `Variant` tag (python-chess's names) of a `UCI_Variant`, for
/// the 8x8 variants PGN has; `None` for another one (giveaway castles, 10x8 boards).
fn pgn_variant(name: &str) -> Option<(Variant, &'static str)> {
    Some(match name {
        "crazyhouse" => (Variant::Crazyhouse, "Crazyhouse"),
        "atomic" => (Variant::Atomic, "Atomic"),
        "kingofthehill" => (Variant::KingOfTheHill, "King of the Hill"),
        "3check" => (Variant::ThreeCheck, "Three-check"),
        "horde" => (Variant::Horde, "Horde"),
        "racingkings" => (Variant::RacingKings, "Racing Kings"),
        "antichess" => (Variant::Antichess, "Antichess"),
        _ => return None,
    })
}

/// The start position: the variant's own for `startpos`, else the FEN read with any castling.
fn start(variant: Variant, fen: Option<&str>) -> Option<VariantPosition> {
    match fen {
        None => Some(VariantPosition::new(variant)),
        Some(fen) => {
            let setup = Fen::from_ascii(fen.as_bytes()).ok()?.into_setup();
            VariantPosition::from_setup(variant, setup, CastlingMode::Chess960).ok()
        }
    }
}

impl Game {
    /// The game as PGN text (tags, a blank line, movetext, a blank line). A game of an 8x8
    /// variant gets its `Variant` tag (python-chess's names) and is read by its rules; one of a
    /// variant PGN has no SAN for here (giveaway, 10x8) gets its tags and a comment.
    pub fn to_pgn(&self) -> String {
        let start_fen = (self.fen_out != "startpos").then_some(self.fen_out.as_str());
        let mut out = String::new();
        let date = self.ts.get(..10).unwrap_or("????-??-??").replace('-', ".");
        tag(&mut out, "Event", "fenguard log");
        tag(&mut out, "Site", &format!("session {}", self.session));
        tag(&mut out, "Date", &date);
        tag(&mut out, "Round", "-");
        tag(&mut out, "White", "?");
        tag(&mut out, "Black", "?");
        let variant = match self.variant.as_deref() {
            None | Some("chess") => Some((Variant::Chess, "Chess960")),
            Some(name) => pgn_variant(name),
        };
        let Some((variant, variant_tag)) = variant else {
            tag(&mut out, "Result", "*");
            let name = self.variant.as_deref().unwrap_or_default();
            let _ = write!(
                out,
                "\n{{fenguard: variant `{name}` is not written as PGN}} *\n\n"
            );
            return out;
        };
        let Some(mut pos) = start(variant, start_fen) else {
            tag(&mut out, "Result", "*");
            let fen = start_fen.unwrap_or_default();
            let _ = write!(
                out,
                "\n{{fenguard: start position `{fen}` unreadable}} *\n\n"
            );
            return out;
        };
        let first = pos.clone();
        let mut moves = String::new();
        let notation = Notation::from_chess960(self.chess960);
        for (i, text) in self.moves_out.iter().enumerate() {
            let reading = UciMove::from_ascii(text.as_bytes())
                .ok()
                .and_then(|uci| read_uci(&pos, uci, notation).ok());
            let Some(reading) = reading else {
                let _ = write!(moves, "{{fenguard: move {} `{text}` not legal}} ", i + 1);
                break;
            };
            let number = pos.fullmoves().get();
            if pos.turn().is_white() {
                let _ = write!(moves, "{number}. ");
            } else if i == 0 {
                let _ = write!(moves, "{number}... ");
            }
            let san = SanPlus::from_move_and_play_unchecked(&mut pos, reading.mv);
            let _ = write!(moves, "{san} ");
        }
        let result = pos.outcome().as_str();
        tag(&mut out, "Result", result);
        let chess = variant == Variant::Chess;
        if !chess || self.chess960 {
            tag(&mut out, "Variant", variant_tag);
        }
        if start_fen.is_some() || (chess && self.chess960) {
            tag(&mut out, "SetUp", "1");
            tag(
                &mut out,
                "FEN",
                &Fen::from_position(&first, EnPassantMode::Legal).to_string(),
            );
        }
        let _ = write!(out, "\n{}\n\n", wrap(&format!("{moves}{result}")));
        out
    }
}

/// Movetext in lines of at most 79 characters (PGN export format), broken between tokens.
fn wrap(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 64);
    let mut width = 0;
    for word in text.split(' ').filter(|w| !w.is_empty()) {
        if width > 0 && width + 1 + word.len() > 79 {
            out.push('\n');
            width = 0;
        } else if width > 0 {
            out.push(' ');
            width += 1;
        }
        out.push_str(word);
        width += word.len();
    }
    out
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn record(moves: &[&str]) -> Value {
        json!({"kind": "position", "verdict": "valid", "session": "s", "ts": "t",
               "fen_in": "startpos", "fen_out": "startpos", "chess960": false,
               "moves_in": moves, "moves_out": moves})
    }

    #[test]
    fn a_ponder_miss_does_not_split_the_game() {
        let mut games = Games::default();
        for moves in [
            &["e2e4"][..],
            &["e2e4", "e7e5"],
            &["e2e4", "e7e5", "g1f3", "b8c6"], // ponder position: b8c6 predicted
            &["e2e4", "e7e5", "g1f3", "g8f6"], // the miss: g8f6 played
            &["e2e4", "e7e5", "g1f3", "g8f6", "f3e5", "d7d6"],
            &["e2e4", "e7e5", "g1f3", "g8f6", "f3e5"], // the ponder move taken back
            &["e2e4", "e7e5", "g1f3", "g8f6", "f3e5", "d7d5"],
        ] {
            assert!(games.add(&record(moves), true).is_none(), "{moves:?}");
        }
        let all = games.finish();
        assert_eq!(all.len(), 1);
        assert_eq!(all[0].moves_out.last().map(String::as_str), Some("d7d5"));
        // A new game with another first move is another game.
        let mut games = Games::default();
        games.add(&record(&["e2e4"]), true);
        assert!(games.add(&record(&["d2d4"]), true).is_some());
        // So is one that leaves the moves of the last two plies.
        let mut games = Games::default();
        games.add(&record(&["e2e4", "e7e5", "g1f3"]), true);
        assert!(games.add(&record(&["e2e4", "d7d5"]), true).is_some());
    }
}
