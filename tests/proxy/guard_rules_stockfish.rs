//! Issue 30, against real engines: the rules fenguard judges by are the rules the engine
//! announced (SPEC 10, 12), through the stdio proxy and through `fenguard serve`; and a daemon
//! client cannot change fenguard's own checks (SPEC 11) nor flood `fenguard.log` with refusals.
//!
//! On main before this, Stockfish 15.1 (which announces no `UCI_Variant`) was sent horde,
//! antichess, crazyhouse-pocket and king-less positions after `setoption name UCI_Variant value
//! horde|antichess|crazyhouse|xyz` or `UCI_Horde value true`, and crashed (signal 11); under
//! `xyz` even an 18,000-square rank was forwarded. One daemon line `setoption name fenguard
//! OnBadPosition value forward` forwarded king-less FENs; 10,000 refused `setoption`s wrote
//! 10,000 lines (1.35 MB) to `fenguard.log`.
#![cfg(target_os = "linux")]

use crate::common;
use crate::serve_support;

use common::{Gui, require_stockfish};
use serve_support::{Client, Daemon, test_dir};

/// The `setoption` lines that selected a variant Stockfish does not play.
const SELECTIONS: [&str; 5] = [
    "setoption name UCI_Variant value horde",
    "setoption name UCI_Variant value antichess",
    "setoption name UCI_Variant value crazyhouse",
    "setoption name UCI_Variant value xyz",
    "setoption name UCI_Horde value true",
];

/// Positions Stockfish cannot read: king-less, horde, a crazyhouse pocket with a drop, an
/// 18,000-square rank.
fn crashers() -> Vec<String> {
    vec![
        "position fen 8/8/8/8/8/8/8/8 w - - 0 1".to_owned(),
        "position fen rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1"
            .to_owned(),
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[QQQQqqqq] w KQkq - 0 1 moves Q@e4"
            .to_owned(),
        "position fen 18000/8/8/8/8/8/8/K6k w - - 0 1".to_owned(),
        format!("position fen {}/8/8/8/8/8/8/K6k w - - 0 1", "1".repeat(18_000)),
    ]
}

/// No tokens (an empty tokens file): loopback without `auth`.
fn serve_config(dir: &std::path::Path, extra: &str) -> String {
    std::fs::write(dir.join("no-tokens"), "").unwrap();
    format!(
        "[serve]\ntokens_file = \"{}\"\nmax_threads = 1\nmax_hash_mb = 16\n{extra}\n",
        dir.join("no-tokens").display()
    )
}

#[test]
fn stockfish_behind_the_proxy_is_never_sent_a_variant_it_did_not_announce() {
    for (i, selection) in SELECTIONS.iter().enumerate() {
        let Some(mut gui) = Gui::stockfish_ready(&format!("rules-sf-proxy-{i}"), "") else {
            return;
        };
        gui.send(selection);
        let told = gui.sync();
        assert!(
            told.iter().any(|l| l.starts_with("info string fenguard: variant ")
                && l.ends_with("not offered by the engine (it announced no option UCI_Variant): positions are judged as chess")
                || l.contains("(it announced no option UCI_Horde)")),
            "{selection}: {told:#?}"
        );
        for line in crashers() {
            gui.send(&line);
        }
        let lines = gui.go("go depth 1");
        assert_eq!(
            lines.last().map(String::as_str),
            Some("bestmove 0000"),
            "{selection}"
        );
        gui.sync();
        let lines = gui.go("position startpos moves e2e4\ngo depth 3");
        let best = lines.last().unwrap();
        assert!(
            best.starts_with("bestmove ") && best != "bestmove 0000",
            "{lines:#?}"
        );
        gui.send("quit");
        gui.proxy.wait_exit();
        let records = gui.records();
        let kinds: Vec<&str> = records.iter().filter_map(|r| r["kind"].as_str()).collect();
        assert_eq!(
            kinds.iter().filter(|k| **k == "engine-start").count(),
            1,
            "{selection}: {kinds:?}"
        );
        let exits: Vec<&serde_json::Value> = records
            .iter()
            .filter(|r| r["kind"] == "engine-exit")
            .collect();
        assert!(
            exits.iter().all(|r| r["reason"] == "quit"),
            "{selection}: {exits:?}"
        );
        let verdicts: Vec<&str> = records
            .iter()
            .filter(|r| r["kind"] == "position")
            .filter_map(|r| r["verdict"].as_str())
            .collect();
        assert_eq!(
            verdicts,
            [
                "rejected", "rejected", "rejected", "rejected", "rejected", "valid"
            ],
            "{selection}"
        );
    }
}

