//! GUI command and engine `option` parsing: spans, keywords, errors.

use fenguard::uci::command::GO_KEYWORDS;
use fenguard::uci::{
    CommandError, PositionStart, command_word, parse_check_value, parse_go, parse_option,
    parse_position, parse_setoption, splice, tokens,
};
use proptest::prelude::*;

fn texts<'a>(toks: &[fenguard::uci::Token<'a>]) -> Vec<&'a [u8]> {
    toks.iter().map(|t| t.text).collect()
}

#[test]
fn command_word_is_first_token_after_leading_whitespace() {
    assert_eq!(command_word(b"  \tisready\r\n"), b"isready");
}

#[test]
fn command_word_of_blank_line_is_empty() {
    assert_eq!(command_word(b" \r\n"), b"");
}

#[test]
fn tokens_keep_non_utf8_bytes_and_spans() {
    let toks: Vec<_> = tokens(b"go \xff\xfe  x").collect();
    assert_eq!(toks[1].text, b"\xff\xfe");
    assert_eq!(toks[1].span, 3..5);
    assert_eq!(toks[2].span, 7..8);
}

#[test]
fn position_startpos_without_moves() {
    let cmd = parse_position(b"position startpos\n").unwrap();
    assert_eq!(cmd.start, PositionStart::Startpos);
    assert_eq!(cmd.moves_keyword, None);
    assert!(cmd.moves.is_empty());
}

#[test]
fn position_fen_range_spans_whitespace_runs_up_to_moves() {
    let line = b"position  fen 8/8/8/8/8/8/8/K1k5  w - -\t0 1   moves a1a2 c1c2\r\n";
    let cmd = parse_position(line).unwrap();
    assert_eq!(cmd.start, PositionStart::Fen(14..43));
    assert_eq!(cmd.fen().unwrap(), b"8/8/8/8/8/8/8/K1k5  w - -\t0 1");
    assert_eq!(texts(&cmd.moves), vec![&b"a1a2"[..], b"c1c2"]);
    assert_eq!(cmd.moves[0].span, 52..56);
}

#[test]
fn position_fen_with_empty_moves_list() {
    let line = b"position fen 5rk1/2p4p/2p4r/3P4/4p1b1/1Q2NqPp/PP3P1K/R4R2 b - - moves";
    let cmd = parse_position(line).unwrap();
    assert_eq!(
        cmd.fen().unwrap(),
        b"5rk1/2p4p/2p4r/3P4/4p1b1/1Q2NqPp/PP3P1K/R4R2 b - -"
    );
    assert_eq!(cmd.moves_keyword.unwrap().span, 64..69);
    assert!(cmd.moves.is_empty());
}

#[test]
fn position_fen_startpos_gives_fen_text_startpos_for_the_fen_core() {
    let cmd = parse_position(b"position fen startpos").unwrap();
    assert_eq!(cmd.fen().unwrap(), b"startpos");
}

#[test]
fn position_fen_with_nothing_gives_empty_fen_at_end_of_fen_keyword() {
    let cmd = parse_position(b"position fen\r\n").unwrap();
    assert_eq!(cmd.start, PositionStart::Fen(12..12));
    assert_eq!(cmd.fen().unwrap(), b"");
}

#[test]
fn position_fen_then_moves_gives_empty_fen() {
    let cmd = parse_position(b"position fen moves e2e4").unwrap();
    assert_eq!(cmd.start, PositionStart::Fen(12..12));
    assert_eq!(texts(&cmd.moves), vec![&b"e2e4"[..]]);
}

#[test]
fn position_with_unknown_start_is_an_error_with_span() {
    let err = parse_position(b"position blah moves e2e4").unwrap_err();
    assert_eq!(
        err,
        CommandError::UnknownStart {
            found: "blah".into(),
            span: 9..13
        }
    );
    assert_eq!(
        err.to_string(),
        "expected `startpos` or `fen <FEN>` after `position`, found `blah`"
    );
}

#[test]
fn position_alone_is_missing_start() {
    let err = parse_position(b"position\n").unwrap_err();
    assert_eq!(err, CommandError::MissingStart { span: 8..8 });
    assert_eq!(err.span(), Some(8..8));
}

#[test]
fn position_startpos_followed_by_junk_is_an_error() {
    let err = parse_position(b"position startpos e2e4").unwrap_err();
    assert_eq!(
        err,
        CommandError::UnexpectedToken {
            found: "e2e4".into(),
            span: 18..22
        }
    );
}

#[test]
fn parse_position_refuses_other_commands() {
    assert_eq!(
        parse_position(b"positions startpos"),
        Err(CommandError::NotPosition)
    );
}

