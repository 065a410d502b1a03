//! The adapter settings (SPEC section 15) by plain calls: presets, force, rename, identity,
//! the clock margin, ponder repair.

use super::{engine, engine_signalled, gui, search_records, to_engine, to_gui};
use crate::config::Config;
use crate::session::{Action, Adapter, FenguardAnswer, RestartPolicy, Session};

fn session(toml: &str) -> Session {
    let config = Config::from_toml(toml, "t.toml").unwrap();
    Session::new(false)
        .with_restart(RestartPolicy::from(&config.engine))
        .with_adapter(Adapter::from_config(&config, None, 7))
}

fn handshake(s: &mut Session) -> (Vec<String>, Vec<String>) {
    gui(s, "uci");
    let mut shown = to_gui(&engine(s, "id name Engine \"X\" 1.0"));
    shown.extend(to_gui(&engine(
        s,
        "option name Hash type spin default 16 min 1 max 64",
    )));
    shown.extend(to_gui(&engine(
        s,
        "option name Debug type check default false",
    )));
    let at_uciok = engine(s, "uciok");
    shown.extend(to_gui(&at_uciok));
    (shown, to_engine(&at_uciok))
}

#[test]
fn presets_the_engine_offers_follow_its_uciok() {
    let mut s = session("[engine.options]\nHash = 32\nThreads = 4\n");
    let (shown, sent) = handshake(&mut s);
    assert_eq!(sent, ["setoption name Hash value 32\n"]);
    assert!(
        shown.contains(&"option name Hash type spin default 32 min 1 max 64\n".to_owned()),
        "{shown:?}"
    );
    // A second `uci` does not send them again.
    let (_, sent) = handshake(&mut s);
    assert!(sent.is_empty(), "{sent:?}");
}

#[test]
fn force_answers_the_gui_and_forwards_nothing() {
    let mut s = session("[engine]\noptions_mode = \"force\"\n[engine.options]\nHash = 32\n");
    handshake(&mut s);
    let out = gui(&mut s, "setoption name HASH value 8");
    assert!(to_engine(&out).is_empty(), "{out:?}");
    let shown = to_gui(&out);
    assert_eq!(shown.len(), 1);
    assert!(
        shown[0].starts_with("info string fenguard: option HASH is set to 32"),
        "{shown:?}"
    );
    let out = gui(&mut s, "setoption name Debug value true");
    assert_eq!(to_engine(&out), ["setoption name Debug value true\n"]);
}

#[test]
fn renamed_and_hidden_options_and_identity() {
    let toml = "[engine]\nid_name = \"Plain\"\nhide_options = [\"debug\"]\nrename_options = { Hash = \"Memory\" }\n";
    let mut s = session(toml);
    let (shown, _) = handshake(&mut s);
    assert_eq!(
        shown,
        [
            "id name Plain\n",
            "option name Memory type spin default 16 min 1 max 64\n",
        ]
        .iter()
        .map(|l| l.to_string())
        .chain(shown.iter().skip(2).cloned())
        .collect::<Vec<_>>()
    );
    assert!(!shown.iter().any(|l| l.contains("Debug")), "{shown:?}");
    assert_eq!(shown.last().map(String::as_str), Some("uciok\n"));
    let out = gui(&mut s, "setoption name memory value 8");
    assert_eq!(to_engine(&out), ["setoption name Hash value 8\n"]);
}

#[test]
fn go_loses_the_overhead() {
    let mut s = session("[time]\noverhead_ms = 30\n");
    handshake(&mut s);
    let out = gui(&mut s, "go wtime 100 btime 35 movetime 500");
    assert_eq!(to_engine(&out), ["go wtime 70 btime 10 movetime 470\n"]);
}

#[test]
fn early_bestmove_waits_for_ponderhit_which_is_not_forwarded() {
    let mut s = session("");
    handshake(&mut s);
    gui(&mut s, "go ponder wtime 1000 btime 1000");
    assert!(to_gui(&engine(&mut s, "bestmove e2e4 ponder e7e5")).is_empty());
    assert_eq!(to_gui(&gui(&mut s, "isready")), Vec::<String>::new());
    assert_eq!(to_gui(&engine(&mut s, "readyok")), ["readyok\n"]);
    let out = gui(&mut s, "ponderhit");
    assert!(to_engine(&out).is_empty(), "{out:?}");
    assert_eq!(to_gui(&out), ["bestmove e2e4 ponder e7e5\n"]);
}