#[test]
fn stockfish_behind_serve_is_never_sent_a_variant_it_did_not_announce() {
    let Some(stockfish) = require_stockfish() else {
        return;
    };
    let dir = test_dir("rules-sf-serve");
    let daemon = Daemon::start_with(
        &dir,
        &serve_config(&dir, ""),
        &["127.0.0.1:{port}"],
        &[],
        None,
        &[stockfish.to_str().unwrap()],
    );
    for selection in SELECTIONS {
        let mut client = daemon.client();
        client.handshake();
        let engine = daemon.wait_engines(1);
        client.send(&format!("{selection}\n"));
        let told = client.until(|l| l.starts_with("info string fenguard: variant "));
        assert!(
            told.ends_with("positions are judged as chess; not forwarded"),
            "{told}"
        );
        for line in crashers() {
            client.send(&format!("{line}\n"));
        }
        client.send("go depth 1\n");
        let best = client.until(|l| l.starts_with("bestmove"));
        assert_eq!(best, "bestmove 0000", "{selection}: {:#?}", client.seen);
        client.send("isready\n");
        client.until(|l| l == "readyok");
        client.send("position startpos moves e2e4\ngo depth 3\n");
        let best = client.until(|l| l.starts_with("bestmove"));
        assert_ne!(best, "bestmove 0000", "{:#?}", client.seen);
        assert!(
            !client.seen.iter().any(|l| l.starts_with("No such option")),
            "{selection} was forwarded: {:#?}",
            client.seen
        );
        assert_eq!(daemon.engines(), engine, "{selection}: the engine changed");
        client.send("quit\n");
        client.rest();
        serve_support::wait_gone(&engine, serve_support::PATIENCE);
    }
    let log = daemon.log();
    assert!(!log.contains("signal"), "{log}");
    assert!(!log.contains("exited on its own"), "{log}");
}

#[test]
fn fairy_stockfish_still_plays_the_variants_it_announces() {
    let Some(mut gui) = Gui::fairy("rules-fairy-proxy") else {
        return;
    };
    gui.handshake();
    // Fairy-Stockfish takes `Horde` for its combo but would play chess: it gets `horde`.
    gui.send("setoption name UCI_Variant value Horde");
    let horde = &crashers()[1];
    let (told, record) = gui.position(horde);
    assert!(!told.iter().any(|l| l.contains("fenguard")), "{told:#?}");
    assert_eq!(record["verdict"], "valid", "{record}");
    assert_eq!(record["variant"], "horde", "{record}");
    let lines = gui.go("go depth 2");
    let best = lines.last().unwrap();
    assert!(
        best.starts_with("bestmove ") && best != "bestmove 0000",
        "{lines:#?}"
    );
    assert!(!lines.iter().any(|l| l.contains("illegal")), "{lines:#?}");
    // The engine plays horde too: its move from horde's start is legal by horde's rules (a
    // chess-playing engine answers a knight or a pawn move through a full rank).
    gui.send("position startpos");
    let lines = gui.go("go depth 3");
    assert!(!lines.iter().any(|l| l.contains("fenguard")), "{lines:#?}");
    // Under horde, the king-less board is still no position.
    let (_, record) = gui.position(&crashers()[0]);
    assert_eq!(record["verdict"], "rejected", "{record}");
    // Crazyhouse, announced: the pocket and the drop are its rules.
    gui.send("setoption name UCI_Variant value crazyhouse");
    let (_, record) = gui.position(&crashers()[2]);
    assert_eq!(record["verdict"], "valid", "{record}");
    assert_eq!(record["variant"], "crazyhouse", "{record}");
}

