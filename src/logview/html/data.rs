//! The report's data: one JSON item a record, written into the page as the file is read.
//!
//! Every `position` record gets an item (`r`: its GUI line, the string itself or, when it
//! extends the session's previous position as the file's compact records do, `[item, prefix
//! bytes, tail]`), so that a later record's line can be rebuilt from it; one that does not
//! pass the filters is only that (`z: 1`). A shown record's item also has `s` (its session's
//! number), `q` (seq), `k` (kind), `t` (time of day), `v` (verdict), `a` (variant), `c` (its
//! diagnostics' codes), and either the fields the page's script draws a plain record from
//! (a valid position: `g` show the GUI's line, `x` what was sent, `m` `[moves before, new
//! moves]`, `n` moves sent, `f` final FEN, `w` files, `b` bestmove, `p` pockets; a search
//! without diagnostics: `G` go, `B` bestmove, `P` ponder, `E` ms, `S` position seq, `F`
//! fenguard's own answer) or `h`, its body as HTML made here ([`super::body`]-style: every
//! text escaped), where the GUI's line is left to the script (`<pre data-gui>`,
//! `<pre data-span="a,b">`).

use std::collections::{HashMap, HashSet, VecDeque};
use std::io;

use serde_json::{Map, Value, json};

use super::super::Expander;
use super::super::position::searched_board;
use super::body::{body_gap, body_generic, body_position, body_search};
use super::page::Counts;

/// How many recent shown `position` records are kept to draw searches with diagnostics on.
const RECENT: usize = 64;

/// What a record's compact form says, read before it is rebuilt.
#[derive(Debug, Clone, Default)]
pub(super) enum Shape {
    /// Not a `position` record.
    #[default]
    Other,
    /// A full `position` record; `skip`: how many of its moves the session's previous
    /// position had (from the same start, a prefix of its own; 0 when none).
    Full {
        /// Moves of the previous position it extends.
        skip: usize,
    },
    /// A compact `position` record: its line is the base's first `prefix` bytes and `tail`.
    Compact {
        /// `raw_prefix`.
        prefix: u64,
        /// `raw_tail`.
        tail: String,
        /// `moves_in_tail`'s length.
        new_moves: usize,
    },
}

fn strings(v: &Value) -> impl Iterator<Item = &str> {
    v.as_array().into_iter().flatten().filter_map(Value::as_str)
}

impl Shape {
    /// The shape of `record` (as read from the file), before `expander` rebuilds it.
    pub(super) fn of(record: &Value, expander: &Expander) -> Shape {
        if record["kind"] != "position" {
            return Shape::Other;
        }
        if record.get("extends").is_some() {
            return Shape::Compact {
                prefix: record["raw_prefix"].as_u64().unwrap_or(0),
                tail: record["raw_tail"].as_str().unwrap_or_default().to_owned(),
                new_moves: record["moves_in_tail"].as_array().map_or(0, Vec::len),
            };
        }
        let session = record["session"].as_str().unwrap_or_default();
        let skip = expander.last_position(session).map_or(0, |p| {
            let earlier: Vec<&str> = strings(p.get("moves_in").unwrap_or(&Value::Null)).collect();
            let same_start = p.get("fen_in") == record.get("fen_in");
            let extends = same_start
                && !earlier.is_empty()
                && strings(&record["moves_in"])
                    .take(earlier.len())
                    .eq(earlier.iter().copied());
            if extends { earlier.len() } else { 0 }
        });
        Shape::Full { skip }
    }
}

/// Writes the items, numbering them, and remembers what later items refer to.
#[derive(Debug)]
pub(super) struct Items {
    bestmoves: HashMap<(usize, u64), String>,
    /// The positions a search with diagnostics searched: (session number, seq).
    drawn: HashSet<(usize, u64)>,
    /// Items written so far.
    next: usize,
    /// Session id -> the item of its last `position` record.
    last: HashMap<String, usize>,
    /// Recent shown `position` records: (session number, seq, record).
    recent: VecDeque<(usize, u64, Value)>,
    counts: Counts,
}

/// The time of day of a timestamp (`13:00:00.123456Z`).
fn time_of(ts: &str) -> &str {
    ts.split_once('T').map_or(ts, |(_, t)| t)
}

/// The codes of a record's diagnostics, each once, in order.
pub(super) fn codes(r: &Value) -> Vec<&str> {
    let mut codes: Vec<&str> = Vec::new();
    for d in r["diagnostics"].as_array().into_iter().flatten() {
        let code = d["code"].as_str().unwrap_or_default();
        if !codes.contains(&code) {
            codes.push(code);
        }
    }
    codes
}

/// A field as text (`None` for null or missing).
pub(super) fn field(r: &Value, key: &str) -> Option<String> {
    match &r[key] {
        Value::Null => None,
        Value::String(s) => Some(s.clone()),
        other => Some(other.to_string()),
    }
}

impl Items {
    /// No items yet; `bestmoves` and the positions `drawn` under a search from the first
    /// reading.
    pub(super) fn new(
        bestmoves: HashMap<(usize, u64), String>,
        drawn: HashSet<(usize, u64)>,
    ) -> Items {
        Items {
            bestmoves,
            drawn,
            next: 0,
            last: HashMap::new(),
            recent: VecDeque::new(),
            counts: Counts::default(),
        }
    }

    /// The counts of the shown records so far.
    pub(super) fn counts(&self) -> Counts {
        self.counts
    }

