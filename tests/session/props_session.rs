//! Property tests of the session state machine: arbitrary sequences of GUI and engine lines
//! under varied settings (invariants shared with the `session_lines` fuzz target, in
//! `tests/invariants/session.rs`); NUL and non-UTF-8 bytes inside `position` lines; and a
//! `moves` list of 10,000 moves.

use crate::invariants;

use bytes::Bytes;
use std::time::Instant;

use fenguard::session::Input as SessionInput;
use fenguard::session::{Action, Event, PositionRecord, Session, Verdict};
use invariants::{Driver, Input, settings_from, to_gui};
use proptest::prelude::*;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Position};

/// GUI lines that steer the session: positions valid, repairable and invalid, in both castling
/// notations and modes, `go` in every shape, fenguard's options.
const GUI_LINES: &[&str] = &[
    "uci",
    "isready",
    "ucinewgame",
    "position startpos",
    "position startpos moves e2e4 e7e5 g1f3",
    "position startpos moves e2e5",
    "position fen 8/8/8/8/8/8/8/8 w - - 0 1",
    "position fen 4k3/8/8/8/8/8/8/4K2R w KQ - 0 1",
    "position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 4 1 moves e1h1",
    "position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 4 1 moves e1g1 e8c8",
    "position fen 4rkr1/4p1p1/8/8/8/8/8/5K1R w K - 0 1",
    "position fen 1r2k3/8/8/8/8/8/8/RK6 w Q - 0 1 moves b1a1",
    "position fen 4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 moves e2e4",
    "position fen 8/P7/8/8/8/8/8/k6K w - - 0 1 moves a7a8",
    "position fen blah",
    "position",
    "go depth 1",
    "go infinite",
    "go ponder wtime 100 btime 100",
    "go depth 2 searchmoves e1g1 e1c1 e2e4",
    "go searchmoves e1h1 b1a1 f1h1",
    "go perft 2",
    "stop",
    "ponderhit",
    "setoption name UCI_Chess960 value true",
    "setoption name UCI_Chess960 value false",
    "setoption name fenguard OnBadPosition value reject",
    "setoption name fenguard OnBadPosition value forward",
    "setoption name fenguard Chess960 value detect",
    "setoption name fenguard ReportToGui value false",
    "setoption name fenguard Bogus value 1",
    "setoption name fenguard OnInvalid value reject",
    "setoption name UCI_Variant value crazyhouse",
    "setoption name UCI_Variant value chess",
    "setoption name UCI_CapaRandom value true",
    "quit",
];

/// Engine lines: the handshake, and moves that need translating in the positions above.
const ENGINE_LINES: &[&str] = &[
    "id name Stockfish 15.1",
    "option name UCI_Chess960 type check default false",
    "option name UCI_Variant type combo default chess var chess var crazyhouse var capablanca",
    "option name UCI_CapaRandom type check default false",
    "uciok",
    "readyok",
    "info string NNUE evaluation using nn-ad9b42354671.nnue enabled",
    "info depth 1 seldepth 1 score cp 22 nodes 43 pv e1g1 e8c8",
    "info depth 2 currmove e1h1 currmovenumber 1 pv e1h1 e8a8 refutation f1h1 b1a1",
    "bestmove e1g1 ponder e8c8",
    "bestmove e1h1",
    "bestmove f1h1",
    "bestmove b1a1 ponder e8d8",
    "bestmove e2e4 ponder e7e5",
    "bestmove 0000",
    "bestmove (none)",
    "bestmove P@e4",
    "Nodes searched: 20",
];

fn line_text() -> impl Strategy<Value = Vec<u8>> {
    let known = |lines: &'static [&'static str]| {
        proptest::sample::select(lines).prop_map(|l| l.as_bytes().to_vec())
    };
    prop_oneof![
        4 => known(GUI_LINES),
        3 => known(ENGINE_LINES),
        1 => proptest::collection::vec(any::<u8>(), 0..24),
    ]
}

