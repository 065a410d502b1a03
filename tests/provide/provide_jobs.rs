//! Jobs through `fenguard provide` with the fake engine: registration, the 204 loop, what a job
//! becomes on the engine's side, refusals, a late submit and a broker outage.

use std::time::{Duration, Instant};

use serde_json::json;

use crate::support::{Mock, Provider, START, Setup, lines, work};

/// What the fake engine read (`FAKE_ENGINE_RECORD`).
fn engine_input(provider: &Provider) -> String {
    std::fs::read_to_string(provider.dir.join("engine-input")).unwrap_or_default()
}

fn recording(name: &str) -> Setup<'_> {
    let mut setup = Setup::new(name);
    let dir = crate::common::test_dir(name);
    setup.env = vec![(
        "FAKE_ENGINE_RECORD",
        dir.join("engine-input").display().to_string(),
    )];
    setup
}

#[test]
fn registers_then_updates_the_engine_of_the_same_name() {
    let mock = Mock::start(1.0);
    let setup = Setup::new("provide_register");
    let mut first = Provider::start(&mock, &setup);
    let engines = mock.engines();
    assert_eq!(engines.len(), 1, "{engines:?}");
    assert_eq!(engines[0]["name"], "fenguard-test");
    assert_eq!(engines[0]["maxThreads"], 2);
    assert_eq!(engines[0]["maxHash"], 64);
    assert_eq!(engines[0]["variants"], json!(["chess"]));
    assert!(first.terminate().success());
    let _second = Provider::start(&mock, &setup);
    assert_eq!(
        mock.engines().len(),
        1,
        "registered twice: {:?}",
        mock.engines()
    );
    let methods: Vec<String> = mock
        .requests()
        .iter()
        .filter(|r| {
            r["path"]
                .as_str()
                .is_some_and(|p| p.starts_with("/api/external-engine/eei_"))
        })
        .map(|r| r["method"].as_str().unwrap_or("").to_owned())
        .collect();
    assert_eq!(methods, ["PUT"], "the second run updates by name");
    // The secret was created once, 0600, and reused.
    use std::os::unix::fs::PermissionsExt as _;
    let mode = std::fs::metadata(first.dir.join("secret"))
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o600);
}

