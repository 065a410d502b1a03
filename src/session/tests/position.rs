//! The `position` pipeline: verdicts by `on_invalid`, the canonical command, the record.

use super::*;
use crate::config::{CastlingOut, EnPassantOut, OnInvalid};
use crate::fen::{Code, Diagnostic, Severity};
use crate::session::Input;
use crate::session::{Moves, Record, Verdict};
use std::time::Instant;

#[test]
fn startpos_with_moves_is_sent_canonical_ending_in_lf() {
    let mut s = Session::new(false);
    let actions = s.handle(
        Input::GuiLine(Bytes::from_static(
            b"position  startpos moves\te2e4 e7e5\r\n",
        )),
        Instant::now(),
    );
    assert_eq!(
        to_engine(&actions),
        vec!["position startpos moves e2e4 e7e5\n"]
    );
}

#[test]
fn line_without_terminator_is_sent_with_one() {
    let mut s = Session::new(false);
    let actions = s.handle(
        Input::GuiLine(Bytes::from_static(b"position startpos")),
        Instant::now(),
    );
    assert_eq!(to_engine(&actions), vec!["position startpos\n"]);
}

#[test]
fn valid_position_record_has_every_field() {
    let mut s = Session::new(false);
    let actions = gui(
        &mut s,
        "position fen 4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 moves e2e4",
    );
    assert_eq!(
        position_record(&actions),
        PositionRecord {
            raw: "position fen 4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 moves e2e4".to_owned(),
            verdict: Verdict::Valid,
            diagnostics: vec![],
            fen_in: Some("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1".to_owned()),
            fen_out: Some("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1".to_owned()),
            moves_in: Moves("e2e4".to_owned()),
            moves_out: Moves("e2e4".to_owned()),
            chess960: false,
            final_fen: Some("4k3/8/8/8/4P3/8/8/4K3 b - - 0 1".to_owned()),
            sent: Some("position fen 4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 moves e2e4".to_owned()),
            variant: None,
        }
    );
}

#[test]
fn position_record_serializes_with_spec_field_names() {
    let mut s = Session::new(false);
    let actions = gui(&mut s, "position startpos");
    let record = actions.iter().find_map(|a| match a {
        Action::Record(r) => Some(r.clone()),
        _ => None,
    });
    let record: Record = record.expect("a record");
    assert_eq!(
        serde_json::to_string(&record).unwrap(),
        r#"{"seq":1,"kind":"position","raw":"position startpos","verdict":"valid","diagnostics":[],"fen_in":"startpos","fen_out":"startpos","moves_in":[],"moves_out":[],"chess960":false,"final_fen":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1","sent":"position startpos"}"#
    );
}

#[test]
fn fen_spans_are_shifted_into_the_gui_line() {
    let mut s = Session::new(false);
    let actions = gui(&mut s, "position fen 4k3/8/8/8/8/8/8/4K3 w - - 0 0");
    assert_eq!(
        position_record(&actions).diagnostics,
        vec![Diagnostic {
            code: Code::FullmoveZero,
            severity: Severity::Warning,
            message: "fullmove number 0; it starts at 1".to_owned(),
            span: Some(41..42),
            fix: Some("write 1".to_owned()),
        }]
    );
}

#[test]
fn missing_promotion_is_repaired_as_queen() {
    let mut s = Session::new(false);
    let actions = gui(
        &mut s,
        "position fen 4k3/P7/8/8/8/8/8/4K3 w - - 0 1 moves a7a8",
    );
    assert_eq!(
        to_engine(&actions),
        vec!["position fen 4k3/P7/8/8/8/8/8/4K3 w - - 0 1 moves a7a8q\n"]
    );
    let record = position_record(&actions);
    assert_eq!(record.verdict, Verdict::Repaired);
    assert_eq!(codes(&record), vec!["missing-promotion"]);
    assert!(
        to_gui(&actions)[0]
            .starts_with("info string fenguard: repaired position: missing-promotion: ")
    );
}

#[test]
fn illegal_move_late_in_the_list_rejects_without_cutting() {
    let mut s = Session::new(false);
    let actions = gui(&mut s, "position startpos moves e2e4 e7e5 e1e3");
    assert!(to_engine(&actions).is_empty());
    let record = position_record(&actions);
    assert_eq!(record.verdict, Verdict::Rejected);
    assert_eq!(record.moves_in.to_vec(), vec!["e2e4", "e7e5", "e1e3"]);
    assert_eq!(record.moves_out.to_vec(), Vec::<&str>::new());
    assert_eq!(record.final_fen, None);
    assert_eq!(record.sent, None);
}

#[test]
fn null_move_in_list_rejects() {
    let mut s = Session::new(false);
    let actions = gui(&mut s, "position startpos moves e2e4 0000");
    assert!(
        to_gui(&actions)[0].starts_with("info string fenguard: rejected position: null-move: ")
    );
}

#[test]
fn bad_position_command_rejects() {
    let mut s = Session::new(false);
    let actions = gui(&mut s, "position blah");
    assert!(to_engine(&actions).is_empty());
    assert_eq!(
        to_gui(&actions),
        vec![
            "info string fenguard: rejected position: bad-position-command: expected `startpos` or `fen <FEN>` after `position`, found `blah`\n"
        ]
    );
    let record = position_record(&actions);
    assert_eq!(record.fen_in, None);
    assert_eq!(record.diagnostics[0].span, Some(9..13));
}

