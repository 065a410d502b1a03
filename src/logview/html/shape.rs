//! What a `position` record's compact form says about it, read before it is rebuilt: its GUI
//! line as a prefix of the session's previous one and a tail, and how many of its moves the
//! previous position had (the report lists only the new ones).

use serde_json::Value;

use super::super::Expander;

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

/// The strings of a JSON array (none when it is not one).
pub(super) fn strings(v: &Value) -> impl Iterator<Item = &str> {
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
