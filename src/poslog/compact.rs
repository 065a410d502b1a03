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
//! later version adds to `PositionRecord` must be added to both writers of `super::json` too:
//! the byte-exact rebuild test in `tests/log/log_compact.rs` and the serde comparisons of
//! `json_tests.rs` fail otherwise) is written as in a full record. `fenguard log` rebuilds full
//! records ([`crate::logview::Expander`]). The first record of a file is always full.

use time::OffsetDateTime;

use super::json::Cuts;
use crate::session::{Event, Moves, PositionRecord, Record};

/// Remembers the last `position` record of one session and renders records compacted against
/// it.
#[derive(Debug, Default)]
pub struct Compactor {
    /// A `position` record.
    last: Option<Record>,
}

/// Byte length of the longest common prefix of `a` and `b`, on a `char` boundary (compared a
/// byte at a time, then moved back to the start of a character cut in two).
fn common_prefix(a: &str, b: &str) -> usize {
    let mut n = a
        .as_bytes()
        .iter()
        .zip(b.as_bytes())
        .take_while(|(x, y)| x == y)
        .count();
    while !a.is_char_boundary(n) {
        n -= 1;
    }
    n
}

/// When `last` is a prefix (as a move list) of `new`, the byte offset in `new` where its other
/// moves start. The usual case, a game resent with one more move, is one byte comparison:
/// `last`'s text is a prefix of `new`'s ending at a move boundary.
fn moves_tail_at(last: &Moves, new: &Moves) -> Option<usize> {
    let (a, b) = (last.0.as_bytes(), new.0.as_bytes());
    let at_boundary = b.len() == a.len() || b.get(a.len()) == Some(&b' ');
    if b.starts_with(a) && at_boundary && single_spaced(a) {
        return Some(a.len());
    }
    let n = prefix_len(last.iter(), new.iter())?;
    Some(offset_after_words(b, n))
}

/// The byte offset just after the first `n` space-separated words of `text` (empty words
/// skipped, as [`Moves::iter`] does).
fn offset_after_words(text: &[u8], n: usize) -> usize {
    if n == 0 {
        return 0;
    }
    let mut seen = 0;
    for (i, w) in text.windows(2).enumerate() {
        if w[0] != b' ' && w[1] == b' ' {
            seen += 1;
            if seen == n {
                return i + 1;
            }
        }
    }
    text.len()
}

/// Whether `text` holds moves separated by single spaces, none before or after (as the
/// session writes them); false when empty.
fn single_spaced(text: &[u8]) -> bool {
    !text.is_empty()
        && text.first() != Some(&b' ')
        && text.last() != Some(&b' ')
        && !text.windows(2).any(|w| w == b"  ")
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

impl Compactor {
    /// Forgets the last record: the next `position` record is written in full (a new file).
    pub fn reset(&mut self) {
        self.last = None;
    }

    /// One JSON line (with `\n`) for `record`: compacted when it extends the last `position`
    /// record seen, else as [`super::render`] writes it; `record` becomes the last one.
    pub fn render(&mut self, session: &str, record: &Record, now: OffsetDateTime) -> String {
        let line = self.line(session, record, now);
        self.keep(record.clone());
        line
    }

    /// [`Compactor::render`] without remembering `record` (see [`Compactor::keep`]).
    pub fn line(&self, session: &str, record: &Record, now: OffsetDateTime) -> String {
        let Event::Position(position) = &record.event else {
            return super::render(session, record, now);
        };
        let cuts = match &self.last {
            Some(Record {
                seq,
                event: Event::Position(last),
            }) => compact(*seq, last, position),
            _ => None,
        };
        match cuts {
            Some(cuts) => render_compact(session, record, now, cuts),
            None => super::render(session, record, now),
        }
    }

    /// Remembers `record`, once written, as the one the next `position` record may extend
    /// (taken by value: the writer thread owns its records, so nothing is copied). Gives back
    /// the record it no longer needs: the one `record` replaces, or `record` itself when it is
    /// not a `position` record (so that the writer thread can hand it back to be freed by the
    /// thread that allocated it).
    pub fn keep(&mut self, record: Record) -> Option<Record> {
        match record.event {
            Event::Position(_) => self.last.replace(record),
            _ => Some(record),
        }
    }
}

/// The compact cuts of `new` against `last` (record `seq`), or `None` when it does not extend
/// it.
fn compact(seq: u64, last: &PositionRecord, new: &PositionRecord) -> Option<Cuts> {
    if last.fen_in != new.fen_in {
        return None;
    }
    let moves_in_at = moves_tail_at(&last.moves_in, &new.moves_in)?;
    let moves_out_at = moves_tail_at(&last.moves_out, &new.moves_out)?;
    let raw = common_prefix(&last.raw, &new.raw);
    let sent = match (&last.sent, &new.sent) {
        (Some(a), Some(b)) => Some(common_prefix(a, b)),
        _ => None,
    };
    Some(Cuts {
        extends: seq,
        raw,
        moves_in_at,
        moves_out_at,
        sent,
    })
}

/// A compact `position` line: the full record's fields in their order, the compact ones in the
/// places of those they stand for (see the module table), written by hand ([`super::json`]:
/// serde_json's bytes; the writer thread shares the machine with the relay).
fn render_compact(session: &str, record: &Record, now: OffsetDateTime, c: Cuts) -> String {
    match &record.event {
        Event::Position(p) => super::json::compact(session, record.seq, p, now, c),
        _ => super::render(session, record, now),
    }
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

    #[test]
    fn moves_tail_at_fast_path_agrees_with_the_move_lists() {
        let lists = [
            "",
            "e2e4",
            "e2e4 e7e5",
            "e2e4 e7e5 g1f3",
            "e2e4 e7e",
            "e2e4  e7e5",
            " e2e4",
            "e2e4 ",
            "e2e4 e7e5x",
            "d2d4",
        ];
        for a in lists {
            for b in lists {
                let (a, b) = (Moves(a.to_owned()), Moves(b.to_owned()));
                let at = moves_tail_at(&a, &b);
                let n = prefix_len(a.iter(), b.iter());
                assert_eq!(at.is_some(), n.is_some(), "{a:?} {b:?}");
                if let (Some(at), Some(n)) = (at, n) {
                    let tail: Vec<&str> = Moves::words(&b.0[at..]).collect();
                    assert_eq!(tail, b.iter().skip(n).collect::<Vec<_>>(), "{a:?} {b:?}");
                }
            }
        }
    }
}
