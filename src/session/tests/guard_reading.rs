//! The guard reads a line as the engine does (SPEC section 12): every byte C's `isspace`
//! accepts separates tokens wherever it stands, a UCI command goes out canonical, non-UCI
//! commands are refused under `[guard] commands = "uci"`, spin values must be decimal.

use super::*;
use crate::session::Input;
use crate::session::{Commands, Guard};
use std::time::Instant;

/// The bytes C's `isspace` accepts in the C locale.
const C_SPACES: [u8; 6] = [b' ', b'\t', b'\n', 0x0b, 0x0c, b'\r'];

fn guarded() -> Session {
    let allow: Vec<String> = crate::session::guard::DEFAULT_ALLOW
        .iter()
        .map(|s| (*s).to_owned())
        .collect();
    Session::new(false).with_guard(Guard::new(&allow, Some(2), Some(64)))
}

/// `words` joined by `sep` at the gap `at` (0: before the first word; `words.len()`: after
/// the last), single spaces elsewhere, `\n`-ended. `\n` as a separator inside a line cannot
/// reach the session (the shell splits lines at it), so it is tried only around the line.
fn spelled(words: &[&str], at: usize, sep: u8) -> Vec<u8> {
    let mut line = Vec::new();
    for (i, w) in words.iter().enumerate() {
        if i == at {
            line.push(sep);
        } else if i > 0 {
            line.push(b' ');
        }
        line.extend_from_slice(w.as_bytes());
    }
    if at == words.len() {
        line.push(sep);
    }
    line.push(b'\n');
    line
}

/// Every spelling of `words` with one C-space byte in one gap.
fn spellings(words: &[&str]) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for sep in C_SPACES {
        for at in 0..=words.len() {
            let inner = at > 0 && at < words.len();
            if sep == b'\n' && inner {
                continue;
            }
            out.push(spelled(words, at, sep));
        }
    }
    out
}

fn send(s: &mut Session, line: Vec<u8>) -> Vec<Action> {
    s.handle(Input::GuiLine(Bytes::from(line)), Instant::now())
}

#[test]
fn a_file_option_is_refused_whatever_the_whitespace() {
    let words = [
        "setoption",
        "name",
        "Debug",
        "Log",
        "File",
        "value",
        "/tmp/x",
    ];
    for line in spellings(&words) {
        let mut s = guarded();
        let out = send(&mut s, line.clone());
        assert!(to_engine(&out).is_empty(), "{line:?}: {out:?}");
        assert_eq!(
            to_gui(&out),
            vec!["info string fenguard: option not allowed: Debug Log File\n"],
            "{line:?}"
        );
    }
}

#[test]
fn threads_above_the_cap_are_clamped_whatever_the_whitespace() {
    for line in spellings(&["setoption", "name", "Threads", "value", "10"]) {
        let mut s = guarded();
        let out = send(&mut s, line.clone());
        assert_eq!(
            to_engine(&out),
            vec!["setoption name Threads value 2\n"],
            "{line:?}"
        );
    }
}

#[test]
fn a_kingless_position_is_rejected_whatever_the_whitespace() {
    let words = [
        "position",
        "fen",
        "8/8/8/8/8/8/8/8",
        "w",
        "-",
        "-",
        "0",
        "1",
    ];
    for line in spellings(&words) {
        let mut s = Session::new(false);
        let out = send(&mut s, line.clone());
        assert!(to_engine(&out).is_empty(), "{line:?}: {out:?}");
        let record = position_record(&out);
        assert_eq!(
            record.verdict,
            crate::session::Verdict::Rejected,
            "{line:?}"
        );
    }
}

#[test]
fn go_is_sent_canonical_whatever_the_whitespace() {
    for line in spellings(&["go", "depth", "5"]) {
        let mut s = Session::new(false);
        let out = send(&mut s, line.clone());
        assert_eq!(to_engine(&out), vec!["go depth 5\n"], "{line:?}");
    }
}

