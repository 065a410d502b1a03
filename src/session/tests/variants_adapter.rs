//! Issue 21, "never worse: fix these first": giveaway castles, cutechess's empty pocket `[-]`,
//! ponder moves that are none, `searchmoves 0000`.

use super::super::*;
use super::{codes, engine, gui, position_record, search_records, to_engine, to_gui};

/// A session playing `variant` (set by `UCI_Variant`).
fn playing(variant: &str) -> Session {
    let mut s = Session::new(false);
    gui(
        &mut s,
        &format!("setoption name UCI_Variant value {variant}"),
    );
    s
}

#[test]
fn giveaway_game_with_a_castle_is_forwarded_and_judged_valid() {
    let mut s = playing("giveaway");
    let line = "position startpos moves g1f3 g8f6 e2e3 e7e6 f1e2 f8e7 e1g1";
    let out = gui(&mut s, line);
    assert_eq!(to_engine(&out), [format!("{line}\n")]);
    let record = position_record(&out);
    assert_eq!(record.verdict, Verdict::Valid);
    assert_eq!(record.variant.as_deref(), Some("giveaway"));
    // python-chess 1.11.2 `GiveawayBoard` after the same moves.
    assert_eq!(
        record.final_fen.as_deref(),
        Some("rnbqk2r/ppppbppp/4pn2/8/8/4PN2/PPPPBPPP/RNBQ1RK1 b kq - 3 4")
    );
    let go = gui(&mut s, "go depth 1");
    assert_eq!(to_engine(&go), ["go depth 1\n"]);
    let best = engine(&mut s, "bestmove e8g8");
    assert_eq!(to_gui(&best), ["bestmove e8g8\n"]);
    assert_eq!(search_records(&best)[0].diagnostics, Vec::new());
}

#[test]
fn giveaway_fen_with_castling_rights_is_sent_as_given() {
    let mut s = playing("giveaway");
    let line = "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let out = gui(&mut s, line);
    assert_eq!(to_engine(&out), [format!("{line}\n")]);
    assert_eq!(codes(&position_record(&out)), Vec::<&str>::new());
}

#[test]
fn cutechess_empty_pocket_dash_is_read_as_empty() {
    let mut s = playing("crazyhouse");
    let line = "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[-] w KQkq - 0 1 moves e2e4";
    let out = gui(&mut s, line);
    // Sent as fenguard writes it, `[]` (Fairy-Stockfish reads both).
    assert_eq!(
        to_engine(&out),
        ["position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1 moves e2e4\n"]
    );
    let record = position_record(&out);
    assert_eq!(record.verdict, Verdict::Valid);
    assert_eq!(codes(&record), Vec::<&str>::new());
    assert_eq!(
        record.final_fen.as_deref(),
        Some("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR[] b KQkq - 0 1")
    );
    let go = gui(&mut s, "go depth 1");
    assert_eq!(to_engine(&go), ["go depth 1\n"]);
}
