//! Engines that hang, fail or go for good under `fenguard provide`, lila that fails to register,
//! providers that start at once, and `/health` while the broker is down: every job is answered,
//! none waits for ever.

use std::time::{Duration, Instant};

use serde_json::json;

use crate::support::{Mock, Provider, START, Setup, lines, work};

/// Short patience: the session declares a silent engine hung after 1 s (`readyok`, `bestmove`
/// after `stop`) and 2 s after a `setoption`.
const QUICK: &str = "[engine]\nping_timeout_ms = 1000\nstartup_timeout_ms = 2000\n";

fn fake_with(name: &'static str, env: &[(&'static str, &str)]) -> Setup<'static> {
    let mut setup = Setup::new(name);
    setup.more = QUICK;
    setup.env = env.iter().map(|(k, v)| (*k, (*v).to_owned())).collect();
    setup
}

#[test]
fn an_engine_that_never_answers_isready_has_the_job_answered_within_its_startup_timeout() {
    let mock = Mock::start(1.0);
    let setup = fake_with("provide_hang_isready", &[("FAKE_ENGINE_IGNORE", "isready")]);
    let _provider = Provider::start(&mock, &setup);
    let t = Instant::now();
    let key = mock.enqueue(
        "fenguard-test",
        &work("s1", json!({"depth": 3}), START, &[]),
        &json!({}),
    );
    let job = mock.wait(&key, "ended", 30);
    assert_eq!(job["submit_status"], 200, "{job}");
    let answer: Vec<String> = lines(&job).into_iter().filter(|l| !l.is_empty()).collect();
    // The session's own notice (it kills the hung engine at the same time) may come first.
    let (before, end) = answer.split_at(answer.len().saturating_sub(2));
    assert_eq!(
        end,
        [
            "info string fenguard: job refused: the engine did not answer isready within 2000 ms",
            "bestmove (none)"
        ],
        "{job}"
    );
    assert!(
        before
            .iter()
            .all(|l| l.starts_with("info string fenguard: engine hung")),
        "{job}"
    );
    // The stream opened at once (lila-engine gives the requester 15 s until it does).
    let times = &job["times"];
    let opened = times["submit_started"].as_f64().unwrap() - times["acquired"].as_f64().unwrap();
    assert!(opened < 1.0, "the stream opened after {opened} s: {job}");
    assert!(t.elapsed() < Duration::from_secs(20));
}

#[test]
fn a_search_that_outlives_its_movetime_is_stopped_and_answered() {
    // The fake engine ignores `go`: the search never ends, though the engine still reads.
    let mock = Mock::start(1.0);
    let setup = fake_with("provide_overrun", &[("FAKE_ENGINE_IGNORE", "go")]);
    let provider = Provider::start(&mock, &setup);
    let key = mock.enqueue(
        "fenguard-test",
        &work("s1", json!({"movetime": 300}), START, &[]),
        &json!({}),
    );
    let job = mock.wait(&key, "ended", 30);
    assert_eq!(job["submit_status"], 200, "{job}");
    let last = lines(&job).last().cloned().unwrap_or_default();
    assert!(last.starts_with("bestmove"), "{job}");
    provider.wait_for_stderr("outlived its movetime");
}

