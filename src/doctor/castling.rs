//! Castling played, not only parsed: the engine is made to castle (`go depth 1 searchmoves
//! CASTLE`) in positions where the castle is legal, and its `bestmove`, its `pv` and its
//! `go perft 1` divide must write it as the mode asks: king takes rook with `UCI_Chess960`
//! (inner rooks, king beside its rook, both colours, both wings), the king's two-square move
//! without it (standard chess).

use super::cases::position_of;
use super::driver::Ctx;
use super::judge::{bestmove_of, compare_divide, divide, parse_perft, pv_error};
use super::movegen::diff_text;
use super::report::{CheckResult, Status};
use crate::rules::{Game, GameRules, Rules};
use crate::uci::{MoveField, Notation, engine_move_sequences};

/// Chess960 castles: `(what, FEN, the castle king-takes-rook)`.
pub const CHESS960_CASTLES: [(&str, &str, &str); 5] = [
    (
        "white O-O-O, inner rook",
        "rr2k3/8/8/8/8/8/8/RR2K3 w Bb - 0 1",
        "e1b1",
    ),
    (
        "black O-O-O, inner rook",
        "rr2k3/8/8/8/8/8/8/RR2K3 b Bb - 0 1",
        "e8b8",
    ),
    (
        "white O-O, king beside its rook",
        "4k3/8/8/8/8/8/8/5KR1 w G - 0 1",
        "f1g1",
    ),
    (
        "black O-O, king beside its rook",
        "5kr1/8/8/8/8/8/8/4K3 b g - 0 1",
        "f8g8",
    ),
    (
        "black O-O-O, king beside its rook (the king stays)",
        "1rk5/8/8/8/8/8/8/1RK5 b Bb - 0 1",
        "c8b8",
    ),
];

