//! The built fenguard in front of real Stockfish. Stockfish is looked for at
//! `/usr/games/stockfish` (Debian) and on `PATH`. Under CI (`CI=true`) a missing Stockfish
//! fails the tests; elsewhere they say so on stderr and pass without running.

use crate::common;

use common::{Proxy, require_stockfish, test_dir};
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Position as _};

fn start(dir_name: &str) -> Option<Proxy> {
    let stockfish = require_stockfish()?;
    let dir = test_dir(dir_name);
    Some(Proxy::start(&dir, &["--", stockfish.to_str()?], &[]))
}

#[test]
fn stockfish_answers_uci_with_uciok() {
    let Some(mut proxy) = start("sf-uci") else {
        return;
    };
    proxy.send(b"uci\n");
    let out = String::from_utf8(proxy.wait_for("uciok\n")).unwrap();
    assert!(out.contains("\nid name Stockfish"), "{out}");
    assert!(
        out.contains("option name UCI_Chess960 type check default false\n"),
        "{out}"
    );
}

#[test]
fn stockfish_answers_isready_with_readyok() {
    let Some(mut proxy) = start("sf-isready") else {
        return;
    };
    proxy.send(b"isready\n");
    assert!(
        String::from_utf8(proxy.wait_for("readyok\n"))
            .unwrap()
            .ends_with("readyok\n")
    );
}

#[test]
fn stockfish_bestmove_after_e2e4_is_legal() {
    let Some(mut proxy) = start("sf-go") else {
        return;
    };
    proxy.send(b"uci\nisready\nposition startpos moves e2e4\ngo depth 8\n");
    let out = proxy.wait_stdout(|o| o.ends_with(b"\n") && common::contains(o, b"\nbestmove "));
    let out = String::from_utf8(out).unwrap();
    let line = out.lines().find(|l| l.starts_with("bestmove ")).unwrap();
    let best = line.split_whitespace().nth(1).unwrap();

    let mut position = Chess::default();
    let e2e4 = UciMove::from_ascii(b"e2e4")
        .unwrap()
        .to_move(&position)
        .unwrap();
    position.play_unchecked(e2e4);
    let uci =
        UciMove::from_ascii(best.as_bytes()).unwrap_or_else(|e| panic!("bestmove {best:?}: {e}"));
    assert!(
        uci.to_move(&position).is_ok(),
        "bestmove {best} is illegal after 1.e4"
    );
    assert!(!position.legal_moves().is_empty());

    proxy.send(b"quit\n");
    assert_eq!(proxy.wait_exit().code(), Some(0));
}
