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

/// The Python interpreter that has python-chess (`python3` on `PATH`, resolved once so that a
/// version manager's shim is not started for every engine restart). Under CI a missing
/// python-chess fails the test; elsewhere the skip is recorded and `None` returned.
pub fn python_chess() -> Option<String> {
    static FOUND: std::sync::OnceLock<Option<String>> = std::sync::OnceLock::new();
    let found = FOUND.get_or_init(|| {
        let out = Command::new("python3")
            .args(["-c", "import sys, chess; print(sys.executable)"])
            .output()
            .ok()?;
        out.status
            .success()
            .then(|| String::from_utf8_lossy(&out.stdout).trim().to_owned())
    });
    if found.is_none() {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "python-chess is missing under CI: install it (pip install chess==1.11.2)"
        );
        eprintln!("python-chess not installed: not running this test");
        crate::common::skipped("python-chess");
    }
    found.clone()
}

/// The fault engine (`tests/doctor/fault_engine.py`) with `faults` (comma list, may be empty).
pub fn fault_engine(python: &str, faults: &str) -> Vec<String> {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/doctor/fault_engine.py");
    let mut cmd = vec![python.to_owned(), script.to_owned()];
    if !faults.is_empty() {
        cmd.extend(["--faults".to_owned(), faults.to_owned()]);
    }
    cmd
}

/// `fenguard doctor --quick ARGS --format json -- FAULT_ENGINE --faults FAULTS`.
pub fn doctor_faults(python: &str, args: &[&str], faults: &str) -> Run {
    let engine = fault_engine(python, faults);
    let engine: Vec<&str> = engine.iter().map(String::as_str).collect();
    let mut all = vec!["--quick"];
    all.extend(args);
    doctor(&all, &engine, &[])
}