/// Standard castles (`UCI_Chess960` off): the king's two-square move.
pub const STANDARD_CASTLES: [(&str, &str, &str); 4] = [
    ("white O-O", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1"),
    (
        "white O-O-O",
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
        "e1c1",
    ),
    ("black O-O", "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "e8g8"),
    (
        "black O-O-O",
        "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
        "e8c8",
    ),
];

/// The check `GROUP.castle-played` over `castles` in `notation` (the engine set up for it).
pub fn castle_played(
    ctx: &mut Ctx,
    group: &'static str,
    castles: &[(&str, &str, &str)],
    notation: Notation,
) -> CheckResult {
    ctx.step(&format!("{group}.castle-played"));
    let chess960 = notation == Notation::Chess960;
    let mut problems = Vec::new();
    let mut unseen = Vec::new();
    for (what, fen, castle) in castles {
        let line = format!("position fen {fen}");
        let Some(game) = position_of(&Rules::Chess, &line, chess960) else {
            continue;
        };
        let s = ctx.search(
            &line,
            &format!("go depth 1 searchmoves {castle}"),
            ctx.limits.search,
        );
        let Some(best) = s
            .bestmove
            .as_deref()
            .and_then(|b| bestmove_of(b.as_bytes()))
        else {
            let how = if s.ended {
                format!("the engine ended ({})", ctx.exit_text())
            } else {
                ctx.engine.send(b"stop");
                let _ = ctx
                    .engine
                    .read_until_word(std::time::Duration::from_secs(2), "bestmove");
                format!("no `bestmove` within {} s", ctx.limits.search.as_secs())
            };
            problems.push(format!("{what} (`{fen}`): {how}"));
            if s.ended {
                ctx.fresh(&chess960_setup(chess960));
            }
            continue;
        };
        let judged = judge_castle(&game, notation, castle, &best.0);
        match judged {
            Judged::Played => {}
            Judged::Wrong(e) => problems.push(format!("{what} (`{fen}`): {e}")),
            Judged::Other => unseen.push(format!("{what}: `bestmove {}`", best.0)),
        }
        for l in s.infos() {
            if let Some(first) = engine_move_sequences(&l.line)
                .into_iter()
                .find(|seq| seq.field == MoveField::Pv)
                .and_then(|seq| {
                    seq.moves
                        .first()
                        .map(|m| String::from_utf8_lossy(m.text).into_owned())
                })
                && let Judged::Wrong(e) = judge_castle(&game, notation, castle, &first)
            {
                problems.push(format!("{what}: pv {e}"));
                break;
            }
            if let Some(e) = pv_error(&l.line, &game, notation) {
                problems.push(format!("{what}: {e}"));
                break;
            }
        }
        if ctx.perft {
            ctx.engine.send(line.as_bytes());
            ctx.engine.send(b"go perft 1");
            let r = ctx
                .engine
                .read_until(ctx.limits.search, |l| l.starts_with(b"Nodes searched"));
            let lines: Vec<String> = r.lines.iter().map(|l| l.text()).collect();
            let theirs = parse_perft(&lines).divide;
            let ours = divide(&game, 1, notation);
            let diff = compare_divide(&game, notation, &ours, &theirs);
            if r.matched && !theirs.is_empty() && !diff.is_empty() {
                problems.push(format!(
                    "{what}: `go perft 1` divide: {}",
                    diff_text(&diff, notation)
                ));
            }
        }
    }
    let mode = if chess960 {
        "king takes rook"
    } else {
        "the king's two-square move"
    };
    let r = if !problems.is_empty() {
        problems.truncate(6);
        CheckResult::new(group, "castle-played", Status::Fail, problems.join("; "))
    } else if !unseen.is_empty() {
        CheckResult::new(
            group,
            "castle-played",
            Status::Warn,
            format!(
                "`searchmoves CASTLE` not followed, so the castle was not played: {}",
                unseen.join(", ")
            ),
        )
    } else {
        CheckResult::new(
            group,
            "castle-played",
            Status::Pass,
            format!(
                "{} castles played as {mode} (bestmove, pv{})",
                castles.len(),
                if ctx.perft { ", perft 1 divide" } else { "" }
            ),
        )
    };
    ctx.finish(r)
}

fn chess960_setup(on: bool) -> Vec<String> {
    if on {
        vec!["setoption name UCI_Chess960 value true".to_owned()]
    } else {
        Vec::new()
    }
}

/// What a move the engine wrote for the castle it was told to search is.
#[derive(Debug, PartialEq, Eq)]
enum Judged {
    /// The castle, written as the notation asks.
    Played,
    /// The castle in the other notation, or an illegal move: why.
    Wrong(String),
    /// Another legal move (`searchmoves` ignored).
    Other,
}

fn judge_castle(game: &Game, notation: Notation, castle: &str, written: &str) -> Judged {
    if written == castle {
        return Judged::Played;
    }
    let Ok(castle_move) = game.read(castle.as_bytes(), notation) else {
        return Judged::Other;
    };
    match game.read(written.as_bytes(), notation) {
        Ok(r) if r.mv == castle_move.mv => Judged::Wrong(format!(
            "the castle written `{written}`, not `{castle}` ({})",
            match notation {
                Notation::Chess960 => "with UCI_Chess960 a castle is king takes rook",
                Notation::Standard => "without UCI_Chess960 a castle is the king's two-square move",
            }
        )),
        Ok(_) => Judged::Other,
        Err(_) => Judged::Wrong(format!(
            "`{written}` for the castle `{castle}` is not a legal move"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_castle_is_legal_where_it_is_asked() {
        for (castles, notation) in [
            (&CHESS960_CASTLES[..], Notation::Chess960),
            (&STANDARD_CASTLES[..], Notation::Standard),
        ] {
            for (what, fen, castle) in castles {
                let line = format!("position fen {fen}");
                let game = position_of(&Rules::Chess, &line, notation == Notation::Chess960)
                    .unwrap_or_else(|| panic!("{what}: {fen}"));
                let r = game.read(castle.as_bytes(), notation).expect(what);
                assert_eq!(game.write(r.mv, notation).0.to_string(), *castle, "{what}");
            }
        }
    }

    #[test]
    fn a_king_to_target_castle_under_chess960_is_wrong_and_another_move_is_not_seen() {
        let line = format!("position fen {}", CHESS960_CASTLES[0].1);
        let game = position_of(&Rules::Chess, &line, true).unwrap();
        assert_eq!(
            judge_castle(&game, Notation::Chess960, "e1b1", "e1b1"),
            Judged::Played
        );
        assert!(matches!(
            judge_castle(&game, Notation::Chess960, "e1b1", "e1c1"),
            Judged::Wrong(_)
        ));
        assert_eq!(
            judge_castle(&game, Notation::Chess960, "e1b1", "e1d1"),
            Judged::Other
        );
        let line = format!("position fen {}", STANDARD_CASTLES[0].1);
        let game = position_of(&Rules::Chess, &line, false).unwrap();
        let Judged::Wrong(e) = judge_castle(&game, Notation::Standard, "e1g1", "e1h1") else {
            panic!()
        };
        assert!(e.contains("two-square"), "{e}");
    }
}