#[test]
fn commands_without_arguments_go_out_as_the_bare_word() {
    let mut s = Session::new(false);
    for (line, sent) in [
        (&b"\x0bisready junk\r\n"[..], "isready\n"),
        (b"ucinewgame\x0c\n", "ucinewgame\n"),
        (b"stop now\n", "stop\n"),
    ] {
        let out = s.handle(Input::GuiLine(Bytes::copy_from_slice(line)), Instant::now());
        assert_eq!(to_engine(&out), vec![sent], "{line:?}");
    }
}

#[test]
fn the_record_keeps_the_gui_line_with_spans_into_it() {
    let mut s = Session::new(false);
    let line = b"\x0bposition\tfen  4k3/8/8/8/8/8/8/4KK2 w - - 0 1\r\n";
    let out = s.handle(Input::GuiLine(Bytes::from_static(line)), Instant::now());
    let record = position_record(&out);
    assert_eq!(
        record.raw,
        "\u{b}position\tfen  4k3/8/8/8/8/8/8/4KK2 w - - 0 1"
    );
    let span = record.diagnostics[0].span.clone().expect("a span");
    let text = &record.raw.as_bytes()[span];
    assert!(
        std::str::from_utf8(text).unwrap().contains('K'),
        "{record:?}"
    );
}

#[test]
fn non_uci_commands_are_refused_under_uci_commands() {
    for line in [
        &b"export_net /tmp/x.nnue\n"[..],
        b"bench 800 7 20 default depth\n",
        b"\x0bbench 16 1 1 /etc/passwd depth\n",
        b"d\n",
        b"eval\n",
        b"Position startpos\n",
    ] {
        let mut s = Session::new(false).with_commands(Commands::Uci);
        let out = s.handle(Input::GuiLine(Bytes::copy_from_slice(line)), Instant::now());
        assert!(to_engine(&out).is_empty(), "{line:?}: {out:?}");
        let told = to_gui(&out);
        assert_eq!(told.len(), 1, "{told:?}");
        assert!(
            told[0].starts_with("info string fenguard: command not allowed: "),
            "{told:?}"
        );
    }
}

#[test]
fn a_guarded_session_refuses_non_uci_commands_and_goes_on() {
    let mut s = guarded();
    let out = s.handle(
        Input::GuiLine(Bytes::from_static(b"export_net /tmp/x\n")),
        Instant::now(),
    );
    assert_eq!(
        to_gui(&out),
        vec!["info string fenguard: command not allowed: export_net\n"]
    );
    let out = s.handle(
        Input::GuiLine(Bytes::from_static(b"isready\n")),
        Instant::now(),
    );
    assert_eq!(to_engine(&out), vec!["isready\n"]);
}

#[test]
fn blank_lines_are_dropped_under_uci_commands() {
    let mut s = Session::new(false).with_commands(Commands::Uci);
    let out = s.handle(
        Input::GuiLine(Bytes::from_static(b" \x0b\r\n")),
        Instant::now(),
    );
    assert!(
        to_engine(&out).is_empty() && to_gui(&out).is_empty(),
        "{out:?}"
    );
}

#[test]
fn the_stdio_proxy_relays_engine_commands_byte_for_byte() {
    let mut s = Session::new(false);
    let out = s.handle(
        Input::GuiLine(Bytes::from_static(b"bench 16 1 1\r\n")),
        Instant::now(),
    );
    assert_eq!(to_engine(&out), vec!["bench 16 1 1\r\n"]);
}

#[test]
fn spin_values_the_guard_cannot_read_are_refused() {
    for (name, value) in [
        ("Threads", "1e1"),
        ("Threads", "0x6"),
        ("Threads", "3abc"),
        ("Hash", "1e3"),
        ("Threads", "4 8"),
        ("Threads", "+1"),
    ] {
        let mut s = guarded();
        let out = gui(&mut s, &format!("setoption name {name} value {value}"));
        assert!(to_engine(&out).is_empty(), "{name} {value}: {out:?}");
        let told = to_gui(&out);
        assert_eq!(
            told,
            vec![format!(
                "info string fenguard: bad value for spin option {name}: `{value}` (expected a \
                 decimal integer); not forwarded\n"
            )]
        );
    }
}

