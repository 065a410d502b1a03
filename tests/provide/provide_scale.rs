//! Several workers and several provider processes on one queue: every job served exactly once.

use serde_json::json;

use crate::common::test_dir;
use crate::support::{Mock, Provider, START, Setup, lines, work};

#[test]
fn two_processes_with_two_workers_share_one_queue_and_serve_each_job_once() {
    let mock = Mock::start(1.0);
    let dir = test_dir("provide_two_procs");
    let mut setup = Setup::new("provide_two_procs");
    setup.provider = "workers = 2";
    setup.secret = Some(dir.join("secret"));
    let a = Provider::start_in(&mock, &setup, dir.join("a"));
    let b = Provider::start_in(&mock, &setup, dir.join("b"));
    assert_eq!(
        mock.engines().len(),
        1,
        "one registration: {:?}",
        mock.engines()
    );
    let keys: Vec<String> = (0..24)
        .map(|i| {
            let moves: &[&str] = if i % 2 == 0 { &[] } else { &["d2d4", "d7d5"] };
            let w = work(
                &format!("s{}", i % 5),
                json!({"depth": 2 + i % 3}),
                START,
                moves,
            );
            mock.enqueue("fenguard-test", &w, &json!({}))
        })
        .collect();
    let mut ids = Vec::new();
    for key in &keys {
        let job = mock.wait(key, "ended", 60);
        assert_eq!(job["submit_status"], 200, "{job}");
        assert_eq!(job["acquire_count"], 1, "{job}");
        assert_eq!(
            job["submits"].as_array().unwrap().len(),
            1,
            "submitted once: {job}"
        );
        assert_eq!(
            lines(&job).last().map(String::as_str),
            Some("bestmove e2e4")
        );
        ids.push(job["id"].as_str().unwrap().to_owned());
    }
    // Each job's search is logged by exactly one worker of one process; both processes served.
    let searches = |r: &[serde_json::Value]| r.iter().filter(|r| r["kind"] == "search").count();
    let all_logged = || searches(&a.records()) + searches(&b.records()) >= ids.len();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while !all_logged() {
        assert!(
            std::time::Instant::now() < deadline,
            "searches not all logged"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let (ra, rb) = (a.records(), b.records());
    let served = |records: &[serde_json::Value], id: &str| {
        records
            .iter()
            .filter(|r| r["kind"] == "search" && r["session"] == id)
            .count()
    };
    let mut by_a = 0;
    for id in &ids {
        let (x, y) = (served(&ra, id), served(&rb, id));
        assert_eq!(x + y, 1, "job {id}: {x} + {y} searches");
        by_a += x;
    }
    assert!(
        by_a > 0 && by_a < ids.len(),
        "one process served all {} jobs ({by_a} by a)",
        ids.len()
    );
    let workers = |records: &[serde_json::Value]| {
        let mut sessions: Vec<String> = records
            .iter()
            .filter(|r| r["kind"] == "engine-start")
            .filter_map(|r| r["session"].as_str().map(str::to_owned))
            .collect();
        sessions.sort();
        sessions.dedup();
        sessions.len()
    };
    assert_eq!(
        (workers(&ra), workers(&rb)),
        (2, 2),
        "two engines a process"
    );
}

/// The value of the Prometheus series `series` (name and labels as written) in `text`.
fn value(text: &str, series: &str) -> f64 {
    text.lines()
        .find_map(|l| l.strip_prefix(series).and_then(|v| v.trim().parse().ok()))
        .unwrap_or_else(|| panic!("no {series} in:\n{text}"))
}

#[test]
fn the_metrics_endpoint_counts_jobs_positions_and_latency_as_jobs_run() {
    let mock = Mock::start(1.0);
    let mut setup = Setup::new("provide_metrics");
    setup.more = "[metrics]\nlisten = \"127.0.0.1:0\"";
    let provider = Provider::start(&mock, &setup);
    let url = provider.metrics_url();
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .into();
    let scrape = || {
        let mut answer = agent.get(&format!("{url}/metrics")).call().unwrap();
        assert_eq!(answer.status(), 200);
        answer.body_mut().read_to_string().unwrap()
    };
    let mut health = agent.get(&format!("{url}/health")).call().unwrap();
    assert_eq!(
        health.status(),
        200,
        "{}",
        health.body_mut().read_to_string().unwrap()
    );
    let before = scrape();
    assert_eq!(value(&before, "fenguard_jobs_total{outcome=\"done\"}"), 0.0);
    for i in 0..3 {
        let key = mock.enqueue(
            "fenguard-test",
            &work("s", json!({"depth": 1 + i}), START, &[]),
            &json!({}),
        );
        assert_eq!(mock.wait(&key, "ended", 30)["submit_status"], 200);
    }
    let bad = work("s", json!({"depth": 2}), "8/8/8/8/8/8/8/8 w - - 0 1", &[]);
    let key = mock.enqueue("fenguard-test", &bad, &json!({"raw": true}));
    assert_eq!(mock.wait(&key, "ended", 30)["submit_status"], 200);
    // A job is counted once the broker's answer is read, just after the mock saw it end.
    let done = |text: &str| value(text, "fenguard_jobs_total{outcome=\"done\"}");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    let mut after = scrape();
    while done(&after) < 4.0 && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(20));
        after = scrape();
    }
    assert_eq!(done(&after), 4.0, "{after}");
    assert_eq!(
        value(&after, "fenguard_positions_total{verdict=\"valid\"}"),
        3.0,
        "{after}"
    );
    assert_eq!(
        value(&after, "fenguard_positions_total{verdict=\"rejected\"}"),
        1.0,
        "{after}"
    );
    assert_eq!(value(&after, "fenguard_job_seconds_count"), 4.0, "{after}");
    assert_eq!(value(&after, "fenguard_jobs_active"), 0.0, "{after}");
    drop(provider);
}
