//! Tokens of `fenguard serve` and what `fenguard connect` does with them: a configured tokens
//! file that is missing, SIGHUP reloads, labels, list and revoke, loose permissions, refusals,
//! plain TCP to a TLS port, no token in clear text outside loopback.
#![cfg(unix)]

use crate::serve_support;

use std::io::Write as _;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use fenguard::token::hash_hex;
use serve_support::*;

const A: &str = "aaaa0123456789abcdef0123456789abcdef0123456789abcdef0123456789ab";
const B: &str = "bbbb0123456789abcdef0123456789abcdef0123456789abcdef0123456789ab";

fn tokens_config(dir: &Path, tokens: &[&str]) -> String {
    let file = dir.join("tokens");
    let text: String = tokens
        .iter()
        .map(|t| format!("{}\n", hash_hex(t)))
        .collect();
    std::fs::write(&file, text).unwrap();
    let mode = std::os::unix::fs::PermissionsExt::from_mode(0o600);
    std::fs::set_permissions(&file, mode).unwrap();
    format!("[serve]\ntokens_file = \"{}\"\n", file.display())
}

fn token(args: &[&str], file: &Path) -> Output {
    Command::new(FENGUARD)
        .arg("token")
        .args(args)
        .arg("--tokens-file")
        .arg(file)
        .output()
        .unwrap()
}

/// `fenguard connect ADDR` with `token` in `FENGUARD_TOKEN`, `input` on stdin.
fn connect(addr: &str, token: &str, input: &[u8]) -> Output {
    let mut child = Command::new(FENGUARD)
        .args(["connect", addr])
        .env("FENGUARD_TOKEN", token)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    child.wait_with_output().unwrap()
}

#[test]
fn a_configured_tokens_file_that_is_missing_stops_the_daemon_with_exit_2() {
    let dir = test_dir("missing-tokens");
    std::fs::write(
        dir.join("c.toml"),
        format!(
            "[serve]\ntokens_file = \"{}\"\n",
            dir.join("nope").display()
        ),
    )
    .unwrap();
    let mut child = Command::new(FENGUARD)
        .args([
            "serve",
            "--listen",
            &format!("127.0.0.1:{}", free_port()),
            "--config",
        ])
        .arg(dir.join("c.toml"))
        .args(["--", FAKE_ENGINE])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let code = wait_exit(&mut child, PATIENCE);
    let _ = child.kill();
    assert_eq!(code, Some(Some(2)));
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("nope") && stderr.contains("tokens_file"),
        "{stderr}"
    );
}

/// A new token labelled `label` in `file`, through `fenguard token new`.
fn new_token(file: &Path, label: &str) -> String {
    let out = token(&["new", "--label", label], file);
    assert!(out.status.success(), "{out:?}");
    String::from_utf8(out.stdout).unwrap().trim().to_owned()
}

/// The engine pid of the session of `client`, from the daemon's `session ... started` line.
fn engine_of(daemon: &Daemon, client: &Client) -> u32 {
    let peer = format!(
        "connection {}: session",
        client.stream.local_addr().unwrap()
    );
    daemon.wait_log(&peer);
    let log = daemon.log();
    let line = log.lines().find(|l| l.contains(&peer)).unwrap();
    let pid = line.split("engine pid Some(").nth(1).unwrap();
    pid.split(')').next().unwrap().parse().unwrap()
}

#[test]
fn sighup_ends_the_open_sessions_of_a_revoked_token_and_only_those() {
    let dir = test_dir("sighup");
    let file = dir.join("tokens");
    let (alice, bob) = (new_token(&file, "alice"), new_token(&file, "bob"));
    let config = format!("[serve]\ntokens_file = \"{}\"\n", file.display());
    let mut daemon = Daemon::start(&dir, &config, "127.0.0.1:{port}", &[]);
    let mut revoked = daemon.client();
    revoked.send(&format!("auth {alice}\n"));
    revoked.handshake();
    let mut kept = daemon.client();
    kept.send(&format!("auth {bob}\n"));
    kept.handshake();
    let (alice_engine, bob_engine) = (engine_of(&daemon, &revoked), engine_of(&daemon, &kept));
    assert!(token(&["revoke", "alice"], &file).status.success());
    daemon.signal("HUP");
    revoked.until(|l| l == "info string fenguard: access revoked; session ending");
    assert_eq!(revoked.rest(), "", "nothing after the notice, then the end");
    wait_gone(&[alice_engine], PATIENCE);
    daemon.wait_log("SIGHUP: reloaded 1 tokens");
    daemon.wait_log("SIGHUP: token alice ");
    daemon.wait_log(", token revoked");
    let mut again = daemon.client();
    again.send(&format!("auth {alice}\n"));
    assert_eq!(again.rest(), "info string fenguard: refused: wrong token\n");
    kept.send("isready\n");
    kept.until(|l| l == "readyok");
    assert!(alive(bob_engine));
    assert_eq!(daemon.wait_exit(Duration::ZERO), None);
    daemon.signal("TERM");
    assert_eq!(daemon.wait_exit(PATIENCE), Some(Some(0)));
}

