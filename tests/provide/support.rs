//! The mock of lila and lichess's work broker (`scripts/mock_lichess.py`, Python standard
//! library, python-chess for its legality checks) and `fenguard provide` processes against it.
#![allow(dead_code)]

use std::io::{BufRead as _, BufReader, Read as _};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::common::{FENGUARD, test_dir};

/// The token the mock accepts.
pub const TOKEN: &str = "lip_fenguardtest";

/// The start position.
pub const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// The running mock, killed when dropped.
pub struct Mock {
    child: Child,
    /// `http://127.0.0.1:PORT`.
    pub url: String,
    agent: ureq::Agent,
}

impl Mock {
    /// Starts the mock with the broker's long poll of `poll_s` seconds.
    pub fn start(poll_s: f64) -> Mock {
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/mock_lichess.py");
        let mut child = Command::new("python3")
            .arg(script)
            .args([
                "--port",
                "0",
                "--poll-s",
                &poll_s.to_string(),
                "--token",
                TOKEN,
            ])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("python3 runs the mock");
        let mut first = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut first)
            .unwrap();
        let url = first
            .trim()
            .strip_prefix("listening ")
            .unwrap_or_else(|| panic!("the mock said {first:?}"))
            .to_owned();
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(60)))
            .build()
            .into();
        Mock { child, url, agent }
    }

    /// POSTs `body` (JSON) to `path`; the status and the JSON answer (`null` when none).
    pub fn post(&self, path: &str, body: &Value) -> (u16, Value) {
        let mut answer = self
            .agent
            .post(&format!("{}{path}", self.url))
            .content_type("application/json")
            .send(body.to_string().as_bytes())
            .expect("the mock answers");
        let status = answer.status().as_u16();
        let text = answer.body_mut().read_to_string().unwrap_or_default();
        (status, serde_json::from_str(&text).unwrap_or(Value::Null))
    }

    /// GETs `path` as JSON.
    pub fn get(&self, path: &str) -> Value {
        let mut answer = self
            .agent
            .get(&format!("{}{path}", self.url))
            .call()
            .expect("the mock answers");
        serde_json::from_str(&answer.body_mut().read_to_string().unwrap()).unwrap()
    }

    /// Queues `work` for the engine named `engine`, with the hook's `extra` fields (`raw`,
    /// `leave_after_lines`, ...); gives the job's key.
    pub fn enqueue(&self, engine: &str, work: &Value, extra: &Value) -> String {
        let mut body = json!({"engine": engine, "work": work});
        if let (Value::Object(body), Value::Object(extra)) = (&mut body, extra) {
            body.extend(extra.clone());
        }
        let (status, answer) = self.post("/_mock/enqueue", &body);
        assert_eq!(status, 200, "enqueue refused: {answer}");
        answer["job"].as_str().unwrap().to_owned()
    }

    /// Waits until job `key` is `until` (`settled`, `ended`, `acquired`, `streaming`); the job.
    pub fn wait(&self, key: &str, until: &str, timeout_s: u64) -> Value {
        let (status, answer) = self.post(
            "/_mock/wait",
            &json!({"job": key, "until": until, "timeout_s": timeout_s}),
        );
        assert_eq!(
            status, 200,
            "job {key} not {until} in {timeout_s} s: {answer}"
        );
        self.job(key)
    }

    /// Waits until job `key` has streamed its first `info` line (its search runs: the stream
    /// opens before the engine is set up); the job.
    pub fn wait_searching(&self, key: &str, timeout_s: u64) -> Value {
        self.wait(key, "streaming", timeout_s);
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(timeout_s);
        loop {
            let job = self.job(key);
            if !job["times"]["first_info"].is_null() {
                return job;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "job {key} no info in {timeout_s} s: {job}"
            );
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    }

    /// Job `key` as the mock sees it.
    pub fn job(&self, key: &str) -> Value {
        self.get(&format!("/_mock/jobs?job={key}"))["jobs"][0].clone()
    }

    /// Every job.
    pub fn jobs(&self) -> Vec<Value> {
        self.get("/_mock/jobs")["jobs"].as_array().unwrap().clone()
    }

    /// The registered engines.
    pub fn engines(&self) -> Vec<Value> {
        self.get("/_mock/engines").as_array().unwrap().clone()
    }

    /// Every request so far: `{method, path, status, ...}`.
    pub fn requests(&self) -> Vec<Value> {
        self.get("/_mock/requests").as_array().unwrap().clone()
    }
}

