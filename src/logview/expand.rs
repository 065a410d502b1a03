//! Rebuild full `positions.jsonl` records from compact ones (the scheme of
//! [`crate::poslog::compact`]).
//!
//! Only `position` records are ever compact; every other kind (`search`, `engine-start`,
//! `engine-exit`, `chess960-enabled`, and the GUI's lines as `option` and `command` records,
//! which are the same in full and in the file) passes unchanged.
//!
//! ```
//! use fenguard::logview::Expander;
//!
//! let mut ex = Expander::default();
//! ex.expand_line(r#"{"session":"s","seq":1,"kind":"position","raw":"position startpos moves e2e4","moves_in":["e2e4"],"moves_out":["e2e4"],"sent":"position startpos moves e2e4"}"#).unwrap();
//! let full = ex.expand_line(r#"{"session":"s","seq":3,"kind":"position","extends":1,"raw_prefix":28,"raw_tail":" e7e5","moves_in_tail":["e7e5"],"moves_out_tail":["e7e5"],"sent_prefix":28,"sent_tail":" e7e5"}"#).unwrap();
//! assert_eq!(full["raw"], "position startpos moves e2e4 e7e5");
//! assert_eq!(full["moves_in"], serde_json::json!(["e2e4", "e7e5"]));
//! assert!(full.get("extends").is_none());
//! ```

use std::collections::HashMap;

use serde_json::{Map, Value};

/// Why a line could not be rebuilt into a full record.
#[derive(Debug, Clone, thiserror::Error, PartialEq, Eq)]
pub enum ExpandError {
    /// The line is not a JSON object.
    #[error("not a JSON object: {0}")]
    NotJson(String),
    /// The record extends one that is not the last `position` record of its session read
    /// (for example, the start of a file is missing).
    #[error(
        "record seq {seq} extends seq {extends}, which is not the last position record of session `{session}` read"
    )]
    MissingBase {
        /// The session id.
        session: String,
        /// This record's `seq`.
        seq: u64,
        /// The `seq` it names.
        extends: u64,
    },
    /// A compact field is missing or does not fit the record it extends.
    #[error("record seq {seq}: field `{field}` is missing or does not fit the record it extends")]
    BadField {
        /// This record's `seq`.
        seq: u64,
        /// The compact field.
        field: &'static str,
    },
}

/// Rebuilds full records, remembering the last full `position` record of each session.
#[derive(Debug, Default)]
pub struct Expander {
    last: HashMap<String, (u64, Map<String, Value>)>,
}

fn prefixed(
    base: Option<&Value>,
    prefix: Option<&Value>,
    tail: &Value,
    seq: u64,
    field: &'static str,
) -> Result<Value, ExpandError> {
    let bad = || ExpandError::BadField { seq, field };
    let base = base.and_then(Value::as_str).ok_or_else(bad)?;
    let n = prefix
        .and_then(Value::as_u64)
        .and_then(|n| usize::try_from(n).ok())
        .ok_or_else(bad)?;
    let head = base.get(..n).ok_or_else(bad)?;
    let tail = tail.as_str().ok_or_else(bad)?;
    Ok(Value::String(format!("{head}{tail}")))
}

fn appended(
    base: Option<&Value>,
    tail: &Value,
    seq: u64,
    field: &'static str,
) -> Result<Value, ExpandError> {
    let bad = || ExpandError::BadField { seq, field };
    let mut moves = base.and_then(Value::as_array).ok_or_else(bad)?.clone();
    moves.extend(tail.as_array().ok_or_else(bad)?.iter().cloned());
    Ok(Value::Array(moves))
}

impl Expander {
    /// The last full `position` record of `session` rebuilt so far (the one the session's
    /// next compact record extends), if any.
    pub fn last_position(&self, session: &str) -> Option<&Map<String, Value>> {
        self.last.get(session).map(|(_, record)| record)
    }

    /// Parses one line and rebuilds it ([`Expander::expand`]).
    ///
    /// # Errors
    /// [`ExpandError`] when the line is not a JSON object or cannot be rebuilt.
    pub fn expand_line(&mut self, line: &str) -> Result<Value, ExpandError> {
        let value: Value =
            serde_json::from_str(line).map_err(|e| ExpandError::NotJson(e.to_string()))?;
        self.expand(value)
    }

    /// The full record of `record`: unchanged unless it is a compact `position` record, whose
    /// compact fields are replaced by the full ones, in their places.
    ///
    /// # Errors
    /// [`ExpandError`] when it extends a record not read, or its compact fields do not fit.
    pub fn expand(&mut self, record: Value) -> Result<Value, ExpandError> {
        let Value::Object(map) = record else {
            return Err(ExpandError::NotJson("not an object".into()));
        };
        if map.get("kind").and_then(Value::as_str) != Some("position") {
            return Ok(Value::Object(map));
        }
        let session = map
            .get("session")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned();
        let seq = map.get("seq").and_then(Value::as_u64).unwrap_or(0);
        let full = match map.get("extends").and_then(Value::as_u64) {
            None => map,
            Some(extends) => {
                let base = match self.last.get(&session) {
                    Some((last_seq, base)) if *last_seq == extends => base,
                    _ => {
                        return Err(ExpandError::MissingBase {
                            session,
                            seq,
                            extends,
                        });
                    }
                };
                rebuild(&map, base, seq)?
            }
        };
        self.last.insert(session, (seq, full.clone()));
        Ok(Value::Object(full))
    }
}

fn rebuild(
    map: &Map<String, Value>,
    base: &Map<String, Value>,
    seq: u64,
) -> Result<Map<String, Value>, ExpandError> {
    let mut out = Map::new();
    for (key, value) in map {
        match key.as_str() {
            "extends" | "raw_prefix" | "sent_prefix" => {}
            "raw_tail" => {
                let raw = prefixed(base.get("raw"), map.get("raw_prefix"), value, seq, "raw")?;
                out.insert("raw".into(), raw);
            }
            "sent_tail" => {
                let sent = prefixed(base.get("sent"), map.get("sent_prefix"), value, seq, "sent")?;
                out.insert("sent".into(), sent);
            }
            "moves_in_tail" => {
                let moves = appended(base.get("moves_in"), value, seq, "moves_in")?;
                out.insert("moves_in".into(), moves);
            }
            "moves_out_tail" => {
                let moves = appended(base.get("moves_out"), value, seq, "moves_out")?;
                out.insert("moves_out".into(), moves);
            }
            _ => {
                out.insert(key.clone(), value.clone());
            }
        }
    }
    Ok(out)
}