/// One event: kind byte (see [`Input::from_chunk`]), text, terminator.
fn event() -> impl Strategy<Value = Vec<u8>> {
    let kind = prop_oneof![
        6 => Just(b'g'),
        6 => Just(b'e'),
        1 => Just(b'o'),
        1 => Just(b'O'),
        1 => Just(b'x'),
        1 => Just(b'q'),
    ];
    let end = prop_oneof![6 => Just(&b"\n"[..]), 2 => Just(&b"\r\n"[..])];
    (kind, line_text(), end).prop_map(|(kind, text, end)| {
        let mut chunk = vec![kind];
        chunk.extend(text.into_iter().filter(|&b| b != b'\n'));
        chunk.extend_from_slice(end);
        chunk
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn session_keeps_its_invariants_on_any_line_sequence(
        a in any::<u8>(),
        b in any::<u8>(),
        events in proptest::collection::vec(event(), 0..24),
        last in proptest::collection::vec(any::<u8>(), 0..16),
    ) {
        let mut data = vec![a, b];
        for e in events {
            data.extend(e);
        }
        data.extend(last);
        Driver::run(&data);
    }

    #[test]
    fn hostile_byte_in_a_position_line_is_diagnosed_at_its_place(
        base in proptest::sample::select(&[
            "position startpos moves e2e4 e7e5 g1f3",
            "position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 4 1 moves e1g1 e8c8",
            "position fen rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3 moves e5d6",
        ][..]),
        byte in prop_oneof![Just(0u8), 0x80u8..=0xff, 1u8..0x09],
        at in any::<proptest::sample::Index>(),
        a in any::<u8>(),
    ) {
        let mut line = base.as_bytes().to_vec();
        let at = "position ".len() + at.index(line.len() - "position ".len() + 1);
        line.insert(at, byte);
        line.push(b'\n');
        let mut driver = Driver::new(settings_from(a, 0), false);
        driver.step(Input::Gui(&line));
        let record = position_record(&driver.actions);
        let spans: Vec<_> = record.diagnostics.iter().filter_map(|d| d.span.as_ref()).collect();
        prop_assert!(
            spans.iter().any(|s| s.start <= at && at < s.end),
            "no diagnostic at byte {} of {:?}: {:?}", at, String::from_utf8_lossy(&line),
            record.diagnostics
        );
        for line in to_gui(&driver.actions) {
            let text = std::str::from_utf8(line);
            prop_assert!(text.is_ok(), "{:?}", line);
        }
        if record.verdict == Verdict::Rejected {
            prop_assert!(to_gui(&driver.actions)
                .iter()
                .any(|l| l.starts_with(b"info string fenguard: rejected position: ")));
        }
    }
}

fn position_record(actions: &[Action]) -> PositionRecord {
    let found: Vec<_> = actions
        .iter()
        .filter_map(|a| match a {
            Action::Record(r) => match &r.event {
                Event::Position(p) => Some((**p).clone()),
                _ => None,
            },
            _ => None,
        })
        .collect();
    assert_eq!(found.len(), 1, "{actions:?}");
    found.into_iter().next().expect("one record")
}

/// `n` legal moves from the start position, chosen by a fixed xorshift sequence among the
/// moves that leave the opponent a legal reply (so the game never ends).
fn long_game(n: usize) -> Vec<String> {
    let mut pos = Chess::default();
    let mut state = 0x9e37_79b9_7f4a_7c15_u64;
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let moves = pos.legal_moves();
        let start = usize::try_from(state % moves.len() as u64).unwrap_or(0);
        let mv = (0..moves.len())
            .map(|i| moves[(start + i) % moves.len()])
            .find(|m| {
                let mut next = pos.clone();
                next.play_unchecked(*m);
                !next.legal_moves().is_empty()
            })
            .expect("some move leaves a reply");
        out.push(UciMove::from_move(mv, CastlingMode::Standard).to_string());
        pos.play_unchecked(mv);
    }
    out
}

#[test]
fn ten_thousand_moves_are_all_checked_and_sent() {
    let moves = long_game(10_000);
    let line = format!("position startpos moves {}\n", moves.join(" "));
    let mut session = Session::new(false);
    let actions = session.handle(SessionInput::GuiLine(Bytes::from(line)), Instant::now());
    let record = position_record(&actions);
    assert_eq!(record.verdict, Verdict::Valid);
    assert_eq!(record.moves_out.0.split(' ').count(), 10_000);
    let expected = format!("position startpos moves {}\n", moves.join(" "));
    let sent: Vec<_> = actions
        .iter()
        .filter_map(|a| match a {
            Action::ToEngine(l) => Some(l.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(sent, vec![Bytes::from(expected)]);
}

#[path = "../invariants/order.rs"]
mod order;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1024))]

    /// Random interleavings of GUI commands, engine replies, crashes and restarts: the GUI
    /// gets every reply it is owed, once, in the order it asked (`tests/invariants/order.rs`).
    #[test]
    fn gui_receives_every_owed_reply_once_in_the_order_asked(
        events in proptest::collection::vec(any::<u8>(), 0..48),
    ) {
        order::OrderDriver::run(&events);
    }
}

