//! Compact position records: every record the writer writes, rebuilt by `fenguard log`'s
//! expander, equals byte for byte what the full-record writer (`poslog::render`, the writer
//! before compaction) writes; a record's size does not grow with the game.

use fenguard::fen::{Code, Diagnostic, Severity};
use fenguard::logview::Expander;
use fenguard::poslog::{Compactor, render};
use fenguard::session::{Event, ExitReason, Moves, PositionRecord, Record, SearchRecord, Verdict};
use proptest::prelude::*;
use shakmaty::uci::UciMove;
use shakmaty::{Chess, EnPassantMode, Position, fen::Fen};
use time::OffsetDateTime;

/// A legal game of `plies` plies from the start position, choosing moves by `choices`.
fn game(plies: usize, choices: &[u16]) -> (Vec<String>, Vec<String>) {
    let mut pos = Chess::default();
    let mut moves = Vec::new();
    let mut fens = Vec::new();
    for i in 0..plies {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let mv = legal[usize::from(choices[i % choices.len()]) % legal.len()];
        moves.push(UciMove::from_standard(mv).to_string());
        pos.play_unchecked(mv);
        fens.push(Fen::from_position(&pos, EnPassantMode::Legal).to_string());
    }
    (moves, fens)
}

/// The record of `position startpos moves <first n moves>` as the session writes it.
fn position(seq: u64, moves: &[String], fen: &str, spaces: &str, rejected: bool) -> Record {
    let list = moves.join(" ");
    let raw = if moves.is_empty() {
        "position startpos".to_owned()
    } else {
        format!("position startpos{spaces}moves {}", moves.join(spaces))
    };
    let sent = format!("position startpos moves {list}");
    let diagnostics = if rejected {
        vec![Diagnostic {
            code: Code::IllegalMove,
            severity: Severity::Error,
            message: format!("move {} is illegal", moves.len()),
            span: Some(raw.len().saturating_sub(4)..raw.len()),
            fix: None,
        }]
    } else {
        Vec::new()
    };
    Record {
        seq,
        event: Event::Position(Box::new(PositionRecord {
            raw,
            verdict: if rejected {
                Verdict::Rejected
            } else {
                Verdict::Valid
            },
            diagnostics,
            fen_in: Some("startpos".to_owned()),
            fen_out: (!rejected).then(|| "startpos".to_owned()),
            moves_in: Moves(list.clone()),
            moves_out: Moves(if rejected { String::new() } else { list }),
            chess960: false,
            final_fen: (!rejected).then(|| fen.to_owned()),
            sent: (!rejected).then_some(sent),
            // Some records name a variant (an optional field the compact form must keep).
            variant: seq.is_multiple_of(3).then(|| "crazyhouse".to_owned()),
        })),
    }
}

fn search(seq: u64, position_seq: u64) -> Record {
    Record {
        seq,
        event: Event::Search(SearchRecord {
            position_seq: Some(position_seq),
            go: "go wtime 60000 btime 60000".to_owned(),
            bestmove: Some("e2e4".to_owned()),
            ponder: None,
            elapsed_ms: Some(12),
            diagnostics: Vec::new(),
            variant: None,
            fenguard_answer: None,
        }),
    }
}

/// What a GUI does between two records of one session.
#[derive(Clone, Debug)]
enum Step {
    /// The game plus one move (the common case).
    Next,
    /// The same position again.
    Again,
    /// Takes back `n` moves.
    TakeBack(usize),
    /// A new game from the start.
    NewGame,
    /// A rejected position.
    Rejected,
    /// The same moves with two spaces between them.
    Spaced,
    /// The engine restarts.
    Restart,
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        8 => Just(Step::Next),
        1 => Just(Step::Again),
        1 => (1usize..5).prop_map(Step::TakeBack),
        1 => Just(Step::NewGame),
        1 => Just(Step::Rejected),
        1 => Just(Step::Spaced),
        1 => Just(Step::Restart),
    ]
}

