//! `fenguard serve` held against hostile clients: pre-auth floods, the per-address cap, the
//! first line, refusal back-off, the Unix socket of a second daemon, log retention, caps.
#![cfg(unix)]

use crate::serve_support;

use std::io::{Read as _, Write as _};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use fenguard::token::hash_hex;
use serve_support::*;

const TOKEN: &str = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

fn with_tokens(dir: &std::path::Path, extra: &str) -> String {
    let tokens = dir.join("tokens");
    std::fs::write(&tokens, format!("{}\n", hash_hex(TOKEN))).unwrap();
    let mode = std::os::unix::fs::PermissionsExt::from_mode(0o600);
    std::fs::set_permissions(&tokens, mode).unwrap();
    format!("[serve]\ntokens_file = \"{}\"\n{extra}\n", tokens.display())
}

/// Whether the server closes `stream` within `limit` without sending anything.
fn closed_silently(mut stream: TcpStream, limit: Duration) -> bool {
    stream.set_read_timeout(Some(limit)).unwrap();
    let mut buf = [0u8; 256];
    matches!(stream.read(&mut buf), Ok(0))
        || matches!(stream.read(&mut buf), Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset)
}

#[test]
fn a_flood_of_idle_connections_leaves_room_for_clients_with_a_token() {
    let dir = test_dir("flood");
    let config = with_tokens(
        &dir,
        "max_sessions = 4\nmax_startups = \"5:30:40\"\nmax_startups_per_addr = 0",
    );
    let daemon = Daemon::start_with(&dir, &config, &["127.0.0.1:{port}"], &[], Some(200), &[]);
    let mut idle = Vec::new();
    let start = Instant::now();
    while idle.len() < 400 && start.elapsed() < Duration::from_secs(20) {
        if let Ok(stream) = TcpStream::connect(("127.0.0.1", daemon.port)) {
            idle.push(stream);
        }
    }
    let fds = daemon.fds();
    assert!(fds < 200, "daemon holds {fds} descriptors");
    for round in 0..3 {
        eprintln!("round {round}: {} descriptors", daemon.fds());
        let mut good = daemon.client();
        good.send(&format!("auth {TOKEN}\n"));
        good.handshake();
        eprintln!(
            "round {round}: in, with {} idle connections open, {fds} fds",
            idle.len()
        );
    }
    assert!(
        !daemon.log().contains("cannot duplicate"),
        "{}",
        daemon.log()
    );
}

#[test]
fn one_address_over_its_pre_auth_cap_loses_its_oldest_connection() {
    let dir = test_dir("per-addr");
    let daemon = Daemon::start(
        &dir,
        &with_tokens(&dir, "max_startups_per_addr = 3"),
        "127.0.0.1:{port}",
        &[],
    );
    std::thread::sleep(Duration::from_millis(200)); // the start-up probe's place is free
    let mut held: Vec<TcpStream> = (0..3)
        .map(|_| TcpStream::connect(("127.0.0.1", daemon.port)).unwrap())
        .collect();
    std::thread::sleep(Duration::from_millis(200));
    let mut good = daemon.client();
    let oldest = held.remove(0);
    assert!(closed_silently(oldest, Duration::from_secs(3)));
    good.send(&format!("auth {TOKEN}\n"));
    good.handshake();
}

#[test]
fn an_http_request_without_tokens_is_refused_and_reaches_no_engine() {
    let dir = test_dir("http");
    let record = dir.join("engine-input");
    let config = format!(
        "[serve]\ntokens_file = \"{}\"\n",
        dir.join("empty").display()
    );
    std::fs::write(dir.join("empty"), "").unwrap();
    let record_env = record.display().to_string();
    let daemon = Daemon::start(
        &dir,
        &config,
        "127.0.0.1:{port}",
        &[("FAKE_ENGINE_RECORD", &record_env)],
    );
    let mut http = daemon.client();
    http.send("POST / HTTP/1.1\r\nHost: 127.0.0.1:7355\r\nContent-Length: 4\r\n\r\nuci\n");
    assert_eq!(
        http.rest(),
        "info string fenguard: refused: first line is not a UCI command\n"
    );
    let mut vt = daemon.client();
    vt.send("\x0buci\x0c\n");
    vt.until(|l| l == "uciok");
    std::thread::sleep(Duration::from_millis(200));
    let seen = std::fs::read_to_string(&record).unwrap_or_default();
    assert!(!seen.contains("POST") && !seen.contains("Host"), "{seen:?}");
}

