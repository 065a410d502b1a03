//! Variants fenguard does not model (here Fairy-Stockfish's `loop`) pass through unchanged
//! (issue 9, class 5), in front of
//! Fairy-Stockfish (`/usr/games/fairy-stockfish`, Debian's `fairy-stockfish`; under `CI=true`
//! a missing one fails the tests) and the fake engine.

use crate::common;

use common::{Proxy, SEARCH_PATIENCE, contains, require_fairy, test_dir, wait_until};

fn start(name: &str) -> Option<Proxy> {
    let fairy = require_fairy()?;
    let dir = test_dir(name);
    Some(Proxy::start(&dir, &["--", fairy.to_str()?], &[]))
}

/// The `bestmove` line after sending `lines`, with everything fenguard wrote before it.
fn play(proxy: &mut Proxy, lines: &str) -> (String, String) {
    proxy.send(lines.as_bytes());
    let out = proxy.wait_stdout_within(SEARCH_PATIENCE, |o| {
        contains(o, b"\nbestmove ") && o.ends_with(b"\n")
    });
    let text = String::from_utf8_lossy(&out).into_owned();
    let best = text
        .lines()
        .find(|l| l.starts_with("bestmove "))
        .expect("bestmove")
        .to_owned();
    (text, best)
}

/// The records of `positions.jsonl` once `done` holds for them.
fn records(proxy: &Proxy, done: impl Fn(&[serde_json::Value]) -> bool) -> Vec<serde_json::Value> {
    wait_until(|| {
        let records: Vec<serde_json::Value> = proxy
            .log("positions.jsonl")
            .lines()
            .filter_map(|l| serde_json::from_str(l).ok())
            .collect();
        done(&records).then_some(records)
    })
    .unwrap_or_else(|| panic!("positions.jsonl: {}", proxy.log("positions.jsonl")))
}

#[test]
fn loop_drop_reaches_fairy_stockfish_unchanged() {
    let Some(mut proxy) = start("variant-loop") else {
        return;
    };
    let position = "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1 \
                    moves e2e4 d7d5 e4d5 d8d5 b1c3 d5a5 P@e4";
    let (text, best) = play(
        &mut proxy,
        &format!("uci\nsetoption name UCI_Variant value loop\n{position}\ngo depth 4\n"),
    );
    assert_ne!(best, "bestmove 0000", "{text}");
    assert!(!text.contains("rejected"), "{text}");
    assert_eq!(
        text.matches("info string fenguard: variant").count(),
        1,
        "{text}"
    );
    let records = records(&proxy, |r| r.iter().any(|r| r["kind"] == "search"));
    let pos = records.iter().find(|r| r["kind"] == "position").unwrap();
    assert_eq!(pos["raw"], position);
    assert_eq!(pos["sent"], position);
    assert_eq!(pos["verdict"], "unchecked");
    assert_eq!(pos["variant"], "loop");
    assert_eq!(pos["diagnostics"][0]["code"], "variant-not-checked");
    let search = records.iter().find(|r| r["kind"] == "search").unwrap();
    assert_eq!(search["variant"], "loop");
    assert_eq!(search["diagnostics"], serde_json::json!([]));
}

#[test]
fn cutechess_check_option_selects_a_modelled_variant_for_the_fake_engine() {
    let dir = test_dir("variant-caparandom-fake");
    let record = dir.join("engine-input");
    // The engine announces the check option (SPEC 12: only then does it select the variant).
    let mut proxy = Proxy::start(
        &dir,
        &["--", common::FAKE_ENGINE],
        &[
            ("FAKE_ENGINE_RECORD", record.to_str().unwrap()),
            (
                "FAKE_ENGINE_EXTRA_OPTION",
                "option name UCI_CapaRandom type check default false",
            ),
        ],
    );
    proxy.send(
        b"uci\nsetoption name UCI_CapaRandom value true\n\
          position startpos moves e2e4\ngo depth 1\nisready\n",
    );
    let out = proxy.wait_for("readyok\n");
    let text = String::from_utf8_lossy(&out);
    // The fake engine answers e2e4 for black: illegal, and flagged in caparandom's terms.
    assert!(text.contains("bestmove e2e4\n"), "{text}");
    assert!(text.contains("illegal-bestmove"), "{text}");
    assert!(!text.contains("rejected"), "{text}");
    assert!(!text.contains("variant caparandom"), "{text}");
    let input = std::fs::read_to_string(dir.join("engine-input")).unwrap();
    assert!(input.contains("position startpos moves e2e4\n"), "{input}");
}