#[test]
fn fenguard_options_from_a_daemon_client_are_the_operators() {
    let dir = test_dir("rules-own-options");
    let record = dir.join("engine-input");
    let env = [("FAKE_ENGINE_RECORD", record.to_str().unwrap())];
    let daemon = Daemon::start(&dir, &serve_config(&dir, ""), "127.0.0.1:{port}", &env);
    let mut client = daemon.client();
    client.handshake();
    for name in ["OnBadPosition", "CheckMoves", "LogPositions"] {
        let value = if name == "OnBadPosition" {
            "forward"
        } else {
            "false"
        };
        client.send(&format!("setoption name fenguard {name} value {value}\n"));
        let told = client.until(|l| l.starts_with("info string fenguard:"));
        assert_eq!(
            told,
            format!("info string fenguard: option not allowed: fenguard {name}")
        );
    }
    let kingless = &crashers()[0];
    client.send(&format!("{kingless}\ngo depth 1\n"));
    assert_eq!(client.until(|l| l.starts_with("bestmove")), "bestmove 0000");
    client.send("quit\n");
    client.rest();
    daemon.wait_log("positions judged");
    let sent = std::fs::read_to_string(&record).unwrap_or_default();
    assert!(!sent.contains(kingless.as_str()), "{sent}");
    // The positions log was written (LogPositions false was refused).
    let logs: Vec<String> = std::fs::read_dir(dir.join("logs"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("positions-"))
        .collect();
    assert_eq!(logs.len(), 1, "{logs:?}");
    let text = std::fs::read_to_string(dir.join("logs").join(&logs[0])).unwrap();
    assert!(
        text.lines().any(|l| l.contains("\"verdict\":\"rejected\"")),
        "{text}"
    );

    // The operator lists OnBadPosition: that one is the client's, LogPositions still not.
    let dir = test_dir("rules-own-options-listed");
    let record = dir.join("engine-input");
    let env = [("FAKE_ENGINE_RECORD", record.to_str().unwrap())];
    let config = serve_config(&dir, "client_options = [\"OnBadPosition\"]");
    let daemon = Daemon::start(&dir, &config, "127.0.0.1:{port}", &env);
    let mut client = daemon.client();
    client.handshake();
    client.send("setoption name fenguard OnBadPosition value forward\n");
    client.send("setoption name fenguard LogPositions value false\n");
    let told = client.until(|l| l.starts_with("info string fenguard:"));
    assert_eq!(
        told,
        "info string fenguard: option not allowed: fenguard LogPositions"
    );
    client.send(&format!("{kingless}\nisready\n"));
    client.until(|l| l == "readyok");
    let sent = std::fs::read_to_string(&record).unwrap_or_default();
    assert!(sent.contains(kingless.as_str()), "{sent}");
}

#[test]
fn a_flood_of_refusals_adds_a_few_lines_to_fenguard_log() {
    const REFUSALS: usize = 10_000;
    let dir = test_dir("rules-refusal-flood");
    let daemon = Daemon::start(&dir, &serve_config(&dir, ""), "127.0.0.1:{port}", &[]);
    let mut client = Client::connect(daemon.port);
    client.handshake();
    client.send(&"setoption name EvalFile value /etc/shadow\n".repeat(REFUSALS));
    client.send("isready\n");
    client.until(|l| l == "readyok");
    let answers = client
        .seen
        .iter()
        .filter(|l| *l == "info string fenguard: option not allowed: EvalFile")
        .count();
    assert_eq!(answers, REFUSALS);
    client.send("quit\n");
    client.rest();
    daemon.wait_log("positions judged");
    let log = daemon.log();
    let lines: Vec<&str> = log.lines().filter(|l| l.contains("EvalFile")).collect();
    assert!(
        (2..=4).contains(&lines.len()),
        "{} lines: {lines:#?}",
        lines.len()
    );
    assert!(
        lines[0].contains("option not allowed: EvalFile (not forwarded)"),
        "{}",
        lines[0]
    );
    let summed: u64 = lines[1..]
        .iter()
        .filter_map(|l| {
            l.rsplit_once("EvalFile (")?
                .1
                .strip_suffix(')')?
                .parse::<u64>()
                .ok()
        })
        .sum();
    assert_eq!(summed, REFUSALS as u64 - 1, "{lines:#?}");
}