/// Every input of the `session_order` fuzz corpus keeps the order property.
#[test]
fn session_order_corpus_keeps_the_reply_order() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus/session_order");
    let mut count = 0;
    for entry in std::fs::read_dir(&dir).expect("corpus directory") {
        let data = std::fs::read(entry.expect("corpus entry").path()).expect("corpus file");
        order::OrderDriver::run(&data);
        count += 1;
    }
    assert!(
        count >= 3,
        "only {count} corpus inputs in {}",
        dir.display()
    );
}

#[path = "../invariants/engine_reading.rs"]
mod engine_reading;
#[path = "../invariants/engine_rules.rs"]
mod engine_rules;

/// Words a hostile GUI line is made of: the UCI commands and their keywords, Stockfish's own
/// commands, file options, number spellings, FEN fields, moves, and single odd bytes.
const HOSTILE_WORDS: &[&[u8]] = &[
    b"setoption",
    b"name",
    b"value",
    b"Threads",
    b"Hash",
    b"MultiPV",
    b"Debug",
    b"Log",
    b"File",
    b"/tmp/x",
    b"1e1",
    b"0x6",
    b"3abc",
    b"10",
    b"0010",
    b"-1",
    b"+2",
    b"2",
    b"99999999999999999999",
    b"position",
    b"fen",
    b"startpos",
    b"moves",
    b"8/8/8/8/8/8/8/8",
    b"4k3/8/8/8/8/8/8/4K3",
    b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
    b"w",
    b"b",
    b"-",
    b"KQkq",
    b"0",
    b"1",
    b"e2e4",
    b"e7e5",
    b"e1e2",
    b"go",
    b"depth",
    b"5",
    b"searchmoves",
    b"infinite",
    b"isready",
    b"uci",
    b"quit",
    b"stop",
    b"ponderhit",
    b"ucinewgame",
    b"debug",
    b"on",
    b"register",
    b"later",
    b"bench",
    b"export_net",
    b"d",
    b"eval",
    b"UCI_Chess960",
    b"true",
    b"True",
    b"fenguard",
    b"\0",
    b"\xc2\xa0",
    b"\xff",
    b"\x1b",
];

/// Separators: every C-space byte but `\n` (the shell splits lines there), runs, and nothing
/// (two words glued into one token).
const SEPARATORS: &[&[u8]] = &[b" ", b"\t", b"\x0b", b"\x0c", b"\r", b"  ", b" \x0b\t", b""];

fn hostile_line() -> impl Strategy<Value = Vec<u8>> {
    let word = prop_oneof![
        8 => proptest::sample::select(HOSTILE_WORDS).prop_map(<[u8]>::to_vec),
        1 => any::<u8>().prop_filter("no newline", |&b| b != b'\n').prop_map(|b| vec![b]),
    ];
    let sep = proptest::sample::select(SEPARATORS);
    (
        proptest::option::of(sep.clone()),
        proptest::collection::vec((word, sep), 1..10),
    )
        .prop_map(|(lead, words)| {
            let mut line = lead.map(<[u8]>::to_vec).unwrap_or_default();
            for (w, s) in words {
                line.extend_from_slice(&w);
                line.extend_from_slice(s);
            }
            line.push(b'\n');
            line
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4096))]

    /// SPEC 12: for random hostile lines, the command the engine's tokenizer reads (Stockfish's
    /// `istringstream >>`, and a C engine's up to a NUL) from what fenguard forwards is exactly
    /// the command fenguard judged; under the guard only allowed UCI commands within the caps.
    #[test]
    fn the_engine_reads_exactly_what_fenguard_judged(
        lines in proptest::collection::vec(hostile_line(), 1..4),
        mode in 0u8..3,
    ) {
        let guarded = mode == 0;
        let commands = if mode == 1 { fenguard::session::Commands::Uci } else { fenguard::session::Commands::Any };
        let mut s = engine_reading::session(guarded, commands);
        for line in &lines {
            engine_reading::check_line(&mut s, line, guarded, commands);
        }
    }
}