/// The session's records for `steps` over a game chosen by `choices`.
fn records(steps: &[Step], choices: &[u16]) -> Vec<Record> {
    let (moves, fens) = game(steps.len() + 1, choices);
    let mut out = Vec::new();
    let mut seq = 0;
    let mut ply = 0usize;
    for s in steps {
        seq += 1;
        let spaces = if matches!(s, Step::Spaced) { "  " } else { " " };
        match s {
            Step::Next | Step::Spaced => ply = (ply + 1).min(moves.len()),
            Step::Again | Step::Rejected => {}
            Step::TakeBack(n) => ply = ply.saturating_sub(*n),
            Step::NewGame => ply = 0,
            Step::Restart => {
                out.push(Record {
                    seq,
                    event: Event::EngineExit {
                        code: None,
                        signal: Some(9),
                        reason: ExitReason::Unexpected,
                    },
                });
                continue;
            }
        }
        let fen = if ply == 0 {
            Fen::from_position(&Chess::default(), EnPassantMode::Legal).to_string()
        } else {
            fens[ply - 1].clone()
        };
        let rejected = matches!(s, Step::Rejected);
        out.push(position(seq, &moves[..ply], &fen, spaces, rejected));
        seq += 1;
        out.push(search(seq, seq - 1));
    }
    out
}

fn now() -> OffsetDateTime {
    time::macros::datetime!(2026-11-29 13:00:00.123456 UTC)
}

/// Writes `records` compacted, rebuilds each line, and checks it against the full writer.
fn assert_round_trip(records: &[Record]) -> usize {
    let mut compactor = Compactor::default();
    let mut expander = Expander::default();
    let mut compacted = 0;
    for record in records {
        let line = compactor.render("s1", record, now());
        let full = render("s1", record, now());
        if line != full {
            compacted += 1;
            assert!(line.contains("\"extends\":"), "{line}");
        }
        let rebuilt = expander.expand_line(line.trim_end()).expect("rebuilds");
        assert_eq!(format!("{rebuilt}\n"), full, "compact line: {line}");
    }
    compacted
}

#[test]
fn a_game_sent_move_by_move_rebuilds_exactly_and_compacts_every_record_but_the_first() {
    let steps = vec![Step::Next; 300];
    let records = records(&steps, &[7, 3, 11, 5, 2]);
    let compacted = assert_round_trip(&records);
    let positions = records
        .iter()
        .filter(|r| matches!(r.event, Event::Position(_)))
        .count();
    assert_eq!(compacted, positions - 1);
}

#[test]
fn the_last_record_of_a_300_ply_game_is_at_most_1_kb() {
    let steps = vec![Step::Next; 300];
    let records = records(&steps, &[7, 3, 11, 5, 2]);
    let mut compactor = Compactor::default();
    let sizes: Vec<usize> = records
        .iter()
        .filter(|r| matches!(r.event, Event::Position(_)))
        .map(|r| compactor.render("19c5a3b2f10-123456", r, now()).len())
        .collect();
    let last = *sizes.last().unwrap();
    assert!(last <= 1024, "last record {last} bytes");
    let full = render(
        "19c5a3b2f10-123456",
        records.iter().rev().nth(1).unwrap(),
        now(),
    )
    .len();
    assert!(full > 4 * last, "full {full} vs compact {last}");
}

#[test]
fn a_take_back_is_written_in_full() {
    let steps = [Step::Next, Step::Next, Step::Next, Step::TakeBack(1)];
    let records = records(&steps, &[1]);
    let mut compactor = Compactor::default();
    let lines: Vec<String> = records
        .iter()
        .map(|r| compactor.render("s", r, now()))
        .collect();
    assert!(lines[4].contains("\"extends\":3"), "{}", lines[4]);
    assert!(!lines[6].contains("\"extends\""), "{}", lines[6]);
    assert!(lines[6].contains("\"moves_in\":["), "{}", lines[6]);
}

#[test]
fn a_record_extending_a_record_not_read_is_an_error_naming_both() {
    let steps = [Step::Next, Step::Next];
    let records = records(&steps, &[1]);
    let mut compactor = Compactor::default();
    let lines: Vec<String> = records
        .iter()
        .map(|r| compactor.render("s", r, now()))
        .collect();
    let err = Expander::default()
        .expand_line(lines[2].trim_end())
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "record seq 3 extends seq 1, which is not the last position record of session `s` read"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn every_record_rebuilds_to_the_full_writers_line(
        steps in proptest::collection::vec(step(), 1..80),
        choices in proptest::collection::vec(any::<u16>(), 1..16),
    ) {
        assert_round_trip(&records(&steps, &choices));
    }
}
