//! The report's data: one JSON item a record, written into the page as the file is read.
//!
//! Every `position` record gets an item (`r`: its GUI line, the string itself or, when it
//! extends the session's previous position as the file's compact records do, `[item, prefix
//! bytes, tail]`), so that a later record's line can be rebuilt from it; one that does not
//! pass the filters is only that (`z: 1`). A shown record's item also has `s` (its session's
//! number; left out: the previous shown item's), `q` (seq; left out: the previous one's + 1),
//! `k` (kind, by number: the summary object's `kinds`), `t` (time of day), `v` (verdict), `a`
//! (variant), `c` (its diagnostics' codes), and either the fields the page's script draws a
//! plain record from or `h`, its body as HTML made here ([`super::body`]: every text escaped,
//! the GUI's line left to the script, `<pre data-gui>`, `<pre data-span="a,b">`). Plain
//! records: a valid position (`v` left out; `null` when it had no verdict): `g` show the GUI's
//! line, `x` what was sent, `m` `[moves before, new moves]`, `n` moves sent (left out: all),
//! `f` final FEN, `w` files (left out: 8), `b` bestmove, `p` pockets; a search without
//! diagnostics: `G` go (left out: the previous search's), `B` bestmove, `P` ponder, `E` ms,
//! `S` position seq, `A` fenguard's own answer; any other kind without diagnostics: `F`, its
//! fields as `[key, text]`. Page size: about 280 bytes a position with its `go` and search.

use std::collections::{HashMap, HashSet, VecDeque};
use std::io;

use serde_json::{Map, Value, json};

use super::super::position::searched_board;
use super::body::{body_gap, body_generic, body_position, body_search};
use super::fields::{codes, generic_fields, shown_value, time_of};
use super::page::Counts;
use super::shape::{Shape, strings};

/// Items a block of the data holds (a `<script type="application/json" class="fg-d">`).
pub(super) const BLOCK: usize = 4096;

/// How many recent shown `position` records are kept to draw searches with diagnostics on.
const RECENT: usize = 64;

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
    /// Kind -> its number (the order of first sight: `kinds` in the summary's object).
    kinds: HashMap<String, usize>,
    previous: Previous,
    counts: Counts,
    /// Shown records per block.
    blocks: Vec<usize>,
    /// The shown positions' verdicts, each once, in order.
    verdicts: Vec<String>,
    /// The shown records' codes.
    codes: HashSet<String>,
}

