//! Helpers for the dead-peer tests: two network namespaces joined by a veth pair (the daemon
//! in one, its clients in the other, a link the test cuts silently), a daemon started inside
//! one, and a GUI on `fenguard connect` whose every line is timestamped as it arrives.
#![allow(dead_code)]

use std::io::{BufRead as _, BufReader, Write as _};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// What SPEC section 12 allows for noticing a dead peer.
pub const LIMIT: Duration = Duration::from_secs(30);

fn ip(args: &[&str]) -> Result<(), String> {
    let out = Command::new("ip")
        .args(args)
        .output()
        .map_err(|e| format!("cannot run `ip`: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "`ip {}`: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr).trim()
        ))
    }
}

/// Namespaces this test binary made start with this, then its pid.
const PREFIX: &str = "fgdp";

/// Two namespaces, `a` (`ip_a`) and `b` (`ip_b`), joined by a veth pair; deleted when dropped.
pub struct Pair {
    pub a: String,
    pub b: String,
    pub ip_a: String,
    pub ip_b: String,
    veth_a: String,
    veth_b: String,
}

impl Pair {
    /// Pair number `n` (one per test). Without root or `ip`, under `CI=true` the test fails;
    /// elsewhere it says so on stderr and gets `None` (the caller returns: a visible skip).
    pub fn require(n: u8) -> Option<Pair> {
        match Pair::new(n) {
            Ok(pair) => Some(pair),
            Err(why) => {
                assert!(
                    std::env::var("CI").as_deref() != Ok("true"),
                    "network namespaces unavailable under CI (root and iproute2 needed): {why}"
                );
                eprintln!(
                    "SKIPPED: network namespaces unavailable (root and iproute2 needed): {why}"
                );
                crate::common::skipped("network-namespaces");
                None
            }
        }
    }

    fn new(n: u8) -> Result<Pair, String> {
        sweep();
        let pid = std::process::id() % 100_000;
        let pair = Pair {
            a: format!("{PREFIX}{pid}-{n}a"),
            b: format!("{PREFIX}{pid}-{n}b"),
            ip_a: format!("10.203.{n}.1"),
            ip_b: format!("10.203.{n}.2"),
            veth_a: format!("fg{pid}a{n}"),
            veth_b: format!("fg{pid}b{n}"),
        };
        // From here on a failure deletes what was made (Drop).
        ip(&["netns", "add", &pair.a])?;
        ip(&["netns", "add", &pair.b])?;
        ip(&[
            "link",
            "add",
            &pair.veth_a,
            "type",
            "veth",
            "peer",
            "name",
            &pair.veth_b,
        ])?;
        ip(&["link", "set", &pair.veth_a, "netns", &pair.a])?;
        ip(&["link", "set", &pair.veth_b, "netns", &pair.b])?;
        for (ns, veth, addr) in [
            (&pair.a, &pair.veth_a, &pair.ip_a),
            (&pair.b, &pair.veth_b, &pair.ip_b),
        ] {
            ip(&["-n", ns, "addr", "add", &format!("{addr}/24"), "dev", veth])?;
            ip(&["-n", ns, "link", "set", veth, "up"])?;
            ip(&["-n", ns, "link", "set", "lo", "up"])?;
        }
        Ok(pair)
    }

    /// Cuts the link silently: `b`'s end goes down (no FIN, no RST; `a` sees only silence).
    pub fn cut(&self) {
        ip(&["-n", &self.b, "link", "set", &self.veth_b, "down"]).expect("cut the link");
    }

    /// `program` run inside namespace `ns` (`ip netns exec` execs it: same pid).
    pub fn command(&self, ns: &str, program: impl AsRef<std::ffi::OsStr>) -> Command {
        let mut command = Command::new("ip");
        command.args(["netns", "exec", ns]).arg(program);
        command
    }
}

impl Drop for Pair {
    fn drop(&mut self) {
        let _ = ip(&["netns", "del", &self.a]);
        let _ = ip(&["netns", "del", &self.b]);
        let _ = ip(&["link", "del", &self.veth_a]);
    }
}

/// Deletes namespaces left by an earlier run of these tests that was killed (its pid gone).
fn sweep() {
    let Ok(out) = Command::new("ip").args(["netns", "list"]).output() else {
        return;
    };
    for name in String::from_utf8_lossy(&out.stdout).split_whitespace() {
        let pid = name
            .strip_prefix(PREFIX)
            .and_then(|rest| rest.split('-').next())
            .and_then(|pid| pid.parse::<u32>().ok());
        if let Some(pid) = pid
            && pid != std::process::id() % 100_000
            && !Path::new(&format!("/proc/{pid}")).exists()
        {
            let _ = ip(&["netns", "del", name]);
        }
    }
}

