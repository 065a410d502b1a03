//! Perft of the 10x8 move generator against Fairy-Stockfish's `go perft`: the table
//! `tests/variant10_perft.txt` (written by `scripts/perft10.py --generate`: the five start
//! positions and 26 mid-game positions with castling, en passant and promotions to
//! archbishop, chancellor and janus) and a live comparison with `/usr/games/fairy-stockfish`.

use std::io::Write;
use std::process::{Command, Stdio};

use fenguard::variant::Variant;
use fenguard::variant::board10::{Board10, Options, Variant10};

const TABLE: &str = include_str!("../variant10_perft.txt");
const ENGINE: &str = "/usr/games/fairy-stockfish";

struct Row {
    variant: Variant10,
    depth: u32,
    nodes: u64,
    fen: &'static str,
}

fn table() -> Vec<Row> {
    TABLE
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split(';').collect();
            Row {
                variant: Variant10::from_variant(&Variant::from_uci_name(f[0])).expect("10x8"),
                depth: f[1].parse().expect("depth"),
                nodes: f[2].parse().expect("nodes"),
                fen: f[3],
            }
        })
        .collect()
}

fn perft(variant: Variant10, fen: &str, depth: u32) -> u64 {
    let analysis = Board10::from_fen(fen.as_bytes(), &Options::new(variant));
    let board = analysis
        .board()
        .unwrap_or_else(|| panic!("{fen}: {:?}", analysis.diagnostics()));
    board.perft(depth)
}

#[test]
fn start_positions_match_fairy_stockfish_at_depth_3() {
    for (variant, nodes) in [
        (Variant10::Capablanca, 25228),
        (Variant10::Gothic, 25283),
        (Variant10::Janus, 24747),
        (Variant10::Embassy, 25281),
        (Variant10::CapaRandom, 25228),
    ] {
        assert_eq!(perft(variant, variant.start_fen(), 3), nodes, "{variant}");
    }
}

#[test]
fn table_positions_match_fairy_stockfish_counts() {
    let rows = table();
    assert!(rows.len() >= 25, "the table has {} positions", rows.len());
    let mut wrong = Vec::new();
    for row in &rows {
        let ours = perft(row.variant, row.fen, row.depth);
        if ours != row.nodes {
            wrong.push(format!(
                "{} {}: depth {} expected {}, got {ours}",
                row.variant, row.fen, row.depth, row.nodes
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// `go perft DEPTH` from Fairy-Stockfish; `None` when it is not installed (an error under
/// CI=true).
fn live_perft(variant: Variant10, fen: &str, depth: u32) -> Option<u64> {
    if !std::path::Path::new(ENGINE).exists() {
        assert_ne!(
            std::env::var("CI").as_deref(),
            Ok("true"),
            "{ENGINE} is missing under CI: apt-get install fairy-stockfish"
        );
        eprintln!("{ENGINE} not installed: live perft skipped");
        crate::common::skipped("fairy-stockfish");
        return None;
    }
    let mut child = Command::new(ENGINE)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start fairy-stockfish");
    let script = format!(
        "setoption name UCI_Variant value {}\nposition fen {fen}\ngo perft {depth}\nquit\n",
        variant.name()
    );
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(script.as_bytes())
        .expect("write");
    let out = child.wait_with_output().expect("fairy-stockfish output");
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text
        .lines()
        .find(|l| l.starts_with("Nodes searched:"))
        .unwrap_or_else(|| panic!("no perft count from {ENGINE}: {text}"));
    Some(
        line["Nodes searched:".len()..]
            .trim()
            .parse()
            .expect("a count"),
    )
}

#[test]
fn live_fairy_stockfish_agrees_on_castling_ep_and_promotion_positions() {
    let rows = table();
    // One start position, then every fifth table row: castles, en passant, promotions.
    for row in rows.iter().step_by(5) {
        let depth = row.depth.min(2);
        let Some(theirs) = live_perft(row.variant, row.fen, depth) else {
            return;
        };
        assert_eq!(
            perft(row.variant, row.fen, depth),
            theirs,
            "{} {}",
            row.variant,
            row.fen
        );
    }
}
