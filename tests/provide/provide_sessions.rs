//! Jobs of many analysis sessions on the workers of processes sharing one queue (issue 30): a
//! newer job supersedes only a job of its own session, and a superseded job still ends with
//! analysis and the engine's `bestmove`; a job of another session waits for a free worker (of
//! any process), never stops a running search. Stockfish 15.1 behind every provider.

use std::collections::HashMap;
use std::io::Write as _;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::common::{require_stockfish, test_dir};
use crate::support::{Mock, Provider, START, Setup, assert_engine_bestmove, lines, work};

/// What a superseded job's stream says before its last lines.
const NOTICE: &str = "info string fenguard: superseded by a newer job of this session";

fn stockfish_setup(name: &str) -> Option<Setup<'_>> {
    let stockfish = require_stockfish()?;
    let mut setup = Setup::new(name);
    setup.engine = vec![stockfish.display().to_string()];
    Some(setup)
}

/// The job's streamed `info` lines with a score.
fn scored(job: &Value) -> Vec<String> {
    lines(job)
        .into_iter()
        .filter(|l| l.starts_with("info ") && l.contains(" score "))
        .collect()
}

/// The deepest `depth` of the job's scored `info` lines.
fn deepest(job: &Value) -> u64 {
    scored(job)
        .iter()
        .filter_map(|l| {
            let mut words = l.split_whitespace();
            words.find(|w| *w == "depth")?;
            words.next()?.parse().ok()
        })
        .max()
        .unwrap_or(0)
}

/// A mock timestamp of the job (`acquired`, `bestmove`, `first_info`, ...).
fn at(job: &Value, event: &str) -> f64 {
    job["times"][event]
        .as_f64()
        .unwrap_or_else(|| panic!("no {event} time: {job}"))
}

/// Each worker's searches in the order it ran them: the job ids of the `search` records of
/// each positions log of `provider` (one log a worker).
fn searches_by_worker(provider: &Provider) -> Vec<Vec<String>> {
    let mut paths: Vec<_> = std::fs::read_dir(provider.dir.join("logs"))
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    paths.retain(|p| {
        p.file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with("positions-"))
    });
    paths.sort();
    paths
        .iter()
        .map(|path| {
            std::fs::read_to_string(path)
                .unwrap_or_default()
                .lines()
                .filter_map(|l| serde_json::from_str::<Value>(l).ok())
                .filter(|r| r["kind"] == "search")
                .filter_map(|r| r["session"].as_str().map(str::to_owned))
                .collect()
        })
        .collect()
}

/// Waits (60 s) until the positions logs of `providers` hold a search of every job in `ids`;
/// each worker's searches, as [`searches_by_worker`], process by process.
fn wait_searches(providers: &[&Provider], ids: &[String]) -> Vec<Vec<Vec<String>>> {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let all: Vec<Vec<Vec<String>>> = providers.iter().map(|p| searches_by_worker(p)).collect();
        let logged = |id: &String| all.iter().flatten().flatten().any(|s| s == id);
        if ids.iter().all(logged) {
            return all;
        }
        assert!(
            Instant::now() < deadline,
            "searches not all logged: {all:?}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The jobs whose last line is not a `bestmove` that python-chess finds legal in the job's
/// position (the start position and its `moves`).
fn illegal_bestmoves(jobs: &[&Value]) -> Vec<String> {
    let script = "import sys, json, chess\n\
        for line in sys.stdin:\n\
        \x20   d = json.loads(line)\n\
        \x20   try:\n\
        \x20       b = chess.Board(d['fen'])\n\
        \x20       for m in d['moves']: b.push_uci(m)\n\
        \x20       ok = chess.Move.from_uci(d['best']) in b.legal_moves\n\
        \x20   except ValueError:\n\
        \x20       ok = False\n\
        \x20   print('ok' if ok else 'bad ' + line.strip(), flush=True)\n";
    let mut child = Command::new("python3")
        .args(["-c", script])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3 runs");
    let mut input = String::new();
    for job in jobs {
        let best = lines(job)
            .last()
            .and_then(|l| l.strip_prefix("bestmove "))
            .and_then(|l| l.split_whitespace().next())
            .unwrap_or("")
            .to_owned();
        let line = json!({"fen": job["work"]["initialFen"], "moves": job["work"]["moves"],
            "best": best, "job": job["job"]});
        input.push_str(&format!("{line}\n"));
    }
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "python-chess check failed");
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().count(), jobs.len(), "{text}");
    text.lines()
        .filter(|l| *l != "ok")
        .map(str::to_owned)
        .collect()
}

