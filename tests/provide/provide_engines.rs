//! `fenguard provide` in front of real engines: Stockfish 15.1 (its `wdl` field, a requester
//! who leaves, a crash mid-job, SIGTERM) and Fairy-Stockfish (lichess's variants).

use std::time::{Duration, Instant};

use serde_json::json;

use crate::common::{process_gone, require_fairy, require_stockfish};
use crate::support::{
    Mock, Provider, START, Setup, assert_engine_bestmove, engine_pids, lines, work,
};

fn stockfish_setup(name: &str) -> Option<Setup<'_>> {
    let stockfish = require_stockfish()?;
    let mut setup = Setup::new(name);
    setup.engine = vec![stockfish.display().to_string()];
    Some(setup)
}

#[test]
fn stockfish_wdl_is_left_out_and_the_broker_never_refuses_a_line() {
    let Some(stockfish) = require_stockfish() else {
        return;
    };
    let mock = Mock::start(1.0);
    let mut setup = Setup::new("provide_wdl");
    // UCI_ShowWDL on before fenguard's own lines: Stockfish then adds `wdl W D L` to each info.
    setup.engine = vec![
        "/bin/sh".to_owned(),
        "-c".to_owned(),
        format!(
            "{{ echo 'setoption name UCI_ShowWDL value true'; cat; }} | exec {}",
            stockfish.display()
        ),
    ];
    let _provider = Provider::start(&mock, &setup);
    let mut job = work("s1", json!({"depth": 10}), START, &["e2e4", "e7e5"]);
    job["multiPv"] = json!(2);
    let key = mock.enqueue("fenguard-test", &job, &json!({}));
    let job = mock.wait(&key, "ended", 60);
    assert_eq!(job["submit_status"], 200, "{job}");
    let streamed = lines(&job);
    assert!(
        streamed
            .iter()
            .any(|l| l.contains(" score cp ") && l.contains(" multipv 2 ")),
        "{streamed:?}"
    );
    assert!(!streamed.iter().any(|l| l.contains("wdl")), "{streamed:?}");
    assert!(
        streamed.last().is_some_and(|l| l.starts_with("bestmove ")),
        "{streamed:?}"
    );
    assert!(
        job["emit_count"].as_u64().unwrap() > 0,
        "the requester got analysis: {job}"
    );
}

#[test]
fn a_requester_who_leaves_stops_the_search_and_the_next_job_is_served() {
    let Some(setup) = stockfish_setup("provide_leave") else {
        return;
    };
    let mock = Mock::start(1.0);
    let provider = Provider::start(&mock, &setup);
    let long = work("s1", json!({"movetime": 60000}), START, &[]);
    let key = mock.enqueue("fenguard-test", &long, &json!({"leave_after_lines": 3}));
    let job = mock.wait(&key, "ended", 60);
    assert!(job["requester_left"].is_string(), "{job}");
    let record = provider.wait_record(|r| r["kind"] == "search" && r["go"] == "go movetime 60000");
    let elapsed = record["elapsed_ms"].as_u64().unwrap();
    assert!(elapsed < 30000, "the search was not stopped: {record}");
    let job = mock.serve(
        &work("s1", json!({"depth": 8}), START, &["d2d4"]),
        &json!({}),
    );
    assert_engine_bestmove(&job);
}

#[test]
fn an_engine_killed_mid_job_ends_that_stream_and_the_next_job_is_served() {
    let Some(setup) = stockfish_setup("provide_kill") else {
        return;
    };
    let mock = Mock::start(1.0);
    let provider = Provider::start(&mock, &setup);
    let long = work("s1", json!({"movetime": 60000}), START, &[]);
    let key = mock.enqueue("fenguard-test", &long, &json!({}));
    mock.wait_searching(&key, 60);
    let pid = engine_pids(&provider.wait_records(|r| !engine_pids(r).is_empty()))[0];
    unsafe { libc::kill(pid, libc::SIGKILL) };
    let job = mock.wait(&key, "ended", 60);
    assert_eq!(job["submit_status"], 200, "the stream ended cleanly: {job}");
    assert_eq!(
        lines(&job).last().map(String::as_str),
        Some("bestmove 0000"),
        "{job}"
    );
    let job = mock.serve(
        &work("s1", json!({"depth": 6}), START, &["e2e4"]),
        &json!({}),
    );
    assert_engine_bestmove(&job);
    let records = provider.wait_records(|r| {
        r.iter()
            .any(|r| r["kind"] == "search" && r["go"] == "go depth 6")
    });
    let restarts = records
        .iter()
        .filter(|r| r["kind"] == "engine-start" && r["restart"] == 1)
        .count();
    assert_eq!(restarts, 1);
}

