//! Boards in the terminal and the HTML report (issue 19, SPEC section 14): snapshot tests of
//! `fenguard check` and `fenguard log` boards (letters and colour), the marks each diagnostic
//! kind that names a square puts on its square, and the HTML page's escaping.
//!
//! Snapshots are `tests/view/snapshots/NAME.txt`; `FENGUARD_UPDATE_SNAPSHOTS=1` rewrites
//! them (then read the diff).

#[path = "../common/mod.rs"]
mod common;

mod view_check;
mod view_html;
mod view_html_big;
mod view_log;

use std::path::PathBuf;

/// Compares `got` with the snapshot `name` (or writes it with `FENGUARD_UPDATE_SNAPSHOTS=1`).
pub fn snapshot(name: &str, got: &str) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/view/snapshots")
        .join(format!("{name}.txt"));
    if std::env::var_os("FENGUARD_UPDATE_SNAPSHOTS").is_some() {
        std::fs::write(&path, got).expect("write snapshot");
        return;
    }
    let want = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("snapshot {}: {e}", path.display()));
    assert!(
        got == want,
        "snapshot {name} differs\n--- want\n{want}\n--- got\n{got}"
    );
}