    /// Writes the item of `record` (full, as rebuilt; `shape` as read) when it has one:
    /// `session` is its session's number when it passes the filters.
    ///
    /// # Errors
    /// The I/O error of writing `out`.
    pub(super) fn write(
        &mut self,
        out: &mut impl io::Write,
        record: &Value,
        shape: &Shape,
        session: Option<usize>,
    ) -> io::Result<()> {
        let is_position = record["kind"] == "position";
        if session.is_none() && !is_position {
            return Ok(());
        }
        let mut item = Map::new();
        if is_position {
            let id = record["session"].as_str().unwrap_or_default();
            let raw = match (shape, self.last.get(id)) {
                (Shape::Compact { prefix, tail, .. }, Some(base)) => json!([base, prefix, tail]),
                _ => json!(record["raw"].as_str().unwrap_or_default()),
            };
            item.insert("r".into(), raw);
            self.last.insert(id.to_owned(), self.next);
        }
        match session {
            None => {
                item.insert("z".into(), json!(1));
            }
            Some(s) => self.entry(&mut item, record, shape, s),
        }
        out.write_all(if self.next == 0 { b"\n" } else { b",\n" })?;
        let text = Value::Object(item).to_string();
        // `<` only occurs in strings: as `\u003c`, no `</script>` or `<!--` ends the data.
        out.write_all(text.replace('<', "\\u003c").as_bytes())?;
        self.next += 1;
        Ok(())
    }

    fn entry(&mut self, item: &mut Map<String, Value>, r: &Value, shape: &Shape, session: usize) {
        let kind = r["kind"].as_str().unwrap_or("?");
        item.insert("s".into(), json!(session));
        item.insert("q".into(), r["seq"].clone());
        item.insert("k".into(), json!(kind));
        item.insert(
            "t".into(),
            json!(time_of(r["ts"].as_str().unwrap_or_default())),
        );
        for (key, name) in [("v", "verdict"), ("a", "variant")] {
            if let Some(v) = r[name].as_str() {
                item.insert(key.into(), json!(v));
            }
        }
        let codes = codes(r);
        if !codes.is_empty() {
            item.insert("c".into(), json!(codes));
        }
        self.counts.records += 1;
        match kind {
            "position" => {
                self.counts.positions += 1;
                if r["verdict"].as_str().is_some_and(|v| v != "valid") {
                    self.counts.troubled += 1;
                }
                let seq = r["seq"].as_u64().unwrap_or(u64::MAX);
                let best = self.bestmoves.get(&(session, seq)).map(String::as_str);
                self.position(item, r, shape, best);
                if self.drawn.contains(&(session, seq)) {
                    if self.recent.len() == RECENT {
                        self.recent.pop_front();
                    }
                    self.recent.push_back((session, seq, r.clone()));
                }
            }
            "search" => {
                let searched = r["position_seq"].as_u64().and_then(|p| {
                    self.recent
                        .iter()
                        .rev()
                        .find(|(s, q, _)| *s == session && *q == p)
                        .map(|(_, _, rec)| rec)
                });
                match r["diagnostics"].as_array().is_some_and(|d| !d.is_empty()) {
                    true => {
                        item.insert("h".into(), json!(body_search(r, searched)));
                    }
                    false => search_fields(item, r),
                }
            }
            "gap" => {
                item.insert("h".into(), json!(body_gap(r)));
            }
            _ => {
                item.insert("h".into(), json!(body_generic(r)));
            }
        }
    }

    /// A position: drawn by the script when it is valid with moves and a plain board, else
    /// its body made here.
    fn position(
        &self,
        item: &mut Map<String, Value>,
        r: &Value,
        shape: &Shape,
        best: Option<&str>,
    ) {
        let all = r["moves_in"].as_array().map_or(0, Vec::len);
        let skip = match shape {
            Shape::Compact { new_moves, .. } => all.saturating_sub(*new_moves),
            Shape::Full { skip } => *skip,
            Shape::Other => 0,
        };
        let extends = skip > 0;
        let troubled = r["diagnostics"].as_array().is_some_and(|d| !d.is_empty())
            || r["verdict"].as_str().is_some_and(|v| v != "valid");
        let no_moves = r["moves_out"].as_array().is_none_or(Vec::is_empty);
        let plain = match troubled || no_moves {
            true => None,
            false => searched_board(r, best).filter(|s| {
                s.board.ranks() == 8 && (s.board.files() == 8 || s.board.files() == 10)
            }),
        };
        let Some(searched) = plain else {
            item.insert("h".into(), json!(body_position(r, extends, skip, best)));
            return;
        };
        let raw = r["raw"].as_str().unwrap_or_default();
        if !extends {
            item.insert("g".into(), json!(1));
        }
        match r["sent"].as_str() {
            None => {
                item.insert("x".into(), Value::Null);
            }
            Some(sent) if sent != raw && !extends => {
                item.insert("x".into(), json!(sent));
            }
            Some(_) => {}
        }
        let moves: Vec<&str> = strings(&r["moves_in"]).skip(skip).collect();
        if all > 0 {
            item.insert("m".into(), json!([skip, moves]));
        }
        item.insert(
            "n".into(),
            json!(r["moves_out"].as_array().map_or(0, Vec::len)),
        );
        item.insert(
            "f".into(),
            json!(r["final_fen"].as_str().unwrap_or_default()),
        );
        item.insert("w".into(), json!(searched.board.files()));
        if let Some(b) = best {
            item.insert("b".into(), json!(b));
        }
        if let Some(p) = crate::view::svg::pockets_text(&searched.board) {
            item.insert("p".into(), json!(p));
        }
    }
}

/// A search without diagnostics, as fields the script shows on one line.
fn search_fields(item: &mut Map<String, Value>, r: &Value) {
    for (key, name) in [
        ("G", "go"),
        ("B", "bestmove"),
        ("P", "ponder"),
        ("E", "elapsed_ms"),
        ("S", "position_seq"),
        ("F", "fenguard_answer"),
    ] {
        if let Some(v) = field(r, name) {
            item.insert(key.into(), json!(v));
        }
    }
}
