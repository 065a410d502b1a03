//! `fenguard serve` sessions on loopback: separate engines, the option guard, the caps,
//! `max_sessions`.
#![cfg(unix)]

use crate::serve_support;

use serve_support::*;

/// No tokens (an empty tokens file): loopback without `auth`.
fn config(dir: &std::path::Path, extra: &str) -> String {
    std::fs::write(dir.join("no-tokens"), "").unwrap();
    format!(
        "[serve]\ntokens_file = \"{}\"\n{extra}\n",
        dir.join("no-tokens").display()
    )
}

#[test]
fn two_clients_at_once_get_separate_engines_options_and_positions() {
    let dir = test_dir("two");
    let daemon = Daemon::start(
        &dir,
        &config(&dir, ""),
        "127.0.0.1:{port}",
        &[("FAKE_ENGINE_ECHO_OPTIONS", "1")],
    );
    let (mut a, mut b) = (daemon.client(), daemon.client());
    a.handshake();
    b.handshake();
    let pids = daemon.wait_engines(2);
    a.send("debug pid\n");
    let pid_a = a.until(|l| l.starts_with("info string pid "));
    b.send("debug pid\n");
    let pid_b = b.until(|l| l.starts_with("info string pid "));
    assert_ne!(pid_a, pid_b);
    for pid in [&pid_a, &pid_b] {
        let pid: u32 = pid.rsplit(' ').next().unwrap().parse().unwrap();
        assert!(pids.contains(&pid), "{pid} not among {pids:?}");
    }
    a.send("setoption name MultiPV value 3\nposition startpos moves e2e4\ngo depth 1\n");
    b.send("setoption name MultiPV value 5\nposition startpos moves d2d4\ngo depth 1\n");
    a.until(|l| l.starts_with("bestmove"));
    b.until(|l| l.starts_with("bestmove"));
    assert!(
        a.seen.contains(&"info string option MultiPV=3".to_owned()),
        "{:?}",
        a.seen
    );
    assert!(
        !a.seen.iter().any(|l| l.contains("MultiPV=5")),
        "{:?}",
        a.seen
    );
    assert!(
        b.seen.contains(&"info string option MultiPV=5".to_owned()),
        "{:?}",
        b.seen
    );
    a.send("quit\n");
    b.send("quit\n");
    a.rest();
    b.rest();
    // A session's positions log is written by its own writer thread, which finishes after the
    // client has gone: wait (bounded) until both sessions have written their engine-exit record.
    let read_logs = || -> Vec<String> {
        std::fs::read_dir(dir.join("logs"))
            .unwrap()
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().starts_with("positions-"))
            .map(|e| std::fs::read_to_string(e.path()).unwrap())
            .collect()
    };
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    let mut logs = read_logs();
    while std::time::Instant::now() < deadline
        && !(logs.len() == 2 && logs.iter().all(|l| l.contains("\"engine-exit\"")))
    {
        std::thread::sleep(std::time::Duration::from_millis(20));
        logs = read_logs();
    }
    assert_eq!(logs.len(), 2, "one positions log a session");
    let with = |mv: &str| {
        let moves = format!("\"moves_in\":[\"{mv}\"]");
        logs.iter().filter(|l| l.contains(&moves)).count()
    };
    assert_eq!((with("e2e4"), with("d2d4")), (1, 1), "{logs:?}");
}

#[test]
fn refused_option_never_reaches_the_engine_and_the_session_goes_on() {
    let dir = test_dir("refused");
    let record = dir.join("engine-input");
    let daemon = Daemon::start(
        &dir,
        &config(&dir, ""),
        "127.0.0.1:{port}",
        &[("FAKE_ENGINE_RECORD", record.to_str().unwrap())],
    );
    let mut client = daemon.client();
    client.handshake();
    client.send("setoption name Debug Log File value /tmp/pwned\n");
    let answer = client.until(|l| l.contains("not allowed"));
    assert_eq!(
        answer,
        "info string fenguard: option not allowed: Debug Log File"
    );
    client.send("setoption name SyzygyPath value /\nsetoption name Hash value 32\nisready\n");
    client.until(|l| l == "info string fenguard: option not allowed: SyzygyPath");
    client.until(|l| l == "info string option Hash = 32");
    client.until(|l| l == "readyok");
    client.send("quit\n");
    client.rest();
    let got = std::fs::read_to_string(&record).unwrap();
    assert!(
        !got.contains("Debug Log File") && !got.contains("SyzygyPath"),
        "{got}"
    );
    assert!(got.contains("setoption name Hash value 32\n"), "{got}");
}

