//! The CI controls of `fenguard doctor`, applied to the finished checks (pure): each check's
//! [`Class`] (crash, protocol, policy), `--fail-on` (a fail of a class it does not name is
//! reported as a warn), `--skip CHECK...` and `--baseline FILE` (accepted fails do not fail
//! the run, new ones do, fixed ones are listed).
//!
//! ```
//! use fenguard::doctor::controls::Skips;
//! let skips = Skips::new(&["hostile".into(), "search.movetime".into(), "movegen.perft-*".into()]);
//! assert!(skips.matches("hostile.no-kings") && skips.matches("search.movetime"));
//! assert!(skips.matches("movegen.perft-kiwipete") && !skips.matches("search.go-depth"));
//! ```

use std::collections::BTreeSet;

use super::report::{Baseline, BaselineSummary, CheckResult, Class, Status};

/// A check's class before its outcome is known: the hostile group's lines are `policy` (what
/// an engine does with input UCI does not define); the rest are `protocol`. A hostile line
/// UCI allows (tabs, `\r\n`, a long `moves` list) is `protocol` ([`super::cases`] sets it).
pub fn default_class(group: &str, _name: &str) -> Class {
    match group {
        "hostile" => Class::Policy,
        _ => Class::Protocol,
    }
}

/// Whether a fail's detail says the engine crashed, exited or hung (the words doctor's checks
/// write for these).
pub fn is_crash(detail: &str) -> bool {
    [
        "crashed (",
        "ended (",
        "the engine ended",
        "ended after",
        "ended on",
        "hung: ",
        "no `uciok`",
        "no `readyok`",
        "no `bestmove` within",
        "no bestmove for",
        "no bestmove after",
        "still running",
        "`quit` during a search:",
        "no `Nodes searched`",
        "not a UCI engine",
    ]
    .iter()
    .any(|w| detail.contains(w))
}

/// Sets the class of every fail whose detail is a crash, exit or hang to [`Class::Crash`].
pub fn classify(checks: &mut [CheckResult]) {
    for c in checks.iter_mut() {
        if c.status == Status::Fail && is_crash(&c.detail) {
            c.class = Class::Crash;
        }
    }
}

/// `--fail-on`: every fail whose class is after `threshold` (crash < protocol < policy)
/// becomes a warn, marked `demoted`, its detail saying which `--fail-on` fails it. Gives the
/// classes that fail the run.
pub fn apply_fail_on(checks: &mut [CheckResult], threshold: Class) -> Vec<&'static str> {
    for c in checks.iter_mut() {
        if c.status == Status::Fail && c.class > threshold {
            c.status = Status::Warn;
            c.demoted = true;
            c.detail = format!(
                "{} ({}: a fail with `--fail-on {}`)",
                c.detail,
                c.class.name(),
                c.class.name()
            );
        }
    }
    [Class::Crash, Class::Protocol, Class::Policy]
        .into_iter()
        .filter(|c| *c <= threshold)
        .map(Class::name)
        .collect()
}

/// The `--skip` patterns: a check id (`search.movetime`), a group (`hostile`), or a prefix
/// ending in `*` (`movegen.perft-*`).
#[derive(Clone, Debug, Default)]
pub struct Skips {
    patterns: Vec<String>,
}

impl Skips {
    /// The patterns as given (comma lists split).
    pub fn new(patterns: &[String]) -> Skips {
        Skips {
            patterns: patterns
                .iter()
                .flat_map(|p| p.split(','))
                .map(|p| p.trim().to_owned())
                .filter(|p| !p.is_empty())
                .collect(),
        }
    }

    /// Whether check `id` (`GROUP.NAME`) is skipped.
    pub fn matches(&self, id: &str) -> bool {
        let group = id.split('.').next().unwrap_or(id);
        self.patterns.iter().any(|p| match p.strip_suffix('*') {
            Some(prefix) => id.starts_with(prefix),
            None => p == id || p == group || p.strip_suffix(".") == Some(group),
        })
    }