#[test]
fn a_silent_depth_search_is_stopped_and_never_asked_isready() {
    // The fake engine ignores `go` and `stop`: silent, though it still reads. After six ping
    // timeouts (6 s here) the search is stopped; the session then answers the bestmove the
    // engine owes. `isready` is never sent: Glaurung 2.2 does not answer it while searching.
    let mock = Mock::start(1.0);
    let dir = crate::common::test_dir("provide_silent_search");
    let record = dir.join("engine-input").display().to_string();
    let setup = fake_with(
        "provide_silent_search",
        &[
            ("FAKE_ENGINE_IGNORE", "go,stop"),
            ("FAKE_ENGINE_RECORD", &record),
        ],
    );
    let provider = Provider::start(&mock, &setup);
    let t = Instant::now();
    let key = mock.enqueue(
        "fenguard-test",
        &work("s1", json!({"depth": 30}), START, &[]),
        &json!({}),
    );
    let job = mock.wait(&key, "ended", 30);
    assert!(
        t.elapsed() >= Duration::from_secs(6),
        "stopped after the silence, not before"
    );
    assert_eq!(job["submit_status"], 200, "{job}");
    let last = lines(&job).last().cloned().unwrap_or_default();
    assert!(last.starts_with("bestmove"), "answered: {job}");
    let input = std::fs::read_to_string(&record).unwrap();
    let after_go = input.split("go depth 30").nth(1).unwrap_or_default();
    assert!(after_go.starts_with("\nstop\n"), "{input:?}");
    assert!(!after_go.contains("isready"), "{input:?}");
    provider.wait_for_stderr("silent for 6000 ms");
}

#[test]
fn an_engine_hung_in_a_depth_search_is_stopped_and_the_job_answered() {
    // At `go` the fake engine stops reading: only the session's own timers can end this
    // search, and only once something is asked of the engine.
    let mock = Mock::start(1.0);
    let setup = fake_with(
        "provide_hung_search",
        &[("FAKE_ENGINE_FAULTS", "hang-on-go")],
    );
    let provider = Provider::start(&mock, &setup);
    let key = mock.enqueue(
        "fenguard-test",
        &work("s1", json!({"depth": 30}), START, &[]),
        &json!({}),
    );
    let job = mock.wait(&key, "ended", 30);
    assert_eq!(job["submit_status"], 200, "{job}");
    let last = lines(&job).last().cloned().unwrap_or_default();
    assert!(last.starts_with("bestmove"), "answered: {job}");
    let log = std::fs::read_to_string(provider.dir.join("logs/fenguard.log")).unwrap();
    assert!(log.contains("hung"), "{log}");
}

#[test]
fn a_zero_limit_reaches_the_engine_as_one() {
    let mock = Mock::start(1.0);
    let dir = crate::common::test_dir("provide_zero_limit");
    let mut setup = Setup::new("provide_zero_limit");
    setup.env = vec![(
        "FAKE_ENGINE_RECORD",
        dir.join("engine-input").display().to_string(),
    )];
    let _provider = Provider::start(&mock, &setup);
    for (search, go) in [
        (json!({"depth": 0}), "go depth 1\n"),
        (json!({"movetime": 0}), "go movetime 1\n"),
        (json!({"nodes": 0}), "go nodes 1\n"),
    ] {
        let job = mock.serve(&work("s1", search, START, &[]), &json!({}));
        assert_eq!(job["submit_status"], 200, "{job}");
        let input = std::fs::read_to_string(dir.join("engine-input")).unwrap();
        assert!(input.ends_with(go), "{input:?}");
    }
}

#[test]
fn an_engine_that_dies_for_good_has_every_job_answered_and_the_provider_lives_on() {
    // It dies at every `setoption name Threads`, the replay's too: the session gives up.
    let mock = Mock::start(1.0);
    let setup = fake_with(
        "provide_gone_for_good",
        &[("FAKE_ENGINE_DIE_ON_OPTION", "Threads")],
    );
    let mut provider = Provider::start(&mock, &setup);
    for session in ["s1", "s2"] {
        let key = mock.enqueue(
            "fenguard-test",
            &work(session, json!({"depth": 3}), START, &[]),
            &json!({}),
        );
        let job = mock.wait(&key, "ended", 60);
        assert_eq!(job["submit_status"], 200, "{job}");
        let last = lines(&job).last().cloned().unwrap_or_default();
        assert!(last.starts_with("bestmove"), "answered: {job}");
    }
    assert!(
        provider.child.try_wait().unwrap().is_none(),
        "still running"
    );
}