#[test]
fn a_new_job_of_the_same_session_stops_its_running_search_on_the_same_worker() {
    // The analysis board moved on: the free worker that acquires the job hands it to the busy
    // worker of its session, whose search is stopped and answered with what it found.
    let Some(mut setup) = stockfish_setup("provide_same_session") else {
        return;
    };
    setup.provider = "workers = 2";
    let mock = Mock::start(1.0);
    let provider = Provider::start(&mock, &setup);
    let long = work("s1", json!({"movetime": 60000}), START, &["e2e4"]);
    let first = mock.enqueue("fenguard-test", &long, &json!({}));
    mock.wait_searching(&first, 60);
    let next = mock.serve(
        &work("s1", json!({"depth": 6}), START, &["e2e4", "e7e5"]),
        &json!({}),
    );
    assert_engine_bestmove(&next);
    // Stopped, not run out: its minute is far from over.
    let first = mock.wait(&first, "ended", 30);
    assert_eq!(first["submit_status"], 200, "{first}");
    assert_engine_bestmove(&first);
    assert!(!scored(&first).is_empty(), "analysis so far: {first}");
    assert!(lines(&first).iter().any(|l| l == NOTICE), "{first}");
    assert!(
        at(&first, "bestmove") <= at(&next, "first_info"),
        "in order"
    );
    let ids = [&first, &next].map(|j| j["id"].as_str().unwrap().to_owned());
    let workers = wait_searches(&[&provider], &ids).remove(0);
    assert!(
        workers.iter().any(|w| w.as_slice() == ids),
        "one worker ran both, in order: {workers:?}"
    );
}

#[test]
fn jobs_of_one_session_sent_at_once_are_each_searched_and_answered_in_order() {
    // The user steps on twice before the first job's search began: the second job is handed
    // to the first one's worker while that one is set up, the third while the second still
    // waits. Each is searched up to analysis and ends with the engine's move, one by one.
    let Some(mut setup) = stockfish_setup("provide_session_burst") else {
        return;
    };
    setup.provider = "workers = 2";
    let mock = Mock::start(1.0);
    let provider = Provider::start(&mock, &setup);
    let game = ["e2e4", "e7e5", "g1f3"];
    let searches = [
        json!({"movetime": 30000}),
        json!({"movetime": 30000}),
        json!({"depth": 6}),
    ];
    let keys: Vec<String> = (0..3)
        .map(|k| {
            let w = work("s1", searches[k].clone(), START, &game[..=k]);
            mock.enqueue("fenguard-test", &w, &json!({}))
        })
        .collect();
    // Not run out: each of the first two has half a minute to go when its successor came.
    let jobs: Vec<Value> = keys.iter().map(|k| mock.wait(k, "ended", 20)).collect();
    for (k, job) in jobs.iter().enumerate() {
        assert_eq!(job["submit_status"], 200, "{job}");
        assert_engine_bestmove(job);
        assert!(!scored(job).is_empty(), "analysis: {job}");
        assert_eq!(lines(job).iter().any(|l| l == NOTICE), k < 2, "{job}");
    }
    for pair in jobs.windows(2) {
        assert!(
            at(&pair[0], "bestmove") <= at(&pair[1], "first_info"),
            "in order"
        );
    }
    let ids: Vec<String> = jobs
        .iter()
        .map(|j| j["id"].as_str().unwrap().to_owned())
        .collect();
    let workers = wait_searches(&[&provider], &ids).remove(0);
    assert!(
        workers.contains(&ids),
        "one worker ran all three, in order: {workers:?}"
    );
}

#[test]
fn a_job_of_another_session_waits_for_the_worker_and_never_stops_its_search() {
    // One worker, busy: the job of another session is not taken (it waits at the broker for
    // a free worker of any process), and the running search runs to its depth.
    let Some(setup) = stockfish_setup("provide_other_session") else {
        return;
    };
    let mock = Mock::start(1.0);
    let _provider = Provider::start(&mock, &setup);
    let deep = work("s1", json!({"depth": 18}), START, &["e2e4"]);
    let first = mock.enqueue("fenguard-test", &deep, &json!({}));
    mock.wait_searching(&first, 60);
    let other = mock.serve(
        &work("s2", json!({"depth": 6}), START, &["d2d4"]),
        &json!({}),
    );
    assert_engine_bestmove(&other);
    let first = mock.wait(&first, "ended", 60);
    assert_engine_bestmove(&first);
    assert_eq!(deepest(&first), 18, "searched to its depth: {first}");
    assert!(!lines(&first).iter().any(|l| l == NOTICE), "{first}");
    assert!(
        at(&other, "acquired") >= at(&first, "bestmove"),
        "taken only once the worker was free: {other}"
    );
}