#[test]
fn spin_values_go_out_as_canonical_decimals() {
    let mut s = guarded();
    let out = gui(&mut s, "setoption name Threads value 0002");
    assert_eq!(to_engine(&out), vec!["setoption name Threads value 2\n"]);
    let out = gui(&mut s, "setoption name Hash value 00640");
    assert_eq!(to_engine(&out), vec!["setoption name Hash value 64\n"]);
}

#[test]
fn announced_spin_options_need_decimals_in_the_stdio_proxy_too() {
    let mut s = Session::new(false);
    engine(
        &mut s,
        "option name MultiPV type spin default 1 min 1 max 500",
    );
    let out = gui(&mut s, "setoption name multipv value 1e1");
    assert!(to_engine(&out).is_empty(), "{out:?}");
    let out = gui(&mut s, "setoption name MultiPV value 03");
    assert_eq!(to_engine(&out), vec!["setoption name MultiPV value 3\n"]);
    // An option the engine did not announce as spin is not judged.
    let out = gui(&mut s, "setoption name Style value 1e1");
    assert_eq!(to_engine(&out), vec!["setoption name Style value 1e1\n"]);
}

#[test]
fn an_overlong_setoption_is_not_sent() {
    let mut s = guarded();
    let mut first = b"setoption name Threads value 1000".to_vec();
    first.resize(1 << 20, b' ');
    let out = s.handle(
        Input::GuiPiece {
            chunk: Bytes::from(first),
            first: true,
        },
        Instant::now(),
    );
    assert!(to_engine(&out).is_empty(), "{:?}", to_gui(&out));
    let out = s.handle(
        Input::GuiPiece {
            chunk: Bytes::from_static(b"   \n"),
            first: false,
        },
        Instant::now(),
    );
    assert!(to_engine(&out).is_empty(), "{out:?}");
    let out = gui(&mut s, "isready");
    assert_eq!(to_engine(&out), vec!["isready\n"]);
}

#[test]
fn an_overlong_go_is_answered_bestmove_0000() {
    let mut s = Session::new(false);
    let mut first = b"go depth 5 searchmoves".to_vec();
    first.resize(1 << 20, b' ');
    let out = s.handle(
        Input::GuiPiece {
            chunk: Bytes::from(first),
            first: true,
        },
        Instant::now(),
    );
    assert!(to_engine(&out).is_empty());
    let told = to_gui(&out);
    assert!(told.contains(&"bestmove 0000\n".to_owned()), "{told:?}");
}

#[test]
fn an_overlong_engine_command_is_dropped_under_uci_commands() {
    let mut s = Session::new(false).with_commands(Commands::Uci);
    let mut first = b"bench".to_vec();
    first.resize(1 << 20, b' ');
    let out = s.handle(
        Input::GuiPiece {
            chunk: Bytes::from(first),
            first: true,
        },
        Instant::now(),
    );
    assert!(to_engine(&out).is_empty());
}

