//! `fenguard doctor --quick` against Stockfish 15.1 and Fairy-Stockfish (Debian's packages);
//! under CI a missing engine fails these tests. The known quirks of Stockfish 15.1 are
//! asserted (a king-less FEN crashes it, a `moves` list is cut silently at an illegal move);
//! its UCI conversation and its perft pass.

use crate::common::{require_fairy, require_stockfish};
use crate::support::doctor;

#[test]
fn stockfish_quick_finds_its_crash_and_its_silent_cut_and_passes_perft_and_search() {
    let Some(sf) = require_stockfish() else {
        return;
    };
    let run = doctor(&["--quick"], &[sf.to_str().unwrap()], &[]);
    assert_eq!(run.code, Some(1), "Stockfish 15.1 has fails");
    let engine = &run.report["engine"];
    assert!(
        engine["name"].as_str().unwrap().starts_with("Stockfish"),
        "{engine}"
    );
    assert_eq!(engine["perft"], true);
    let flagged = run.flagged();
    let (status, detail) = &flagged["hostile.no-kings"];
    assert_eq!(status, "fail");
    assert!(detail.contains("crashed (signal 11"), "{detail}");
    // A policy fail: a warn unless `--fail-on policy`.
    let (status, detail) = &flagged["hostile.illegal-move"];
    assert_eq!(status, "warn");
    assert!(detail.contains("silently cut the moves list"), "{detail}");
    assert!(
        detail.ends_with("(policy: a fail with `--fail-on policy`)"),
        "{detail}"
    );
    assert_eq!(run.check("hostile.illegal-move")["class"], "policy");
    assert_eq!(run.check("hostile.no-kings")["class"], "crash");
    for (id, (status, detail)) in &flagged {
        // Its UCI conversation, perft and Chess960 are sound; movetime and the 100 ms clocks
        // depend on the machine's load and are not asserted.
        let timed = [
            "search.movetime",
            "search.go-wtime-only",
            "search.go-btime-only",
        ];
        let sound = id.starts_with("movegen.")
            || id.starts_with("chess960.")
            || (id.starts_with("search.") && !timed.contains(&id.as_str()))
            || ["handshake.uci", "handshake.options", "handshake.setoption"].contains(&id.as_str());
        assert!(!sound, "{id}: {status}: {detail}");
    }
    assert!(
        run.report["summary"]["not_survived"]
            .as_array()
            .unwrap()
            .contains(&serde_json::json!("no-kings"))
    );
}

#[test]
fn fairy_stockfish_crazyhouse_and_an_unmodelled_variant_pass() {
    let Some(fairy) = require_fairy() else {
        return;
    };
    for variant in ["crazyhouse", "capablanca", "xiangqi"] {
        let run = doctor(
            &["--quick", "--variant", variant],
            &[fairy.to_str().unwrap()],
            &[],
        );
        let c = run.check(&format!("variant.{variant}"));
        assert_eq!(c["status"], "pass", "{c}");
        let variants = run.report["engine"]["variants"].as_array().unwrap();
        assert!(variants.len() > 50, "{variants:?}");
    }
}
