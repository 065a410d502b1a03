//! The hand-written `position` lines against serde_json: the full line against
//! [`super::super::render_serde`] (the writer's serde path), the compact line against the serde
//! struct the writer used before (kept here, frozen, as the oracle), and the string escaping
//! against serde_json's on arbitrary text.

use proptest::prelude::*;
use serde::Serialize;
use time::OffsetDateTime;
use time::macros::datetime;

use super::{Cuts, compact, escaped as escapes, full, needs_escape, string, uint};
use crate::fen::{Code, Diagnostic, Severity};
use crate::poslog::render_serde;
use crate::session::{Event, Moves, PositionRecord, Record, Verdict};

/// The moves of a list from a byte offset on, serialized as a JSON array of strings (the
/// former serde path).
struct Tail<'a>(&'a str);

impl Serialize for Tail<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(Moves::words(self.0))
    }
}

#[derive(Serialize)]
#[serde(untagged)]
enum Sent<'a> {
    Split {
        sent_prefix: usize,
        sent_tail: &'a str,
    },
    Whole {
        sent: Option<&'a String>,
    },
}

/// The compact line as serde wrote it before `json` (frozen oracle).
#[derive(Serialize)]
struct CompactLine<'a> {
    ts: String,
    session: &'a str,
    seq: u64,
    kind: &'static str,
    extends: u64,
    raw_prefix: usize,
    raw_tail: &'a str,
    verdict: Verdict,
    diagnostics: &'a [Diagnostic],
    fen_in: Option<&'a String>,
    fen_out: Option<&'a String>,
    moves_in_tail: Tail<'a>,
    moves_out_tail: Tail<'a>,
    chess960: bool,
    final_fen: Option<&'a String>,
    #[serde(flatten)]
    sent: Sent<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    variant: Option<&'a String>,
}

fn compact_serde(
    session: &str,
    seq: u64,
    p: &PositionRecord,
    now: OffsetDateTime,
    c: Cuts,
) -> String {
    let sent = match (c.sent, &p.sent) {
        (Some(n), Some(sent)) => Sent::Split {
            sent_prefix: n,
            sent_tail: &sent[n..],
        },
        _ => Sent::Whole {
            sent: p.sent.as_ref(),
        },
    };
    let line = CompactLine {
        ts: super::super::timestamp(now),
        session,
        seq,
        kind: "position",
        extends: c.extends,
        raw_prefix: c.raw,
        raw_tail: &p.raw[c.raw..],
        verdict: p.verdict,
        diagnostics: &p.diagnostics,
        fen_in: p.fen_in.as_ref(),
        fen_out: p.fen_out.as_ref(),
        moves_in_tail: Tail(&p.moves_in.0[c.moves_in_at..]),
        moves_out_tail: Tail(&p.moves_out.0[c.moves_out_at..]),
        chess960: p.chess960,
        final_fen: p.final_fen.as_ref(),
        sent,
        variant: p.variant.as_ref(),
    };
    format!("{}\n", serde_json::to_string(&line).unwrap())
}

fn escaped(text: &str) -> String {
    let mut out = Vec::new();
    string(&mut out, text);
    String::from_utf8(out).unwrap()
}

/// Text from characters that JSON escapes or that sit next to them.
fn tricky() -> impl Strategy<Value = String> {
    let chars = prop_oneof![
        (0u32..0x80).prop_map(|c| char::from_u32(c).unwrap()),
        Just('é'),
        Just('\u{80}'),
        Just('\u{2028}'),
        Just('\u{fffd}'),
        Just('😀'),
        Just(' '),
    ];
    proptest::collection::vec(chars, 0..24).prop_map(|c| c.into_iter().collect())
}

/// A move list text: words of tricky text between runs of spaces.
fn move_text() -> impl Strategy<Value = String> {
    proptest::collection::vec((tricky(), 0usize..3), 0..6).prop_map(|words| {
        words
            .into_iter()
            .map(|(w, spaces)| format!("{}{w}", " ".repeat(spaces)))
            .collect()
    })
}

fn verdict() -> impl Strategy<Value = Verdict> {
    prop_oneof![
        Just(Verdict::Valid),
        Just(Verdict::Repaired),
        Just(Verdict::Rejected),
        Just(Verdict::ForwardedInvalid),
        Just(Verdict::Unchecked),
    ]
}

fn diagnostics() -> impl Strategy<Value = Vec<Diagnostic>> {
    let one = (tricky(), proptest::option::of(0usize..40), any::<bool>()).prop_map(
        |(message, span, fix)| Diagnostic {
            code: Code::IllegalMove,
            severity: if fix {
                Severity::Error
            } else {
                Severity::Warning
            },
            span: span.map(|s| s..s + 4),
            fix: fix.then(|| "e7e8q".to_owned()),
            message,
        },
    );
    proptest::collection::vec(one, 0..3)
}

prop_compose! {
    fn record()(
        raw in tricky(),
        verdict in verdict(),
        diagnostics in diagnostics(),
        fens in proptest::collection::vec(proptest::option::of(tricky()), 4),
        moves_in in move_text(),
        moves_out in move_text(),
        chess960 in any::<bool>(),
        variant in proptest::option::of(tricky()),
    ) -> PositionRecord {
        PositionRecord {
            raw,
            verdict,
            diagnostics,
            fen_in: fens[0].clone(),
            fen_out: fens[1].clone(),
            moves_in: Moves(moves_in),
            moves_out: Moves(moves_out),
            chess960,
            final_fen: fens[2].clone(),
            sent: fens[3].clone(),
            variant,
        }
    }
}