#[test]
fn a_command_with_a_nul_in_its_arguments_is_not_sent() {
    let mut s = Session::new(false);
    let out = s.handle(
        Input::GuiLine(Bytes::from_static(b"setoption name Hash value 1\x006\n")),
        Instant::now(),
    );
    assert!(to_engine(&out).is_empty(), "{out:?}");
    let out = s.handle(
        Input::GuiLine(Bytes::from_static(b"go depth\x00 5\n")),
        Instant::now(),
    );
    assert!(to_engine(&out).is_empty(), "{out:?}");
    assert!(to_gui(&out).contains(&"bestmove 0000\n".to_owned()));
    // A NUL right after a command word: a C engine would read `isready`, a C++ one
    // `isready\0`: neither gets it, and the GUI gets the `readyok` it waits for.
    let out = s.handle(
        Input::GuiLine(Bytes::from_static(b"isready\x00\n")),
        Instant::now(),
    );
    assert!(to_engine(&out).is_empty(), "{out:?}");
    assert!(to_gui(&out).contains(&"readyok\n".to_owned()), "{out:?}");
    // Elsewhere in a word that is no command, the line is relayed as it is.
    let out = s.handle(
        Input::GuiLine(Bytes::from_static(b"flip\x00x\n")),
        Instant::now(),
    );
    assert_eq!(to_engine(&out), vec!["flip\u{0}x\n"]);
}

#[test]
fn an_overlong_position_behind_leading_whitespace_is_not_sent() {
    for pad in [b' ', b'\t', 0x0b] {
        let mut s = Session::new(false);
        let first = vec![pad; 1 << 20];
        let out = s.handle(
            Input::GuiPiece {
                chunk: Bytes::from(first),
                first: true,
            },
            Instant::now(),
        );
        assert!(to_engine(&out).is_empty(), "{pad:#04x}: {out:?}");
        let out = s.handle(
            Input::GuiPiece {
                chunk: Bytes::from_static(b"position fen 8/8/8/8/8/8/8/8 w - - 0 1\n"),
                first: false,
            },
            Instant::now(),
        );
        assert!(to_engine(&out).is_empty(), "{pad:#04x}: {out:?}");
        let out = gui(&mut s, "isready");
        assert_eq!(to_engine(&out), vec!["isready\n"]);
    }
}

#[test]
fn an_overlong_line_whose_first_word_is_cut_is_not_sent_when_it_may_be_a_command() {
    let mut s = Session::new(false);
    let mut first = vec![b' '; (1 << 20) - 7];
    first.extend_from_slice(b"positio");
    let out = s.handle(
        Input::GuiPiece {
            chunk: Bytes::from(first),
            first: true,
        },
        Instant::now(),
    );
    assert!(to_engine(&out).is_empty(), "{out:?}");
    let out = s.handle(
        Input::GuiPiece {
            chunk: Bytes::from_static(b"n fen 8/8/8/8/8/8/8/8 w - - 0 1\n"),
            first: false,
        },
        Instant::now(),
    );
    assert!(to_engine(&out).is_empty(), "{out:?}");
    // A word no command starts with is relayed as before.
    let out = s.handle(
        Input::GuiPiece {
            chunk: Bytes::from(vec![b'p'; 1 << 20]),
            first: true,
        },
        Instant::now(),
    );
    assert_eq!(to_engine(&out).len(), 1);
}

#[test]
fn an_overlong_isready_is_answered_readyok() {
    let mut s = Session::new(false);
    let mut first = b"isready".to_vec();
    first.resize(1 << 20, b' ');
    let out = s.handle(
        Input::GuiPiece {
            chunk: Bytes::from(first),
            first: true,
        },
        Instant::now(),
    );
    assert!(to_engine(&out).is_empty());
    assert!(to_gui(&out).contains(&"readyok\n".to_owned()), "{out:?}");
}

#[test]
fn a_command_behind_a_lone_cr_is_not_relayed() {
    // An engine reading with universal newlines (Python's `input()`) ends a line at `\r`.
    let mut s = Session::new(false);
    let out = s.handle(
        Input::GuiLine(Bytes::from_static(
            b"x\rposition fen 8/8/8/8/8/8/8/8 w - - 0 1\n",
        )),
        Instant::now(),
    );
    assert!(to_engine(&out).is_empty(), "{out:?}");
    let out = s.handle(
        Input::GuiLine(Bytes::from_static(b"flip\r\n")),
        Instant::now(),
    );
    assert_eq!(to_engine(&out), vec!["flip\r\n"]);
}
