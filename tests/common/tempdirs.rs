//! Test directories are removed when the test process ends, except those of tests that failed
//! (kept to look at; their paths are in the failure output).
//!
//! [`register`] notes a directory with the test that asked for it. A panic hook (chained to the
//! default one) notes each test that panics, and an `atexit` handler removes, when libtest's
//! `main` returns or exits, every directory whose tests all passed. So a run leaves nothing in
//! the temporary directory unless something failed.

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::sync::{Mutex, Once};

/// Directory to the tests that use it; the tests that panicked.
#[derive(Default)]
struct Registry {
    dirs: HashMap<PathBuf, HashSet<String>>,
    failed: HashSet<String>,
}

static REGISTRY: Mutex<Option<Registry>> = Mutex::new(None);
static INSTALL: Once = Once::new();

fn with_registry<T>(f: impl FnOnce(&mut Registry) -> T) -> T {
    let mut guard = REGISTRY
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    f(guard.get_or_insert_with(Registry::default))
}

fn thread_name() -> String {
    std::thread::current().name().unwrap_or("main").to_owned()
}

/// Notes `dir` for removal at exit unless a test that uses it fails.
pub fn register(dir: PathBuf) {
    INSTALL.call_once(install);
    let test = thread_name();
    with_registry(|r| r.dirs.entry(dir).or_default().insert(test));
}

fn install() {
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let test = thread_name();
        with_registry(|r| r.failed.insert(test));
        default_hook(info);
    }));
    #[cfg(unix)]
    // SAFETY: `atexit` takes a plain function without arguments, called once at exit.
    unsafe {
        libc::atexit(remove_at_exit);
    }
}

#[cfg(unix)]
extern "C" fn remove_at_exit() {
    let dirs: Vec<PathBuf> = with_registry(|r| {
        r.dirs
            .iter()
            .filter(|(_, tests)| tests.is_disjoint(&r.failed))
            .map(|(dir, _)| dir.clone())
            .collect()
    });
    for dir in dirs {
        let _ = std::fs::remove_dir_all(dir);
    }
}
