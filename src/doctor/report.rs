//! The report card: one [`CheckResult`] per check, the engine's identity, the summary; serde
//! gives SPEC 14's JSON (`{"engine": {...}, "checks": [...], "summary": {...}}`).

use serde::Serialize;

/// A check's verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// The engine does what UCI (or the GUIs) expect.
    Pass,
    /// Works, but a GUI or lichess may stumble (the detail says which).
    Warn,
    /// Broken: a crash, a hang, a wrong answer.
    Fail,
    /// Not run (the engine lacks the feature, or `--quick`).
    Skip,
}

impl Status {
    /// `pass`, `warn`, `fail`, `skip`.
    pub fn name(self) -> &'static str {
        match self {
            Status::Pass => "pass",
            Status::Warn => "warn",
            Status::Fail => "fail",
            Status::Skip => "skip",
        }
    }
}

/// One check's result.
#[derive(Clone, Debug, Serialize)]
pub struct CheckResult {
    /// Stable id, `GROUP.NAME` (`search.ponder-ponderhit`, `hostile.no-kings`).
    pub id: String,
    /// The group: `handshake`, `search`, `movegen`, `hostile`, `chess960`, `variant`.
    pub group: &'static str,
    /// The verdict.
    pub status: Status,
    /// One or a few sentences: what was found (numbers, the culprit line).
    pub detail: String,
    /// The lines that prove it: `> ` sent, `< ` received, `# ` notes (exits, restarts).
    pub transcript: Vec<String>,
}

impl CheckResult {
    /// A result without a transcript.
    pub fn new(group: &'static str, name: &str, status: Status, detail: impl Into<String>) -> Self {
        CheckResult {
            id: format!("{group}.{name}"),
            group,
            status,
            detail: detail.into(),
            transcript: Vec::new(),
        }
    }

    /// The same with `transcript` added (kept for every status but pass).
    pub fn with_transcript(mut self, transcript: Vec<String>) -> Self {
        if self.status != Status::Pass {
            self.transcript.extend(transcript);
        }
        self
    }
}

/// What the engine said about itself.
#[derive(Clone, Debug, Default, Serialize)]
pub struct EngineInfo {
    /// The command run (program and arguments).
    pub command: Vec<String>,
    /// `id name`.
    pub name: Option<String>,
    /// `id author`.
    pub author: Option<String>,
    /// How many `option` lines it announced.
    pub options: usize,
    /// Whether it offers `UCI_Chess960`.
    pub chess960: bool,
    /// The `UCI_Variant` values it announces (empty without the option).
    pub variants: Vec<String>,
    /// Whether it answers `go perft N` with a node count.
    pub perft: bool,
}

/// The counts and the time taken.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Summary {
    /// Checks that passed.
    pub pass: usize,
    /// Checks that warn.
    pub warn: usize,
    /// Checks that failed.
    pub fail: usize,
    /// Checks skipped.
    pub skip: usize,
    /// Wall time of the whole run, seconds.
    pub seconds: f64,
    /// `quick` or `full`.
    pub mode: &'static str,
    /// The hostile-input classes the engine crashed or hung on.
    pub not_survived: Vec<String>,
}

/// The whole report.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// The engine.
    pub engine: EngineInfo,
    /// Every check, in the order run.
    pub checks: Vec<CheckResult>,
    /// Counts.
    pub summary: Summary,
}

impl Report {
    /// Builds the summary from `checks`.
    pub fn new(engine: EngineInfo, checks: Vec<CheckResult>, seconds: f64, quick: bool) -> Self {
        let count = |s: Status| checks.iter().filter(|c| c.status == s).count();
        let not_survived = checks
            .iter()
            .filter(|c| c.group == "hostile" && c.status == Status::Fail)
            .filter(|c| {
                ["crashed", "ended (", "hung"]
                    .iter()
                    .any(|w| c.detail.contains(w))
            })
            .map(|c| c.id.trim_start_matches("hostile.").to_owned())
            .collect();
        let summary = Summary {
            pass: count(Status::Pass),
            warn: count(Status::Warn),
            fail: count(Status::Fail),
            skip: count(Status::Skip),
            seconds: (seconds * 10.0).round() / 10.0,
            mode: if quick { "quick" } else { "full" },
            not_survived,
        };
        Report {
            engine,
            checks,
            summary,
        }
    }

    /// Whether any check failed (exit status 1).
    pub fn failed(&self) -> bool {
        self.summary.fail > 0
    }
}
