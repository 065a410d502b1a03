//! A CI author's typo in `--skip` or `--baseline` is named on stderr (the review of issue 30):
//! a pattern that names no check or group of the run, and baseline ids the run does not have.

use std::process::Command;

use crate::common::{FAKE_ENGINE, FENGUARD};

#[test]
fn a_skip_or_baseline_id_that_names_no_check_is_warned_about() {
    let dir = crate::common::test_dir("doctor-typos");
    let baseline = dir.join("baseline.txt");
    std::fs::write(&baseline, "hostile.no-kings\nhostile.nokings  # a typo\n").unwrap();
    let o = Command::new(FENGUARD)
        .args([
            "doctor",
            "--quick",
            "--skip",
            "hostile.nokings",
            "--skip",
            "variant",
        ])
        .arg("--baseline")
        .arg(&baseline)
        .args(["--", FAKE_ENGINE])
        .env_remove("FAKE_ENGINE_FAULTS")
        .output()
        .expect("fenguard doctor");
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        stderr.contains("--skip hostile.nokings: no check of this run has that id or group"),
        "{stderr}"
    );
    assert!(
        !stderr.contains("--skip variant"),
        "a whole group is known: {stderr}"
    );
    assert!(
        stderr.contains("the baseline names 1 check(s) this run does not have: hostile.nokings"),
        "{stderr}"
    );
}