#[test]
fn polls_again_after_204_and_serves_a_job_when_one_comes() {
    let mock = Mock::start(0.5);
    let provider = Provider::start(&mock, &Setup::new("provide_204"));
    let polls = || {
        mock.requests()
            .iter()
            .filter(|r| r["path"] == "/api/external-engine/work" && r["status"] == 204)
            .count()
    };
    let deadline = Instant::now() + Duration::from_secs(30);
    while polls() < 3 {
        assert!(
            Instant::now() < deadline,
            "no repeated polls: {:?}",
            mock.requests()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let key = mock.enqueue(
        "fenguard-test",
        &work("s1", json!({"depth": 5}), START, &["d2d4", "d7d5"]),
        &json!({}),
    );
    let job = mock.wait(&key, "ended", 30);
    assert_eq!(job["submit_status"], 200, "{job}");
    assert_eq!(job["acquire_count"], 1);
    assert_eq!(
        lines(&job).last().map(String::as_str),
        Some("bestmove e2e4"),
        "{job}"
    );
    drop(provider);
}

#[test]
fn a_job_becomes_the_example_providers_lines_and_a_new_session_a_new_game() {
    let mock = Mock::start(1.0);
    let setup = recording("provide_lines");
    let provider = Provider::start(&mock, &setup);
    // Raw (as a private broker might send): threads above the registered cap.
    let mut first = work("s1", json!({"depth": 5}), START, &["e2e4", "e7e5"]);
    first["threads"] = json!(64);
    first["hash"] = json!(32);
    first["multiPv"] = json!(3);
    let key = mock.enqueue("fenguard-test", &first, &json!({"raw": true}));
    assert_eq!(mock.wait(&key, "ended", 30)["submit_status"], 200);
    let second = work("s1", json!({"nodes": 1000}), START, &["d2d4", "d7d5"]);
    let key = mock.enqueue("fenguard-test", &second, &json!({}));
    assert_eq!(mock.wait(&key, "ended", 30)["submit_status"], 200);
    let third = work("s2", json!({"movetime": 100}), START, &[]);
    let key = mock.enqueue("fenguard-test", &third, &json!({}));
    assert_eq!(mock.wait(&key, "ended", 30)["submit_status"], 200);
    let input = engine_input(&provider);
    let seen: Vec<&str> = input
        .lines()
        .filter(|l| !matches!(*l, "isready" | "uci"))
        .collect();
    assert_eq!(
        seen,
        [
            "setoption name UCI_Chess960 value true",
            "ucinewgame",
            "setoption name Threads value 2",
            "setoption name Hash value 32",
            "setoption name MultiPV value 3",
            &format!(
                "position fen {} moves e2e4 e7e5",
                START.replace("KQkq", "HAha")
            ),
            "go depth 5",
            "setoption name Threads value 1",
            "setoption name Hash value 16",
            "setoption name MultiPV value 1",
            &format!(
                "position fen {} moves d2d4 d7d5",
                START.replace("KQkq", "HAha")
            ),
            "go nodes 1000",
            "ucinewgame",
            &format!("position fen {}", START.replace("KQkq", "HAha")),
            "go movetime 100",
        ],
        "engine input:\n{input}"
    );
    // Each job's records carry its broker id as their session.
    let id = mock.job(&key)["id"].as_str().unwrap().to_owned();
    let record = provider.wait_record(|r| r["kind"] == "search" && r["session"] == id.as_str());
    assert_eq!(record["go"], "go movetime 100");
}

#[test]
fn multipv_5_is_served_and_6_refused_before_the_engine_sees_it() {
    let mock = Mock::start(1.0);
    let provider = Provider::start(&mock, &recording("provide_multipv"));
    let mut five = work("s1", json!({"depth": 3}), START, &[]);
    five["multiPv"] = json!(5);
    let key = mock.enqueue("fenguard-test", &five, &json!({}));
    assert_eq!(mock.wait(&key, "ended", 30)["submit_status"], 200);
    let mut six = five.clone();
    six["multiPv"] = json!(6);
    assert_refused(&mock, &six, "multiPv 6");
    let input = engine_input(&provider);
    assert!(
        input.contains("setoption name MultiPV value 5\n"),
        "{input}"
    );
    assert!(!input.contains("MultiPV value 6"), "{input}");
    assert_eq!(input.matches("go depth 3").count(), 1, "{input}");
}

#[test]
fn an_invalid_position_is_answered_without_reaching_the_engine() {
    let mock = Mock::start(1.0);
    let provider = Provider::start(&mock, &recording("provide_invalid"));
    let kingless = work("s1", json!({"depth": 3}), "8/8/8/8/8/8/8/8 w - - 0 1", &[]);
    let key = mock.enqueue("fenguard-test", &kingless, &json!({"raw": true}));
    let job = mock.wait(&key, "ended", 30);
    assert_eq!(job["submit_status"], 200, "{job}");
    let streamed = lines(&job);
    assert!(
        streamed
            .iter()
            .any(|l| l.starts_with("info string fenguard:")),
        "{streamed:?}"
    );
    assert_eq!(
        streamed.last().map(String::as_str),
        Some("bestmove 0000"),
        "{streamed:?}"
    );
    let input = engine_input(&provider);
    assert!(!input.contains("position"), "{input}");
    assert!(!input.contains("go "), "{input}");
    let record = provider.wait_record(|r| r["kind"] == "position");
    assert_eq!(record["verdict"], "rejected");
    // Then a good job is served as usual.
    let key = mock.enqueue(
        "fenguard-test",
        &work("s1", json!({"depth": 3}), START, &[]),
        &json!({}),
    );
    assert_eq!(
        lines(&mock.wait(&key, "ended", 30))
            .last()
            .map(String::as_str),
        Some("bestmove e2e4")
    );
}

#[test]
fn a_late_submit_404_is_survived_and_the_next_job_served() {
    let mock = Mock::start(1.0);
    let provider = Provider::start(&mock, &Setup::new("provide_late"));
    let (status, _) = mock.post(
        "/_mock/inject",
        &json!({"path": "^/api/external-engine/work/[A-Za-z0-9]+$", "method": "POST", "status": 404, "body": "work not found or cancelled or expired"}),
    );
    assert_eq!(status, 200);
    let late = mock.enqueue(
        "fenguard-test",
        &work("s1", json!({"depth": 3}), START, &[]),
        &json!({}),
    );
    mock.wait(&late, "acquired", 30);
    let next = mock.enqueue(
        "fenguard-test",
        &work("s1", json!({"depth": 4}), START, &[]),
        &json!({}),
    );
    let job = mock.wait(&next, "ended", 30);
    assert_eq!(job["submit_status"], 200, "{job}");
    let injected = mock
        .requests()
        .iter()
        .filter(|r| {
            r["status"] == 404
                && r["path"]
                    .as_str()
                    .is_some_and(|p| p.starts_with("/api/external-engine/work/"))
        })
        .count();
    assert_eq!(injected, 1, "{:?}", mock.requests());
    drop(provider);
}

#[test]
fn a_broker_outage_backs_off_and_recovers() {
    let mock = Mock::start(0.5);
    let provider = Provider::start(&mock, &Setup::new("provide_outage"));
    let (status, _) = mock.post("/_mock/broker-down", &json!({"seconds": 4, "mode": "502"}));
    assert_eq!(status, 200);
    let key = mock.enqueue(
        "fenguard-test",
        &work("s1", json!({"depth": 3}), START, &[]),
        &json!({}),
    );
    let job = mock.wait(&key, "ended", 40);
    assert_eq!(job["submit_status"], 200, "{job}");
    let failed: Vec<f64> = mock
        .requests()
        .iter()
        .filter(|r| r["path"] == "/api/external-engine/work" && r["status"] == 502)
        .filter_map(|r| r["t"].as_f64())
        .collect();
    assert!(failed.len() >= 2, "{:?}", mock.requests());
    // Backing off: polls 1 s, 1.5 s, 2.25 s ... apart (lichess's example provider).
    let gaps: Vec<f64> = failed.windows(2).map(|w| w[1] - w[0]).collect();
    assert!(gaps.iter().all(|g| *g >= 0.9), "{gaps:?}");
    assert!(
        gaps.windows(2).all(|w| w[1] > w[0]),
        "not backing off: {gaps:?}"
    );
    let log = std::fs::read_to_string(provider.dir.join("logs/fenguard.log")).unwrap();
    assert!(log.contains("cannot acquire work"), "{log}");
}

#[test]
fn an_idle_engine_is_stopped_after_keep_alive_and_started_again_for_the_next_job() {
    let mock = Mock::start(0.5);
    let mut setup = Setup::new("provide_keepalive");
    setup.provider = "keep_alive_s = 1";
    let provider = Provider::start(&mock, &setup);
    let first = mock.enqueue(
        "fenguard-test",
        &work("s1", json!({"depth": 3}), START, &[]),
        &json!({}),
    );
    assert_eq!(mock.wait(&first, "ended", 30)["submit_status"], 200);
    let exit = provider.wait_record(|r| r["kind"] == "engine-exit");
    assert_eq!(exit["reason"], "quit", "{exit}");
    let second = mock.enqueue(
        "fenguard-test",
        &work("s1", json!({"depth": 3}), START, &[]),
        &json!({}),
    );
    let job = mock.wait(&second, "ended", 30);
    assert_eq!(job["submit_status"], 200, "{job}");
    assert_eq!(
        lines(&job).last().map(String::as_str),
        Some("bestmove e2e4")
    );
    // A new engine for the next job.
    provider.wait_records(|r| r.iter().filter(|r| r["kind"] == "engine-start").count() == 2);
}

#[test]
fn a_job_whose_work_cannot_be_read_is_answered_and_the_next_one_served() {
    let mock = Mock::start(1.0);
    let provider = Provider::start(&mock, &recording("provide_unreadable"));
    // A private broker's job without a search limit: no `movetime`, `depth` or `nodes`.
    let broken = json!({"sessionId": "s1", "threads": 1, "hash": 16, "multiPv": 1,
        "variant": "chess", "initialFen": START, "moves": []});
    assert_refused(&mock, &broken, "unreadable work");
    let good = mock.enqueue(
        "fenguard-test",
        &work("s1", json!({"depth": 2}), START, &[]),
        &json!({}),
    );
    assert_eq!(mock.wait(&good, "ended", 30)["submit_status"], 200);
    // Only the good job reached the engine.
    let input = engine_input(&provider);
    assert_eq!(input.matches("\ngo ").count(), 1, "{input}");
    assert_eq!(input.matches("\nposition ").count(), 1, "{input}");
}

/// Queues `work` raw (as a private broker might send it) and asserts that the provider answered
/// it without the engine: 200, `info string fenguard: job refused: WHY...`, `bestmove (none)`.
fn assert_refused(mock: &Mock, work: &serde_json::Value, why: &str) {
    let key = mock.enqueue("fenguard-test", work, &json!({"raw": true}));
    let job = mock.wait(&key, "ended", 30);
    assert_eq!(job["submit_status"], 200, "{job}");
    let streamed = lines(&job);
    let refusal = format!("info string fenguard: job refused: {why}");
    assert!(
        streamed.iter().any(|l| l.starts_with(&refusal)),
        "{streamed:?}"
    );
    assert_eq!(streamed.last().map(String::as_str), Some("bestmove (none)"));
}