/// A byte offset of `text` on a character boundary, from `pick`.
fn boundary(text: &str, pick: usize) -> usize {
    let mut at = pick % (text.len() + 1);
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

fn now() -> OffsetDateTime {
    datetime!(2026-11-29 13:00:00.123456 UTC)
}

#[test]
fn escapes_every_ascii_character_as_serde_json_does() {
    for c in (0u32..0x80).filter_map(char::from_u32) {
        let text = format!("a{c}b{c}");
        assert_eq!(
            escaped(&text),
            serde_json::to_string(&text).unwrap(),
            "{c:?}"
        );
    }
}

#[test]
fn writes_numbers_as_serde_json_does() {
    for n in [0, 1, 9, 10, 99, 100, 12_345, u64::from(u32::MAX), u64::MAX] {
        let mut out = Vec::new();
        uint(&mut out, n);
        assert_eq!(out, serde_json::to_string(&n).unwrap().as_bytes());
    }
}

#[test]
fn a_session_position_record_is_written_as_serde_writes_it() {
    let line = "position fen r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4 \
                moves e1g1 f6e4";
    let record = PositionRecord {
        raw: line.to_owned(),
        verdict: Verdict::Valid,
        diagnostics: Vec::new(),
        fen_in: Some("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4".into()),
        fen_out: Some("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4".into()),
        moves_in: Moves("e1g1 f6e4".into()),
        moves_out: Moves("e1g1 f6e4".into()),
        chess960: false,
        final_fen: Some("r1bq1b1r/pppp1ppp/2n5/4p3/2B1n3/5N2/PPPP1PPP/RNBQ1RK1 w - - 0 5".into()),
        sent: Some(line.to_owned()),
        variant: None,
    };
    let seq = 2;
    let wrapped = Record {
        seq,
        event: Event::Position(Box::new(record.clone())),
    };
    assert_eq!(
        full("s1", seq, &record, now()),
        render_serde("s1", &wrapped, now())
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn needs_escape_answers_as_a_byte_at_a_time(
        bytes in proptest::collection::vec(
            prop_oneof![any::<u8>(), Just(b'"'), Just(b'\\'), 0x18u8..0x24, 0x5au8..0x5e],
            0..40,
        ),
    ) {
        prop_assert_eq!(needs_escape(&bytes), bytes.iter().any(|&b| escapes(b)));
    }

    #[test]
    fn needs_escape_finds_one_byte_anywhere_among_clean_ones(
        mut bytes in proptest::collection::vec(0x23u8..0x5c, 0..40),
        planted in proptest::option::of((any::<usize>(), prop_oneof![0u8..0x20, Just(b'"'), Just(b'\\')])),
    ) {
        if let Some((at, b)) = planted && !bytes.is_empty() {
            let at = at % bytes.len();
            bytes[at] = b;
        }
        prop_assert_eq!(needs_escape(&bytes), bytes.iter().any(|&b| escapes(b)));
    }

    #[test]
    fn escapes_any_text_as_serde_json_does(text in any::<String>()) {
        prop_assert_eq!(escaped(&text), serde_json::to_string(&text).unwrap());
    }

    #[test]
    fn escapes_tricky_text_as_serde_json_does(text in tricky()) {
        prop_assert_eq!(escaped(&text), serde_json::to_string(&text).unwrap());
    }

    #[test]
    fn a_full_position_line_is_serde_jsons(
        record in record(),
        session in tricky(),
        seq in any::<u64>(),
    ) {
        let wrapped = Record { seq, event: Event::Position(Box::new(record.clone())) };
        prop_assert_eq!(full(&session, seq, &record, now()), render_serde(&session, &wrapped, now()));
    }

    #[test]
    fn a_full_line_of_uci_moves_is_serde_jsons(
        mut record in record(),
        moves_in in "( {0,2}[a-h][1-8][a-h][1-8][qn]?){0,30} {0,2}",
        moves_out in "([a-h][1-8][a-h][1-8][qn]? ){0,30}[a-h][1-8][a-h][1-8]",
    ) {
        record.moves_in = Moves(moves_in);
        record.moves_out = Moves(moves_out);
        let wrapped = Record { seq: 7, event: Event::Position(Box::new(record.clone())) };
        prop_assert_eq!(full("s", 7, &record, now()), render_serde("s", &wrapped, now()));
    }

    #[test]
    fn a_compact_position_line_is_the_former_serde_lines(
        record in record(),
        session in tricky(),
        seq in any::<u64>(),
        extends in any::<u64>(),
        picks in proptest::collection::vec(any::<usize>(), 4),
        split_sent in any::<bool>(),
    ) {
        let sent_len = record.sent.as_deref().unwrap_or("");
        let cuts = Cuts {
            extends,
            raw: boundary(&record.raw, picks[0]),
            moves_in_at: boundary(&record.moves_in.0, picks[1]),
            moves_out_at: boundary(&record.moves_out.0, picks[2]),
            sent: split_sent.then(|| boundary(sent_len, picks[3])),
        };
        prop_assert_eq!(
            compact(&session, seq, &record, now(), cuts),
            compact_serde(&session, seq, &record, now(), cuts)
        );
    }
}

#[test]
fn an_option_or_command_line_is_serde_jsons() {
    let now = datetime!(2026-12-03 14:00:00.000001 UTC);
    for raw in [
        "debug off",
        "setoption name Hash value 16",
        "go \"x\\y\u{1}\u{7f}é",
        "",
    ] {
        for (seq, event) in [
            (
                7,
                Event::Command(crate::session::CommandRecord { raw: raw.into() }),
            ),
            (
                8,
                Event::Option(crate::session::CommandRecord { raw: raw.into() }),
            ),
        ] {
            let record = Record { seq, event };
            assert_eq!(
                crate::poslog::render("s\"1", &record, now),
                render_serde("s\"1", &record, now)
            );
        }
    }
}
