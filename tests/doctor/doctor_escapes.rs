//! `fenguard doctor`'s text report prints an engine's control characters escaped (issue 30):
//! an `option` line with an OSC 52 clipboard write, a clear screen and a bell in it.

use std::process::Command;

use crate::common::controls::{HOSTILE, assert_no_raw_controls};
use crate::common::{FAKE_ENGINE, FENGUARD};

#[test]
fn the_text_report_escapes_what_the_engine_wrote() {
    let option = format!("option name Evil{HOSTILE} type bogus{HOSTILE}");
    let o = Command::new(FENGUARD)
        .args(["doctor", "--quick", "--format", "text", "--", FAKE_ENGINE])
        .env_remove("FAKE_ENGINE_FAULTS")
        .env("FAKE_ENGINE_RULES", "1")
        .env("FAKE_ENGINE_EXTRA_OPTION", &option)
        .output()
        .expect("fenguard doctor");
    assert_eq!(o.status.code(), Some(1), "the option line fails its check");
    let text = assert_no_raw_controls(&o.stdout, "fenguard doctor --format text");
    assert!(
        text.contains("option `Evil\\u{1b}]52;c;ZWNobyBwd25lZA==\\u{7}\\u{1b}[2J"),
        "{text}"
    );
}

/// The HTML report too: a page that a terminal prints (`cat`, `less`, `grep`) carries no raw
/// ESC or BEL, in the check details and in the transcripts alike (the review of issue 30).
#[test]
fn the_html_report_escapes_what_the_engine_wrote() {
    let option = format!("option name Evil{HOSTILE} type bogus{HOSTILE}");
    let o = Command::new(FENGUARD)
        .args(["doctor", "--quick", "--format", "html", "--", FAKE_ENGINE])
        .env_remove("FAKE_ENGINE_FAULTS")
        .env("FAKE_ENGINE_RULES", "1")
        .env("FAKE_ENGINE_EXTRA_OPTION", &option)
        .output()
        .expect("fenguard doctor");
    assert_eq!(o.status.code(), Some(1), "the option line fails its check");
    let page = assert_no_raw_controls(&o.stdout, "fenguard doctor --format html");
    assert!(
        page.contains("Evil\\u{1b}]52;c;ZWNobyBwd25lZA==\\u{7}"),
        "{page}"
    );
}
