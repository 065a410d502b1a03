//! The built fenguard relays every byte unchanged and in order, both ways (fake engine).

use crate::common;

use std::time::Duration;

use common::{Proxy, contains, test_dir, wait_until};

/// Waits until the fake engine has recorded `len` bytes of input and returns them.
fn engine_input(dir: &std::path::Path, len: usize) -> Vec<u8> {
    let path = dir.join("engine-input");
    wait_until(|| std::fs::read(&path).ok().filter(|b| b.len() >= len))
        .unwrap_or_else(|| std::fs::read(&path).unwrap_or_default())
}

#[test]
fn gui_bytes_reach_engine_canonical_or_unchanged() {
    let dir = test_dir("gui-bytes");
    let mut proxy = Proxy::fake(&dir, &[]);
    proxy.send(b"uci\r\n");
    proxy.send(b"setoption name Hash value 16 \t \n");
    proxy.send(b"  debug on\t\x0b\n");
    proxy.send(b"info \xff\xfe caf\xe9\r\n");
    proxy.send(b"\n");
    proxy.send(b"isready\n");
    proxy.wait_for("readyok\n");
    // UCI commands in canonical form (SPEC 12), every other line byte for byte.
    let expected: &[u8] = b"uci\nsetoption name Hash value 16\ndebug on\n\
        info \xff\xfe caf\xe9\r\n\nisready\n";
    assert_eq!(engine_input(&dir, expected.len()), expected);
}

#[test]
fn line_longer_than_the_cap_reaches_engine_unchanged() {
    let dir = test_dir("gui-long");
    let mut proxy = Proxy::fake(&dir, &[]);
    let mut sent = vec![b'p'; 3 * 1024 * 1024 + 17];
    sent.extend_from_slice(b"\r\nisready\n");
    proxy.send(&sent);
    proxy.wait_for("readyok\n");
    assert_eq!(engine_input(&dir, sent.len()), sent);
}

#[test]
fn engine_bytes_reach_gui_unchanged() {
    let dir = test_dir("engine-bytes");
    let mut proxy = Proxy::fake(&dir, &[]);
    proxy.send(b"echo id name \xe9t\xe9 \xff\r\n");
    proxy.send(b"echo  trailing \t \n");
    proxy.send(b"echo \n");
    proxy.send(b"isready\n");
    let out = proxy.wait_for("readyok\n");
    assert_eq!(out, b"id name \xe9t\xe9 \xff\r\n trailing \t \n\nreadyok\n");
}

#[test]
fn engine_line_longer_than_the_cap_reaches_gui_unchanged() {
    let dir = test_dir("engine-long");
    let mut proxy = Proxy::fake(&dir, &[]);
    let len = 3 * 1024 * 1024;
    proxy.send(b"long 3145728\nisready\n");
    let out = proxy.wait_stdout(|out| out.ends_with(b"readyok\n"));
    let mut expected = vec![b'x'; len];
    expected.extend_from_slice(b"\nreadyok\n");
    assert_eq!(out.len(), expected.len());
    assert!(out == expected, "long line changed");
}

#[test]
fn lines_keep_their_order_under_interleaving() {
    let dir = test_dir("order");
    let mut proxy = Proxy::fake(&dir, &[]);
    let mut script = Vec::new();
    let mut expected = Vec::new();
    for i in 0..300 {
        script.extend_from_slice(format!("echo line {i}\n").as_bytes());
        expected.extend_from_slice(format!("line {i}\n").as_bytes());
        if i % 10 == 0 {
            script.extend_from_slice(b"burst 40\n");
            for j in 0..40 {
                expected.extend_from_slice(format!("info depth 1 seq {j} pv e2e4\n").as_bytes());
            }
        }
    }
    // Sent in small uneven pieces so that reads split lines at random places.
    for piece in script.chunks(777) {
        proxy.send(piece);
    }
    proxy.send(b"isready\n");
    expected.extend_from_slice(b"readyok\n");
    let out = proxy.wait_stdout(|out| out.ends_with(b"readyok\n"));
    if out != expected {
        std::fs::write(dir.join("actual"), &out).unwrap();
        std::fs::write(dir.join("expected"), &expected).unwrap();
    }
    assert!(out == expected, "order differs: see {}", dir.display());
}

#[test]
fn burst_of_info_lines_arrives_complete_and_in_order() {
    let dir = test_dir("burst");
    let mut proxy = Proxy::fake(&dir, &[]);
    proxy.send(b"burst 20000\nisready\n");
    let out = proxy.wait_stdout(|out| out.ends_with(b"readyok\n"));
    let mut expected = String::new();
    for i in 0..20000 {
        expected.push_str(&format!("info depth 1 seq {i} pv e2e4\n"));
    }
    expected.push_str("readyok\n");
    assert!(out == expected.as_bytes(), "burst changed");
}

#[test]
fn bestmove_arrives_while_gui_input_stays_open() {
    let dir = test_dir("bestmove-flush");
    let mut proxy = Proxy::fake(&dir, &[]);
    proxy.send(b"position startpos\ngo wtime 1000 btime 1000\n");
    let out = proxy.wait_for("bestmove e2e4\n");
    assert_eq!(out, b"bestmove e2e4\n");
}

