//! Every input of the `session_lines` fuzz corpus (`fuzz/corpus/session_lines`) through the
//! session invariants shared with the fuzz target, so corpus findings stay fixed without a
//! fuzzer installed.

use crate::invariants;

#[test]
fn session_corpus_keeps_the_invariants() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus/session_lines");
    let mut count = 0;
    for entry in std::fs::read_dir(&dir).expect("corpus directory") {
        let path = entry.expect("corpus entry").path();
        let data = std::fs::read(&path).expect("corpus file");
        let run = std::panic::catch_unwind(|| invariants::Driver::run(&data));
        assert!(run.is_ok(), "invariant broken by {}", path.display());
        count += 1;
    }
    assert!(
        count >= 4,
        "only {count} corpus inputs in {}",
        dir.display()
    );
}