#[test]
fn ten_sessions_on_two_processes_sharing_one_queue_keep_every_job_and_its_order() {
    // Two processes on one secret, of one worker and of two; ten sessions each send three
    // jobs: half of them the first two at once (a user stepping on before the first was
    // taken), the others each job as soon as the previous one was taken.
    let Some(mut setup) = stockfish_setup("provide_ten_sessions") else {
        return;
    };
    let dir = test_dir("provide_ten_sessions");
    setup.secret = Some(dir.join("secret"));
    let mock = Mock::start(1.0);
    let a = Provider::start_in(&mock, &setup, dir.join("a"));
    setup.provider = "workers = 2";
    let b = Provider::start_in(&mock, &setup, dir.join("b"));
    let games: [[&str; 3]; 5] = [
        ["e2e4", "e7e5", "g1f3"],
        ["d2d4", "d7d5", "c2c4"],
        ["c2c4", "e7e5", "b1c3"],
        ["g1f3", "d7d5", "g2g3"],
        ["e2e4", "c7c5", "g1f3"],
    ];
    let depths = [14, 14, 8];
    let sessions: Vec<Vec<String>> = std::thread::scope(|scope| {
        let threads: Vec<_> = (0..10)
            .map(|s| {
                let (mock, game) = (&mock, games[s % games.len()]);
                scope.spawn(move || {
                    (0..3)
                        .map(|k| {
                            let w = work(
                                &format!("session{s}"),
                                json!({"depth": depths[k]}),
                                START,
                                &game[..=k],
                            );
                            let key = mock.enqueue("fenguard-test", &w, &json!({}));
                            if k == 1 || (k == 0 && s % 2 == 1) {
                                mock.wait(&key, "acquired", 120);
                            }
                            key
                        })
                        .collect()
                })
            })
            .collect();
        threads.into_iter().map(|t| t.join().unwrap()).collect()
    });
    let jobs: Vec<Vec<Value>> = sessions
        .iter()
        .map(|keys| keys.iter().map(|k| mock.wait(k, "ended", 120)).collect())
        .collect();
    let all: Vec<&Value> = jobs.iter().flatten().collect();
    // No job lost: each answered once, with analysis and the engine's move, to its end.
    for job in &all {
        assert_eq!(job["submit_status"], 200, "{job}");
        assert_eq!(job["end"], "bestmove", "{job}");
        assert_eq!(job["acquire_count"], 1, "{job}");
        assert_eq!(job["submits"].as_array().unwrap().len(), 1, "{job}");
        assert!(!scored(job).is_empty(), "no info: {job}");
    }
    let illegal = illegal_bestmoves(&all);
    assert!(illegal.is_empty(), "illegal bestmoves: {illegal:?}");
    let ids: Vec<String> = all
        .iter()
        .map(|j| j["id"].as_str().unwrap().to_owned())
        .collect();
    let logs = wait_searches(&[&a, &b], &ids);
    // Where each job ran: (process, worker, place in that worker's order).
    let mut ran: HashMap<&str, (usize, usize, usize)> = HashMap::new();
    for (p, workers) in logs.iter().enumerate() {
        for (w, searches) in workers.iter().enumerate() {
            for (i, id) in searches.iter().enumerate() {
                assert!(
                    ran.insert(id.as_str(), (p, w, i)).is_none(),
                    "job {id} searched twice"
                );
            }
        }
    }
    // Which job ran where, by place: (process, worker, place) -> (session, job).
    let mut at_place: HashMap<(usize, usize, usize), (usize, usize)> = HashMap::new();
    for (s, session) in jobs.iter().enumerate() {
        for (k, job) in session.iter().enumerate() {
            at_place.insert(ran[job["id"].as_str().unwrap()], (s, k));
        }
    }
    let mut superseded = 0;
    for (s, session) in jobs.iter().enumerate() {
        for (k, job) in session.iter().enumerate() {
            let here = ran[job["id"].as_str().unwrap()];
            let stopped = deepest(job) < depths[k];
            let noted = lines(job).iter().any(|l| l == NOTICE);
            assert!(!stopped || noted, "stopped without a newer job: {job}");
            for later in &session[k + 1..] {
                assert!(at(job, "acquired") < at(later, "acquired"), "in order");
                if ran[later["id"].as_str().unwrap()].0 == here.0 {
                    // One process: the session's jobs one after the other.
                    assert!(
                        at(job, "bestmove") <= at(later, "first_info"),
                        "{job} {later}"
                    );
                }
            }
            if noted {
                // Superseded: by a later job of its session, run next on the same worker.
                superseded += 1;
                let next = at_place.get(&(here.0, here.1, here.2 + 1));
                let Some(&(s2, k2)) = next.filter(|(s2, k2)| *s2 == s && *k2 > k) else {
                    panic!("superseded by {next:?}, not by its own session's: {job}");
                };
                let by = &jobs[s2][k2];
                assert!(at(by, "acquired") < at(job, "bestmove"), "{job} {by}");
            }
        }
    }
    eprintln!("{superseded} of {} jobs superseded", all.len());
}