/// What the previous shown item said, which the next leaves out when it says the same.
#[derive(Debug, Default)]
struct Previous {
    session: Option<usize>,
    seq: Option<u64>,
    /// The last search's `go` (`G`).
    go: Option<Value>,
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
            kinds: HashMap::new(),
            previous: Previous::default(),
            counts: Counts::default(),
            blocks: Vec::new(),
            verdicts: Vec::new(),
            codes: HashSet::new(),
        }
    }

    /// The kinds by number.
    pub(super) fn kinds(&self) -> Vec<&str> {
        let mut kinds: Vec<(&String, &usize)> = self.kinds.iter().collect();
        kinds.sort_unstable_by_key(|(_, n)| **n);
        kinds.into_iter().map(|(k, _)| k.as_str()).collect()
    }

    /// The counts of the shown records so far.
    pub(super) fn counts(&self) -> Counts {
        self.counts
    }

    /// How many shown records each block of [`BLOCK`] items holds.
    pub(super) fn blocks(&self) -> &[usize] {
        &self.blocks
    }

    /// The filters' values: the verdicts of the shown positions (in the order of first
    /// sight) and the codes (sorted).
    pub(super) fn values(&self) -> (&[String], Vec<&str>) {
        let mut codes: Vec<&str> = self.codes.iter().map(String::as_str).collect();
        codes.sort_unstable();
        (&self.verdicts, codes)
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
        // A new block: its items say everything themselves (the script parses a block only
        // when it draws its records).
        let first = self.next.is_multiple_of(BLOCK);
        if first {
            self.previous = Previous::default();
            self.blocks.push(0);
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
            Some(s) => {
                self.entry(&mut item, record, shape, s);
                *self.blocks.last_mut().expect("a block") += 1;
            }
        }
        match (first, self.next) {
            (true, 0) => out.write_all(b"\n")?,
            (true, _) => out.write_all(super::page::NEXT_BLOCK.as_bytes())?,
            (false, _) => out.write_all(b",\n")?,
        }
        let text = Value::Object(item).to_string();
        // `<` only occurs in strings: as `\u003c`, no `</script>` or `<!--` ends the data.
        out.write_all(text.replace('<', "\\u003c").as_bytes())?;
        self.next += 1;
        Ok(())
    }

    fn entry(&mut self, item: &mut Map<String, Value>, r: &Value, shape: &Shape, session: usize) {
        let kind = r["kind"].as_str().unwrap_or("?");
        // Left out when the previous shown item says it: the same session, the next seq.
        if self.previous.session != Some(session) {
            item.insert("s".into(), json!(session));
        }
        let seq = r["seq"].as_u64();
        if seq.is_none() || seq != self.previous.seq.map(|q| q + 1) {
            item.insert("q".into(), r["seq"].clone());
        }
        self.previous.session = Some(session);
        self.previous.seq = seq;
        let next = self.kinds.len();
        let k = *self.kinds.entry(kind.to_owned()).or_insert(next);
        item.insert("k".into(), json!(k));
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
        for c in &codes {
            if !self.codes.contains(*c) {
                self.codes.insert((*c).to_owned());
            }
        }
        if kind == "position"
            && let Some(v) = r["verdict"].as_str()
            && !self.verdicts.iter().any(|w| w == v)
        {
            self.verdicts.push(v.to_owned());
        }
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
                    false => self.search_fields(item, r),
                }
            }
            "gap" => {
                item.insert("h".into(), json!(body_gap(r)));
            }
            _ => match r["diagnostics"].as_array().is_some_and(|d| !d.is_empty()) {
                true => {
                    item.insert("h".into(), json!(body_generic(r)));
                }
                false => generic_fields(item, r),
            },
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
        // A drawn position is valid unless it says otherwise (`v: null`: no verdict).
        match r["verdict"].as_str() {
            Some("valid") => {
                item.remove("v");
            }
            _ => {
                item.insert("v".into(), Value::Null);
            }
        }
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
        let sent_moves = r["moves_out"].as_array().map_or(0, Vec::len);
        if sent_moves != all {
            item.insert("n".into(), json!(sent_moves));
        }
        item.insert(
            "f".into(),
            json!(r["final_fen"].as_str().unwrap_or_default()),
        );
        if searched.board.files() != 8 {
            item.insert("w".into(), json!(searched.board.files()));
        }
        if let Some(b) = best {
            item.insert("b".into(), json!(b));
        }
        if let Some(p) = crate::view::svg::pockets_text(&searched.board) {
            item.insert("p".into(), json!(p));
        }
    }
}

impl Items {
    /// A search without diagnostics, as fields the script shows on one line (`G` left out
    /// when it is the previous search's).
    fn search_fields(&mut self, item: &mut Map<String, Value>, r: &Value) {
        for (key, name) in [
            ("G", "go"),
            ("B", "bestmove"),
            ("P", "ponder"),
            ("E", "elapsed_ms"),
            ("S", "position_seq"),
            ("A", "fenguard_answer"),
        ] {
            if let Some(v) = shown_value(r, name) {
                item.insert(key.into(), v);
            }
        }
        let go = item.remove("G").unwrap_or(Value::Null);
        if self.previous.go.as_ref() != Some(&go) {
            item.insert("G".into(), go.clone());
        }
        self.previous.go = Some(go);
    }
}
