//! `[time] overhead_ms`, `min_ms` (SPEC section 15): the engine reads reduced clock times.

use crate::common::{Gui, starting_with};

#[test]
fn the_forwarded_go_carries_the_reduced_times() {
    let mut gui = Gui::fake_ready("time_overhead", "[time]\noverhead_ms = 100\nmin_ms = 20\n");
    gui.go("go wtime 60000 btime 110 winc 500 binc 500");
    gui.go("go movetime 1000");
    gui.go("go wtime 15 btime 15");
    let sent = gui.engine_lines();
    assert_eq!(
        starting_with(&sent, "go "),
        [
            "go wtime 59900 btime 20 winc 500 binc 500",
            "go movetime 900",
            "go wtime 15 btime 15"
        ]
    );
    let record = gui.wait_record(|r| r["kind"] == "search");
    assert_eq!(
        record["go"], "go wtime 60000 btime 110 winc 500 binc 500",
        "{record}"
    );
}

#[test]
fn no_overhead_forwards_the_times_unchanged() {
    let mut gui = Gui::fake_ready("time_none", "");
    gui.go("go wtime 60000 btime 110");
    assert_eq!(
        starting_with(&gui.engine_lines(), "go "),
        ["go wtime 60000 btime 110"]
    );
}