/// A self-signed certificate for `ip`, its key, a token and its hash, in `dir`; the
/// `[serve]` lines that use them.
pub fn tls_and_token(dir: &Path, ip: &str) -> String {
    let key = rcgen::generate_simple_self_signed(vec![ip.to_owned()]).unwrap();
    std::fs::write(dir.join("cert.pem"), key.cert.pem()).unwrap();
    std::fs::write(dir.join("key.pem"), key.signing_key.serialize_pem()).unwrap();
    let token = "5eed".repeat(16);
    std::fs::write(dir.join("token"), format!("{token}\n")).unwrap();
    let hash = fenguard::token::hash_hex(&token);
    std::fs::write(dir.join("tokens"), format!("{hash}\n")).unwrap();
    format!(
        "[serve]\ntokens_file = \"{}\"\ntls_cert = \"{}\"\ntls_key = \"{}\"\n",
        dir.join("tokens").display(),
        dir.join("cert.pem").display(),
        dir.join("key.pem").display()
    )
}

/// `fenguard connect` arguments for the server of [`tls_and_token`] at `addr`.
pub fn tls_client_args(dir: &Path, addr: &str) -> Vec<String> {
    vec![
        "connect".to_owned(),
        addr.to_owned(),
        "--ca".to_owned(),
        dir.join("cert.pem").display().to_string(),
        "--token-file".to_owned(),
        dir.join("token").display().to_string(),
    ]
}

/// Waits until `dir/logs/fenguard.log` holds `text`.
pub fn wait_log(dir: &Path, text: &str) {
    let start = Instant::now();
    let log = || std::fs::read_to_string(dir.join("logs").join("fenguard.log")).unwrap_or_default();
    while !log().contains(text) {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "no `{text}` in the log: {}",
            log()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A GUI on `fenguard connect`: its lines come timestamped from a reader thread.
pub struct Gui {
    pub child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<(Instant, String)>,
    pub seen: Vec<String>,
}

impl Gui {
    /// Starts `command` (a `fenguard connect`) with piped stdin and stdout.
    pub fn spawn(mut command: Command) -> Gui {
        let mut child = command
            .env_remove("FENGUARD_TOKEN")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { return };
                if tx.send((Instant::now(), line)).is_err() {
                    return;
                }
            }
        });
        Gui {
            stdin: child.stdin.take(),
            child,
            lines,
            seen: Vec::new(),
        }
    }

    pub fn send(&mut self, text: &str) {
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(text.as_bytes()).unwrap();
        stdin.flush().unwrap();
    }

    /// The first line equal to `want` within `limit`, and when it arrived; panics otherwise.
    pub fn until(&mut self, want: &str, limit: Duration) -> Instant {
        self.until_with(|l| l == want, limit).0
    }

    /// The first line satisfying `want` within `limit`, and when it arrived.
    pub fn until_with(
        &mut self,
        want: impl Fn(&str) -> bool,
        limit: Duration,
    ) -> (Instant, String) {
        let deadline = Instant::now() + limit;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok((at, line)) => {
                    self.seen.push(line.clone());
                    if want(&line) {
                        return (at, line);
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    panic!("nothing wanted in {limit:?}; seen {:?}", self.seen)
                }
                Err(RecvTimeoutError::Disconnected) => {
                    panic!("connect ended; seen {:?}", self.seen)
                }
            }
        }
    }

    /// Its exit status, within 5 s.
    pub fn exit_code(&mut self) -> Option<i32> {
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(5) {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status.code();
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        panic!("connect still running; seen {:?}", self.seen);
    }

    /// The lines seen from the one starting with `from`.
    pub fn tail(&self, from: &str) -> Vec<String> {
        let at = self.seen.iter().rposition(|l| l.starts_with(from));
        at.map(|i| self.seen[i..].to_vec()).unwrap_or_default()
    }
}

impl Drop for Gui {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Seconds, for the measurements the tests print.
pub fn secs(d: Duration) -> String {
    format!("{:.1} s", d.as_secs_f64())
}

/// Stops (`-STOP`), resumes (`-CONT`) or kills (`-KILL`, `-TERM`) `pid`.
pub fn signal(pid: u32, name: &str) {
    let ok = Command::new("kill")
        .args([name, &pid.to_string()])
        .status()
        .unwrap();
    assert!(ok.success());
}

/// A daemon that is not a [`serve_support::Daemon`]: one started in a namespace.
pub struct NsDaemon {
    pub child: Child,
    pub dir: PathBuf,
}

impl NsDaemon {
    /// `fenguard serve` in `pair.a` with `config` (TOML), on `listen`, in front of `engine`;
    /// returns once it listens.
    pub fn start(pair: &Pair, dir: &Path, config: &str, listen: &str, engine: &[&str]) -> NsDaemon {
        let config_path = dir.join("serve.toml");
        std::fs::write(&config_path, config).unwrap();
        let child = pair
            .command(&pair.a, env!("CARGO_BIN_EXE_fenguard"))
            .arg("serve")
            .arg("--config")
            .arg(&config_path)
            .arg("--log-dir")
            .arg(dir.join("logs"))
            .args(["--listen", listen, "--"])
            .args(engine)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(dir.join("stderr")).unwrap())
            .spawn()
            .unwrap();
        let daemon = NsDaemon {
            child,
            dir: dir.to_path_buf(),
        };
        wait_log(dir, "serving");
        daemon
    }
}

impl Drop for NsDaemon {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