/// `UCI_Variant` values an engine may announce (as spelled) and a GUI may send.
const VARS: &[&str] = &[
    "chess",
    "horde",
    "crazyhouse",
    "Crazyhouse",
    "antichess",
    "capablanca",
    "caparandom",
    "shogi",
    "loop",
    "3check",
];
/// Check options an engine may announce.
const CHECKS: &[&str] = &[
    "UCI_Horde",
    "UCI_CapaRandom",
    "UCI_Giveaway",
    "UCI_AnalyseMode",
    "UCI_Chess960",
];

/// A `setoption` that may select a variant, spelled in any case with any separators.
fn variant_setoption() -> impl Strategy<Value = Vec<u8>> {
    let names = &[
        "UCI_Variant",
        "uci_variant",
        "UCI_VARIANT",
        "UCI_Horde",
        "uci_horde",
        "UCI_CapaRandom",
        "UCI_Giveaway",
        "UCI_Crazyhouse",
        "UCI_AnalyseMode",
    ][..];
    let values = &[
        "horde",
        "Horde",
        "HORDE",
        "crazyhouse",
        "CRAZYHOUSE",
        "chess",
        "xyz",
        "shogi",
        "capablanca",
        "caparandom",
        "loop",
        "3check",
        "true",
        "True",
        "false",
        "FALSE",
        "",
    ][..];
    let sep = proptest::sample::select(&[" ", "\t", "  ", " \x0b"][..]);
    (
        proptest::sample::select(names),
        proptest::sample::select(values),
        sep,
    )
        .prop_map(|(name, value, sep)| {
            format!("setoption{sep}name{sep}{name}{sep}value{sep}{value}\n").into_bytes()
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2048))]

    /// SPEC 12: the rules fenguard judges by are the rules the engine plays, for random
    /// option announcements (a `UCI_Variant` combo with some `var`s or none, some check
    /// options, a handshake finished or not) and random `setoption` lines, in the stdio proxy
    /// and under the daemon's guard. A king-less position under chess never reaches it.
    #[test]
    fn the_rules_fenguard_judges_by_are_the_rules_the_engine_announced(
        vars in proptest::option::of(proptest::sample::subsequence(VARS, 0..VARS.len())),
        checks in proptest::sample::subsequence(CHECKS, 0..CHECKS.len()),
        uciok in proptest::bool::weighted(0.85),
        guarded in any::<bool>(),
        lines in proptest::collection::vec(variant_setoption(), 1..8),
    ) {
        let mut engine = engine_rules::EngineVariant::new(
            vars.map(|v| v.iter().map(|s| (*s).to_owned()).collect()),
            checks.iter().map(|s| (*s).to_owned()).collect(),
        );
        let mut s = engine_rules::announced_session(guarded, &engine, uciok);
        for line in &lines {
            engine_rules::check_rules(&mut s, &mut engine, line);
        }
        if engine.rules == fenguard::rules::Rules::Chess {
            let out = s.handle(
                SessionInput::GuiLine(Bytes::from_static(
                    b"position fen 8/8/8/8/8/8/8/8 w - - 0 1\n",
                )),
                std::time::Instant::now(),
            );
            prop_assert!(!out.iter().any(|a| matches!(a, Action::ToEngine(_))), "{out:?}");
        }
    }
}

/// Every input of the `guard_reading` fuzz corpus holds the reading property (the fuzz
/// target's own loop: first byte the session kind, then `\n`-separated lines).
#[test]
fn guard_reading_corpus_holds_the_reading_property() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus/guard_reading");
    let mut count = 0;
    for entry in std::fs::read_dir(&dir).expect("corpus directory") {
        let data = std::fs::read(entry.expect("corpus entry").path()).expect("corpus file");
        let Some((&mode, rest)) = data.split_first() else {
            continue;
        };
        let guarded = mode % 3 == 0;
        let commands = if mode % 3 == 1 {
            fenguard::session::Commands::Uci
        } else {
            fenguard::session::Commands::Any
        };
        let mut s = engine_reading::session(guarded, commands);
        for line in rest.split(|&b| b == b'\n') {
            let mut line = line.to_vec();
            line.push(b'\n');
            engine_reading::check_line(&mut s, &line, guarded, commands);
        }
        count += 1;
    }
    assert!(
        count >= 3,
        "only {count} corpus inputs in {}",
        dir.display()
    );
}
