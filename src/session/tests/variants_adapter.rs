//! Issue 21, "never worse: fix these first": giveaway castles, cutechess's empty pocket `[-]`,
//! ponder moves that are none, `searchmoves 0000`.

use super::super::*;
use super::{codes, engine, gui, position_record, search_records, to_engine, to_gui};

/// A session playing `variant` (set by `UCI_Variant`).
fn playing(variant: &str) -> Session {
    let mut s = Session::new(false);
    super::engine_offering_variants(&mut s);
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
    let line =
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[-] w KQkq - 0 1 moves e2e4";
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

/// The search record's diagnostic codes and what reached the GUI for `bestmove` after `go`.
fn answer(s: &mut Session, bestmove: &str) -> (Vec<String>, Vec<&'static str>) {
    gui(s, "go depth 1");
    let best = engine(s, bestmove);
    let codes = search_records(&best)[0]
        .diagnostics
        .iter()
        .map(|d| d.code.as_str())
        .collect();
    (to_gui(&best), codes)
}

#[test]
fn ponder_0000_and_none_are_no_ponder_move_not_an_illegal_bestmove() {
    for (variant, ponder) in [
        ("chess", "0000"),
        ("chess", "(none)"),
        ("crazyhouse", "0000"),
    ] {
        let mut s = playing(variant);
        gui(&mut s, "position startpos");
        let line = format!("bestmove e2e4 ponder {ponder}");
        let (to_gui, codes) = answer(&mut s, &line);
        assert_eq!(to_gui, [format!("{line}\n")], "{variant}");
        assert_eq!(codes, Vec::<&str>::new(), "{variant} {ponder}");
    }
}

#[test]
fn ponder_move_after_a_game_ending_move_is_not_judged() {
    let mut s = playing("racingkings");
    gui(&mut s, "position fen 8/1K6/8/8/8/8/k7/8 w - - 0 1");
    let (to_gui, codes) = answer(&mut s, "bestmove b7b8 ponder a2a3");
    assert_eq!(to_gui, ["bestmove b7b8 ponder a2a3\n"]);
    assert_eq!(codes, Vec::<&str>::new());
    // Chess: after mate there is no position to ponder in either.
    let mut s = playing("chess");
    gui(&mut s, "position startpos moves f2f3 e7e5 g2g4");
    let (_, codes) = answer(&mut s, "bestmove d8h4 ponder e1f2");
    assert_eq!(codes, Vec::<&str>::new());
}

#[test]
fn illegal_ponder_move_in_a_live_position_is_still_reported() {
    let mut s = playing("chess");
    gui(&mut s, "position startpos");
    let (_, codes) = answer(&mut s, "bestmove e2e4 ponder e2e4");
    assert_eq!(codes, ["illegal-bestmove"]);
}

#[test]
fn searchmoves_0000_alone_is_an_empty_list_answered_bestmove_none() {
    let mut s = playing("chess");
    gui(&mut s, "position startpos");
    let go = gui(&mut s, "go depth 1 searchmoves 0000");
    assert!(to_engine(&go).is_empty());
    // Stockfish 15.1 answers `go depth 1 searchmoves 0000` with `bestmove (none)`.
    assert_eq!(to_gui(&go), ["bestmove (none)\n"]);
    assert_eq!(search_records(&go)[0].bestmove.as_deref(), Some("(none)"));
}

#[test]
fn searchmoves_0000_beside_moves_is_dropped_without_a_report() {
    let mut s = playing("chess");
    gui(&mut s, "position startpos");
    let go = gui(&mut s, "go depth 3 searchmoves 0000 e2e4");
    assert_eq!(to_engine(&go), ["go depth 3 searchmoves e2e4\n"]);
    assert!(to_gui(&go).is_empty(), "{go:?}");
}

#[test]
fn two_stepping_checkers_are_impossible_in_chess_as_in_every_8x8_variant() {
    for variant in ["chess", "crazyhouse", "kingofthehill"] {
        let mut s = playing(variant);
        let fen = if variant == "crazyhouse" {
            "8/8/N7/2k5/N7/8/8/3K4[] b - - 0 1"
        } else {
            "8/8/N7/2k5/N7/8/8/3K4 b - - 0 1"
        };
        let out = gui(&mut s, &format!("position fen {fen}"));
        assert!(to_engine(&out).is_empty(), "{variant}");
        let record = position_record(&out);
        assert_eq!(record.verdict, Verdict::Rejected, "{variant}");
        assert_eq!(codes(&record), ["impossible-check"], "{variant}");
    }
}