#[test]
fn failed_auth_lines_are_delayed_more_each_time_and_logged_once_per_source() {
    let dir = test_dir("backoff");
    let daemon = Daemon::start(&dir, &with_tokens(&dir, ""), "127.0.0.1:{port}", &[]);
    let mut took = Vec::new();
    for _ in 0..5 {
        let start = Instant::now();
        let mut wrong = daemon.client();
        wrong.send("auth 0000\n");
        assert_eq!(wrong.rest(), "info string fenguard: refused: wrong token\n");
        took.push(start.elapsed());
    }
    eprintln!("refusals took {took:?}");
    // The delay is judged from below (the daemon's own 800 ms), and the undelayed answers
    // against it, not against a wall-clock bound a loaded machine can break.
    assert!(took[4] >= Duration::from_millis(800), "{took:?}");
    assert!(
        took[0] < took[4] / 2,
        "the first refusal waits no back-off: {took:?}"
    );
    let mut good = daemon.client();
    let start = Instant::now();
    good.send(&format!("auth {TOKEN}\n"));
    good.handshake();
    let good_took = start.elapsed();
    assert!(
        good_took < took[4] * 4,
        "a right token waits no back-off of the wrong ones (its engine start aside): {good_took:?} against {took:?}"
    );
    let log = daemon.log();
    assert_eq!(log.matches("refused: wrong token").count(), 1, "{log}");
}

#[test]
fn a_second_daemon_on_the_same_unix_path_refuses_and_leaves_the_first_alone() {
    let dir = test_dir("unix-twice");
    let sock = dir.join("fg.sock");
    let unix = format!("unix:{}", sock.display());
    let config = format!(
        "[serve]\ntokens_file = \"{}\"\n",
        dir.join("empty").display()
    );
    std::fs::write(dir.join("empty"), "").unwrap();
    let mut first = Daemon::start_with(&dir, &config, &["127.0.0.1:{port}", &unix], &[], None, &[]);
    let mut second = Command::new(FENGUARD)
        .args(["serve", "--config"])
        .arg(dir.join("serve.toml"))
        .args(["--listen", &unix, "--", FAKE_ENGINE])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(dir.join("second.stderr")).unwrap())
        .spawn()
        .unwrap();
    let code = wait_exit(&mut second, PATIENCE);
    let _ = second.kill();
    let _ = second.wait();
    assert_eq!(code, Some(Some(2)));
    let stderr = std::fs::read_to_string(dir.join("second.stderr")).unwrap();
    assert!(stderr.contains("another fenguard serve"), "{stderr}");
    let mut client = std::os::unix::net::UnixStream::connect(&sock).unwrap();
    client.write_all(b"uci\nquit\n").unwrap();
    let mut out = String::new();
    let _ = client.read_to_string(&mut out);
    assert!(out.contains("uciok"), "{out}");
    // A stale socket left by a killed daemon is replaced; at exit the daemon removes its own.
    first.signal("KILL");
    first.wait_exit(PATIENCE);
    assert!(sock.exists());
    let mut third = Daemon::start_with(&dir, &config, &["127.0.0.1:{port}", &unix], &[], None, &[]);
    assert!(std::os::unix::net::UnixStream::connect(&sock).is_ok());
    third.signal("TERM");
    assert_eq!(third.wait_exit(PATIENCE), Some(Some(0)));
    assert!(!sock.exists());
}

