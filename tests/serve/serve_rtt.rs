//! `fenguard connect --rtt-overhead`: the measured round trip to the daemon (isready to
//! readyok) is taken off the clock times of the GUI's `go` before it leaves (SPEC section 15,
//! `[time]`; issue 21: "`connect` can add the measured round trip").
#![cfg(unix)]

use crate::serve_support;

use std::io::{BufRead as _, BufReader, Write as _};
use std::process::{Command, Stdio};

use serve_support::*;

/// The `go` line the engine read when a GUI talks through `fenguard connect EXTRA...` and each
/// of its three `isready` round trips takes at least 200 ms (the fake engine sleeps first).
fn go_as_read(name: &str, extra: &[&str]) -> String {
    let dir = test_dir(name);
    std::fs::write(dir.join("no-tokens"), "").unwrap();
    let config = format!(
        "[serve]\ntokens_file = \"{}\"\n",
        dir.join("no-tokens").display()
    );
    let record = dir.join("engine-input");
    let daemon = Daemon::start(
        &dir,
        &config,
        "127.0.0.1:{port}",
        &[("FAKE_ENGINE_RECORD", record.to_str().unwrap())],
    );
    let mut connect = Command::new(FENGUARD)
        .args(["connect", &format!("127.0.0.1:{}", daemon.port)])
        .args(extra)
        .env_remove("FENGUARD_TOKEN")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut gui = connect.stdin.take().unwrap();
    let mut lines = BufReader::new(connect.stdout.take().unwrap()).lines();
    let mut wait = |want: &str| {
        for line in lines.by_ref() {
            if line.unwrap().starts_with(want) {
                return;
            }
        }
        panic!("no {want}");
    };
    gui.write_all(b"uci\n").unwrap();
    wait("uciok");
    for _ in 0..3 {
        gui.write_all(b"debug sleep 200\nisready\n").unwrap();
        wait("readyok");
    }
    gui.write_all(b"position startpos\ngo wtime 10000 btime 9000 winc 100 binc 100\n")
        .unwrap();
    wait("bestmove");
    gui.write_all(b"quit\n").unwrap();
    drop(gui);
    assert!(connect.wait().unwrap().success());
    let read = std::fs::read_to_string(&record).unwrap();
    read.lines()
        .find(|l| l.starts_with("go "))
        .unwrap_or_else(|| panic!("no go in {read}"))
        .to_owned()
}

/// The number after `key` in `line`.
fn field(line: &str, key: &str) -> u64 {
    let mut words = line.split_whitespace();
    words.find(|w| *w == key);
    words.next().unwrap().parse().unwrap()
}

#[test]
fn rtt_overhead_takes_the_measured_round_trip_off_the_clock() {
    let go = go_as_read("rtt-overhead", &["--rtt-overhead"]);
    let (wtime, btime) = (field(&go, "wtime"), field(&go, "btime"));
    // At least the 200 ms each exchange took; not more than a loaded machine could add.
    assert!((5000..=9800).contains(&wtime), "{go}");
    assert_eq!(10000 - wtime, 9000 - btime, "{go}");
    assert_eq!((field(&go, "winc"), field(&go, "binc")), (100, 100), "{go}");
    eprintln!("round trip taken off: {} ms", 10000 - wtime);
}

#[test]
fn without_rtt_overhead_the_go_is_relayed_unchanged() {
    let go = go_as_read("rtt-off", &[]);
    assert_eq!(go, "go wtime 10000 btime 9000 winc 100 binc 100");
}
