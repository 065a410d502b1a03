//! Session basics: relaying, quitting, engine exit, records, transcript.

use super::super::*;
use std::time::Instant;

fn b(s: &'static [u8]) -> Bytes {
    Bytes::from_static(s)
}

#[test]
fn gui_line_that_is_not_a_uci_command_is_forwarded_byte_for_byte() {
    let mut s = Session::new(false);
    let line = b(b"\tflip  now \t\r\n");
    assert_eq!(
        s.handle(Input::GuiLine(line.clone()), Instant::now()),
        vec![Action::ToEngine(line)]
    );
}

#[test]
fn uci_command_is_forwarded_in_canonical_form() {
    let mut s = Session::new(false);
    let line = b(b"\x0bsetoption\x0cname Hash\t value  16 \t\r\n");
    let option = Record {
        seq: 1,
        event: Event::Option(CommandRecord {
            raw: "\x0bsetoption\x0cname Hash\t value  16 \t".to_owned(),
        }),
    };
    assert_eq!(
        s.handle(Input::GuiLine(line), Instant::now()),
        vec![
            Action::Record(option),
            Action::ToEngine(b(b"setoption name Hash value 16\n"))
        ]
    );
}

#[test]
fn gui_commands_are_logged_in_the_order_read() {
    let mut s = Session::new(false);
    let mut logged = Vec::new();
    for line in [
        "setoption name Threads value 1\n",
        "ucinewgame\n",
        "isready\n",
        "position startpos moves e2e4\n",
        "go  nodes 1000\r\n",
        "stop\n",
        "ponderhit\n",
        "quit\n",
    ] {
        for action in s.handle(Input::GuiLine(Bytes::from(line)), Instant::now()) {
            if let Action::Record(record) = action {
                let kind = match record.event {
                    Event::Option(c) => format!("option {}", c.raw),
                    Event::Command(c) => format!("command {}", c.raw),
                    Event::Position(p) => format!("position {}", p.raw),
                    other => format!("{other:?}"),
                };
                logged.push(format!("{} {kind}", record.seq));
            }
        }
    }
    assert_eq!(
        logged,
        [
            "1 option setoption name Threads value 1",
            "2 command ucinewgame",
            "3 position position startpos moves e2e4",
            "4 command go  nodes 1000",
            "5 command stop",
            "6 command ponderhit",
        ]
    );
}

#[test]
fn non_utf8_engine_line_is_relayed_unchanged() {
    let mut s = Session::new(false);
    let line = b(b"info string \xff\xfe caf\xe9\n");
    assert_eq!(
        s.handle(Input::EngineLine(line.clone()), Instant::now()),
        vec![Action::ToGui(line)]
    );
}

#[test]
fn quit_is_forwarded_then_starts_grace() {
    let mut s = Session::new(false);
    assert_eq!(
        s.handle(Input::GuiLine(b(b"quit\n")), Instant::now()),
        vec![Action::ToEngine(b(b"quit\n")), Action::StartQuitGrace]
    );
}

#[test]
fn second_quit_does_not_restart_grace() {
    let mut s = Session::new(false);
    s.handle(Input::GuiLine(b(b"quit\n")), Instant::now());
    assert_eq!(
        s.handle(Input::GuiLine(b(b"  quit\r\n")), Instant::now()),
        vec![Action::ToEngine(b(b"quit\n"))]
    );
}

#[test]
fn quit_prefix_word_is_not_quit() {
    let mut s = Session::new(false);
    assert_eq!(
        s.handle(Input::GuiLine(b(b"quitx\n")), Instant::now()),
        vec![Action::ToEngine(b(b"quitx\n"))]
    );
}

#[test]
fn gui_eof_closes_engine_input_and_starts_grace() {
    let mut s = Session::new(false);
    let actions = s.handle(Input::GuiEof, Instant::now());
    assert_eq!(
        &actions[1..],
        &[Action::CloseEngineInput, Action::StartQuitGrace]
    );
}

