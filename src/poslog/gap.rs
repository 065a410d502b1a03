//! Records the positions log lost, and the `gap` record that says so (SPEC section 8).
//!
//! A writer that cannot write (a full disk, a dead filesystem) or that fell too far behind
//! loses records; they are counted here, one run per session label, until a `gap` line can be
//! written in their place:
//!
//! ```text
//! {"ts":"2026-12-03T14:00:00.123456Z","session":"s1","kind":"gap","lost":4881,"first_seq":4099,"last_seq":8979}
//! ```
//!
//! `lost` is how many records the run lost, `first_seq` and `last_seq` the lowest and the
//! highest `seq` among them (every record between them of that session is lost: the writer
//! writes the run's `gap` line before any later record of it).

use time::OffsetDateTime;

/// A run of lost records of one session label: nothing of that label was written since the
/// first of them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Run {
    /// The session label of the records (`None`: the log's own session id).
    pub label: Option<String>,
    /// How many records were lost.
    pub lost: u64,
    /// The lowest `seq` lost.
    pub first_seq: u64,
    /// The highest `seq` lost.
    pub last_seq: u64,
}

impl Run {
    /// A run of the one record `seq`.
    pub fn one(label: Option<String>, seq: u64) -> Run {
        Run {
            label,
            lost: 1,
            first_seq: seq,
            last_seq: seq,
        }
    }

    /// Adds `other` (of the same label) to this run.
    fn merge(&mut self, other: &Run) {
        self.lost += other.lost;
        self.first_seq = self.first_seq.min(other.first_seq);
        self.last_seq = self.last_seq.max(other.last_seq);
    }
}

/// The runs of lost records whose `gap` line is not written yet, at most one per label.
#[derive(Debug, Default)]
pub struct Gaps {
    open: Vec<Run>,
}

impl Gaps {
    /// Counts the records of `run` as lost: added to the open run of its label, or a new run.
    pub fn lose(&mut self, run: Run) {
        match self.open.iter_mut().find(|r| r.label == run.label) {
            Some(open) => open.merge(&run),
            None => self.open.push(run),
        }
    }

    /// Whether no run waits for its `gap` line.
    pub fn is_empty(&self) -> bool {
        self.open.is_empty()
    }

    /// The open runs, taken to be written (a run whose line then fails goes back with
    /// [`Gaps::lose`]).
    pub fn take(&mut self) -> Vec<Run> {
        std::mem::take(&mut self.open)
    }

    /// The open runs.
    pub fn runs(&self) -> &[Run] {
        &self.open
    }
}

/// The `gap` line (with `\n`) of `run` at time `now`, its records of session `session`.
pub fn line(session: &str, run: &Run, now: OffsetDateTime) -> String {
    let mut out = Vec::with_capacity(128);
    out.extend_from_slice(b"{\"ts\":\"");
    super::push_timestamp(&mut out, now);
    out.extend_from_slice(b"\",\"session\":");
    super::json::string(&mut out, session);
    let mut text = String::from_utf8(out).unwrap_or_default();
    text.push_str(&format!(
        ",\"kind\":\"gap\",\"lost\":{},\"first_seq\":{},\"last_seq\":{}}}\n",
        run.lost, run.first_seq, run.last_seq
    ));
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    #[test]
    fn runs_merge_per_label() {
        let mut gaps = Gaps::default();
        gaps.lose(Run::one(None, 5));
        gaps.lose(Run::one(Some("job".into()), 9));
        gaps.lose(Run::one(None, 6));
        gaps.lose(Run {
            label: None,
            lost: 3,
            first_seq: 7,
            last_seq: 9,
        });
        assert_eq!(
            gaps.take(),
            vec![
                Run {
                    label: None,
                    lost: 5,
                    first_seq: 5,
                    last_seq: 9
                },
                Run::one(Some("job".into()), 9),
            ]
        );
        assert!(gaps.is_empty());
    }

    #[test]
    fn the_gap_line_is_the_schema_of_spec_8() {
        let run = Run {
            label: None,
            lost: 4881,
            first_seq: 4099,
            last_seq: 8979,
        };
        let text = line("s\"1", &run, datetime!(2026-12-03 14:00:00.123456 UTC));
        assert_eq!(
            text,
            "{\"ts\":\"2026-12-03T14:00:00.123456Z\",\"session\":\"s\\\"1\",\"kind\":\"gap\",\
             \"lost\":4881,\"first_seq\":4099,\"last_seq\":8979}\n"
        );
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(value["session"], "s\"1");
        assert_eq!(value["lost"], 4881);
    }
}