#[test]
fn an_engine_that_exits_with_a_held_bestmove_has_it_relayed_not_0000() {
    let mut s = session("");
    handshake(&mut s);
    gui(&mut s, "position startpos");
    gui(&mut s, "go ponder wtime 1000 btime 1000");
    assert!(to_gui(&engine(&mut s, "bestmove e2e4 ponder e7e5")).is_empty());
    let out = engine_signalled(&mut s, 6);
    let shown = to_gui(&out);
    assert!(
        shown.contains(&"bestmove e2e4 ponder e7e5\n".to_owned()),
        "{shown:?}"
    );
    assert!(
        !shown.iter().any(|l| l.starts_with("bestmove 0000")),
        "{shown:?}"
    );
    let records = search_records(&out);
    assert_eq!(records.len(), 1, "{out:?}");
    assert_eq!(records[0].bestmove.as_deref(), Some("e2e4"));
    assert_eq!(records[0].fenguard_answer, None);
    // The GUI's ponderhit that follows (the engine restarting) is not forwarded.
    assert!(to_engine(&gui(&mut s, "ponderhit")).is_empty());
}

#[test]
fn a_held_own_go_infinite_is_answered_at_a_stop_sent_while_the_engine_restarts() {
    let mut s = session("[positions]\non_invalid = \"reject\"\n");
    handshake(&mut s);
    gui(&mut s, "position fen 8/8/8/8/8/8/8/8 w - - 0 1");
    gui(&mut s, "go infinite");
    let out = engine_signalled(&mut s, 11);
    assert!(
        matches!(out.last(), Some(Action::RestartEngine { .. })),
        "{out:?}"
    );
    assert!(
        !to_gui(&out).iter().any(|l| l.starts_with("bestmove")),
        "{out:?}"
    );
    let out = gui(&mut s, "stop");
    assert_eq!(to_gui(&out), ["bestmove 0000\n"]);
    assert!(to_engine(&out).is_empty(), "{out:?}");
    let records = search_records(&out);
    assert_eq!(
        records[0].fenguard_answer,
        Some(FenguardAnswer::RejectedPosition)
    );
}

#[test]
fn a_search_lost_with_its_engine_is_recorded_as_fenguards_answer() {
    let mut s = session("");
    handshake(&mut s);
    gui(&mut s, "position startpos");
    gui(&mut s, "go depth 20");
    let out = engine_signalled(&mut s, 11);
    assert!(
        to_gui(&out).contains(&"bestmove 0000\n".to_owned()),
        "{out:?}"
    );
    let records = search_records(&out);
    assert_eq!(records.len(), 1, "{out:?}");
    assert_eq!(records[0].bestmove.as_deref(), Some("0000"));
    assert_eq!(records[0].fenguard_answer, Some(FenguardAnswer::EngineGone));
}

#[test]
fn a_new_go_releases_a_held_bestmove_first() {
    let mut s = session("");
    handshake(&mut s);
    gui(&mut s, "go infinite");
    engine(&mut s, "bestmove e2e4");
    let out = gui(&mut s, "go depth 1");
    assert_eq!(to_gui(&out), ["bestmove e2e4\n"]);
    assert_eq!(to_engine(&out), ["go depth 1\n"]);
    // The new search's bestmove is relayed as usual.
    assert_eq!(
        to_gui(&engine(&mut s, "bestmove d2d4")),
        ["bestmove d2d4\n"]
    );
}

#[test]
fn after_ponderhit_a_bestmove_is_not_early() {
    let mut s = session("");
    handshake(&mut s);
    gui(&mut s, "go ponder wtime 1000 btime 1000");
    assert_eq!(to_engine(&gui(&mut s, "ponderhit")), ["ponderhit\n"]);
    assert_eq!(
        to_gui(&engine(&mut s, "bestmove e2e4")),
        ["bestmove e2e4\n"]
    );
}