#[test]
fn registration_is_tried_again_after_lila_answers_502() {
    let mock = Mock::start(1.0);
    let (status, _) = mock.post(
        "/_mock/inject",
        &json!({"path": "^/api/external-engine$", "method": "GET", "count": 2,
                "status": 502, "body": "<html>502 Bad Gateway</html>"}),
    );
    assert_eq!(status, 200);
    let provider = Provider::start(&mock, &Setup::new("provide_register_502"));
    assert_eq!(mock.engines().len(), 1);
    assert!(
        provider.stderr().contains("HTTP 502"),
        "{}",
        provider.stderr()
    );
}

#[test]
fn three_providers_started_at_once_share_one_secret_and_one_registration() {
    let mock = Mock::start(1.0);
    let dir = crate::common::test_dir("provide_three_at_once");
    let secret = dir.join("secret");
    let providers: Vec<Provider> = std::thread::scope(|scope| {
        let handles: Vec<_> = ["a", "b", "c"]
            .into_iter()
            .map(|name| {
                let (mock, dir, secret) = (&mock, &dir, &secret);
                scope.spawn(move || {
                    let mut setup = Setup::new("provide_three_at_once");
                    setup.secret = Some(secret.clone());
                    Provider::start_in(mock, &setup, dir.join(name))
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert_eq!(
        mock.engines().len(),
        1,
        "one registration: {:?}",
        mock.engines()
    );
    // Each provider polls with the one secret: every job is served.
    for i in 0..6 {
        let job = mock.serve(
            &work(&format!("s{i}"), json!({"depth": 2}), START, &[]),
            &json!({}),
        );
        assert_eq!(job["submit_status"], 200, "{job}");
    }
    drop(providers);
}

#[test]
fn health_turns_503_while_the_broker_is_down_and_200_when_it_is_back() {
    let mock = Mock::start(1.0);
    let mut setup = Setup::new("provide_health");
    setup.more = "[metrics]\nlisten = \"127.0.0.1:0\"";
    let provider = Provider::start(&mock, &setup);
    let url = provider.metrics_url();
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .into();
    let health = || {
        agent
            .get(&format!("{url}/health"))
            .call()
            .unwrap()
            .status()
            .as_u16()
    };
    assert_eq!(health(), 200);
    let (status, _) = mock.post("/_mock/broker-down", &json!({"seconds": 12, "mode": "502"}));
    assert_eq!(status, 200);
    let down = Instant::now();
    let until = |want: u16, within: Duration| {
        let deadline = Instant::now() + within;
        while health() != want {
            assert!(Instant::now() < deadline, "/health never {want}");
            std::thread::sleep(Duration::from_millis(100));
        }
    };
    until(503, Duration::from_secs(12));
    let unhealthy_after = down.elapsed();
    until(200, Duration::from_secs(30));
    eprintln!("/health 503 after {unhealthy_after:?} of broker outage");
}

#[test]
fn fields_outside_lilas_limits_are_config_errors_not_lila_400s() {
    let dir = crate::common::test_dir("provide_limits");
    std::fs::create_dir_all(&dir).unwrap();
    for (line, said) in [
        ("name = \"ab\"", "3 to 200 characters"),
        ("max_hash_mb = 0", "max_hash_mb: 1 to 1048576"),
        ("max_threads = 70000", "max_threads: 1 to 65536"),
    ] {
        let config = dir.join("provide.toml");
        std::fs::write(
            &config,
            format!("[provider]\nlila_url = \"http://127.0.0.1:9\"\nbroker_url = \"http://127.0.0.1:9\"\n{line}\n"),
        )
        .unwrap();
        let out = std::process::Command::new(crate::common::FENGUARD)
            .args(["provide", "--config"])
            .arg(&config)
            .arg("--")
            .arg(crate::common::FAKE_ENGINE)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{line}: {stderr}");
        assert!(stderr.contains(said), "{line}: {stderr}");
    }
}
