//! Replays python-chess 1.11.2 random giveaway games (`chess.variant.GiveawayBoard`, castling
//! included) through `Position8` (issue 21).
//!
//! `giveaway_games.txt` (written by `scripts/giveaway_games.py`, seed 20261221) holds per ply
//! the FEN before, the move in both castling notations, the FEN after and python-chess's legal
//! moves. Each FEN analyzes as valid and writes back unchanged; fenguard's legal moves are
//! python-chess's; the move reads in both notations to the same move; playing it gives
//! python-chess's FEN.

use fenguard::fen::{CastlingStyle, EpMode, Options};
use fenguard::uci::Notation;
use fenguard::variant::Variant;
use fenguard::variant::eight::analyze;

const GAMES: &str = include_str!("../giveaway_games.txt");

#[test]
fn giveaway_games_match_python_chess_move_by_move() {
    let (mut plies, mut castles) = (0, 0);
    for line in GAMES.lines().filter(|l| !l.starts_with('#')) {
        let cols: Vec<&str> = line.split('\t').collect();
        let [before, uci960, ucistd, after, legal] = cols[..] else {
            panic!("bad fixture line: {line}");
        };
        let analysis = analyze(&Variant::Giveaway, before.as_bytes(), &Options::default());
        let mut pos = analysis
            .position()
            .unwrap_or_else(|| panic!("{before}: {:?}", analysis.diagnostics()))
            .clone();
        assert_eq!(pos.fen(CastlingStyle::XFen, EpMode::Legal), before);
        let mut ours = pos.legal_moves(Notation::Chess960);
        ours.sort();
        assert_eq!(ours.join(" "), legal, "{before}");
        let mv = pos
            .read_move(uci960.as_bytes(), Notation::Chess960)
            .unwrap_or_else(|e| panic!("{before}: {uci960}: {e:?}"))
            .mv;
        let standard = pos
            .read_move(ucistd.as_bytes(), Notation::Standard)
            .unwrap_or_else(|e| panic!("{before}: {ucistd}: {e:?}"));
        assert_eq!(standard.mv, mv, "{before}: {ucistd}");
        assert_eq!(pos.write_move(mv, Notation::Chess960).0.to_string(), uci960);
        pos.play(mv);
        assert_eq!(
            pos.fen(CastlingStyle::XFen, EpMode::Legal),
            after,
            "{before} {uci960}"
        );
        plies += 1;
        castles += usize::from(matches!(mv, shakmaty::Move::Castle { .. }));
    }
    assert_eq!((plies, castles), (2206, 49));
}
