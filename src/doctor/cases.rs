//! The positions and lines `doctor` sends: the perft suites (chess, Chess960, each variant)
//! and the hostile-input classes, each line with what it should get ([`Expect`]). Pure data
//! built with fenguard's own rules.

use super::judge::Expect;
use super::report::Class;
use crate::rules::{Game, GameRules, Rules, play_moves};
use crate::uci::{Notation, parse_position};
use crate::variant::Variant;

/// The valid position set before each hostile line: a bestmove legal here (a king move from
/// a1, a knight move from h1) shows the line was ignored.
pub const MARKER: &str = "7k/8/8/8/8/8/8/K6N w - - 0 1";

/// The chess perft suite: `(name, FEN)`: the start position, the Chess Programming Wiki's
/// tricky positions, en passant and promotion edge cases.
pub const CHESS_PERFT: [(&str, &str); 8] = [
    (
        "start",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ),
    (
        "kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    ),
    ("cpw-3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"),
    (
        "cpw-4",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    ),
    (
        "cpw-5",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    ),
    ("ep-pinned", "8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1"),
    ("ep-discovered-check", "8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1"),
    ("promotions", "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1"),
];

/// The Chess960 perft suite: Shredder-FEN and X-FEN castling fields, an inner rook named by
/// its file (X-FEN), castling with king and rook next to each other.
pub const CHESS960_PERFT: [(&str, &str); 4] = [
    (
        "shredder-fen",
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    ),
    (
        "x-fen",
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9",
    ),
    ("x-fen-inner-rook", "rr2k3/8/8/8/8/8/8/RR2K3 w Bb - 0 1"),
    (
        "king-beside-rook",
        "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9",
    ),
];

/// A position of a suite.
#[derive(Clone, Debug)]
pub struct SuitePosition {
    /// A short name.
    pub name: String,
    /// The `position` line to send.
    pub line: String,
    /// The position (fenguard's rules).
    pub game: Game,
}

/// The position a `position` line means under `rules` (`None` when fenguard rejects it).
pub fn position_of(rules: &Rules, line: &str, chess960: bool) -> Option<Game> {
    let cmd = parse_position(line.as_bytes()).ok()?;
    let start = match cmd.fen() {
        None => Game::start(rules)?,
        Some(fen) => {
            let a = Game::analyze(rules, fen, chess960, false);
            if !a.valid {
                return None;
            }
            a.game?
        }
    };
    let n = Notation::from_chess960(chess960);
    let out = play_moves(start, &cmd.moves, n, n, false);
    out.is_complete().then_some(out.position)
}

/// The suite for `fens` under chess rules.
pub fn chess_suite(fens: &[(&str, &str)], chess960: bool) -> Vec<SuitePosition> {
    fens.iter()
        .filter_map(|(name, fen)| {
            let line = format!("position fen {fen}");
            let game = position_of(&Rules::Chess, &line, chess960)?;
            Some(SuitePosition {
                name: (*name).to_owned(),
                line,
                game,
            })
        })
        .collect()
}

/// A variant's suite: its start position, and the position after two plies (the middle legal
/// move each time), as `position startpos [moves ...]`. Empty when fenguard has no rules for
/// it.
pub fn variant_suite(variant: &str) -> Vec<SuitePosition> {
    let rules = Rules::for_variant(&Variant::from_uci_name(variant));
    let Some(start) = Game::start(&rules) else {
        return Vec::new();
    };
    let notation = variant_notation(&rules);
    let mut out = vec![SuitePosition {
        name: format!("{variant} start"),
        line: "position startpos".to_owned(),
        game: start.clone(),
    }];
    let mut game = start;
    let mut moves = Vec::new();
    for _ in 0..2 {
        let legal = game.legal_moves();
        let Some(&m) = legal.get(legal.len() / 2) else {
            break;
        };
        moves.push(game.write(m, notation).0.to_string());
        game.play(m);
    }
    if moves.len() == 2 {
        out.push(SuitePosition {
            name: format!("{variant} after {}", moves.join(" ")),
            line: format!("position startpos moves {}", moves.join(" ")),
            game,
        });
    }
    out
}

/// The castling notation a variant's engine writes (caparandom: king takes rook).
pub fn variant_notation(rules: &Rules) -> Notation {
    match rules {
        Rules::Ten(v) if v.variant() == Variant::CapaRandom => Notation::Chess960,
        _ => Notation::Standard,
    }
}

/// One hostile line and what it should get.
#[derive(Clone, Debug)]
pub struct HostileCase {
    /// The line's bytes as sent (a `\r\n` end included when the case is about it).
    pub line: Vec<u8>,
    /// What it should get.
    pub expect: Expect,
    /// Whether a `go depth 1` follows (position lines); otherwise only `isready`.
    pub search: bool,
    /// The class of its failure when it is not a crash: `policy` for input UCI does not
    /// define, `protocol` for a line UCI allows (tabs, `\r\n`, a long `moves` list).
    pub class: Class,
}

/// A hostile class: its id (`no-kings`) and its lines.
#[derive(Clone, Debug)]
pub struct HostileClass {
    /// The check's name.
    pub name: &'static str,
    /// The lines.
    pub cases: Vec<HostileCase>,
}

fn chess(line: &str) -> Game {
    position_of(&Rules::Chess, line, false).expect("a valid line")
}

fn refuse(line: &str) -> HostileCase {
    HostileCase {
        line: line.as_bytes().to_vec(),
        expect: Expect::Refuse { cut: None },
        search: true,
        class: Class::Policy,
    }
}

fn legal(line: &[u8], meant: &str, refusal_ok: bool) -> HostileCase {
    HostileCase {
        line: line.to_vec(),
        expect: Expect::Legal {
            position: chess(meant),
            refusal_ok,
        },
        search: true,
        class: if refusal_ok {
            Class::Policy
        } else {
            Class::Protocol
        },
    }
}

fn survive(line: Vec<u8>) -> HostileCase {
    HostileCase {
        line,
        expect: Expect::Survive,
        search: false,
        class: Class::Protocol,
    }
}

/// The hostile classes (the malformed input fenguard rejects or repairs; `shared/cases` R01–R18
/// and the bare-engine crashes of its test corpus). `quick` keeps one or two lines a class.
pub fn hostile_classes(quick: bool) -> Vec<HostileClass> {
    let cut_at = |line: &str, before: &str| HostileCase {
        line: line.as_bytes().to_vec(),
        expect: Expect::Refuse {
            cut: Some(chess(before)),
        },
        search: true,
        class: Class::Policy,
    };
    let knights = "g1f3 g8f6 f3g1 f6g8 ".repeat(if quick { 1000 } else { 4000 });
    let long_moves = format!("position startpos moves {knights}e2e4");
    let mut classes = vec![
        HostileClass {
            name: "no-kings",
            cases: vec![
                refuse("position fen 8/8/8/8/8/8/8/8 w - - 0 1"),
                refuse("position fen 4k3/8/8/8/8/8/8/8 w - - 0 1"),
            ],
        },
        HostileClass {
            name: "two-kings",
            cases: vec![refuse("position fen 4k3/8/8/8/8/8/8/2K1K3 w - - 0 1")],
        },
        HostileClass {
            name: "pawns-on-back-rank",
            cases: vec![
                refuse("position fen 4k2P/8/8/8/8/8/8/4K3 w - - 0 1"),
                refuse("position fen 4k3/8/8/8/8/8/8/p3K3 b - - 0 1"),
            ],
        },
        HostileClass {
            name: "nine-square-rank",
            cases: vec![
                refuse("position fen 4k3/9/8/8/8/8/8/4K3 w - - 0 1"),
                refuse("position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPPP/RNBQKBNR w KQkq - 0 1"),
            ],
        },
        HostileClass {
            name: "bad-castling-rights",
            cases: vec![
                legal(
                    b"position fen 4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1",
                    "position fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1",
                    true,
                ),
                legal(
                    b"position fen 2k5/8/3K4/1p6/p7/P7/1B6/8 b KQkq - 0 1",
                    "position fen 2k5/8/3K4/1p6/p7/P7/1B6/8 b - - 0 1",
                    true,
                ),
            ],
        },
        HostileClass {
            name: "impossible-check",
            cases: vec![
                refuse("position fen 4k2R/8/8/8/8/8/8/4K3 w - - 0 1"),
                refuse("position fen 5k1r/2q3p1/p3p2p/1B3p1Q/n4P2/6P1/bbP2N1P/1K1RR3 b - - 0 1"),
            ],
        },
        HostileClass {
            name: "en-passant-nonsense",
            cases: vec![
                legal(
                    b"position fen rnbqkb1r/ppp3pp/3p1n2/3P4/8/2P5/PP3PPP/RNBQKB1R w KQkq e6 0 1",
                    "position fen rnbqkb1r/ppp3pp/3p1n2/3P4/8/2P5/PP3PPP/RNBQKB1R w KQkq - 0 1",
                    true,
                ),
                legal(
                    b"position fen k7/8/8/3pP3/8/7n/5K2/8 w - d6 0 1",
                    "position fen k7/8/8/3pP3/8/7n/5K2/8 w - - 0 1",
                    true,
                ),
            ],
        },
        HostileClass {
            name: "illegal-move",
            cases: vec![
                cut_at("position startpos moves e2e5", "position startpos"),
                cut_at(
                    "position fen r4rk1/1R5p/3p1q2/p1pP4/P7/7P/6P1/1R1Q3K b - - 0 24 moves b8e8",
                    "position fen r4rk1/1R5p/3p1q2/p1pP4/P7/7P/6P1/1R1Q3K b - - 0 24",
                ),
            ],
        },
        HostileClass {
            name: "null-move",
            cases: vec![
                HostileCase {
                    line: b"position startpos moves 0000".to_vec(),
                    expect: Expect::NullMove {
                        applied: chess(
                            "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1",
                        ),
                        ignored: chess("position startpos"),
                    },
                    search: true,
                    class: Class::Policy,
                },
                HostileCase {
                    line: b"position startpos moves e2e4 0000".to_vec(),
                    expect: Expect::NullMove {
                        applied: chess(
                            "position fen rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1",
                        ),
                        ignored: chess("position startpos moves e2e4"),
                    },
                    search: true,
                    class: Class::Policy,
                },
            ],
        },
        HostileClass {
            name: "overlong-line",
            cases: vec![
                legal(long_moves.as_bytes(), &long_moves, false),
                survive(vec![b'x'; if quick { 100_000 } else { 1 << 20 }]),
            ],
        },
        HostileClass {
            name: "unknown-command",
            cases: vec![
                survive(b"xyzzy".to_vec()),
                legal(b"position startpos moves", "position startpos", false),
                survive(b"setoption name NoSuchOptionAtAll value 1".to_vec()),
                survive(b"position".to_vec()),
            ],
        },
        HostileClass {
            name: "whitespace",
            cases: vec![
                // Leading spaces: UCI allows white space between tokens, says nothing of
                // before the first.
                HostileCase {
                    class: Class::Policy,
                    ..legal(
                        b"  position startpos moves e2e4",
                        "position startpos moves e2e4",
                        false,
                    )
                },
                legal(
                    b"position\tstartpos\tmoves\te2e4",
                    "position startpos moves e2e4",
                    false,
                ),
                legal(
                    b"position startpos moves e2e4\r\n",
                    "position startpos moves e2e4",
                    false,
                ),
                legal(
                    b"position  startpos   moves  e2e4   ",
                    "position startpos moves e2e4",
                    false,
                ),
            ],
        },
    ];
    if quick {
        for class in &mut classes {
            class.cases.truncate(2);
        }
    }
    classes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_suite_position_is_valid() {
        assert_eq!(chess_suite(&CHESS_PERFT, false).len(), CHESS_PERFT.len());
        assert_eq!(
            chess_suite(&CHESS960_PERFT, true).len(),
            CHESS960_PERFT.len()
        );
        assert_eq!(variant_suite("crazyhouse").len(), 2);
        assert_eq!(variant_suite("capablanca").len(), 2);
        assert!(variant_suite("xiangqi").is_empty());
    }

    #[test]
    fn refused_lines_are_rejected_by_fenguard_and_meant_lines_are_valid() {
        for class in hostile_classes(false) {
            for case in &class.cases {
                let text = String::from_utf8_lossy(&case.line).into_owned();
                if matches!(case.expect, Expect::Refuse { .. }) {
                    assert!(
                        position_of(&Rules::Chess, &text, false).is_none(),
                        "{}: {text}",
                        class.name
                    );
                }
            }
        }
    }

    #[test]
    fn the_long_line_ends_after_e2e4() {
        let classes = hostile_classes(true);
        let long = &classes
            .iter()
            .find(|c| c.name == "overlong-line")
            .unwrap()
            .cases[0];
        assert!(long.line.len() > 20_000);
        let Expect::Legal { position, .. } = &long.expect else {
            panic!()
        };
        assert!(position.read(b"e7e5", Notation::Standard).is_ok());
    }
}
