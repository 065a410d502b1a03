//! `fenguard serve` admission: tokens, bounded first line, TLS, start-up checks.
#![cfg(unix)]

use crate::serve_support;

use std::io::{BufRead as _, BufReader, Write as _};
use std::process::{Command, Stdio};
use std::time::Duration;

use fenguard::token::hash_hex;
use serve_support::*;

const TOKEN: &str = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

fn with_tokens(dir: &std::path::Path, extra: &str) -> String {
    let tokens = dir.join("tokens");
    std::fs::write(&tokens, format!("{}\n", hash_hex(TOKEN))).unwrap();
    format!("[serve]\ntokens_file = \"{}\"\n{extra}\n", tokens.display())
}

#[test]
fn wrong_or_missing_token_is_refused_before_any_engine_starts() {
    let dir = test_dir("tokens");
    let daemon = Daemon::start(&dir, &with_tokens(&dir, ""), "127.0.0.1:{port}", &[]);
    let mut wrong = daemon.client();
    wrong.send("auth 0000\nuci\n");
    assert_eq!(wrong.rest(), "info string fenguard: refused: wrong token\n");
    let mut missing = daemon.client();
    missing.send("uci\n");
    assert_eq!(
        missing.rest(),
        "info string fenguard: refused: missing token: the first line must be `auth <token>`\n"
    );
    assert_eq!(daemon.engines(), Vec::<u32>::new());
    assert!(!daemon.log().contains("engine started"), "{}", daemon.log());
    let mut good = daemon.client();
    good.send(&format!("auth {TOKEN}\n"));
    good.handshake();
    assert_eq!(daemon.engines().len(), 1);
}

#[test]
fn garbage_or_a_100_mb_line_before_auth_costs_bounded_memory_and_no_engine() {
    let dir = test_dir("garbage");
    let daemon = Daemon::start(&dir, &with_tokens(&dir, ""), "127.0.0.1:{port}", &[]);
    let before = daemon.peak_rss_kib();
    let mut garbage = daemon.client();
    garbage.send("\u{1b}[31m\0\0\u{7f}\n");
    assert_eq!(
        garbage.rest(),
        "info string fenguard: refused: wrong token\n".replace(
            "wrong token",
            "missing token: the first line must be `auth <token>`"
        )
    );
    let mut long = daemon.client();
    let chunk = vec![b'x'; 1 << 20];
    let mut sent = 0usize;
    for _ in 0..100 {
        if long.stream.write_all(&chunk).is_err() {
            break;
        }
        sent += chunk.len();
    }
    let rest = long.rest();
    assert!(
        rest.is_empty() || rest == "info string fenguard: refused: first line over 4096 bytes\n",
        "{rest:?}"
    );
    let after = daemon.peak_rss_kib();
    eprintln!("sent {sent} bytes; daemon peak RSS {before} KiB before, {after} KiB after");
    assert!(
        after < before + 8 * 1024,
        "peak RSS grew from {before} to {after} KiB"
    );
    assert_eq!(daemon.engines(), Vec::<u32>::new());
    daemon.wait_log("refused: first line over 4096 bytes");
}

#[test]
fn tls_with_a_generated_certificate_and_connect() {
    let dir = test_dir("tls");
    let key =
        rcgen::generate_simple_self_signed(vec!["127.0.0.1".to_owned(), "localhost".to_owned()])
            .unwrap();
    std::fs::write(dir.join("cert.pem"), key.cert.pem()).unwrap();
    std::fs::write(dir.join("key.pem"), key.signing_key.serialize_pem()).unwrap();
    std::fs::write(dir.join("token"), format!("{TOKEN}\n")).unwrap();
    let extra = format!(
        "tls_cert = \"{}\"\ntls_key = \"{}\"",
        dir.join("cert.pem").display(),
        dir.join("key.pem").display()
    );
    let daemon = Daemon::start(
        &dir,
        &with_tokens(&dir, &extra),
        "tls://127.0.0.1:{port}",
        &[],
    );
    let addr = format!("tls://127.0.0.1:{}", daemon.port);
    let mut connect = Command::new(FENGUARD)
        .args(["connect", &addr, "--ca"])
        .arg(dir.join("cert.pem"))
        .arg("--token-file")
        .arg(dir.join("token"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = connect.stdin.take().unwrap();
    stdin.write_all(b"uci\nisready\n").unwrap();
    let mut out = BufReader::new(connect.stdout.take().unwrap());
    let mut lines = Vec::new();
    loop {
        let mut line = String::new();
        assert!(out.read_line(&mut line).unwrap() > 0, "{lines:?}");
        if line == "readyok\n" {
            break;
        }
        lines.push(line);
    }
    assert!(lines.contains(&"uciok\n".to_owned()), "{lines:?}");
    stdin.write_all(b"quit\n").unwrap();
    assert!(connect.wait().unwrap().success());

    // Plain TCP to a TLS listener gets no session; connect without the CA refuses the server.
    let mut plain = daemon.client();
    plain.send(&format!("auth {TOKEN}\nuci\n"));
    assert!(!plain.rest().contains("uciok"));
    let untrusted = Command::new(FENGUARD)
        .args([
            "connect",
            &addr,
            "--ca",
            "/etc/ssl/certs/ca-certificates.crt",
        ])
        .env("FENGUARD_TOKEN", TOKEN)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    assert_eq!(untrusted.status.code(), Some(2), "{untrusted:?}");
    std::thread::sleep(Duration::from_millis(100));
    assert_eq!(daemon.engines(), Vec::<u32>::new());
}

#[test]
fn outside_loopback_needs_tls_and_tokens() {
    let dir = test_dir("outside");
    let run = |config: &str| {
        std::fs::write(dir.join("c.toml"), config).unwrap();
        Command::new(FENGUARD)
            .args(["serve", "--listen", "0.0.0.0:7399", "--config"])
            .arg(dir.join("c.toml"))
            .args(["--", FAKE_ENGINE])
            .output()
            .unwrap()
    };
    std::fs::write(dir.join("none"), "# no tokens yet\n").unwrap();
    let no_tokens = run(&format!(
        "[serve]\ntokens_file = \"{}\"\n",
        dir.join("none").display()
    ));
    assert_eq!(no_tokens.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&no_tokens.stderr).contains("not loopback and no tokens"));
    let no_tls = run(&with_tokens(&dir, ""));
    assert_eq!(no_tls.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&no_tls.stderr).contains("needs serve.tls_cert"));
}

#[test]
fn token_new_prints_a_token_and_appends_its_hash() {
    let dir = test_dir("token-new");
    let file = dir.join("sub").join("tokens");
    let run = || {
        let out = Command::new(FENGUARD)
            .args(["token", "new", "--tokens-file"])
            .arg(&file)
            .output()
            .unwrap();
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap()
    };
    let (a, b) = (run(), run());
    assert_eq!(a.len(), 65);
    let hashes = std::fs::read_to_string(&file).unwrap();
    assert_eq!(
        hashes,
        format!("{}\n{}\n", hash_hex(a.trim()), hash_hex(b.trim()))
    );
}
