//! Reply order through the built binary around the fake engine (issue 9, classes 1, 3 and 7):
//! the GUI gets its replies in the order it asked, whatever fenguard answers itself.

use crate::common;

use std::time::Duration;

use common::{Proxy, contains, test_dir};

const BAD: &str = "position fen 4k3/8/8/8/8/8/8/8 w - - 0 1\n";

/// The lines of `out` that are replies (not `info`, `id`, `option`), plus fenguard's rejection
/// notice, in order.
fn replies(out: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(out)
        .lines()
        .filter(|l| {
            ["readyok", "uciok", "bestmove"]
                .iter()
                .any(|w| l.starts_with(w))
                || l.starts_with("info string fenguard: rejected")
        })
        .map(str::to_owned)
        .collect()
}

#[test]
fn own_bestmove_waits_for_a_slow_readyok() {
    let dir = test_dir("order-slow-readyok");
    let mut proxy = Proxy::fake(&dir, &[]);
    proxy.send(format!("sleep 300\nisready\n{BAD}go depth 1\n").as_bytes());
    let out = proxy.wait_for("bestmove");
    let out = proxy.wait_stdout(|o| o.len() >= out.len() && o.ends_with(b"\n"));
    assert_eq!(
        replies(&out),
        [
            "readyok",
            "info string fenguard: rejected position: missing-king: there is no white king; expected exactly one",
            "bestmove 0000"
        ]
    );
}

#[test]
fn rejection_and_own_bestmove_come_after_the_handshake() {
    let dir = test_dir("order-handshake");
    let mut proxy = Proxy::fake(&dir, &[]);
    proxy.send(format!("uci\nisready\n{BAD}go depth 1\n").as_bytes());
    let out = proxy.wait_for("bestmove 0000\n");
    let text = String::from_utf8_lossy(&out);
    assert!(text.starts_with("id name FakeEngine\n"), "{text}");
    assert_eq!(
        replies(&out),
        [
            "uciok",
            "readyok",
            "info string fenguard: rejected position: missing-king: there is no white king; expected exactly one",
            "bestmove 0000"
        ]
    );
}

#[test]
fn engine_crash_with_isready_then_go_pending_answers_in_order() {
    let dir = test_dir("order-crash");
    let mut proxy = Proxy::fake(&dir, &[]);
    proxy.send(b"ignore isready\nignore go\nposition startpos\nisready\ngo depth 1\ncrash\n");
    let out = proxy.wait_for("bestmove 0000\n");
    assert_eq!(replies(&out), ["readyok", "bestmove 0000"]);
}

#[test]
fn go_perft_is_relayed_and_a_later_stop_kills_nothing() {
    let dir = test_dir("order-perft");
    let config = common::write_config(&dir, "[engine]\nping_timeout_ms = 300\n");
    let mut proxy = Proxy::fake(&dir, &["--config", config.to_str().unwrap()]);
    proxy.send(b"position startpos\ngo perft 2\nstop\n");
    proxy.wait_for("Nodes searched: 2\n");
    std::thread::sleep(Duration::from_millis(700));
    proxy.send(b"position startpos\ngo depth 1\nisready\n");
    let out = proxy.wait_for("readyok\n");
    let text = String::from_utf8_lossy(&out);
    assert!(!text.contains("hung"), "{text}");
    assert!(!text.contains("illegal-bestmove"), "{text}");
    assert_eq!(replies(&out), ["bestmove e2e4", "readyok"]);
}

#[test]
fn go_perft_after_a_rejected_position_is_not_sent() {
    let dir = test_dir("order-perft-rejected");
    let mut proxy = Proxy::fake(&dir, &[]);
    proxy.send(format!("{BAD}go perft 2\nisready\n").as_bytes());
    let out = proxy.wait_for("readyok\n");
    assert!(!contains(&out, b"Nodes searched"));
    assert!(!contains(&out, b"bestmove"));
    assert!(contains(
        &out,
        b"info string fenguard: go perft after a rejected position: not sent to the engine\n"
    ));
}

#[test]
fn no_readyok_reaches_the_gui_after_quit_when_the_engine_is_killed() {
    let dir = test_dir("order-quit-kill");
    let config = common::write_config(&dir, "[engine]\nquit_grace_ms = 200\n");
    let mut proxy = Proxy::fake(&dir, &["--config", config.to_str().unwrap()]);
    proxy.send(b"isready\n");
    proxy.wait_for("readyok\n");
    proxy.send(b"ignore isready\nignore quit\nisready\nisready\nquit\n");
    let status = proxy.wait_exit();
    assert!(status.success(), "{status:?}");
    let out = String::from_utf8_lossy(&proxy.stdout()).into_owned();
    assert_eq!(out.matches("readyok").count(), 1, "{out}");
}

#[test]
fn pychess_probe_sees_no_handshake_line_with_a_refused_word() {
    let dir = test_dir("order-probe");
    let mut proxy = Proxy::fake(&dir, &[]);
    proxy.send(b"uci\nquit\n");
    proxy.wait_exit();
    let out = String::from_utf8_lossy(&proxy.stdout()).into_owned();
    assert!(out.contains("option name fenguard OnBadPosition "), "{out}");
    for line in out.lines() {
        let lower = line.to_ascii_lowercase();
        for word in ["error", "illegal", "invalid"] {
            assert!(!lower.contains(word), "{line:?} holds {word:?}");
        }
    }
}