    /// Whether the whole `group` is skipped (so that it is not run at all).
    pub fn group(&self, group: &str) -> bool {
        self.patterns
            .iter()
            .any(|p| p == group || *p == format!("{group}.*") || *p == format!("{group}*"))
    }

    /// The patterns that name nothing this run knows: no check id of `ids` and none of the
    /// `groups` (a skipped group's checks are not run, so its name counts). A typo in a CI
    /// script (`hostile.nokings`) is then named instead of silently skipping nothing.
    pub fn unknown<'a>(&'a self, ids: &[&str], groups: &[&str]) -> Vec<&'a str> {
        self.patterns
            .iter()
            .filter(|p| {
                let one = Skips {
                    patterns: vec![(*p).clone()],
                };
                // Inside a group skipped whole its ids were never run: not judged.
                let in_skipped = groups
                    .iter()
                    .any(|g| self.group(g) && p.split('.').next() == Some(*g));
                !in_skipped
                    && !groups.iter().any(|g| one.group(g))
                    && !ids.iter().any(|id| one.matches(id))
            })
            .map(String::as_str)
            .collect()
    }

    /// Every matching check becomes a skip (transcript dropped).
    pub fn apply(&self, checks: &mut [CheckResult]) {
        for c in checks.iter_mut().filter(|c| self.matches(&c.id)) {
            c.status = Status::Skip;
            c.detail = "skipped (`--skip`)".to_owned();
            c.transcript.clear();
            c.demoted = false;
        }
    }
}

/// The accepted fails of a `--baseline` file: a doctor JSON report (its checks whose status is
/// `fail`, or `warn` with `demoted`), or a text file with one check id a line (`#` starts a
/// comment).
///
/// # Errors
/// The file cannot be read, or its JSON has no `checks` array.
pub fn read_baseline(path: &std::path::Path) -> Result<BTreeSet<String>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read the baseline `{}`: {e}", path.display()))?;
    if text.trim_start().starts_with('{') {
        let v: serde_json::Value = serde_json::from_str(&text)
            .map_err(|e| format!("the baseline `{}` is not JSON: {e}", path.display()))?;
        let checks = v["checks"].as_array().ok_or_else(|| {
            format!(
                "the baseline `{}` has no `checks` array (a `fenguard doctor --format json` report)",
                path.display()
            )
        })?;
        return Ok(checks
            .iter()
            .filter(|c| c["status"] == "fail" || c["demoted"] == true)
            .filter_map(|c| c["id"].as_str().map(str::to_owned))
            .collect());
    }
    Ok(text
        .lines()
        .map(|l| l.split('#').next().unwrap_or_default().trim())
        .filter(|l| !l.is_empty())
        .map(str::to_owned)
        .collect())
}