#[test]
fn sighup_leaves_tokenless_sessions_alone_even_when_tokens_appear() {
    let dir = test_dir("sighup-tokenless");
    let daemon = Daemon::start(&dir, &tokens_config(&dir, &[]), "127.0.0.1:{port}", &[]);
    let mut open = daemon.client();
    open.handshake();
    std::fs::write(dir.join("tokens"), format!("{}\n", hash_hex(A))).unwrap();
    daemon.signal("HUP");
    daemon.wait_log("SIGHUP: reloaded 1 tokens");
    open.send("isready\n");
    open.until(|l| l == "readyok");
    assert!(!daemon.log().contains("revoked:"), "{}", daemon.log());
}

#[test]
fn token_labels_list_and_revoke() {
    let dir = test_dir("token-cli");
    let file = dir.join("tokens");
    let laptop = token(&["new", "--label", "laptop"], &file);
    assert!(laptop.status.success(), "{laptop:?}");
    let secret = String::from_utf8(laptop.stdout).unwrap();
    assert!(token(&["new"], &file).status.success());
    let twice = token(&["new", "--label", "laptop"], &file);
    assert_eq!(twice.status.code(), Some(2));
    let list = String::from_utf8(token(&["list"], &file).stdout).unwrap();
    let prefix = &hash_hex(secret.trim())[..12];
    assert!(list.starts_with(&format!("laptop {prefix}\n- ")), "{list}");
    assert!(!list.contains(secret.trim()), "{list}");
    assert!(token(&["revoke", "laptop"], &file).status.success());
    let list = String::from_utf8(token(&["list"], &file).stdout).unwrap();
    assert!(
        list.starts_with("- ") && list.lines().count() == 1,
        "{list}"
    );

    // Two hashes sharing a prefix: the prefix is ambiguous, a longer one is not.
    let old = format!("{}\n", std::fs::read_to_string(&file).unwrap().trim());
    let twins = format!(
        "{old}abcd{}\nabce{} old-style\n",
        "0".repeat(60),
        "1".repeat(60)
    );
    std::fs::write(&file, twins).unwrap();
    let ambiguous = token(&["revoke", "abc"], &file);
    assert_eq!(ambiguous.status.code(), Some(2));
    let ambiguous = token(&["revoke", "abcd0"], &file);
    assert!(ambiguous.status.success());
    let four = token(&["revoke", "abce"], &file);
    assert!(four.status.success(), "{four:?}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), old);
}

#[test]
fn a_tokens_file_readable_by_others_is_warned_about_at_start() {
    let dir = test_dir("loose");
    let config = tokens_config(&dir, &[A]);
    let mode = std::os::unix::fs::PermissionsExt::from_mode(0o644);
    std::fs::set_permissions(dir.join("tokens"), mode).unwrap();
    let daemon = Daemon::start(&dir, &config, "127.0.0.1:{port}", &[]);
    // stderr is written by the logging's own thread: it may come just after the listener.
    let warned = crate::common::wait_until(|| {
        daemon
            .stderr()
            .contains("readable by group or others")
            .then_some(())
    });
    assert!(warned.is_some(), "{}", daemon.stderr());
    daemon.wait_log("readable by group or others");
}

#[test]
fn a_refused_connect_exits_1_with_the_reason_on_stderr() {
    let dir = test_dir("connect-refused");
    let daemon = Daemon::start(&dir, &tokens_config(&dir, &[A]), "127.0.0.1:{port}", &[]);
    let out = connect(&format!("127.0.0.1:{}", daemon.port), B, b"uci\nquit\n");
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("refused by 127.0.0.1:") && stderr.contains("wrong token"),
        "{stderr}"
    );
}

#[test]
fn an_empty_token_file_is_an_error_before_connecting() {
    let dir = test_dir("connect-empty-token");
    let empty = dir.join("empty-token");
    std::fs::write(&empty, "\n").unwrap();
    // Nothing listens on port 1: the error must come before any connection is tried.
    let out = Command::new(FENGUARD)
        .args([
            "connect",
            "127.0.0.1:1",
            "--token-file",
            empty.to_str().unwrap(),
        ])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("is empty"), "{stderr}");
    assert!(!stderr.contains("cannot connect to"), "{stderr}");
}

#[test]
fn plain_connect_to_a_tls_port_relays_no_tls_bytes_and_names_tls() {
    let dir = test_dir("plain-to-tls");
    let key = rcgen::generate_simple_self_signed(vec!["127.0.0.1".to_owned()]).unwrap();
    std::fs::write(dir.join("cert.pem"), key.cert.pem()).unwrap();
    std::fs::write(dir.join("key.pem"), key.signing_key.serialize_pem()).unwrap();
    let config = format!(
        "{}tls_cert = \"{}\"\ntls_key = \"{}\"\n",
        tokens_config(&dir, &[A]),
        dir.join("cert.pem").display(),
        dir.join("key.pem").display()
    );
    let daemon = Daemon::start(&dir, &config, "tls://127.0.0.1:{port}", &[]);
    let out = connect(&format!("127.0.0.1:{}", daemon.port), A, b"uci\n");
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(
        out.stdout
            .iter()
            .all(|&b| b == b'\n' || (0x20..0x7f).contains(&b)),
        "{:?}",
        out.stdout
    );
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("tls://"),
        "{out:?}"
    );
}

#[test]
fn connect_never_sends_a_token_over_plain_tcp_outside_loopback() {
    // In a network namespace of its own (only a down loopback): nothing can leave this machine.
    let out = Command::new("unshare")
        .args(["-rn", FENGUARD, "connect", "192.0.2.1:7355"])
        .env("FENGUARD_TOKEN", A)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("tls://192.0.2.1:7355") && stderr.contains("plain TCP"),
        "{stderr}"
    );
}
