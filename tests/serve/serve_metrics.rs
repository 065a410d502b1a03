//! `fenguard serve` with `[metrics] listen` (SPEC section 13): `/metrics` before and after a
//! session (positions judged and rejected, an engine hung, killed and restarted, the `isready`
//! round trips), refused connections by reason, `/health`, the listener's HTTP answers, HTTPS,
//! and the loopback rule checked at start.
#![cfg(unix)]

use std::io::{Read as _, Write as _};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::serve_support;

use fenguard::token::hash_hex;
use serve_support::*;

const TOKEN: &str = "metrics-test-token";

/// `[serve]` with no tokens (an empty tokens file), then `extra` (whole sections).
fn no_tokens(dir: &Path, extra: &str) -> String {
    std::fs::write(dir.join("no-tokens"), "").unwrap();
    format!(
        "[serve]\ntokens_file = \"{}\"\n{extra}\n",
        dir.join("no-tokens").display()
    )
}

/// One HTTP/1.0 request; the status code, the headers and the body.
pub(crate) fn request(port: u16, method: &str, path: &str) -> (u16, String, String) {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    stream.set_read_timeout(Some(PATIENCE)).unwrap();
    write!(
        stream,
        "{method} {path} HTTP/1.0\r\nHost: localhost\r\n\r\n"
    )
    .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    parse_response(&response)
}

pub(crate) fn parse_response(response: &str) -> (u16, String, String) {
    let (head, body) = response
        .split_once("\r\n\r\n")
        .unwrap_or_else(|| panic!("not an HTTP response: {response:?}"));
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status: {head:?}"));
    (status, head.to_owned(), body.to_owned())
}

/// `GET /metrics`: the Prometheus text.
fn scrape(port: u16) -> String {
    let (status, head, body) = request(port, "GET", "/metrics");
    assert_eq!(status, 200, "{head}");
    assert!(
        head.to_ascii_lowercase()
            .contains("content-type: text/plain; version=0.0.4"),
        "{head}"
    );
    body
}

/// The value of `series` (a name with its labels, as rendered) in `text`.
fn value(text: &str, series: &str) -> Option<f64> {
    text.lines()
        .find_map(|line| line.strip_prefix(series)?.strip_prefix(' ')?.parse().ok())
}