/// Marks every fail `known` (in `accepted`) or `new`; the checks in `accepted` that pass now
/// are `fixed`.
pub fn apply_baseline(
    checks: &mut [CheckResult],
    accepted: &BTreeSet<String>,
    file: &str,
) -> BaselineSummary {
    let mut s = BaselineSummary {
        file: file.to_owned(),
        ..BaselineSummary::default()
    };
    for c in checks.iter_mut() {
        match c.status {
            Status::Fail if accepted.contains(&c.id) => {
                c.baseline = Some(Baseline::Known);
                s.known.push(c.id.clone());
            }
            Status::Fail => {
                c.baseline = Some(Baseline::New);
                s.new.push(c.id.clone());
            }
            Status::Pass if accepted.contains(&c.id) => s.fixed.push(c.id.clone()),
            _ => {}
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(id: &str, status: Status, detail: &str) -> CheckResult {
        let (group, name) = id.split_once('.').unwrap();
        let group: &'static str = Box::leak(group.to_owned().into_boxed_str());
        CheckResult::new(group, name, status, detail)
    }

    #[test]
    fn crashes_exits_and_hangs_are_crash_the_rest_by_group() {
        let mut checks = vec![
            check(
                "hostile.no-kings",
                Status::Fail,
                "`x`: crashed (signal 11 (SIGSEGV))",
            ),
            check(
                "hostile.two-kings",
                Status::Fail,
                "`x`: silent nonsense: bestmove e1d1",
            ),
            check(
                "search.go-nodes",
                Status::Fail,
                "no `bestmove` within 20 s, only after `stop`",
            ),
            check(
                "movegen.perft-start",
                Status::Fail,
                "perft 3 ... missing a2a3",
            ),
        ];
        classify(&mut checks);
        let classes: Vec<Class> = checks.iter().map(|c| c.class).collect();
        assert_eq!(
            classes,
            [Class::Crash, Class::Policy, Class::Crash, Class::Protocol]
        );
    }

    #[test]
    fn fail_on_protocol_demotes_policy_fails_to_warns_and_fail_on_policy_keeps_them() {
        let make = || {
            let mut v = vec![
                check("hostile.two-kings", Status::Fail, "silent nonsense"),
                check("handshake.uci", Status::Fail, "no `id author`"),
                check("hostile.no-kings", Status::Fail, "crashed (signal 6)"),
            ];
            classify(&mut v);
            v
        };
        let mut v = make();
        assert_eq!(
            apply_fail_on(&mut v, Class::Protocol),
            ["crash", "protocol"]
        );
        assert_eq!(v[0].status, Status::Warn);
        assert!(v[0].demoted);
        assert!(
            v[0].detail
                .ends_with("(policy: a fail with `--fail-on policy`)"),
            "{}",
            v[0].detail
        );
        assert_eq!((v[1].status, v[2].status), (Status::Fail, Status::Fail));
        let mut v = make();
        apply_fail_on(&mut v, Class::Crash);
        let st: Vec<Status> = v.iter().map(|c| c.status).collect();
        assert_eq!(st, [Status::Warn, Status::Warn, Status::Fail]);
        let mut v = make();
        apply_fail_on(&mut v, Class::Policy);
        assert!(v.iter().all(|c| c.status == Status::Fail && !c.demoted));
    }

    #[test]
    fn skip_patterns_that_name_no_check_or_group_are_unknown() {
        let skips =
            Skips::new(&["hostile.nokings,hostile,search.movetime,movegen.perft-*,bogus*".into()]);
        let ids = ["search.movetime", "movegen.perft-start"];
        assert_eq!(
            skips.unknown(&ids, &["hostile", "search", "movegen"]),
            ["bogus*"]
        );
        let typo = Skips::new(&["hostile.nokings".into()]);
        assert_eq!(
            typo.unknown(&["hostile.no-kings"], &["hostile"]),
            ["hostile.nokings"]
        );
    }

    #[test]
    fn a_baseline_accepts_known_fails_names_new_ones_and_fixed_ones() {
        let mut v = vec![
            check("hostile.no-kings", Status::Fail, "crashed"),
            check("search.go-nodes", Status::Fail, "no `bestmove` within 20 s"),
            check("movegen.perft-start", Status::Pass, "perft 3 = 8902"),
        ];
        let accepted: BTreeSet<String> = [
            "hostile.no-kings".to_owned(),
            "movegen.perft-start".to_owned(),
        ]
        .into();
        let s = apply_baseline(&mut v, &accepted, "b.json");
        assert_eq!(s.known, ["hostile.no-kings"]);
        assert_eq!(s.new, ["search.go-nodes"]);
        assert_eq!(s.fixed, ["movegen.perft-start"]);
        assert_eq!(v[0].baseline, Some(Baseline::Known));
        assert_eq!(v[1].baseline, Some(Baseline::New));
    }

    #[test]
    fn a_text_baseline_is_one_id_a_line_with_comments() {
        let dir = std::env::temp_dir().join(format!("fenguard-baseline-{}", std::process::id()));
        std::fs::write(
            &dir,
            "# accepted\nhostile.no-kings  # SIGSEGV\n\nsearch.go-nodes\n",
        )
        .unwrap();
        let ids = read_baseline(&dir).unwrap();
        let _ = std::fs::remove_file(&dir);
        assert_eq!(
            ids,
            ["hostile.no-kings".to_owned(), "search.go-nodes".to_owned()].into()
        );
        assert!(read_baseline(std::path::Path::new("/nonexistent/b.json")).is_err());
    }
}
