//! Logging a session through the proxy as a GUI would, and running `fenguard replay`.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::common::{FENGUARD, Proxy, contains, write_config};

/// Generous: searches and whole replays on a slow, shared machine; never a timing assertion.
pub const PATIENCE: Duration = Duration::from_secs(120);

/// Plays `lines` through `fenguard --config DIR/fenguard.toml -- ENGINE` (`toml` written there)
/// as a GUI: after a `go` (not `infinite` / `ponder`) it waits for its `bestmove`, unless
/// `answered` is false; then `quit`. Gives the position log's path, once fenguard exited.
pub fn log_session(
    dir: &Path,
    toml: &str,
    engine: &Path,
    env: &[(&str, &str)],
    lines: &[&str],
    answered: bool,
) -> PathBuf {
    let config = write_config(dir, toml);
    let mut proxy = Proxy::start(
        dir,
        &[
            "--config",
            config.to_str().unwrap(),
            "--",
            engine.to_str().unwrap(),
        ],
        env,
    );
    proxy.send(b"uci\n");
    proxy.wait_for("uciok");
    let mut searches = 0;
    for line in lines {
        proxy.send(format!("{line}\n").as_bytes());
        let searching = line.starts_with("go") && !line.contains("infinite");
        if searching && answered {
            searches += 1;
            proxy.wait_stdout_within(PATIENCE, |out| count(out, b"bestmove") >= searches);
        }
    }
    proxy.send(b"isready\n");
    if answered {
        proxy.wait_for("readyok");
    }
    proxy.send(b"quit\n");
    proxy.close();
    // fenguard writes the log whole before it exits.
    assert_eq!(proxy.wait_exit().code(), Some(0), "{}", proxy.stderr());
    proxy.log_dir.join("positions.jsonl")
}

fn count(haystack: &[u8], needle: &[u8]) -> usize {
    haystack
        .windows(needle.len())
        .filter(|w| *w == needle)
        .count()
}

/// Runs `fenguard replay ARGS` with `env` added; kills it after [`PATIENCE`].
pub fn replay(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut child = Command::new(FENGUARD)
        .arg("replay")
        .args(args)
        .envs(env.iter().copied())
        .env_remove("FENGUARD_CONFIG")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start fenguard replay");
    let start = Instant::now();
    while child.try_wait().expect("try_wait").is_none() {
        if start.elapsed() > PATIENCE {
            let _ = child.kill();
            panic!("fenguard replay did not finish");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().expect("replay output")
}

/// stdout of `output` as text.
pub fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// stderr of `output` as text.
pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Pipes `script` into `engine` at once (`engine < script`) and gives its exit status.
pub fn pipe_into(engine: &Path, script: &str) -> std::process::ExitStatus {
    let mut child = Command::new(engine)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start the engine");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .expect("write the script");
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("try_wait") {
            return status;
        }
        if start.elapsed() > PATIENCE {
            let _ = child.kill();
            panic!("the engine did not end on the script");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Whether `haystack` holds `needle` (for byte output).
pub fn holds(haystack: &str, needle: &str) -> bool {
    contains(haystack.as_bytes(), needle.as_bytes())
}
