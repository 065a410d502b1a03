//! The engine's stderr in `fenguard.log` (issue 9 class 7): quotes and non-ASCII text as the
//! engine wrote them, only control characters escaped.

use crate::common;

use common::{Proxy, test_dir};

#[test]
fn engine_stderr_keeps_quotes_and_escapes_control_characters() {
    let dir = test_dir("stderr-quotes");
    let mut proxy = Proxy::fake(&dir, &[]);
    proxy.send("stderr can't open \"nn.bin\" café\u{1b}[0m\nisready\n".as_bytes());
    proxy.wait_for("readyok\n");
    let log = proxy.wait_log("fenguard.log", "stderr> can't open");
    let line = log
        .lines()
        .find(|l| l.contains("stderr> can't open"))
        .expect("the stderr line");
    assert!(
        line.ends_with(r#"stderr> can't open "nn.bin" café\u{1b}[0m"#),
        "{line}"
    );
}