impl Drop for Mock {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A `work` object as the requester sends it.
pub fn work(session: &str, search: Value, fen: &str, moves: &[&str]) -> Value {
    let mut work = json!({
        "sessionId": session, "threads": 1, "hash": 16, "multiPv": 1, "variant": "chess",
        "initialFen": fen, "moves": moves,
    });
    if let (Value::Object(work), Value::Object(search)) = (&mut work, search) {
        work.extend(search);
    }
    work
}

/// The lines the provider streamed for a job (the mock keeps `{"t", "line", "kind"}`).
pub fn lines(job: &Value) -> Vec<String> {
    job["lines"]
        .as_array()
        .map(|l| {
            l.iter()
                .filter_map(|l| l["line"].as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

/// A running `fenguard provide`, killed when dropped.
pub struct Provider {
    /// The process.
    pub child: Child,
    /// Its directory: config, token, secret, logs (`logs/`).
    pub dir: PathBuf,
    stderr: PathBuf,
}

/// How to start a provider.
pub struct Setup<'a> {
    /// The test directory's name.
    pub name: &'a str,
    /// The engine name to register.
    pub engine_name: &'a str,
    /// More TOML lines for `[provider]`.
    pub provider: &'a str,
    /// More TOML after the `[provider]` section (other sections).
    pub more: &'a str,
    /// The engine and its arguments.
    pub engine: Vec<String>,
    /// Environment for fenguard (and so the engine).
    pub env: Vec<(&'a str, String)>,
    /// The provider secret file to use (shared by several providers), else the directory's.
    pub secret: Option<PathBuf>,
}

impl Setup<'_> {
    /// Defaults: the fake engine, name `fenguard-test`.
    pub fn new(name: &str) -> Setup<'_> {
        Setup {
            name,
            engine_name: "fenguard-test",
            provider: "",
            more: "",
            engine: vec![crate::common::FAKE_ENGINE.to_owned()],
            env: Vec::new(),
            secret: None,
        }
    }
}

impl Provider {
    /// Starts `fenguard provide` against `mock` and waits for its registration.
    pub fn start(mock: &Mock, setup: &Setup<'_>) -> Provider {
        let dir = test_dir(setup.name);
        Provider::start_in(mock, setup, dir)
    }

    /// [`Provider::start`] in `dir` (a second provider of one test).
    pub fn start_in(mock: &Mock, setup: &Setup<'_>, dir: PathBuf) -> Provider {
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("token"), format!("{TOKEN}\n")).unwrap();
        let secret = setup.secret.clone().unwrap_or_else(|| dir.join("secret"));
        let config = format!(
            "[provider]\nlila_url = \"{url}\"\nbroker_url = \"{url}\"\ntoken_file = \"{token}\"\nsecret_file = \"{secret}\"\nname = \"{name}\"\nmax_threads = 2\nmax_hash_mb = 64\n{extra}\n[log]\ndir = \"{logs}\"\n{more}\n",
            url = mock.url,
            token = dir.join("token").display(),
            secret = secret.display(),
            name = setup.engine_name,
            extra = setup.provider,
            logs = dir.join("logs").display(),
            more = setup.more,
        );
        std::fs::write(dir.join("provide.toml"), config).unwrap();
        let stderr = dir.join("stderr");
        let child = Command::new(FENGUARD)
            .arg("provide")
            .arg("--config")
            .arg(dir.join("provide.toml"))
            .arg("--")
            .args(&setup.engine)
            .envs(setup.env.iter().map(|(k, v)| (*k, v.as_str())))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&stderr).unwrap())
            .spawn()
            .expect("fenguard starts");
        let provider = Provider { child, dir, stderr };
        provider.wait_for_stderr("registered as");
        provider
    }

