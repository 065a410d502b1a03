//! Position records of constant size: a `position` record that extends the previous one of its
//! session (GUIs resend the whole game plus one move) names it and carries only what is new.
//!
//! A record that extends record `N` (same session, same file) differs from the full record
//! ([`super::render`]) in these fields only, each in the place of the field it stands for:
//!
//! | full | compact | full value rebuilt as |
//! | --- | --- | --- |
//! | (none) | `"extends": N` (after `kind`) | |
//! | `raw` | `raw_prefix` (bytes), `raw_tail` | `N.raw[..raw_prefix] + raw_tail` |
//! | `moves_in` | `moves_in_tail` | `N.moves_in + moves_in_tail` |
//! | `moves_out` | `moves_out_tail` | `N.moves_out + moves_out_tail` |
//! | `sent` (a string, `N.sent` too) | `sent_prefix`, `sent_tail` | `N.sent[..sent_prefix] + sent_tail` |
//!
//! A record extends `N`, the previous `position` record of its session, when both have the
//! same `fen_in` and `N.moves_in` and `N.moves_out` are prefixes of its own. Every other field
//! (`verdict`, `diagnostics`, `fen_in`, `fen_out`, `chess960`, `final_fen`, and any field a
//! later version adds) is written as in a full record. `fenguard log` rebuilds full records
//! ([`crate::logview::Expander`]). The first record of a file is always full.

use serde_json::{Map, Value};
use time::OffsetDateTime;

use crate::session::{Event, PositionRecord, Record};

/// Remembers the last `position` record of one session and renders records compacted against
/// it.
#[derive(Debug, Default)]
pub struct Compactor {
    last: Option<(u64, PositionRecord)>,
}

/// Byte length of the longest common prefix of `a` and `b`, on a `char` boundary.
fn common_prefix(a: &str, b: &str) -> usize {
    let mut n = 0;
    for ((i, x), y) in a.char_indices().zip(b.chars()) {
        if x != y {
            return i;
        }
        n = i + x.len_utf8();
    }
    n
}

/// How many moves `prefix` has when it is a prefix (as a move list) of `moves`.
fn prefix_len<'a>(
    prefix: impl Iterator<Item = &'a str>,
    mut moves: impl Iterator<Item = &'a str>,
) -> Option<usize> {
    let mut n = 0;
    for m in prefix {
        if moves.next() != Some(m) {
            return None;
        }
        n += 1;
    }
    Some(n)
}

fn tail(moves: &crate::session::Moves, skip: usize) -> Value {
    Value::Array(
        moves
            .iter()
            .skip(skip)
            .map(|m| Value::String(m.to_owned()))
            .collect(),
    )
}

impl Compactor {
    /// Forgets the last record: the next `position` record is written in full (a new file).
    pub fn reset(&mut self) {
        self.last = None;
    }

    /// One JSON line (with `\n`) for `record`: compacted when it extends the last `position`
    /// record seen, else as [`super::render`] writes it.
    pub fn render(&mut self, session: &str, record: &Record, now: OffsetDateTime) -> String {
        let Event::Position(position) = &record.event else {
            return super::render(session, record, now);
        };
        let line = match &self.last {
            Some((seq, last)) => match compact(*seq, last, position) {
                Some(fields) => render_compact(session, record, now, fields),
                None => super::render(session, record, now),
            },
            None => super::render(session, record, now),
        };
        self.last = Some((record.seq, (**position).clone()));
        line
    }
}

/// The compact fields of `new` against `last` (record `seq`), or `None` when it does not
/// extend it.
fn compact(seq: u64, last: &PositionRecord, new: &PositionRecord) -> Option<Compact> {
    if last.fen_in != new.fen_in {
        return None;
    }
    let moves_in = prefix_len(last.moves_in.iter(), new.moves_in.iter())?;
    let moves_out = prefix_len(last.moves_out.iter(), new.moves_out.iter())?;
    let raw = common_prefix(&last.raw, &new.raw);
    let sent = match (&last.sent, &new.sent) {
        (Some(a), Some(b)) => Some(common_prefix(a, b)),
        _ => None,
    };
    Some(Compact {
        extends: seq,
        raw,
        moves_in,
        moves_out,
        sent,
    })
}

struct Compact {
    extends: u64,
    raw: usize,
    moves_in: usize,
    moves_out: usize,
    sent: Option<usize>,
}

fn render_compact(session: &str, record: &Record, now: OffsetDateTime, c: Compact) -> String {
    let Event::Position(p) = &record.event else {
        return super::render(session, record, now);
    };
    let full: Value = match serde_json::from_str(&super::render(session, record, now)) {
        Ok(v) => v,
        Err(_) => return super::render(session, record, now),
    };
    let Value::Object(full) = full else {
        return super::render(session, record, now);
    };
    let mut out = Map::new();
    for (key, value) in full {
        match key.as_str() {
            "kind" => {
                out.insert(key, value);
                out.insert("extends".into(), c.extends.into());
            }
            "raw" => {
                out.insert("raw_prefix".into(), c.raw.into());
                out.insert("raw_tail".into(), p.raw[c.raw..].into());
            }
            "moves_in" => {
                out.insert("moves_in_tail".into(), tail(&p.moves_in, c.moves_in));
            }
            "moves_out" => {
                out.insert("moves_out_tail".into(), tail(&p.moves_out, c.moves_out));
            }
            "sent" => match (c.sent, &p.sent) {
                (Some(n), Some(sent)) => {
                    out.insert("sent_prefix".into(), n.into());
                    out.insert("sent_tail".into(), sent[n..].into());
                }
                _ => {
                    out.insert(key, value);
                }
            },
            _ => {
                out.insert(key, value);
            }
        }
    }
    let mut text = serde_json::to_string(&Value::Object(out)).unwrap_or_default();
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn common_prefix_stops_on_a_char_boundary() {
        assert_eq!(common_prefix("abc", "abd"), 2);
        assert_eq!(common_prefix("ab", "abcd"), 2);
        assert_eq!(common_prefix("aé", "aè"), 1);
        assert_eq!(common_prefix("", "x"), 0);
    }

    #[test]
    fn prefix_len_counts_moves_of_a_prefix_only() {
        let a = ["e2e4", "e7e5"];
        let b = ["e2e4", "e7e5", "g1f3"];
        assert_eq!(prefix_len(a.into_iter(), b.into_iter()), Some(2));
        assert_eq!(prefix_len(b.into_iter(), a.into_iter()), None);
        assert_eq!(prefix_len(["d2d4"].into_iter(), b.into_iter()), None);
    }
}
