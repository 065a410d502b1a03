//! Running `fenguard doctor --format json` and reading its report.

use std::collections::BTreeMap;
use std::process::Command;

use crate::common::{FAKE_ENGINE, FENGUARD};

/// A finished doctor run: its exit status and its JSON report.
pub struct Run {
    /// The exit code.
    pub code: Option<i32>,
    /// The report (`{"engine", "checks", "summary"}`).
    pub report: serde_json::Value,
}

impl Run {
    /// Every check that is not a pass: id → (status, detail).
    pub fn flagged(&self) -> BTreeMap<String, (String, String)> {
        self.report["checks"]
            .as_array()
            .expect("checks")
            .iter()
            .filter(|c| c["status"] != "pass")
            .map(|c| {
                let s = |k: &str| c[k].as_str().unwrap_or_default().to_owned();
                (s("id"), (s("status"), s("detail")))
            })
            .collect()
    }

    /// The check `id`.
    pub fn check(&self, id: &str) -> &serde_json::Value {
        self.report["checks"]
            .as_array()
            .expect("checks")
            .iter()
            .find(|c| c["id"] == id)
            .unwrap_or_else(|| panic!("no check {id}"))
    }
}

/// `fenguard doctor ARGS --format json -- ENGINE...` with `env` set.
pub fn doctor(args: &[&str], engine: &[&str], env: &[(&str, &str)]) -> Run {
    let out = Command::new(FENGUARD)
        .arg("doctor")
        .args(args)
        .args(["--format", "json", "--"])
        .args(engine)
        .envs(env.iter().copied())
        .env_remove("FAKE_ENGINE_FAULTS")
        .envs(env.iter().copied())
        .output()
        .expect("run fenguard doctor");
    let report = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "doctor's stdout is not JSON ({e}): {}\nstderr: {}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    Run {
        code: out.status.code(),
        report,
    }
}

/// The doctor on the fake engine in rules mode with `faults` (comma list, may be empty).
pub fn fake(faults: &str) -> Run {
    let mut env = vec![("FAKE_ENGINE_RULES", "1")];
    if !faults.is_empty() {
        env.push(("FAKE_ENGINE_FAULTS", faults));
    }
    doctor(&["--quick"], &[FAKE_ENGINE], &env)
}

/// The Debian engine at `path` (package `package`); under CI (`CI=true`) a missing one fails
/// the test, elsewhere the skip is recorded and `None` returned.
pub fn require_engine(path: &str, package: &str) -> Option<String> {
    if std::path::Path::new(path).is_file() {
        return Some(path.to_owned());
    }
    assert!(
        std::env::var("CI").as_deref() != Ok("true"),
        "{path} is missing under CI: install it (apt-get install -y {package})"
    );
    eprintln!("{path} not installed: not running this test");
    crate::common::skipped(package);
    None
}