    /// The metrics listener's base URL, from its `metrics listening on URL` line (the config
    /// has `[metrics] listen = "127.0.0.1:0"`).
    pub fn metrics_url(&self) -> String {
        let stderr = self.stderr();
        stderr
            .lines()
            .find_map(|l| l.split("metrics listening on ").nth(1))
            .unwrap_or_else(|| panic!("no metrics address: {stderr}"))
            .trim()
            .to_owned()
    }

    /// What the provider wrote on stderr so far.
    pub fn stderr(&self) -> String {
        std::fs::read_to_string(&self.stderr).unwrap_or_default()
    }

    /// Waits (60 s at most) until stderr holds `text`.
    pub fn wait_for_stderr(&self, text: &str) {
        let deadline = Instant::now() + Duration::from_secs(60);
        while !self.stderr().contains(text) {
            assert!(
                Instant::now() < deadline,
                "no {text:?} on stderr: {}",
                self.stderr()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// The records of every positions log of this provider, in file order.
    pub fn records(&self) -> Vec<Value> {
        let mut records = Vec::new();
        let Ok(entries) = std::fs::read_dir(self.dir.join("logs")) else {
            return records;
        };
        let mut paths: Vec<_> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
        paths.sort();
        for path in paths {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if !name.starts_with("positions-") {
                continue;
            }
            let mut text = String::new();
            std::fs::File::open(&path)
                .unwrap()
                .read_to_string(&mut text)
                .unwrap();
            records.extend(
                text.lines()
                    .filter_map(|l| serde_json::from_str::<Value>(l).ok()),
            );
        }
        records
    }

    /// Waits (60 s) until a record satisfies `probe`; gives it.
    pub fn wait_record(&self, probe: impl Fn(&Value) -> bool) -> Value {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            if let Some(r) = self.records().into_iter().find(|r| probe(r)) {
                return r;
            }
            assert!(
                Instant::now() < deadline,
                "no such record: {:?}",
                self.records()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Waits (60 s) until the records satisfy `probe` (the positions log is written by a
    /// thread of its own, a few milliseconds after the fact); gives them.
    pub fn wait_records(&self, probe: impl Fn(&[Value]) -> bool) -> Vec<Value> {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let records = self.records();
            if probe(&records) {
                return records;
            }
            assert!(Instant::now() < deadline, "records never so: {records:?}");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Sends SIGTERM and waits (60 s) for the exit.
    pub fn terminate(&mut self) -> ExitStatus {
        let pid = i32::try_from(self.child.id()).unwrap();
        unsafe { libc::kill(pid, libc::SIGTERM) };
        self.wait_exit()
    }

    /// Waits (60 s) for the process to end.
    pub fn wait_exit(&mut self) -> ExitStatus {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            assert!(Instant::now() < deadline, "the provider did not exit");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Provider {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The engine pids the provider's positions logs name (`engine-start` records).
pub fn engine_pids(records: &[Value]) -> Vec<i32> {
    records
        .iter()
        .filter(|r| r["kind"] == "engine-start")
        .filter_map(|r| r["pid"].as_i64().and_then(|p| i32::try_from(p).ok()))
        .collect()
}

impl Mock {
    /// Queues `work` for `fenguard-test` and waits (60 s) until the provider answered it with
    /// 200; the job.
    pub fn serve(&self, work: &Value, extra: &Value) -> Value {
        let key = self.enqueue("fenguard-test", work, extra);
        let job = self.wait(&key, "ended", 60);
        assert_eq!(job["submit_status"], 200, "{job}");
        job
    }
}

/// Asserts that the job's stream ends with an engine's move (not fenguard's `bestmove 0000`).
pub fn assert_engine_bestmove(job: &Value) {
    let streamed = lines(job);
    assert!(
        streamed
            .last()
            .is_some_and(|l| l.starts_with("bestmove ") && l != "bestmove 0000"),
        "{streamed:?}"
    );
}