/// Scrapes until `series` satisfies `want`; its value then.
fn wait_value(port: u16, series: &str, want: impl Fn(f64) -> bool) -> f64 {
    let start = Instant::now();
    loop {
        let text = scrape(port);
        if let Some(v) = value(&text, series)
            && want(v)
        {
            return v;
        }
        assert!(
            start.elapsed() < PATIENCE,
            "{series} never as wanted: {text}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Waits until `/health` answers 200 `ok` (the daemon says so once every listener is up).
pub(crate) fn wait_healthy(port: u16) {
    let start = Instant::now();
    loop {
        let (status, _, body) = request(port, "GET", "/health");
        if status == 200 {
            assert_eq!(body, "ok\n");
            return;
        }
        assert_eq!(status, 503, "{body}");
        assert!(body.starts_with("unhealthy: starting (for "), "{body}");
        assert!(start.elapsed() < PATIENCE, "never healthy: {body}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The metrics port the daemon printed (`metrics listening on SCHEME://HOST:PORT`).
pub(crate) fn printed_port(daemon: &Daemon) -> u16 {
    let start = Instant::now();
    loop {
        let stderr = daemon.stderr();
        if let Some(rest) = stderr.split("metrics listening on ").nth(1) {
            let url = rest.lines().next().unwrap();
            return url.rsplit(':').next().unwrap().parse().unwrap();
        }
        assert!(start.elapsed() < PATIENCE, "no listening line: {stderr}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_session_moves_the_counters_and_the_round_trip_histogram() {
    let dir = test_dir("metrics-session");
    let port = free_port();
    // The first engine ignores `stop` (hung at the end of a search); the second is sound.
    let flag = dir.join("started-once");
    let script = format!(
        "if [ -e '{flag}' ]; then exec '{FAKE_ENGINE}'; else : > '{flag}'; \
         FAKE_ENGINE_IGNORE=stop exec '{FAKE_ENGINE}'; fi",
        flag = flag.display(),
    );
    let extra = format!(
        "[engine]\nping_timeout_ms = 1000\n[positions]\non_invalid = \"reject\"\n\
         [metrics]\nlisten = \"127.0.0.1:{port}\"\n"
    );
    let daemon = Daemon::start_with(
        &dir,
        &no_tokens(&dir, &extra),
        &["127.0.0.1:{port}"],
        &[],
        None,
        &["/bin/sh", "-c", &script],
    );
    wait_healthy(port);
    let before = scrape(port);
    for series in [
        "fenguard_sessions_total",
        "fenguard_sessions_active",
        "fenguard_positions_total{verdict=\"valid\"}",
        "fenguard_positions_total{verdict=\"rejected\"}",
        "fenguard_engine_hangs_total",
        "fenguard_engine_restarts_total",
        "fenguard_auth_refused_total{reason=\"wrong-token\"}",
    ] {
        assert_eq!(value(&before, series), Some(0.0), "{series}: {before}");
    }
    assert!(
        before.contains("# TYPE fenguard_positions_total counter"),
        "{before}"
    );

    let mut client = daemon.client();
    client.handshake();
    client.send("position startpos moves e2e4\nisready\n");
    client.until(|l| l == "readyok");
    client.send("position fen 8/8/8/8/8/8/8/8 w - - 0 1\nisready\n");
    client.until(|l| l == "readyok");
    // The round trip is recorded just after `readyok` is written: wait for the third.
    wait_value(port, "fenguard_relay_seconds_count", |v| v == 3.0);
    let during = scrape(port);
    assert_eq!(
        value(&during, "fenguard_sessions_total"),
        Some(1.0),
        "{during}"
    );
    assert_eq!(
        value(&during, "fenguard_sessions_active"),
        Some(1.0),
        "{during}"
    );
    let valid = "fenguard_positions_total{verdict=\"valid\"}";
    let rejected = "fenguard_positions_total{verdict=\"rejected\"}";
    assert_eq!(value(&during, valid), Some(1.0), "{during}");
    assert_eq!(value(&during, rejected), Some(1.0), "{during}");
    // Three isready round trips, each well under the largest bucket.
    assert_eq!(
        value(&during, "fenguard_relay_seconds_count"),
        Some(3.0),
        "{during}"
    );
    assert_eq!(
        value(&during, "fenguard_relay_seconds_bucket{le=\"2.5\"}"),
        Some(3.0),
        "{during}"
    );
    assert!(
        value(&during, "fenguard_relay_seconds_sum").unwrap() > 0.0,
        "{during}"
    );

    // A search whose `stop` gets no bestmove: hung, killed, restarted.
    client.send("position startpos\ngo infinite\n");
    std::thread::sleep(Duration::from_millis(50));
    client.send("stop\n");
    client.until(|l| l.starts_with("bestmove"));
    wait_value(port, "fenguard_engine_hangs_total", |v| v == 1.0);
    wait_value(port, "fenguard_engine_restarts_total", |v| v == 1.0);
    client.send("isready\n");
    client.until(|l| l == "readyok");
    wait_value(port, "fenguard_relay_seconds_count", |v| v == 4.0);
    let after = scrape(port);
    assert!(
        value(&after, "fenguard_searches_total").unwrap() >= 1.0,
        "{after}"
    );
    assert_eq!(
        value(&after, "fenguard_relay_seconds_count"),
        Some(4.0),
        "{after}"
    );
    assert_eq!(value(&after, valid), Some(2.0), "{after}");

    client.send("quit\n");
    wait_value(port, "fenguard_sessions_active", |v| v == 0.0);
    assert_eq!(value(&scrape(port), "fenguard_sessions_total"), Some(1.0));
}

#[test]
fn refused_connections_are_counted_by_reason_on_a_port_chosen_at_start() {
    let dir = test_dir("metrics-refused");
    let tokens = dir.join("tokens");
    std::fs::write(&tokens, format!("{}\n", hash_hex(TOKEN))).unwrap();
    let config = format!(
        "[serve]\ntokens_file = \"{}\"\nmax_sessions = 1\n[metrics]\nlisten = \"127.0.0.1:0\"\n",
        tokens.display()
    );
    let daemon = Daemon::start(&dir, &config, "127.0.0.1:{port}", &[]);
    let port = printed_port(&daemon);
    assert!(
        daemon.stderr().contains(&format!(
            "fenguard: metrics listening on http://127.0.0.1:{port}"
        )),
        "{}",
        daemon.stderr()
    );

    let mut wrong = daemon.client();
    wrong.send("auth not-the-token\nuci\n");
    assert!(wrong.rest().contains("refused: wrong token"));
    let mut missing = daemon.client();
    missing.send("uci\n");
    assert!(missing.rest().contains("refused: missing token"));
    let mut admitted = daemon.client();
    admitted.send(&format!("auth {TOKEN}\n"));
    admitted.handshake();
    let mut busy = daemon.client();
    busy.send(&format!("auth {TOKEN}\nuci\n"));
    assert!(busy.rest().contains("server busy"));

    let text = scrape(port);
    for (reason, n) in [
        ("wrong-token", 1.0),
        ("missing-token", 1.0),
        ("too-many", 1.0),
        ("not-uci", 0.0),
    ] {
        let series = format!("fenguard_auth_refused_total{{reason=\"{reason}\"}}");
        assert_eq!(value(&text, &series), Some(n), "{series}: {text}");
    }
    assert_eq!(value(&text, "fenguard_sessions_total"), Some(1.0), "{text}");
    assert_eq!(
        value(&text, "fenguard_sessions_active"),
        Some(1.0),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "fenguard_build_info{{version=\"{}\"}} 1",
            env!("CARGO_PKG_VERSION")
        )),
        "{text}"
    );
    // Jobs are `provide`'s: not in the daemon's output.
    assert!(!text.contains("fenguard_jobs_total"), "{text}");

    wait_healthy(port);
    assert_eq!(request(port, "GET", "/").0, 404);
    assert_eq!(request(port, "GET", "/metrics?x=1").0, 200);
    let (status, head, _) = request(port, "POST", "/metrics");
    assert_eq!(status, 405);
    assert!(
        head.to_ascii_lowercase().contains("allow: get, head"),
        "{head}"
    );
    admitted.send("quit\n");
}

#[test]
fn a_listen_outside_loopback_without_tls_is_refused_at_start() {
    let dir = test_dir("metrics-not-loopback");
    let config_path = dir.join("serve.toml");
    std::fs::write(
        &config_path,
        no_tokens(&dir, "[metrics]\nlisten = \"0.0.0.0:9355\"\n"),
    )
    .unwrap();
    let mut child = Command::new(FENGUARD)
        .arg("serve")
        .arg("--config")
        .arg(&config_path)
        .arg("--log-dir")
        .arg(dir.join("logs"))
        .args(["--listen", &format!("127.0.0.1:{}", free_port())])
        .arg("--")
        .arg(FAKE_ENGINE)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(dir.join("stderr")).unwrap())
        .spawn()
        .unwrap();
    assert_eq!(wait_exit(&mut child, PATIENCE), Some(Some(2)));
    let stderr = std::fs::read_to_string(dir.join("stderr")).unwrap();
    assert!(
        stderr.contains(
            "fenguard: metrics.listen 0.0.0.0:9355 is not loopback: set metrics.tls_cert and metrics.tls_key"
        ),
        "{stderr}"
    );
}

#[test]
fn https_outside_loopback_with_a_certificate() {
    let dir = test_dir("metrics-https");
    let key = rcgen::generate_simple_self_signed(vec!["127.0.0.1".to_owned()]).unwrap();
    std::fs::write(dir.join("cert.pem"), key.cert.pem()).unwrap();
    std::fs::write(dir.join("key.pem"), key.signing_key.serialize_pem()).unwrap();
    let extra = format!(
        "[metrics]\nlisten = \"0.0.0.0:0\"\ntls_cert = \"{}\"\ntls_key = \"{}\"\n",
        dir.join("cert.pem").display(),
        dir.join("key.pem").display()
    );
    let daemon = Daemon::start(&dir, &no_tokens(&dir, &extra), "127.0.0.1:{port}", &[]);
    let port = printed_port(&daemon);
    assert!(
        daemon
            .stderr()
            .contains("metrics listening on https://0.0.0.0:"),
        "{}",
        daemon.stderr()
    );

    let config = fenguard::serve::tls::client_config(Some(&dir.join("cert.pem"))).unwrap();
    let name = rustls::pki_types::ServerName::try_from("127.0.0.1").unwrap();
    let connection = rustls::ClientConnection::new(config, name).unwrap();
    let tcp = TcpStream::connect(("127.0.0.1", port)).unwrap();
    tcp.set_read_timeout(Some(PATIENCE)).unwrap();
    let mut tls = rustls::StreamOwned::new(connection, tcp);
    tls.write_all(b"GET /metrics HTTP/1.0\r\nHost: localhost\r\n\r\n")
        .unwrap();
    let mut response = Vec::new();
    // The server closes after an HTTP/1.0 answer; a missing close_notify is not an error here.
    let _ = tls.read_to_end(&mut response);
    let (status, _, body) = parse_response(&String::from_utf8(response).unwrap());
    assert_eq!(status, 200);
    assert_eq!(
        value(&body, "fenguard_sessions_active"),
        Some(0.0),
        "{body}"
    );

    // Plain HTTP to the HTTPS listener gets no metrics.
    let mut plain = TcpStream::connect(("127.0.0.1", port)).unwrap();
    plain.set_read_timeout(Some(PATIENCE)).unwrap();
    plain.write_all(b"GET /metrics HTTP/1.0\r\n\r\n").unwrap();
    let mut answer = Vec::new();
    let _ = plain.read_to_end(&mut answer);
    assert!(
        !String::from_utf8_lossy(&answer).contains("fenguard_"),
        "{answer:?}"
    );
}