#[test]
fn last_line_without_terminator_is_relayed_at_end_of_input() {
    let dir = test_dir("no-terminator");
    let mut proxy = Proxy::fake(&dir, &[]);
    proxy.send(b"uci\nisready");
    proxy.close();
    assert!(proxy.wait_exit().success());
    assert_eq!(engine_input(&dir, 12), b"uci\nisready\n");
    assert!(contains(&proxy.stdout(), b"uciok\nreadyok\n"));
}

#[test]
fn uci_handshake_passes_through_with_fenguard_options_before_uciok() {
    let dir = test_dir("handshake");
    let mut proxy = Proxy::fake(&dir, &[]);
    proxy.send(b"uci\n");
    let out = proxy.wait_for("uciok\n");
    assert_eq!(
        out,
        b"id name FakeEngine\nid author fenguard tests\n\
          option name Hash type spin default 16 min 1 max 1024\n\
          option name UCI_Chess960 type check default false\n\
          option name fenguard OnBadPosition type combo default repair var repair var reject var forward\n\
          option name fenguard Castling type combo default auto var auto var xfen var shredder\n\
          option name fenguard EnPassant type combo default legal var legal var xfen var fen\n\
          option name fenguard Chess960 type combo default gui var gui var detect\n\
          option name fenguard CheckMoves type check default true\n\
          option name fenguard ReportToGui type check default true\n\
          option name fenguard LogPositions type check default true\nuciok\n"
    );
}

#[test]
fn input_from_a_regular_file_is_relayed() {
    // A file cannot be polled: this goes through the blocking reader thread.
    let dir = test_dir("file-input");
    let input = dir.join("gui-input");
    std::fs::write(&input, b"uci\r\nisready\nquit\n").unwrap();
    let out = std::process::Command::new(common::FENGUARD)
        .args([
            "--log-dir",
            dir.join("logs").to_str().unwrap(),
            "--",
            common::FAKE_ENGINE,
        ])
        .env("FAKE_ENGINE_RECORD", dir.join("engine-input"))
        .stdin(std::fs::File::open(&input).unwrap())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(
        out.stdout.ends_with(b"uciok\nreadyok\n"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert_eq!(
        std::fs::read(dir.join("engine-input")).unwrap(),
        b"uci\nisready\nquit\n"
    );
}

#[cfg(target_os = "linux")]
#[test]
fn line_of_64_mib_does_not_grow_memory() {
    let dir = test_dir("bounded");
    // The engine's readyok comes after its 64 MiB line: under load that took more than the
    // default 10 s `readyok` deadline, and the engine was killed as hung (memory is what this
    // test is about).
    let config = common::write_config(&dir, "[engine]\nping_timeout_ms = 90000\n");
    let args = [
        "--config",
        config.to_str().unwrap(),
        "--",
        common::FAKE_ENGINE,
    ];
    let mut proxy = Proxy::start(&dir, &args, &[]);
    // The size before the long lines: the binary's own pages (a debug build of 130 MB maps
    // ~18 MiB of them) grow with the code, the bound on what a line may add does not.
    proxy.send(b"isready\n");
    proxy.wait_for("readyok");
    let before = common::peak_rss_kib(proxy.child.id());
    let chunk = vec![b'x'; 1 << 20];
    for _ in 0..64 {
        proxy.send(&chunk);
    }
    proxy.send(b"\nlong 67108864\nisready\n");
    // A hang guard, not a timing: 128 MiB through a debug build (and this test's own copies
    // of the output) on a busy 2-CPU machine took 10-13 s, past the usual patience.
    let first = "readyok\n".len();
    let out = proxy.wait_stdout_within(Duration::from_secs(90), |out| {
        out.len() > first && out.ends_with(b"readyok\n")
    });
    assert_eq!(out.len(), first + (64 << 20) + "\nreadyok\n".len());
    let peak = common::peak_rss_kib(proxy.child.id());
    assert!(
        peak < before + 8 * 1024,
        "fenguard's peak RSS {peak} KiB, {before} KiB before the 64 MiB lines"
    );
}

#[test]
fn output_to_a_regular_file_is_complete() {
    // A file cannot be polled: this goes through blocking writes.
    let dir = test_dir("file-output");
    let output = dir.join("gui-output");
    let mut fenguard = std::process::Command::new(common::FENGUARD)
        .args([
            "--log-dir",
            dir.join("logs").to_str().unwrap(),
            "--",
            common::FAKE_ENGINE,
        ])
        .stdin(std::process::Stdio::piped())
        .stdout(std::fs::File::create(&output).unwrap())
        .spawn()
        .unwrap();
    let mut stdin = fenguard.stdin.take().unwrap();
    std::io::Write::write_all(&mut stdin, b"burst 3\necho x\r\nquit\n").unwrap();
    drop(stdin);
    assert_eq!(fenguard.wait().unwrap().code(), Some(0));
    assert_eq!(
        std::fs::read(&output).unwrap(),
        b"info depth 1 seq 0 pv e2e4\ninfo depth 1 seq 1 pv e2e4\ninfo depth 1 seq 2 pv e2e4\nx\r\n"
    );
}
