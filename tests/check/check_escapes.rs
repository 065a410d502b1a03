//! `fenguard check`'s human output prints a FEN's control characters escaped (issue 30):
//! in the diagnostics, the fix, the board block's fields; with `--color always`, its own
//! colours still there.

use crate::common::check::check;
use crate::common::controls::{HOSTILE, assert_no_raw_controls};

#[test]
fn check_escapes_the_control_characters_of_a_fen() {
    let input = format!(
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1{HOSTILE}\n4k3/8/8/8/8/8/8/4K3 w{HOSTILE} - - 0 1\n8/8/8/{HOSTILE}/8/8/8/8 w - - 0 1\n"
    );
    for args in [
        &["--color", "never", "-"][..],
        &["--color", "always", "--board", "always", "-"][..],
        &["--color", "always", "--board", "always", "--repair", "-"][..],
        &["--variant", "capablanca", "--color", "always", "-"][..],
    ] {
        let o = check(args, &input);
        let text = assert_no_raw_controls(&o.stdout, &format!("fenguard check {args:?}"));
        assert!(text.contains("\\u{1b}]52;c;"), "{args:?}: {text}");
        if args.contains(&"--board") {
            assert!(o.stdout.windows(4).any(|w| w == b"\x1b[0m"), "our colours");
        }
    }
}
