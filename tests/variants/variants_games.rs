//! Modelled variants in front of Fairy-Stockfish (`/usr/games/fairy-stockfish`; under
//! `CI=true` a missing one fails the tests): every 8x8 variant the engine offers (Debian's 11.1
//! has no `atomic`) and every 10x8 variant, their `startpos` and a position after the engine's
//! own move judged valid and logged with the variant, the engine's `bestmove` legal.

use crate::common;

use common::{Proxy, SEARCH_PATIENCE, contains, require_fairy, test_dir, wait_until};

/// The modelled variants Debian's Fairy-Stockfish 11.1 offers.
const OFFERED: &[&str] = &[
    "crazyhouse",
    "kingofthehill",
    "3check",
    "horde",
    "racingkings",
    "antichess",
    "giveaway",
    "capablanca",
    "caparandom",
    "gothic",
    "janus",
    "embassy",
];

/// Sends `lines`, waits for the `count`-th `bestmove`; everything written, and that line.
fn play(proxy: &mut Proxy, lines: &str, count: usize) -> (String, String) {
    proxy.send(lines.as_bytes());
    let out = proxy.wait_stdout_within(SEARCH_PATIENCE, |o| {
        String::from_utf8_lossy(o).matches("\nbestmove ").count() >= count
            && contains(o, b"\nbestmove ")
            && o.ends_with(b"\n")
    });
    let text = String::from_utf8_lossy(&out).into_owned();
    let best = text
        .lines()
        .filter(|l| l.starts_with("bestmove "))
        .nth(count - 1)
        .expect("bestmove")
        .to_owned();
    (text, best)
}

fn records(proxy: &Proxy, positions: usize) -> Vec<serde_json::Value> {
    wait_until(|| {
        let records: Vec<serde_json::Value> = proxy
            .log("positions.jsonl")
            .lines()
            .filter_map(|l| serde_json::from_str(l).ok())
            .collect();
        let searches = records.iter().filter(|r| r["kind"] == "search").count();
        (searches >= positions).then_some(records)
    })
    .unwrap_or_else(|| panic!("positions.jsonl: {}", proxy.log("positions.jsonl")))
}

#[test]
fn every_offered_variant_is_checked_in_front_of_fairy_stockfish() {
    let Some(fairy) = require_fairy() else {
        return;
    };
    for variant in OFFERED {
        let dir = test_dir(&format!("variant-games-{variant}"));
        let mut proxy = Proxy::start(&dir, &["--", fairy.to_str().unwrap()], &[]);
        let (text, best) = play(
            &mut proxy,
            &format!(
                "uci\nsetoption name UCI_Variant value {variant}\nposition startpos\ngo depth 3\n"
            ),
            1,
        );
        assert!(!text.contains("info string fenguard"), "{variant}: {text}");
        let first = best.split_whitespace().nth(1).unwrap().to_owned();
        assert_ne!(first, "0000", "{variant}: {text}");
        let (text, best) = play(
            &mut proxy,
            &format!("position startpos moves {first}\ngo depth 3\n"),
            2,
        );
        assert!(!text.contains("info string fenguard"), "{variant}: {text}");
        assert_ne!(best, "bestmove 0000", "{variant}: {text}");
        let records = records(&proxy, 2);
        let positions: Vec<_> = records.iter().filter(|r| r["kind"] == "position").collect();
        assert_eq!(positions.len(), 2, "{variant}: {records:?}");
        for pos in positions {
            assert_eq!(pos["verdict"], "valid", "{variant}: {pos}");
            assert_eq!(pos["variant"], *variant, "{variant}: {pos}");
            assert_eq!(
                pos["diagnostics"],
                serde_json::json!([]),
                "{variant}: {pos}"
            );
        }
        for search in records.iter().filter(|r| r["kind"] == "search") {
            assert_eq!(search["variant"], *variant, "{variant}: {search}");
            assert_eq!(
                search["diagnostics"],
                serde_json::json!([]),
                "{variant}: {search}"
            );
        }
        proxy.send(b"quit\n");
    }
}

