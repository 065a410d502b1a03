//! `PositionMemo` (the continued `position` pipeline) gives exactly what the full pipeline
//! gives, line after line: games resent move by move, the same line again, lines that only
//! look like continuations, repairs, illegal moves, Chess960 translation and variants.

use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Position};

use crate::config::{OnInvalid, PositionsConfig};
use crate::session::chess960::Chess960State;
use crate::session::position::process;
use crate::session::position_memo::PositionMemo;
use crate::session::variant::Rules;
use crate::variant::Variant;

/// Feeds `lines` to one memo and to the full pipeline; every outcome must be equal. Returns
/// how many lines the memo continued.
fn same_outcomes(
    lines: &[String],
    config: &PositionsConfig,
    c960: &Chess960State,
    rules: &Rules,
) -> u64 {
    let mut memo = PositionMemo::default();
    for line in lines {
        let full = process(line.as_bytes(), config, c960, rules);
        let continued = memo.process(line.as_bytes(), config, c960, rules);
        assert_eq!(
            continued, full,
            "line {line:?} under {config:?} {c960:?} {rules:?}"
        );
    }
    memo.continued()
}

/// `position <start> moves m1 .. mn` for n = 0..=len, each with `\n`.
fn resent(start: &str, moves: &[&str]) -> Vec<String> {
    (0..=moves.len())
        .map(|n| {
            let mut line = format!("position {start}");
            if n > 0 {
                line.push_str(" moves ");
                line.push_str(&moves[..n].join(" "));
            }
            line.push('\n');
            line
        })
        .collect()
}

fn configs() -> Vec<PositionsConfig> {
    [OnInvalid::Repair, OnInvalid::Reject, OnInvalid::Forward]
        .into_iter()
        .flat_map(|on_invalid| {
            [true, false].map(|check_moves| PositionsConfig {
                on_invalid,
                check_moves,
                ..PositionsConfig::default()
            })
        })
        .collect()
}

const C960_STATES: [Chess960State; 3] = [
    Chess960State {
        engine_offers: true,
        gui: false,
        detected: false,
    },
    Chess960State {
        engine_offers: true,
        gui: true,
        detected: false,
    },
    Chess960State {
        engine_offers: true,
        gui: false,
        detected: true,
    },
];

#[test]
fn memo_gives_what_the_full_pipeline_gives() {
    let italian = [
        "e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "e1g1", "f6e4", "f1e1", "d7d5",
    ];
    let mut lines = resent("startpos", &italian);
    // The same line again, another terminator, more spaces, a token that grows.
    lines.push("position startpos moves e2e4 e7e5 g1f3 b8c6\r\n".to_owned());
    lines.push("position startpos moves e2e4 e7e5 g1f3 b8c6\r\n".to_owned());
    lines.push("position startpos moves e2e4 e7e5 g1f3 b8c6  f1c4".to_owned());
    lines.push("position startpos moves e2e4 e7e5 g1f3 b8c6  f1c4 g8f6\n".to_owned());
    lines.push("position startpos moves e2e4 e7e5 g1f3 b8c6  f1c4 g8f6q\n".to_owned());
    lines.push("position startpos moves\n".to_owned());
    lines.push("position startpos moves e2e4\n".to_owned());
    // Illegal, null and unreadable moves after a continued prefix.
    lines.push("position startpos moves e2e4 e7e5 e1e3\n".to_owned());
    lines.push("position startpos moves e2e4 e7e5 0000\n".to_owned());
    lines.push("position startpos moves e2e4 e7e5 zz\n".to_owned());
    // A FEN with fields missing (repaired), then resent with moves; then with its fields.
    let fen = "r3k2r/1P6/8/8/8/8/6p1/R3K2R w KQkq";
    lines.extend(resent(
        &format!("fen {fen}"),
        &["b7b8", "g2g1q", "e1g1", "e8c8"],
    ));
    lines.extend(resent(
        &format!("fen {fen} - 0 1"),
        &["b7b8q", "g2g1", "e1h1"],
    ));
    lines.extend(resent(
        &format!("fen {fen} - 0 1"),
        &["e1c1", "e8g8", "b7a8n"],
    ));
    // A FEN the rules refuse, then a good one that starts the same way.
    lines.push("position fen 8/8/8/8/8/8/8/8 w - - 0 1 moves e2e4\n".to_owned());
    lines.push("position fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1\n".to_owned());
    lines.push("position fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1 moves e1e2\n".to_owned());
    lines.push("position fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1 moves e1e2 e8e7\n".to_owned());
    // A Chess960 start (needs Chess960: detect switches the engine on) resent with castles in
    // both notations.
    let c960 = "fen bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
    lines.extend(resent(c960, &["g1g2", "f6g4"]));
    lines.extend(resent(c960, &["g1h1", "f8e8"]));
    let mut continued = 0;
    for config in configs() {
        for c960 in C960_STATES {
            continued += same_outcomes(&lines, &config, &c960, &Rules::Chess);
        }
    }
    // Continued only with moves checked (3 of the 6 settings), 3 Chess960 states.
    assert!(continued >= 9 * 20, "{continued} lines continued");
}

