//! What Stockfish says through fenguard, read by the grammar of lichess's external-engine
//! broker (`fenguard::uci::broker`, issue 18): every line of a multipv search is accepted, and
//! `UCI_ShowWDL` makes each scored `info` line one the broker refuses (at its `wdl` token), which
//! `broker_info` rewrites to the same line without `wdl W D L`. Under CI (`CI=true`) a missing Stockfish fails.

use fenguard::uci::broker::{BrokerLine, BrokerRefusal, broker_info, check_line};

use crate::common::Gui;

/// The GUI lines of `go depth 10` in a middlegame position, `bestmove` last.
fn search(gui: &mut Gui) -> Vec<String> {
    gui.send("setoption name MultiPV value 3");
    gui.send("position startpos moves e2e4 e7e5 g1f3 b8c6 f1b5 a7a6");
    gui.sync();
    gui.go("go depth 10")
}

#[test]
fn a_multipv_search_is_read_whole_by_the_broker() {
    let Some(mut gui) = Gui::stockfish_ready("broker-multipv", "") else {
        return;
    };
    let lines = search(&mut gui);
    let mut infos = 0;
    for line in &lines {
        match check_line(line.as_bytes()) {
            Ok(BrokerLine::Info) => infos += 1,
            Ok(_) => {}
            Err(refusal) => panic!("{line:?}: {refusal}"),
        }
    }
    assert!(infos >= 10, "{lines:?}");
    assert_eq!(
        check_line(lines.last().unwrap().as_bytes()),
        Ok(BrokerLine::Bestmove)
    );
}

#[test]
fn wdl_lines_are_the_ones_the_broker_refuses() {
    let Some(mut gui) = Gui::stockfish_ready("broker-wdl", "") else {
        return;
    };
    gui.send("setoption name UCI_ShowWDL value true");
    let lines = search(&mut gui);
    let scored: Vec<&String> = lines.iter().filter(|l| l.contains(" score ")).collect();
    assert!(!scored.is_empty(), "{lines:?}");
    for line in scored {
        let at = line.find(" wdl ").expect("a wdl field") + 1;
        assert_eq!(
            check_line(line.as_bytes()),
            Err(BrokerRefusal::UnexpectedToken(at..at + 3)),
            "{line:?}"
        );
        // The rewrite a provider streams: the same line without its `wdl W D L`.
        let wdl: Vec<&str> = line[at..].split(' ').take(4).collect();
        let without = line.replace(&format!(" {}", wdl.join(" ")), "");
        assert_eq!(broker_info(line.as_bytes()).as_deref(), Some(&*without));
    }
}
