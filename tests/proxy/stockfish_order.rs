//! Reply order, lines judged after `uciok` and `go perft` in front of real Stockfish (issue 9,
//! classes 1, 2 and 3). Stockfish is looked for at `/usr/games/stockfish` and on `PATH`; under
//! `CI=true` a missing Stockfish fails the tests.

use crate::common;

use common::{Proxy, SEARCH_PATIENCE, contains, require_stockfish, test_dir};

fn start(name: &str) -> Option<Proxy> {
    let stockfish = require_stockfish()?;
    let dir = test_dir(name);
    Some(Proxy::start(&dir, &["--", stockfish.to_str()?], &[]))
}

fn lines(out: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(out)
        .lines()
        .map(str::to_owned)
        .collect()
}

fn index_of(lines: &[String], prefix: &str) -> usize {
    lines
        .iter()
        .position(|l| l.starts_with(prefix))
        .unwrap_or_else(|| panic!("no {prefix:?} in {lines:?}"))
}

#[test]
fn pipelined_chess960_setup_is_judged_after_stockfishs_uciok() {
    let Some(mut proxy) = start("sf-order-960") else {
        return;
    };
    proxy.send(
        b"uci\nsetoption name UCI_Chess960 value true\n\
          position fen bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9\n\
          go depth 6\n",
    );
    let out = proxy.wait_stdout_within(SEARCH_PATIENCE, |o| {
        contains(o, b"\nbestmove ") && o.ends_with(b"\n")
    });
    let lines = lines(&out);
    assert!(
        !lines.iter().any(|l| l.contains("engine-lacks-chess960")),
        "{lines:?}"
    );
    let best = &lines[index_of(&lines, "bestmove ")];
    assert!(!best.starts_with("bestmove 0000"), "{lines:?}");
}

#[test]
fn own_bestmove_after_a_rejected_position_follows_stockfishs_readyok() {
    let Some(mut proxy) = start("sf-order-readyok") else {
        return;
    };
    proxy.send(
        b"setoption name Hash value 256\nucinewgame\nisready\n\
          position fen 8/8/8/8/8/8/8/8 w - - 0 1\ngo depth 1\n",
    );
    let out = proxy.wait_stdout_within(SEARCH_PATIENCE, |o| contains(o, b"bestmove 0000\n"));
    let lines = lines(&out);
    assert!(index_of(&lines, "readyok") < index_of(&lines, "info string fenguard: rejected"));
    assert!(index_of(&lines, "info string fenguard: rejected") < index_of(&lines, "bestmove"));
}

#[test]
fn uci_isready_bad_position_go_in_one_write_are_answered_in_order() {
    let Some(mut proxy) = start("sf-order-handshake") else {
        return;
    };
    proxy.send(b"uci\nisready\nposition fen 8/8/8/8/8/8/8/8 w - - 0 1\ngo depth 1\n");
    let out = proxy.wait_stdout_within(SEARCH_PATIENCE, |o| contains(o, b"bestmove 0000\n"));
    let lines = lines(&out);
    let order = [
        index_of(&lines, "id name Stockfish"),
        index_of(&lines, "option name fenguard OnBadPosition"),
        index_of(&lines, "uciok"),
        index_of(&lines, "readyok"),
        index_of(&lines, "info string fenguard: rejected"),
        index_of(&lines, "bestmove 0000"),
    ];
    assert!(order.is_sorted(), "{order:?} in {lines:?}");
}

#[test]
fn go_perft_neither_shifts_the_searches_nor_gets_stockfish_killed() {
    let Some(mut proxy) = start("sf-order-perft") else {
        return;
    };
    proxy.send(b"uci\nisready\nposition startpos moves e2e4\ngo perft 3\n");
    proxy.wait_stdout_within(SEARCH_PATIENCE, |o| contains(o, b"Nodes searched: 13160\n"));
    proxy.send(b"stop\nposition startpos\ngo depth 5\n");
    let out = proxy.wait_stdout_within(SEARCH_PATIENCE, |o| {
        contains(o, b"\nbestmove ") && o.ends_with(b"\n")
    });
    proxy.send(b"isready\n");
    let out = proxy.wait_stdout_within(SEARCH_PATIENCE, |o| {
        o.len() > out.len() && contains(&o[out.len()..], b"readyok\n")
    });
    let lines = lines(&out);
    assert!(
        !lines.iter().any(|l| l.contains("illegal-bestmove")),
        "{lines:?}"
    );
    assert!(!lines.iter().any(|l| l.contains("hung")), "{lines:?}");
    assert!(!lines.iter().any(|l| l == "bestmove 0000"), "{lines:?}");
}

/// Newcomer review: `quit` (or the end of input) right behind lines waiting for Stockfish's
/// `uciok` is forwarded after them, so every reply the bare engine gives arrives.
#[test]
fn quit_and_end_of_input_behind_waiting_lines_lose_no_reply() {
    for (name, tail) in [
        ("sf-order-quit", &b"quit\n"[..]),
        ("sf-order-eof", &b""[..]),
    ] {
        let Some(mut proxy) = start(name) else {
            return;
        };
        let mut input =
            b"uci\nsetoption name Hash value 32\nisready\nposition startpos\ngo depth 1\n".to_vec();
        input.extend_from_slice(tail);
        proxy.send(&input);
        proxy.close();
        assert!(proxy.wait_exit().success(), "{name}");
        let lines = lines(&proxy.stdout());
        let (uciok, readyok, best) = (
            index_of(&lines, "uciok"),
            index_of(&lines, "readyok"),
            index_of(&lines, "bestmove "),
        );
        assert!(uciok < readyok && readyok < best, "{name}: {lines:?}");
        assert!(
            !lines[best].starts_with("bestmove 0000"),
            "{name}: {lines:?}"
        );
    }
}