#[test]
fn session_positions_logs_beyond_keep_session_logs_are_removed() {
    let dir = test_dir("keep-logs");
    let daemon = Daemon::start(
        &dir,
        &with_tokens(&dir, "keep_session_logs = 2"),
        "127.0.0.1:{port}",
        &[],
    );
    for _ in 0..4 {
        let mut client = daemon.client();
        client.send(&format!("auth {TOKEN}\nposition startpos\n"));
        client.handshake();
        client.send("quit\n");
        let _ = client.rest();
        std::thread::sleep(Duration::from_millis(50));
    }
    let logs: Vec<String> = std::fs::read_dir(dir.join("logs"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("positions-"))
        .collect();
    assert_eq!(logs.len(), 2, "{logs:?}");
}

#[test]
fn unset_caps_come_from_the_machine_and_are_printed_at_start() {
    let dir = test_dir("caps");
    let threads = "option name Threads type spin default 1 min 1 max 1024";
    let daemon = Daemon::start(
        &dir,
        &with_tokens(&dir, ""),
        "127.0.0.1:{port}",
        &[("FAKE_ENGINE_EXTRA_OPTION", threads)],
    );
    let cores = std::thread::available_parallelism().unwrap().get();
    assert!(
        daemon
            .stderr()
            .contains(&format!("caps max_threads {cores}, max_hash_mb ")),
        "{}",
        daemon.stderr()
    );
    let mut client = daemon.client();
    client.send(&format!("auth {TOKEN}\n"));
    client.handshake();
    client.send("setoption name Threads value 1000\n");
    let line = client.until(|l| l.contains("Threads clamped"));
    assert!(
        line.starts_with(&format!(
            "info string fenguard: Threads clamped to {cores} "
        )),
        "{line}"
    );
}

#[test]
fn an_option_whose_replay_kills_the_engine_is_dropped_after_one_retry() {
    let dir = test_dir("blame");
    let daemon = Daemon::start(
        &dir,
        &with_tokens(&dir, "max_hash_mb = 0"),
        "127.0.0.1:{port}",
        &[("FAKE_ENGINE_DIE_ON_OPTION", "Hash")],
    );
    let mut client = daemon.client();
    client.send(&format!("auth {TOKEN}\n"));
    client.handshake();
    client.send("setoption name Hash value 64\nisready\n");
    client.until(|l| l.contains("setoption Hash made the engine exit"));
    client.until(|l| l.contains("engine restarted"));
    client.send("isready\n");
    client.until(|l| l == "readyok");
}

/// A UCI engine in sh that dies at `go` once `Threads 1000` was set: an engine whose memory
/// runs out when it searches with the threads it accepted (and answered `readyok` for).
const DIES_AT_GO_AFTER_THREADS: &str = r#"
while read -r line; do
  case "$line" in
    uci) echo "id name BigThreads"; echo "option name Threads type spin default 1 min 1 max 1024"; echo uciok ;;
    isready) echo readyok ;;
    "setoption name Threads value 1000") big=1 ;;
    go*) if [ -n "$big" ]; then kill -9 $$; fi; echo "bestmove e2e4" ;;
    quit) exit 0 ;;
  esac
done
"#;

#[test]
fn an_option_the_engine_dies_of_after_readyok_is_not_replayed_forever() {
    let dir = test_dir("blame-late");
    let daemon = Daemon::start_with(
        &dir,
        &with_tokens(&dir, "max_threads = 0"),
        &["127.0.0.1:{port}"],
        &[],
        None,
        &["/bin/sh", "-c", DIES_AT_GO_AFTER_THREADS],
    );
    let mut client = daemon.client();
    client.send(&format!("auth {TOKEN}\n"));
    client.handshake();
    client.send("setoption name Threads value 1000\nisready\n");
    client.until(|l| l == "readyok");
    for _ in 0..3 {
        client.send("position startpos\ngo depth 1\n");
        client.until(|l| l.starts_with("bestmove"));
    }
    client.send("isready\n");
    client.until(|l| l == "readyok");
    client.send("go depth 1\n");
    let best = client.until(|l| l.starts_with("bestmove"));
    assert_eq!(best, "bestmove e2e4", "seen {:?}", client.seen);
}