#[test]
fn threads_and_hash_are_clamped_to_the_caps() {
    let dir = test_dir("sessions-caps");
    let daemon = Daemon::start(
        &dir,
        &config(&dir, "max_threads = 2\nmax_hash_mb = 64"),
        "127.0.0.1:{port}",
        &[(
            "FAKE_ENGINE_EXTRA_OPTION",
            "option name Threads type spin default 1 min 1 max 512",
        )],
    );
    let mut client = daemon.client();
    client.send("uci\n");
    client.until(|l| l == "uciok");
    assert!(
        client
            .seen
            .contains(&"option name Hash type spin default 16 min 1 max 64".to_owned())
    );
    assert!(
        client
            .seen
            .contains(&"option name Threads type spin default 1 min 1 max 2".to_owned())
    );
    client.send("setoption name Threads value 8\nsetoption name Hash value 1000\n");
    client.until(|l| l == "info string option Threads = 2");
    client.until(|l| l == "info string option Hash = 64");
    assert!(
        client.seen.contains(
            &"info string fenguard: Threads clamped to 2 (server limit; asked 8)".to_owned()
        ),
        "{:?}",
        client.seen
    );
    assert!(
        client.seen.contains(
            &"info string fenguard: Hash clamped to 64 (server limit; asked 1000)".to_owned()
        ),
        "{:?}",
        client.seen
    );
}

#[test]
fn one_session_over_max_sessions_is_refused_with_a_line() {
    let dir = test_dir("max");
    let daemon = Daemon::start(
        &dir,
        &config(&dir, "max_sessions = 2"),
        "127.0.0.1:{port}",
        &[],
    );
    let (mut a, mut b) = (daemon.client(), daemon.client());
    a.handshake();
    b.handshake();
    let mut c = daemon.client();
    c.send("uci\n");
    let rest = c.rest();
    assert_eq!(
        rest,
        "info string fenguard: refused: server busy (max_sessions 2 reached)\n"
    );
    assert_eq!(daemon.engines().len(), 2);
    a.send("quit\n");
    a.rest();
    daemon.wait_engines(1);
    let mut d = daemon.client();
    d.handshake();
}

#[test]
fn unix_socket_listener_serves_a_session_and_is_private() {
    use std::io::{BufRead as _, BufReader, Write as _};
    use std::os::unix::fs::PermissionsExt as _;
    let dir = test_dir("unix");
    let socket = dir.join("fg.sock");
    let daemon = Daemon::start(
        &dir,
        &config(&dir, &format!("listen = [\"unix:{}\"]", socket.display())),
        "127.0.0.1:{port}",
        &[],
    );
    // --listen overrides serve.listen: only the TCP port is open.
    assert!(!socket.exists());
    drop(daemon);
    let status = std::process::Command::new(FENGUARD)
        .args(["serve", "--config"])
        .arg(dir.join("serve.toml"))
        .arg("--log-dir")
        .arg(dir.join("logs"))
        .args(["--", FAKE_ENGINE])
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut child = status;
    let start = std::time::Instant::now();
    // Served once the daemon says so (it binds, then makes the socket private, then logs): the
    // socket's mode is read then, not between the bind and the chmod.
    let log = dir.join("logs/fenguard.log");
    while !std::fs::read_to_string(&log)
        .unwrap_or_default()
        .contains(&format!("listening on unix:{}", socket.display()))
    {
        assert!(start.elapsed() < PATIENCE, "no socket");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert!(socket.exists());
    let mode = std::fs::metadata(&socket).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
    let mut stream = std::os::unix::net::UnixStream::connect(&socket).unwrap();
    stream.write_all(b"uci\nisready\nquit\n").unwrap();
    let lines: Vec<String> = BufReader::new(stream)
        .lines()
        .map_while(Result::ok)
        .collect();
    assert!(lines.contains(&"uciok".to_owned()) && lines.contains(&"readyok".to_owned()));
    child.kill().unwrap();
    child.wait().unwrap();
}