#[test]
fn reject_mode_rejects_a_repairable_position() {
    let mut s = session_with(|p| p.on_invalid = OnInvalid::Reject);
    let actions = gui(
        &mut s,
        "position fen 2k5/8/3K4/1p6/p7/P7/1B6/8 b KQkq - 0 1",
    );
    assert!(to_engine(&actions).is_empty());
    assert!(
        to_gui(&actions)[0]
            .starts_with("info string fenguard: rejected position: castling-without-rook: ")
    );
}

#[test]
fn reject_mode_rejects_a_missing_promotion() {
    let mut s = session_with(|p| p.on_invalid = OnInvalid::Reject);
    let actions = gui(
        &mut s,
        "position fen 4k3/P7/8/8/8/8/8/4K3 w - - 0 1 moves a7a8",
    );
    assert_eq!(position_record(&actions).verdict, Verdict::Rejected);
}

#[test]
fn forward_mode_sends_the_gui_line_unchanged() {
    let mut s = session_with(|p| p.on_invalid = OnInvalid::Forward);
    let line = "position fen 4k3/8/8/8/8/8/8/8 w - - 0 1 moves e8e7";
    let actions = gui(&mut s, line);
    assert_eq!(to_engine(&actions), vec![format!("{line}\n")]);
    let record = position_record(&actions);
    assert_eq!(record.verdict, Verdict::ForwardedInvalid);
    assert_eq!(record.sent.as_deref(), Some(line));
    assert_eq!(record.moves_out.to_vec(), vec!["e8e7"]);
    assert!(
        to_gui(&actions)[0]
            .starts_with("info string fenguard: invalid position forwarded: missing-king: ")
    );
    assert_eq!(to_engine(&gui(&mut s, "go depth 1")), vec!["go depth 1\n"]);
}

#[test]
fn forward_mode_still_sends_valid_positions_canonical() {
    let mut s = session_with(|p| p.on_invalid = OnInvalid::Forward);
    let actions = gui(&mut s, "position fen 4k3/8/8/8/8/8/8/4K3 w - - 0 0");
    assert_eq!(
        to_engine(&actions),
        vec!["position fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1\n"]
    );
}

#[test]
fn castling_shredder_option_writes_file_letters() {
    let mut s = session_with(|p| p.castling = CastlingOut::Shredder);
    assert_eq!(
        to_engine(&gui(
            &mut s,
            "position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
        )),
        vec!["position fen r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1\n"]
    );
}

#[test]
fn en_passant_fen_option_keeps_the_square() {
    let fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1";
    let mut s = session_with(|p| p.en_passant = EnPassantOut::Fen);
    assert_eq!(
        to_engine(&gui(&mut s, &format!("position fen {fen}"))),
        vec![format!("position fen {fen}\n")]
    );
    let mut legal = Session::new(false);
    assert_eq!(
        to_engine(&gui(&mut legal, &format!("position fen {fen}"))),
        vec!["position fen rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n"]
    );
}

#[test]
fn unchecked_moves_are_forwarded_as_given() {
    let mut s = session_with(|p| p.check_moves = false);
    let actions = gui(&mut s, "position startpos moves e2e5");
    assert_eq!(to_engine(&actions), vec!["position startpos moves e2e5\n"]);
    let record = position_record(&actions);
    assert_eq!(record.verdict, Verdict::Valid);
    assert_eq!(record.final_fen, None);
}

#[test]
fn notes_are_not_reported_to_the_gui() {
    let mut s = Session::new(false);
    let actions = gui(&mut s, "position fen 7k/6Q1/6K1/8/8/8/8/8 b - - 0 1");
    assert_eq!(codes(&position_record(&actions)), vec!["no-legal-moves"]);
    assert!(to_gui(&actions).is_empty());
}

#[test]
fn report_to_gui_off_sends_no_info_lines_but_still_answers_go() {
    let mut s = session_with(|p| p.report_to_gui = false);
    assert!(to_gui(&gui(&mut s, "position fen 4k3/8/8/8/8/8/8/8 w - - 0 1")).is_empty());
    assert_eq!(to_gui(&gui(&mut s, "go")), vec!["bestmove 0000\n"]);
}

#[test]
fn log_positions_off_writes_no_position_record() {
    let settings = Settings {
        log_positions: false,
        ..Settings::default()
    };
    let mut s = Session::with_settings(false, settings);
    let actions = gui(&mut s, "position startpos");
    assert!(!actions.iter().any(|a| matches!(a, Action::Record(_))));
    assert_eq!(to_engine(&actions), vec!["position startpos\n"]);
}

#[test]
fn moves_serialize_as_json_arrays() {
    let mut s = Session::new(false);
    let record = position_record(&gui(&mut s, "position startpos moves  e2e4\te7e5"));
    let json = serde_json::to_value(&record).unwrap();
    assert_eq!(json["moves_in"], serde_json::json!(["e2e4", "e7e5"]));
    assert_eq!(json["moves_out"], serde_json::json!(["e2e4", "e7e5"]));
}

#[test]
fn non_utf8_position_is_rejected_and_recorded_lossily() {
    let mut s = Session::new(false);
    let actions = s.handle(
        Input::GuiLine(Bytes::from_static(
            b"position fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1 moves e1\xffe2\n",
        )),
        Instant::now(),
    );
    assert!(to_engine(&actions).is_empty());
    let record = position_record(&actions);
    assert_eq!(
        record.raw,
        "position fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1 moves e1\u{fffd}e2"
    );
    assert_eq!(codes(&record), vec!["bad-move-syntax"]);
}