#[test]
fn capablanca_castles_reach_fairy_stockfish_in_both_notations() {
    let Some(fairy) = require_fairy() else {
        return;
    };
    let fen = "r4k3r/pppppppppp/10/10/10/10/PPPPPPPPPP/R4K3R w KQkq - 0 1";
    for (chess960, castle) in [("false", "f1i1"), ("true", "f1j1")] {
        let dir = test_dir(&format!("variant-capa-castle-{chess960}"));
        let mut proxy = Proxy::start(&dir, &["--", fairy.to_str().unwrap()], &[]);
        let (text, best) = play(
            &mut proxy,
            &format!(
                "uci\nsetoption name UCI_Variant value capablanca\n\
                 setoption name UCI_Chess960 value {chess960}\n\
                 position fen {fen} moves {castle}\ngo depth 3\n"
            ),
            1,
        );
        assert!(!text.contains("info string fenguard"), "{chess960}: {text}");
        assert_ne!(best, "bestmove 0000", "{text}");
        let records = records(&proxy, 1);
        let pos = records.iter().find(|r| r["kind"] == "position").unwrap();
        assert_eq!(pos["verdict"], "valid", "{pos}");
        assert_eq!(pos["variant"], "capablanca", "{pos}");
        assert_eq!(
            pos["final_fen"], "r4k3r/pppppppppp/10/10/10/10/PPPPPPPPPP/R6RK1 b kq - 1 1",
            "{pos}"
        );
        proxy.send(b"quit\n");
    }
}

/// Issue 21: giveaway castles (python-chess `GiveawayBoard`, Fairy-Stockfish, cutechess); a
/// game with a castle is forwarded, judged valid, and the engine's answer (which may castle
/// back) reaches the GUI, never `bestmove 0000`.
#[test]
fn giveaway_game_with_a_castle_reaches_fairy_stockfish() {
    let Some(fairy) = require_fairy() else {
        return;
    };
    let dir = test_dir("variant-giveaway-castle");
    let mut proxy = Proxy::start(&dir, &["--", fairy.to_str().unwrap()], &[]);
    let moves = "g1f3 g8f6 e2e3 e7e6 f1e2 f8e7 e1g1";
    let (text, best) = play(
        &mut proxy,
        &format!(
            "uci\nsetoption name UCI_Variant value giveaway\n\
             position startpos moves {moves}\ngo depth 3\n\
             position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 moves {moves}\n\
             go depth 3\n"
        ),
        2,
    );
    assert!(!text.contains("info string fenguard"), "{text}");
    assert!(!text.contains("bestmove 0000"), "{text}");
    assert_ne!(best, "bestmove 0000", "{text}");
    let records = records(&proxy, 2);
    for pos in records.iter().filter(|r| r["kind"] == "position") {
        assert_eq!(pos["verdict"], "valid", "{pos}");
        assert_eq!(pos["variant"], "giveaway", "{pos}");
        assert_eq!(
            pos["final_fen"], "rnbqk2r/ppppbppp/4pn2/8/8/4PN2/PPPPBPPP/RNBQ1RK1 b kq - 3 4",
            "{pos}"
        );
    }
    for search in records.iter().filter(|r| r["kind"] == "search") {
        assert_eq!(search["diagnostics"], serde_json::json!([]), "{search}");
    }
    proxy.send(b"quit\n");
}

/// Issue 21: cutechess starts a crazyhouse game from a position with an empty pocket written
/// `[-]`: it reaches the engine (as `[]`) and is searched, never `bestmove 0000`.
#[test]
fn crazyhouse_dash_pocket_from_cutechess_reaches_fairy_stockfish() {
    let Some(fairy) = require_fairy() else {
        return;
    };
    let dir = test_dir("variant-crazyhouse-dash-pocket");
    let mut proxy = Proxy::start(&dir, &["--", fairy.to_str().unwrap()], &[]);
    let (text, best) = play(
        &mut proxy,
        "uci\nsetoption name UCI_Variant value crazyhouse\n\
         position fen r1bqkbnr/pppppppp/2n5/8/4P3/8/PPPP1PPP/RNBQKBNR[-] w KQkq - 1 2\ngo depth 3\n",
        1,
    );
    assert!(!text.contains("info string fenguard"), "{text}");
    assert_ne!(best, "bestmove 0000", "{text}");
    let records = records(&proxy, 1);
    let pos = records.iter().find(|r| r["kind"] == "position").unwrap();
    assert_eq!(pos["verdict"], "valid", "{pos}");
    assert_eq!(
        pos["sent"], "position fen r1bqkbnr/pppppppp/2n5/8/4P3/8/PPPP1PPP/RNBQKBNR[] w KQkq - 1 2",
        "{pos}"
    );
    proxy.send(b"quit\n");
}
