//! EPD operations where a FEN has its move counters (`... w - - bm Kg2; id "x";`): one
//! `extra-field` error naming the operations, not a bad halfmove clock and fullmove number.

use crate::common;

#[path = "../fen/support.rs"]
#[allow(dead_code)]
mod support;

use fenguard::fen::{Code, Options, analyze};
use support::{KINGS, only};

fn codes(input: &str) -> Vec<Code> {
    analyze(input.as_bytes(), &Options::default())
        .diagnostics()
        .iter()
        .map(|d| d.code)
        .collect()
}

#[test]
fn epd_operations_after_the_en_passant_field_are_one_extra_field_error() {
    let input = format!("{KINGS} w - - bm Kg2; id \"x\";");
    assert_eq!(codes(&input), [Code::ExtraField]);
}

#[test]
fn extra_field_for_epd_operations_spans_the_operations() {
    let input = format!("{KINGS} w - - bm Kg2; id \"x\";");
    let d = only(&input, Code::ExtraField, &Options::default());
    assert_eq!(d.span, Some(KINGS.len() + 7..input.len()));
}

#[test]
fn extra_field_for_epd_operations_says_what_it_found() {
    let input = format!("{KINGS} w - - bm Kg2; id \"x\";");
    let d = only(&input, Code::ExtraField, &Options::default());
    assert_eq!(
        d.message,
        "EPD operations `bm Kg2; id \"x\";` after the en passant field; a FEN has the halfmove clock and fullmove number there, and nothing after them"
    );
}

#[test]
fn epd_operations_after_the_six_fields_are_named_as_such() {
    let input = format!("{KINGS} w - - 0 1 bm Kg2;");
    let d = only(&input, Code::ExtraField, &Options::default());
    assert_eq!(
        d.message,
        "EPD operations `bm Kg2;` after the six FEN fields; expected nothing after the fullmove number"
    );
}

#[test]
fn one_epd_operation_without_operand_is_recognized() {
    let input = format!("{KINGS} w - - noop;");
    assert_eq!(codes(&input), [Code::ExtraField]);
}

#[test]
fn words_without_a_semicolon_are_still_read_as_counters() {
    let input = format!("{KINGS} w - - x y");
    assert_eq!(
        codes(&input),
        [Code::BadHalfmoveClock, Code::BadFullmoveNumber]
    );
}

#[test]
fn other_extra_fields_keep_their_message() {
    let input = format!("{KINGS} w - - 0 1 junk");
    let d = only(&input, Code::ExtraField, &Options::default());
    assert_eq!(
        d.message,
        "`junk` after the six FEN fields; expected nothing after the fullmove number"
    );
}

#[test]
fn fenguard_check_prints_one_error_for_epd_input() {
    let input = format!("{KINGS} w - - bm Kg2; id \"x\";");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_fenguard"))
        .args(["check", &input])
        .output()
        .expect("run fenguard check");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(text.matches("error[").count(), 1, "{text}");
    assert!(
        text.contains(
            "error[extra-field]: EPD operations `bm Kg2; id \"x\";` after the en passant field"
        ),
        "{text}"
    );
}

#[test]
fn gui_is_told_the_epd_operations_are_not_a_fen() {
    let mut gui = common::Gui::fake_ready("more-epd-gui", "");
    let (lines, record) = gui.position("position fen 4k3/8/8/8/8/8/8/4K3 w - - bm Kg2; id \"x\";");
    assert_eq!(
        lines,
        [
            "info string fenguard: rejected position: extra-field: EPD operations `bm Kg2; id \"x\";` after the en passant field; a FEN has the halfmove clock and fullmove number there, and nothing after them",
            "readyok"
        ]
    );
    assert_eq!(record["verdict"], "rejected", "{record}");
}

#[test]
fn epd_operations_after_a_halfmove_clock_are_named_after_it() {
    let input = format!("{KINGS} w - - 0 bm Kg2;");
    assert_eq!(codes(&input), [Code::ExtraField]);
    let d = only(&input, Code::ExtraField, &Options::default());
    assert_eq!(
        d.message,
        "EPD operations `bm Kg2;` after the halfmove clock; a FEN has the fullmove number there, and nothing after it"
    );
}
