//! The built fenguard's lifecycle with the fake engine: quit, end of input, engine exits,
//! signals, start errors, logs.

use crate::common;

use common::{FAKE_ENGINE, FENGUARD, Proxy, test_dir};

#[test]
fn quit_is_forwarded_and_fenguard_exits_zero() {
    let dir = test_dir("quit");
    let mut proxy = Proxy::fake(&dir, &[]);
    proxy.send(b"isready\nquit\n");
    assert_eq!(proxy.wait_exit().code(), Some(0));
    assert_eq!(
        std::fs::read(dir.join("engine-input")).unwrap(),
        b"isready\nquit\n"
    );
    proxy.wait_log(
        "positions.jsonl",
        r#""kind":"engine-exit","code":0,"signal":null,"reason":"quit""#,
    );
}

#[test]
fn gui_end_of_input_closes_engine_input() {
    let dir = test_dir("eof");
    let mut proxy = Proxy::fake(
        &dir,
        &[
            "--config",
            &write_config(&dir, "[engine]\nquit_grace_ms = 60000\n"),
        ],
    );
    proxy.send(b"isready\n");
    proxy.wait_for("readyok\n");
    proxy.close();
    // The fake engine exits on end of input: well before the 60 s grace.
    assert_eq!(proxy.wait_exit().code(), Some(0));
    proxy.wait_log("positions.jsonl", r#""reason":"quit""#);
}

#[cfg(target_os = "linux")] // process_gone reads /proc
#[test]
fn engine_ignoring_quit_is_killed_after_grace() {
    let dir = test_dir("grace");
    let mut proxy = Proxy::fake(
        &dir,
        &[
            "--config",
            &write_config(&dir, "[engine]\nquit_grace_ms = 200\n"),
        ],
    );
    let pid = proxy.engine_pid();
    proxy.send(b"hang\nquit\n");
    assert_eq!(proxy.wait_exit().code(), Some(0));
    proxy.wait_log("positions.jsonl", r#""reason":"killed""#);
    assert!(common::wait_until(|| common::process_gone(pid).then_some(())).is_some());
}

#[test]
fn engine_exit_without_restart_is_reported_with_status_one() {
    let dir = test_dir("engine-exit");
    let config = write_config(&dir, NO_RESTART);
    let mut proxy = Proxy::fake(&dir, &["--config", &config]);
    proxy.send(b"echo last words\nexit 3\n");
    assert_eq!(proxy.wait_exit().code(), Some(1));
    assert_eq!(
        proxy.stdout(),
        b"last words\ninfo string fenguard: engine exited (status 3)\n"
    );
    assert!(
        proxy
            .stderr()
            .contains("engine exited on its own with status 3"),
        "{}",
        proxy.stderr()
    );
    proxy.wait_log("fenguard.log", "engine exited on its own with status 3");
    proxy.wait_log(
        "positions.jsonl",
        r#""code":3,"signal":null,"reason":"unexpected""#,
    );
}

#[cfg(unix)]
#[test]
fn engine_crash_without_restart_is_reported_with_its_signal() {
    let dir = test_dir("crash");
    let config = write_config(&dir, NO_RESTART);
    let mut proxy = Proxy::fake(&dir, &["--config", &config]);
    proxy.send(b"crash\n");
    assert_eq!(proxy.wait_exit().code(), Some(1));
    assert!(
        proxy
            .stderr()
            .contains("engine exited on its own by signal 6"),
        "{}",
        proxy.stderr()
    );
}

#[test]
fn engine_stderr_goes_to_stderr_and_tagged_to_log() {
    let dir = test_dir("stderr");
    let mut proxy = Proxy::fake(&dir, &[]);
    proxy.send(b"stderr NNUE file not found\nisready\n");
    proxy.wait_for("readyok\n");
    proxy.wait_log("fenguard.log", "stderr> NNUE file not found");
    assert!(
        common::wait_until(|| proxy
            .stderr()
            .contains("NNUE file not found\n")
            .then_some(()))
        .is_some()
    );
    assert_eq!(proxy.stdout(), b"readyok\n");
}

#[test]
fn verbose_flag_writes_transcript_both_ways() {
    let dir = test_dir("transcript");
    let mut proxy = Proxy::fake(&dir, &["-v"]);
    proxy.send(b"isready\r\n");
    proxy.wait_for("readyok\n");
    let log = proxy.wait_log("fenguard.log", ">gui readyok");
    for tagged in ["gui> isready\\r", ">engine isready\n", "engine> readyok"] {
        assert!(log.contains(tagged), "missing {tagged:?} in {log}");
    }
    // The engine gets the canonical command (SPEC 12), the transcript shows both.
    assert!(!log.contains(">engine isready\\r"), "{log}");
}

#[test]
fn transcript_is_off_by_default() {
    let dir = test_dir("no-transcript");
    let mut proxy = Proxy::fake(&dir, &[]);
    proxy.send(b"isready\nquit\n");
    proxy.wait_exit();
    let log = proxy.wait_log("fenguard.log", "fenguard exiting");
    assert!(!log.contains("gui> isready"), "{log}");
}

#[test]
fn log_level_from_config_filters_fenguard_log() {
    let dir = test_dir("level-config");
    let config = write_config(&dir, "[engine]\nrestart = false\n[log]\nlevel = \"warn\"\n");
    let mut proxy = Proxy::start(&dir, &["--config", &config, "--", FAKE_ENGINE], &[]);
    proxy.send(b"exit 4\n");
    assert_eq!(proxy.wait_exit().code(), Some(1));
    let log = proxy.wait_log("fenguard.log", "engine exited on its own with status 4");
    assert!(!log.contains("engine started"), "{log}");
}

#[test]
fn rust_log_overrides_config_level() {
    let dir = test_dir("level-env");
    let config = write_config(&dir, "[log]\nlevel = \"warn\"\n");
    let args = ["--config", config.as_str(), "--", FAKE_ENGINE];
    let mut proxy = Proxy::start(&dir, &args, &[("RUST_LOG", "info")]);
    proxy.send(b"quit\n");
    assert_eq!(proxy.wait_exit().code(), Some(0));
    proxy.wait_log("fenguard.log", "engine started");
}

#[test]
fn positions_log_records_engine_start() {
    let dir = test_dir("engine-start");
    let mut proxy = Proxy::fake(&dir, &[]);
    proxy.send(b"quit\n");
    proxy.wait_exit();
    let log = proxy.wait_log("positions.jsonl", "engine-start");
    let first: serde_json::Value = serde_json::from_str(log.lines().next().unwrap()).unwrap();
    assert_eq!(first["kind"], "engine-start");
    assert_eq!(first["seq"], 1);
    assert_eq!(first["command"], FAKE_ENGINE);
}

#[test]
fn unwritable_log_dir_warns_once_and_relays() {
    let dir = test_dir("bad-log-dir");
    std::fs::write(dir.join("file"), "").unwrap();
    let bad = dir.join("file").join("logs");
    let mut proxy = Proxy::with_log_dir(bad, &["--", FAKE_ENGINE], &[]);
    proxy.send(b"isready\n");
    assert_eq!(proxy.wait_for("readyok\n"), b"readyok\n");
    proxy.send(b"quit\n");
    assert_eq!(proxy.wait_exit().code(), Some(0));
    assert_eq!(
        proxy.stderr().matches("warning: log directory").count(),
        1,
        "{}",
        proxy.stderr()
    );
}

#[test]
fn engine_from_config_gets_its_args_dir_and_env() {
    let dir = test_dir("config-engine");
    let work = dir.join("work");
    std::fs::create_dir_all(&work).unwrap();
    let config = format!(
        "[engine]\ncommand = {FAKE_ENGINE:?}\nargs = [\"a b\", \"\", \"c\"]\nworking_dir = {:?}\nenv = {{ FENGUARD_TEST = \"x y\" }}\n",
        work.to_str().unwrap()
    );
    let mut proxy = Proxy::start(&dir, &["--config", &write_config(&dir, &config)], &[]);
    proxy.send(b"args\ncwd\nenv FENGUARD_TEST\nisready\n");
    let out = proxy.wait_for("readyok\n");
    let expected = format!(
        "info string args a b||c\ninfo string cwd {}\ninfo string env FENGUARD_TEST=x y\nreadyok\n",
        work.display()
    );
    assert_eq!(String::from_utf8(out).unwrap(), expected);
}

#[test]
fn engine_after_double_dash_overrides_config() {
    let dir = test_dir("override");
    let config = write_config(
        &dir,
        "[engine]\ncommand = \"/nonexistent\"\nargs = [\"x\"]\n",
    );
    let mut proxy = Proxy::start(&dir, &["--config", &config, "--", FAKE_ENGINE, "y"], &[]);
    proxy.send(b"args\n");
    assert_eq!(proxy.wait_for("\n"), b"info string args y\n");
}

/// A configuration that turns engine restarts off.
const NO_RESTART: &str = "[engine]\nrestart = false\n";

fn write_config(dir: &std::path::Path, text: &str) -> String {
    let path = dir.join("fenguard.toml");
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_owned()
}

fn run_to_end(args: &[&str]) -> std::process::Output {
    std::process::Command::new(FENGUARD)
        .args(args)
        .env_remove("FENGUARD_CONFIG")
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap()
}

#[test]
fn missing_engine_is_one_line_and_status_two() {
    let out = run_to_end(&["--log-dir", "/tmp", "--", "/nonexistent/stockfish"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "fenguard: engine not found: `/nonexistent/stockfish`\n"
    );
    assert!(out.stdout.is_empty());
}

#[test]
fn engine_not_on_path_is_one_line_and_status_two() {
    let out = run_to_end(&["--", "no-such-engine-fenguard"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.starts_with("fenguard: engine not found: `no-such-engine-fenguard` (looked on PATH and in: ")
            && stderr.ends_with("/usr/games, /usr/local/games); give its full path: `fenguard -- /path/to/engine` or engine.command\n")
            && stderr.lines().count() == 1,
        "{stderr}"
    );
}

#[test]
fn non_executable_engine_is_status_two() {
    let dir = test_dir("non-exec");
    let path = dir.join("engine");
    std::fs::write(&path, "not a program").unwrap();
    let out = run_to_end(&["--", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!(
            "fenguard: engine is not an executable file: `{}`\n",
            path.display()
        )
    );
}

#[test]
fn bad_config_value_names_file_and_key_with_status_two() {
    let dir = test_dir("bad-config");
    let config = write_config(&dir, "[engine]\nquit_grace_ms = \"soon\"\n");
    let out = run_to_end(&["--config", &config, "--", FAKE_ENGINE]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with(&format!("fenguard: config error: {config}:2:")),
        "{err}"
    );
    assert!(err.contains("key `engine.quit_grace_ms`"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
fn unknown_config_key_is_status_two() {
    let dir = test_dir("unknown-key");
    let config = write_config(&dir, "[log]\nlevle = \"debug\"\n");
    let out = run_to_end(&["--config", &config, "--", FAKE_ENGINE]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("key `log.levle`: unknown field `levle`")
    );
}

#[test]
fn config_from_environment_variable_is_used() {
    let dir = test_dir("env-config");
    let config = write_config(&dir, "[engine]\nquit_grace_ms = -1\n");
    let out = std::process::Command::new(FENGUARD)
        .args(["--", FAKE_ENGINE])
        .env("FENGUARD_CONFIG", &config)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("key `engine.quit_grace_ms`"));
}

#[test]
fn logs_go_to_xdg_state_home_by_default() {
    let dir = test_dir("xdg");
    let out = std::process::Command::new(FENGUARD)
        .args(["--", FAKE_ENGINE])
        .env_remove("FENGUARD_CONFIG")
        .env("XDG_STATE_HOME", &dir)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let log = dir.join("fenguard").join("positions.jsonl");
    let text = common::wait_until(|| {
        std::fs::read_to_string(&log)
            .ok()
            .filter(|t| t.contains("engine-exit"))
    });
    assert!(
        text.is_some(),
        "no {} with an engine-exit record",
        log.display()
    );
}
