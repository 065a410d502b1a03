//! The metrics listener under slow clients: connections that never finish their headers from
//! one address do not keep `/health` from being answered (a per-address cap that drops that
//! address's oldest connection, a total cap, and a header-read timeout).
#![cfg(unix)]

use std::io::{Read as _, Write as _};
use std::net::TcpStream;

use crate::serve_metrics::{parse_response, printed_port, wait_healthy};
use crate::serve_support::*;

/// One `GET /health`; its status, or `None` when the connection ended without an answer.
fn probe(port: u16) -> Option<u16> {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).ok()?;
    stream.set_read_timeout(Some(PATIENCE)).unwrap();
    stream
        .write_all(b"GET /health HTTP/1.0\r\nHost: localhost\r\n\r\n")
        .ok()?;
    let mut response = String::new();
    stream.read_to_string(&mut response).ok()?;
    response
        .contains("\r\n\r\n")
        .then(|| parse_response(&response).0)
}

fn daemon(dir: &std::path::Path, metrics: &str) -> Daemon {
    std::fs::write(dir.join("no-tokens"), "").unwrap();
    let config = format!(
        "[serve]\ntokens_file = \"{}\"\n[metrics]\nlisten = \"127.0.0.1:0\"\n{metrics}",
        dir.join("no-tokens").display()
    );
    Daemon::start(dir, &config, "127.0.0.1:{port}", &[])
}

#[test]
fn forty_slow_header_connections_from_one_address_leave_health_answered() {
    let dir = test_dir("metrics-slow");
    // Headers may take a minute: only the caps make room here.
    let daemon = daemon(&dir, "header_timeout_ms = 60000\n");
    let port = printed_port(&daemon);
    wait_healthy(port);
    // A scraper's keep-alive connection, answered once before the flood.
    let mut scraper = TcpStream::connect(("127.0.0.1", port)).unwrap();
    scraper.set_read_timeout(Some(PATIENCE)).unwrap();
    assert!(keep_alive_health(&mut scraper));
    // Half send nothing, half the start of a request line and no more.
    let slow: Vec<TcpStream> = (0..40)
        .map(|i| {
            let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
            if i % 2 == 1 {
                stream.write_all(b"GET /hea").unwrap();
            }
            stream
        })
        .collect();
    let answered = (0..24).filter(|_| probe(port) == Some(200)).count();
    eprintln!("{answered} of 24 /health probes answered");
    assert_eq!(answered, 24);
    assert!(
        keep_alive_health(&mut scraper),
        "the scraper's connection was dropped"
    );
    drop(slow);
}

/// `GET /health` on a kept-alive connection; whether `ok` came back.
fn keep_alive_health(stream: &mut TcpStream) -> bool {
    let request = b"GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n";
    if stream.write_all(request).is_err() {
        return false;
    }
    let mut answer = Vec::new();
    let mut byte = [0u8; 1];
    while !answer.ends_with(b"\r\n\r\nok\n") {
        match stream.read(&mut byte) {
            Ok(1) => answer.push(byte[0]),
            _ => return false,
        }
    }
    answer.starts_with(b"HTTP/1.1 200")
}

#[test]
fn a_connection_that_trickles_its_headers_is_closed_after_header_timeout_ms() {
    let dir = test_dir("metrics-trickle");
    let daemon = daemon(&dir, "header_timeout_ms = 300\n");
    let port = printed_port(&daemon);
    wait_healthy(port);
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    stream.set_read_timeout(Some(PATIENCE)).unwrap();
    let mut writer = stream.try_clone().unwrap();
    // A byte every 50 ms, never a whole request, until the listener closes the connection.
    let trickle = std::thread::spawn(move || {
        for byte in b"GET /health HTTP/1.1\r\nX-Slow: "
            .iter()
            .cycle()
            .take(2000)
        {
            if writer.write_all(&[*byte]).is_err() {
                return true;
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        false
    });
    let mut answer = Vec::new();
    let ended = stream.read_to_end(&mut answer);
    assert!(
        ended.is_ok() || ended.as_ref().unwrap_err().kind() == std::io::ErrorKind::ConnectionReset,
        "not closed: {ended:?}"
    );
    let _ = stream.shutdown(std::net::Shutdown::Both);
    assert!(trickle.join().unwrap(), "the writes went on");
    assert_eq!(probe(port), Some(200));
}

#[test]
fn a_metrics_limit_of_zero_is_a_configuration_error_naming_the_key() {
    let dir = test_dir("metrics-zero");
    std::fs::write(
        dir.join("c.toml"),
        "[metrics]\nlisten = \"127.0.0.1:0\"\nmax_connections = 0\n",
    )
    .unwrap();
    let out = std::process::Command::new(FENGUARD)
        .args([
            "serve",
            "--listen",
            &format!("127.0.0.1:{}", free_port()),
            "--config",
        ])
        .arg(dir.join("c.toml"))
        .args(["--log-dir"])
        .arg(dir.join("logs"))
        .args(["--", FAKE_ENGINE])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("metrics.max_connections"),
        "{out:?}"
    );
}
