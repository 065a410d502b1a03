//! A `gap` record read back: records the writer lost (a full disk, a dead filesystem; SPEC
//! section 8, [`crate::poslog::gap`]), for `fenguard log`, its HTML report and `fenguard
//! replay` to say where the hole is.
//!
//! ```
//! use fenguard::logview::Gap;
//!
//! let record = serde_json::json!({"ts": "2026-12-03T14:00:00.123456Z", "session": "s1",
//!     "kind": "gap", "lost": 4881, "first_seq": 4099, "last_seq": 8979});
//! let gap = Gap::of(&record).unwrap();
//! assert_eq!(gap.to_string(), "4881 records lost (seq 4099-8979)");
//! assert!(gap.covers(5000));
//! ```

use serde_json::Value;

/// The fields of a `kind: "gap"` record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Gap {
    /// The session id of the records lost.
    pub session: String,
    /// How many records were lost.
    pub lost: u64,
    /// The lowest `seq` lost.
    pub first_seq: u64,
    /// The highest `seq` lost.
    pub last_seq: u64,
}

impl Gap {
    /// The gap `record` tells of, `None` when it is not a `gap` record (or lacks a field).
    pub fn of(record: &Value) -> Option<Gap> {
        if record["kind"].as_str() != Some("gap") {
            return None;
        }
        Some(Gap {
            session: record["session"].as_str().unwrap_or_default().to_owned(),
            lost: record["lost"].as_u64()?,
            first_seq: record["first_seq"].as_u64()?,
            last_seq: record["last_seq"].as_u64()?,
        })
    }

    /// Whether record `seq` of its session is among the records lost.
    pub fn covers(&self, seq: u64) -> bool {
        (self.first_seq..=self.last_seq).contains(&seq)
    }
}

impl std::fmt::Display for Gap {
    /// `4881 records lost (seq 4099-8979)` (`1 record lost (seq 7)` for one).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let records = if self.lost == 1 { "record" } else { "records" };
        write!(f, "{} {records} lost (seq {}", self.lost, self.first_seq)?;
        if self.last_seq != self.first_seq {
            write!(f, "-{}", self.last_seq)?;
        }
        write!(f, ")")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_record_reads_in_the_singular() {
        let record = serde_json::json!({"kind": "gap", "session": "s", "lost": 1,
            "first_seq": 7, "last_seq": 7});
        assert_eq!(
            Gap::of(&record).unwrap().to_string(),
            "1 record lost (seq 7)"
        );
    }

    #[test]
    fn other_kinds_and_incomplete_gaps_are_none() {
        let position = serde_json::json!({"kind": "position", "seq": 3});
        assert_eq!(Gap::of(&position), None);
        let incomplete = serde_json::json!({"kind": "gap", "lost": 3});
        assert_eq!(Gap::of(&incomplete), None);
    }
}
