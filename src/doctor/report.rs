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

/// What kind of fault a check's failure is, for `--fail-on` (ordered: a `--fail-on` class
/// fails the run on its own fails and on those of the classes before it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Class {
    /// The engine crashed, exited or hung (no answer within the limit).
    Crash,
    /// UCI's grammar or ordering broken, or a wrong answer (an illegal move, a wrong perft).
    Protocol,
    /// How it treats input UCI does not define: an invalid position searched, a line with
    /// leading spaces ignored, en passant in an unreachable position.
    Policy,
}

impl Class {
    /// `crash`, `protocol`, `policy`.
    pub fn name(self) -> &'static str {
        match self {
            Class::Crash => "crash",
            Class::Protocol => "protocol",
            Class::Policy => "policy",
        }
    }
}

/// A fail's standing against `--baseline`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Baseline {
    /// Listed in the baseline: reported, does not fail the run.
    Known,
    /// Not in the baseline: fails the run.
    New,
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
    /// The kind of fault a failure of it is (crash, protocol, policy; [`super::controls`]).
    pub class: Class,
    /// `true` when the check failed but its class is not one `--fail-on` fails the run on:
    /// reported as a warn.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub demoted: bool,
    /// With `--baseline`, a fail's standing: `known` (accepted) or `new`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub baseline: Option<Baseline>,
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
            class: super::controls::default_class(group, name),
            demoted: false,
            baseline: None,
        }
    }

    /// The same with its class set (a hostile line's own class).
    pub fn with_class(mut self, class: Class) -> Self {
        self.class = class;
        self
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
    /// `--fail-on`: the classes whose fails fail the run (`crash`, `protocol`, `policy`).
    pub fail_on: Vec<&'static str>,
    /// With `--baseline`: the known, new and fixed fails.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub baseline: Option<BaselineSummary>,
}

/// The fails against `--baseline FILE`.
#[derive(Clone, Debug, Default, Serialize)]
pub struct BaselineSummary {
    /// The file read.
    pub file: String,
    /// Fails listed in it (they do not fail the run).
    pub known: Vec<String>,
    /// Fails not listed in it (they fail the run).
    pub new: Vec<String>,
    /// Checks listed in it that pass now.
    pub fixed: Vec<String>,
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
            fail_on: Vec::new(),
            baseline: None,
        };
        Report {
            engine,
            checks,
            summary,
        }
    }

    /// Whether a check failed that the baseline does not accept (exit status 1).
    pub fn failed(&self) -> bool {
        self.checks
            .iter()
            .any(|c| c.status == Status::Fail && c.baseline != Some(Baseline::Known))
    }
}
