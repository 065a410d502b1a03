//! `fenguard doctor`'s reports print an engine's control characters escaped (issue 30): an
//! `option` line with an OSC 52 clipboard write, a clear screen and a bell in it. The text report
//! and the HTML page alike (a page printed in a terminal by `cat`, `less` or `grep` writes no
//! clipboard either: the review of issue 30).

use std::process::Command;

use crate::common::controls::{HOSTILE, assert_no_raw_controls};
use crate::common::{FAKE_ENGINE, FENGUARD};

/// The report in `format` of the fake engine announcing a hostile option, checked for raw
/// control characters; its text.
fn hostile_report(format: &str) -> String {
    let option = format!("option name Evil{HOSTILE} type bogus{HOSTILE}");
    let o = Command::new(FENGUARD)
        .args(["doctor", "--quick", "--format", format, "--", FAKE_ENGINE])
        .env_remove("FAKE_ENGINE_FAULTS")
        .env("FAKE_ENGINE_RULES", "1")
        .env("FAKE_ENGINE_EXTRA_OPTION", &option)
        .output()
        .expect("fenguard doctor");
    assert_eq!(o.status.code(), Some(1), "the option line fails its check");
    assert_no_raw_controls(&o.stdout, &format!("fenguard doctor --format {format}"))
}

#[test]
fn the_text_report_escapes_what_the_engine_wrote() {
    let text = hostile_report("text");
    assert!(
        text.contains("option `Evil\\u{1b}]52;c;ZWNobyBwd25lZA==\\u{7}\\u{1b}[2J"),
        "{text}"
    );
}

#[test]
fn the_html_report_escapes_what_the_engine_wrote() {
    let page = hostile_report("html");
    assert!(
        page.contains("Evil\\u{1b}]52;c;ZWNobyBwd25lZA==\\u{7}"),
        "{page}"
    );
}