#[test]
fn transcript_tags_both_directions() {
    let mut s = Session::new(true);
    let line = b(b"uci\n");
    assert_eq!(
        s.handle(Input::GuiLine(line.clone()), Instant::now()),
        vec![
            Action::Transcript(Direction::FromGui, line.clone()),
            Action::Transcript(Direction::ToEngine, line.clone()),
            Action::ToEngine(line),
        ]
    );
}

#[test]
fn overlong_first_chunk_is_logged_and_relayed() {
    let mut s = Session::new(false);
    let actions = s.handle(
        Input::EnginePiece {
            chunk: b(b"xxxx"),
            first: true,
        },
        Instant::now(),
    );
    assert!(matches!(actions[0], Action::Log(Level::WARN, _)));
    assert_eq!(actions[1], Action::ToGui(b(b"xxxx")));
    assert_eq!(
        s.handle(
            Input::EnginePiece {
                chunk: b(b"yy\n"),
                first: false
            },
            Instant::now()
        ),
        vec![Action::ToGui(b(b"yy\n"))]
    );
}

#[test]
fn unexpected_engine_exit_finishes_with_non_zero_status() {
    let mut s = Session::new(false);
    let actions = s.handle(
        Input::EngineExited(EngineExit {
            code: Some(3),
            ..EngineExit::default()
        }),
        Instant::now(),
    );
    assert_eq!(actions.last(), Some(&Action::Finish(EXIT_ENGINE_DIED)));
    assert_eq!(
        actions[1],
        Action::Record(Record {
            seq: 1,
            event: Event::EngineExit {
                code: Some(3),
                signal: None,
                reason: ExitReason::Unexpected
            },
        })
    );
}

#[test]
fn engine_exit_after_quit_finishes_with_zero() {
    let mut s = Session::new(false);
    s.handle(Input::GuiLine(b(b"quit\n")), Instant::now());
    let actions = s.handle(
        Input::EngineExited(EngineExit {
            code: Some(0),
            ..EngineExit::default()
        }),
        Instant::now(),
    );
    assert_eq!(actions.last(), Some(&Action::Finish(0)));
}

#[test]
fn killed_engine_is_recorded_as_killed() {
    let mut s = Session::new(false);
    s.handle(Input::GuiEof, Instant::now());
    let actions = s.handle(
        Input::EngineExited(EngineExit {
            signal: Some(9),
            killed: true,
            ..EngineExit::default()
        }),
        Instant::now(),
    );
    assert!(matches!(
        &actions[1],
        Action::Record(Record {
            event: Event::EngineExit {
                reason: ExitReason::Killed,
                ..
            },
            ..
        })
    ));
}

#[test]
fn records_are_numbered_in_order() {
    let mut s = Session::new(false);
    let start = s.handle(
        Input::EngineStarted {
            command: "/e".into(),
            args: vec![],
            pid: Some(7),
        },
        Instant::now(),
    );
    let exit = s.handle(Input::EngineExited(EngineExit::default()), Instant::now());
    assert!(matches!(&start[1], Action::Record(Record { seq: 1, .. })));
    assert!(matches!(&exit[1], Action::Record(Record { seq: 2, .. })));
}

#[test]
fn record_serializes_with_kebab_case_kind() {
    let record = Record {
        seq: 4,
        event: Event::EngineExit {
            code: None,
            signal: Some(11),
            reason: ExitReason::Unexpected,
        },
    };
    assert_eq!(
        serde_json::to_string(&record).unwrap(),
        r#"{"seq":4,"kind":"engine-exit","code":null,"signal":11,"reason":"unexpected"}"#
    );
}

#[test]
fn first_token_skips_leading_whitespace() {
    assert_eq!(first_token(b" \tposition startpos\n"), b"position");
    assert_eq!(first_token(b"quit\r\n"), b"quit");
    assert_eq!(first_token(b"\n"), b"");
}

#[test]
fn engine_start_is_logged_with_command_args_and_pid() {
    let mut s = Session::new(false);
    let actions = s.handle(
        Input::EngineStarted {
            command: "/e".into(),
            args: vec!["-a".into(), "b".into()],
            pid: Some(7),
        },
        Instant::now(),
    );
    assert_eq!(
        actions[0],
        Action::Log(Level::INFO, "engine started: /e -a b (pid 7)".to_owned())
    );
}