#[test]
fn go_searchmoves_end_at_next_go_keyword() {
    let go = parse_go(b"go wtime 100 searchmoves e2e4  d2d4 btime 50\n").unwrap();
    assert_eq!(texts(&go.searchmoves), vec![&b"e2e4"[..], b"d2d4"]);
    assert_eq!(go.searchmoves[1].span, 31..35);
    assert_eq!(go.searchmoves_keyword.unwrap().span, 13..24);
}

#[test]
fn go_without_searchmoves_has_none() {
    let go = parse_go(b"go infinite").unwrap();
    assert_eq!(go.searchmoves_keyword, None);
    assert!(go.searchmoves.is_empty());
}

#[test]
fn go_keywords_all_end_searchmoves() {
    for kw in GO_KEYWORDS.iter().filter(|k| **k != b"searchmoves") {
        let mut line = b"go searchmoves e2e4 ".to_vec();
        line.extend_from_slice(kw);
        line.extend_from_slice(b" d2d4");
        let go = parse_go(&line).unwrap();
        assert_eq!(texts(&go.searchmoves), vec![&b"e2e4"[..]], "keyword {kw:?}");
    }
}

#[test]
fn parse_go_refuses_other_commands() {
    assert!(parse_go(b"gone").is_none());
}

#[test]
fn splice_of_searchmoves_keeps_other_bytes() {
    let line = b"go  nodes 1\tsearchmoves e1c1 d2d4\r\n";
    let go = parse_go(line).unwrap();
    let out = splice(line, &[(go.searchmoves[0].span.clone(), b"e1a1".to_vec())]);
    assert_eq!(&out[..], b"go  nodes 1\tsearchmoves e1a1 d2d4\r\n");
}

#[test]
fn setoption_name_and_value_with_spaces() {
    let line = b"setoption name Syzygy  Path value /tb/a b\r\n";
    let opt = parse_setoption(line).unwrap();
    assert_eq!(opt.name, b"Syzygy  Path");
    assert_eq!(opt.name_span, 15..27);
    assert_eq!(opt.value, Some(&b"/tb/a b"[..]));
    assert!(opt.name_is("syzygy path"));
}

#[test]
fn setoption_uci_chess960_compares_case_insensitively() {
    let opt = parse_setoption(b"setoption name uci_chess960 value True").unwrap();
    assert!(opt.name_is("UCI_Chess960"));
    assert_eq!(opt.check_value(), Some(true));
}

#[test]
fn setoption_without_value_has_none() {
    let opt = parse_setoption(b"setoption name Clear Hash").unwrap();
    assert_eq!(opt.name, b"Clear Hash");
    assert_eq!(opt.value, None);
}

#[test]
fn setoption_with_bare_value_has_empty_value() {
    let opt = parse_setoption(b"setoption name NalimovPath value").unwrap();
    assert_eq!(opt.value, Some(&b""[..]));
}

#[test]
fn setoption_without_name_is_none() {
    assert!(parse_setoption(b"setoption name value x").is_none());
    assert!(parse_setoption(b"setoption").is_none());
}

#[test]
fn check_values_in_any_case() {
    assert_eq!(parse_check_value(b"FALSE"), Some(false));
    assert_eq!(parse_check_value(b" true\r\n"), Some(true));
    assert_eq!(parse_check_value(b"yes"), None);
}

#[test]
fn engine_option_uci_chess960() {
    let opt = parse_option(b"option name UCI_Chess960 type check default false\n").unwrap();
    assert!(opt.name_is("uci_chess960"));
    assert_eq!(opt.kind, b"check");
    assert_eq!(opt.default, Some(&b"false"[..]));
}

#[test]
fn engine_option_with_spaces_and_vars() {
    let opt =
        parse_option(b"option name Analysis Contempt type combo default Both var Off var Both")
            .unwrap();
    assert_eq!(opt.name, b"Analysis Contempt");
    assert_eq!(opt.kind, b"combo");
    assert_eq!(opt.default, Some(&b"Both"[..]));
}

#[test]
fn engine_option_without_type_is_none() {
    assert!(parse_option(b"option name Hash").is_none());
}

proptest! {
    #[test]
    fn position_never_panics_and_spans_index_the_line(line in proptest::collection::vec(any::<u8>(), 0..80)) {
        let mut l = b"position ".to_vec();
        l.extend_from_slice(&line);
        if let Ok(cmd) = parse_position(&l) {
            if let PositionStart::Fen(r) = &cmd.start {
                prop_assert!(r.end <= l.len());
            }
            for m in &cmd.moves {
                prop_assert_eq!(&l[m.span.clone()], m.text);
            }
        }
    }

    #[test]
    fn go_searchmoves_spans_point_at_their_text(line in "go( [a-h][1-8][a-h][1-8]| depth 3| searchmoves| nodes 9){0,8}") {
        let go = parse_go(line.as_bytes()).unwrap();
        for m in &go.searchmoves {
            prop_assert_eq!(&line.as_bytes()[m.span.clone()], m.text);
            prop_assert_eq!(m.text.len(), 4);
        }
    }
}
