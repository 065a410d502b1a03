//! Visible skips and distinct test directories, for test crates that hold many modules.
//!
//! A test that needs something this machine lacks (Stockfish, Fairy-Stockfish, python-chess,
//! network namespaces) fails under CI (`CI=true`, asserted by its caller) and is skipped
//! elsewhere: [`skipped`] writes `SKIP(no WHAT): CRATE::MODULE::TEST` to the real stderr (past
//! libtest's capture, so the line shows in a passing run) and appends the same line to the file
//! named by `FENGUARD_SKIP_LOG`, which `scripts/test.sh` counts and prints.

use std::collections::HashMap;
use std::io::Write as _;
use std::sync::{Mutex, OnceLock};

/// The running test's name, `CRATE::MODULE::TEST` (libtest names each test's thread after it).
pub fn test_name() -> String {
    let thread = std::thread::current();
    let name = thread.name().unwrap_or("?");
    format!("{}::{name}", env!("CARGO_CRATE_NAME"))
}

/// Records that the running test is skipped because `what` (e.g. `stockfish`) is missing.
pub fn skipped(what: &str) {
    let line = format!("SKIP(no {what}): {}\n", test_name());
    let _ = std::io::stderr().write_all(line.as_bytes());
    if let Some(path) = std::env::var_os("FENGUARD_SKIP_LOG").filter(|p| !p.is_empty()) {
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path);
        // One `write` of one short line on an O_APPEND file: lines of parallel tests and of
        // parallel test binaries do not interleave.
        if let Ok(mut file) = file {
            let _ = file.write_all(line.as_bytes());
        }
    }
}

/// Panics when two tests of this process ask for the directory `prefix-PID-name`: the tests of a
/// crate share one process, so two of them with one name would wipe each other's files. The same
/// test may ask again (helpers call `test_dir` with the test's own name).
pub fn claim_dir(prefix: &str, name: &str) {
    static OWNERS: OnceLock<Mutex<HashMap<String, String>>> = OnceLock::new();
    // A helper thread has no name, the main thread no test's.
    let Some(test) = std::thread::current()
        .name()
        .filter(|n| *n != "main")
        .map(str::to_owned)
    else {
        return;
    };
    let key = format!("{prefix}-{name}");
    let mut owners = OWNERS
        .get_or_init(Mutex::default)
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let owner = owners.entry(key).or_insert_with(|| test.clone());
    assert!(
        *owner == test,
        "test directory {prefix}-{name} is used by both {owner} and {test}: give one another name"
    );
}