#[test]
fn sigterm_answers_the_running_search_then_exits_with_no_engine_left() {
    let Some(setup) = stockfish_setup("provide_sigterm") else {
        return;
    };
    let mock = Mock::start(1.0);
    let mut provider = Provider::start(&mock, &setup);
    let key = mock.enqueue(
        "fenguard-test",
        &work("s1", json!({"movetime": 60000}), START, &[]),
        &json!({}),
    );
    mock.wait_searching(&key, 60);
    let started = Instant::now();
    let status = provider.terminate();
    assert!(status.success(), "{status:?}: {}", provider.stderr());
    assert!(started.elapsed() < Duration::from_secs(20));
    let job = mock.wait(&key, "ended", 10);
    assert_eq!(job["submit_status"], 200, "{job}");
    assert!(
        lines(&job)
            .last()
            .is_some_and(|l| l.starts_with("bestmove ")),
        "{job}"
    );
    for pid in engine_pids(&provider.records()) {
        assert!(process_gone(pid), "engine {pid} outlived the provider");
    }
}

#[test]
fn fairy_stockfish_serves_lichess_variants() {
    let Some(fairy) = require_fairy() else { return };
    let mock = Mock::start(1.0);
    let mut setup = Setup::new("provide_fairy");
    setup.engine = vec![fairy.display().to_string()];
    let _provider = Provider::start(&mock, &setup);
    let variants = mock.engines()[0]["variants"].clone();
    for v in [
        "chess",
        "crazyhouse",
        "antichess",
        "horde",
        "kingofthehill",
        "racingkings",
        "3check",
    ] {
        assert!(
            variants.as_array().unwrap().iter().any(|x| x == v),
            "{v} not in {variants}"
        );
    }
    assert!(
        !variants.as_array().unwrap().iter().any(|x| x == "atomic"),
        "Debian's build has no atomic: {variants}"
    );
    let jobs = [
        (
            "crazyhouse",
            "rnbqkb1r/ppp1pppp/5n2/3p4/3P4/5N2/PPP1PPPP/RNBQKB1R[] w KQkq - 0 3",
            vec!["c1f4"],
        ),
        (
            "3check",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3+3 0 1",
            vec!["e2e4", "e7e5"],
        ),
        (
            "racingkings",
            "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1",
            vec![],
        ),
        (
            "antichess",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
            vec!["e2e3"],
        ),
    ];
    for (variant, fen, moves) in jobs {
        let mut w = work(variant, json!({"depth": 6}), fen, &moves);
        w["variant"] = json!(variant);
        let key = mock.enqueue("fenguard-test", &w, &json!({}));
        let job = mock.wait(&key, "ended", 60);
        assert_eq!(job["submit_status"], 200, "{variant}: {job}");
        let streamed = lines(&job);
        assert!(
            streamed
                .last()
                .is_some_and(|l| l.starts_with("bestmove ") && l != "bestmove 0000"),
            "{variant}: {streamed:?}"
        );
        assert!(
            streamed.iter().any(|l| l.contains(" score ")),
            "{variant}: {streamed:?}"
        );
    }
}

#[test]
fn chess960_positions_and_king_takes_rook_castles_reach_stockfish_as_it_reads_them() {
    let Some(setup) = stockfish_setup("provide_960") else {
        return;
    };
    let mock = Mock::start(1.0);
    let provider = Provider::start(&mock, &setup);
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let job = mock.serve(
        &work("s1", json!({"depth": 8}), kiwipete, &["e1h1", "e8a8"]),
        &json!({}),
    );
    assert_engine_bestmove(&job);
    let chess960 = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
    let job = mock.serve(
        &work("s2", json!({"depth": 8}), chess960, &["e1f3"]),
        &json!({}),
    );
    assert_engine_bestmove(&job);
    let records =
        provider.wait_records(|r| r.iter().filter(|r| r["kind"] == "position").count() == 2);
    for record in records.iter().filter(|r| r["kind"] == "position") {
        assert_eq!(record["verdict"], "valid", "{record}");
        assert_eq!(record["chess960"], true, "{record}");
    }
    let castled = records.iter().find(|r| r["kind"] == "position").unwrap();
    assert!(
        castled["sent"]
            .as_str()
            .unwrap()
            .ends_with("moves e1h1 e8a8"),
        "{castled}"
    );
}