#[test]
fn memo_follows_random_games_resent_move_by_move() {
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for game in 0..40 {
        let mut pos = Chess::default();
        let mut moves = Vec::new();
        for _ in 0..60 {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            let m = legal[(next() % legal.len() as u64) as usize];
            let mode = if game % 2 == 0 {
                CastlingMode::Standard
            } else {
                CastlingMode::Chess960
            };
            moves.push(UciMove::from_move(m, mode).to_string());
            pos.play_unchecked(m);
        }
        let words: Vec<&str> = moves.iter().map(String::as_str).collect();
        let mut lines = resent("startpos", &words);
        // Sometimes a line drops back (a take-back) or repeats.
        let back = (next() % 10) as usize;
        lines.push(lines[back].clone());
        lines.push(lines[lines.len() - 2].clone());
        let c960 = C960_STATES[game % 3];
        let config = &configs()[game % 6];
        let continued = same_outcomes(&lines, config, &c960, &Rules::Chess);
        if config.check_moves {
            assert!(
                continued >= moves.len() as u64 / 2,
                "game {game}: {continued}"
            );
        }
    }
}

#[test]
fn memo_gives_what_the_full_pipeline_gives_in_variants() {
    let cases: [(Variant, &str, &[&str]); 3] = [
        (
            Variant::Crazyhouse,
            "startpos",
            &[
                "e2e4", "d7d5", "e4d5", "d8d5", "b1c3", "d5a5", "P@e6", "f7e6",
            ],
        ),
        (
            Variant::Capablanca,
            "startpos",
            &[
                "e2e4", "e7e5", "i1j3", "i8j6", "h2h3", "h7h6", "g1h2", "g8h7", "h1i3", "h8i6",
                "f1i1", "f8i8",
            ],
        ),
        (
            Variant::ThreeCheck,
            "fen rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 3+3 0 2",
            &["f1c4", "b8c6", "c4f7", "e8f7", "d1h5", "g7g6"],
        ),
    ];
    for (variant, start, moves) in cases {
        let rules = Rules::for_variant(&variant);
        assert!(rules.checked(), "{variant:?}");
        let mut lines = resent(start, moves);
        lines.push(lines[2].clone());
        for config in configs() {
            for c960 in C960_STATES {
                let continued = same_outcomes(&lines, &config, &c960, &rules);
                // Every resent line but the ones after a castle the GUI's notation does not
                // read (`f1i1` is no castle in Chess960 notation) is continued.
                if config.check_moves {
                    assert!(
                        continued + 3 >= moves.len() as u64,
                        "{variant:?}: {continued}"
                    );
                }
            }
        }
    }
}
