//! The rules seam (issue 17): `seam10`, a 10x8 variant that exists only as one entry of
//! `variant::board10::TABLE` compiled with the `test-variants` feature (capablanca with a
//! knight for its chancellor, castling to c or h), is checked by `fenguard check`
//! and played through the proxy in front of the fake engine. Nothing else names it.
//!
//! `cargo test --features test-variants --test variants variant10_seam::`

use crate::common;

use common::check::check;
use common::{Proxy, test_dir, wait_until};

const START: &str = "rnabqkbnnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBNNR w KQkq - 0 1";
const CASTLES: &str = "r4k3r/10/10/10/10/10/10/R4K3R w KQkq - 0 1";

fn json(args: &[&str]) -> Vec<serde_json::Value> {
    let o = check(args, "");
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("json line"))
        .collect()
}

#[test]
fn check_reads_the_table_entry() {
    let r = &json(&["--variant", "seam10", "--format", "json", START])[0];
    assert_eq!(r["valid"], true, "{r}");
    assert_eq!(r["variant"], "seam10", "{r}");
    assert_eq!(r["chess960"], false, "{r}");
    // No chancellor in seam10.
    let bad = START.replace("RNABQKBNNR", "RNABQKBCNR");
    let r = &json(&["--variant", "seam10", "--format", "json", &bad])[0];
    assert_eq!(r["valid"], false, "{r}");
    assert_eq!(r["diagnostics"][0]["code"], "unknown-piece", "{r}");
    let message = r["diagnostics"][0]["message"].as_str().unwrap();
    assert!(message.contains("KQRBNAP/kqrbnap"), "{message}");
}

#[test]
fn check_castles_to_the_entry_s_files() {
    let r = &json(&[
        "--variant",
        "seam10",
        "--format",
        "json",
        "--legal-moves",
        CASTLES,
    ])[0];
    let moves = r["legal_moves"].as_array().expect("legal moves");
    let after = |uci: &str| {
        moves
            .iter()
            .find(|m| m[0] == uci)
            .map(|m| m[1].as_str().unwrap().to_owned())
    };
    assert_eq!(
        after("f1h1").as_deref(),
        Some("r4k3r/10/10/10/10/10/10/R5RK2 b kq - 1 1"),
        "{r}"
    );
    assert_eq!(
        after("f1c1").as_deref(),
        Some("r4k3r/10/10/10/10/10/10/2KR5R b kq - 1 1"),
        "{r}"
    );
}

#[test]
fn the_proxy_plays_it() {
    let dir = test_dir("variant10-seam");
    let record = dir.join("engine-input");
    let mut proxy = Proxy::start(
        &dir,
        &["--", common::FAKE_ENGINE],
        &[
            ("FAKE_ENGINE_RECORD", record.to_str().unwrap()),
            ("FAKE_ENGINE_BESTMOVE", "f8c8"),
            (
                "FAKE_ENGINE_EXTRA_OPTION",
                "option name UCI_Variant type combo default chess var chess var seam10",
            ),
        ],
    );
    // f1h1 is the kingside castle of the entry (king f1 to h1, rook j1 to g1); black answers
    // with its queenside castle f8c8 (its kingside one would pass g8, which the rook on g1
    // attacks); f1i1 is no move of the king.
    proxy.send(
        format!(
            "uci
setoption name UCI_Variant value seam10
position fen {CASTLES} moves f1h1
             go depth 1
"
        )
        .as_bytes(),
    );
    let out = proxy.wait_for("bestmove");
    let text = String::from_utf8_lossy(&out);
    assert!(text.contains("bestmove f8c8"), "{text}");
    proxy.send(
        format!(
            "position fen {CASTLES} moves f1i1
isready
"
        )
        .as_bytes(),
    );
    proxy.wait_for("readyok");
    let sent = wait_until(|| {
        let input = std::fs::read_to_string(&record).ok()?;
        input.contains("isready").then_some(input)
    })
    .expect("engine input");
    assert!(
        sent.contains(&format!("position fen {CASTLES} moves f1h1\n")),
        "{sent}"
    );
    let records: Vec<serde_json::Value> = wait_until(|| {
        let records: Vec<serde_json::Value> = proxy
            .log("positions.jsonl")
            .lines()
            .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
            .filter(|r| r["kind"] == "position" || r["kind"] == "search")
            .collect();
        (records.len() >= 3).then_some(records)
    })
    .expect("position, search and position records");
    let played = &records[0];
    assert_eq!(played["verdict"], "valid", "{played}");
    assert_eq!(played["variant"], "seam10", "{played}");
    assert_eq!(
        played["final_fen"], "r4k3r/10/10/10/10/10/10/R5RK2 b kq - 1 1",
        "{played}"
    );
    let search = &records[1];
    assert_eq!(search["bestmove"], "f8c8", "{search}");
    let none = search["diagnostics"].as_array().is_none_or(Vec::is_empty);
    assert!(none, "{search}");
    let illegal = &records[2];
    assert_ne!(illegal["verdict"], "valid", "{illegal}");
    assert_eq!(
        illegal["diagnostics"][0]["code"], "illegal-move",
        "{illegal}"
    );
}
