//! Replays python-chess 1.11.2 random games in seven 8x8 variants through `Position8`.
//!
//! `variant8_games.txt` holds, per ply, the FEN before, the move in both castling notations and
//! the FEN after (generated with `chess.variant` boards, `chess960=True`, seed 20261201,
//! castles and drops preferred). Each FEN analyzes as valid and writes back unchanged; each
//! move reads in both notations to the same move and writes back in each; playing it gives
//! python-chess's FEN, except a pawn drop's halfmove clock: 0 here and in Fairy-Stockfish,
//! counted on in python-chess (a documented difference).

use fenguard::fen::{CastlingStyle, EpMode, Options};
use fenguard::uci::Notation;
use fenguard::variant::Variant;
use fenguard::variant::eight::analyze;

const GAMES: &str = include_str!("../variant8_games.txt");

#[test]
fn python_chess_games_replay_move_by_move() {
    let mut plies = 0;
    let mut drops = 0;
    let mut castles = 0;
    for line in GAMES.lines().filter(|l| !l.starts_with('#')) {
        let cols: Vec<&str> = line.split('\t').collect();
        let [variant, before, uci960, ucistd, after] = cols[..] else {
            panic!("bad fixture line: {line}");
        };
        let variant = Variant::from_uci_name(variant);
        let analysis = analyze(&variant, before.as_bytes(), &Options::default());
        let mut pos = analysis
            .position()
            .unwrap_or_else(|| panic!("{before}: {:?}", analysis.diagnostics()))
            .clone();
        assert_eq!(pos.fen(CastlingStyle::XFen, EpMode::Legal), before);
        let mv = pos
            .read_move(uci960.as_bytes(), Notation::Chess960)
            .unwrap_or_else(|e| panic!("{before}: {uci960}: {e:?}"))
            .mv;
        let standard = pos
            .read_move(ucistd.as_bytes(), Notation::Standard)
            .unwrap_or_else(|e| panic!("{before}: {ucistd}: {e:?}"));
        assert_eq!(standard.mv, mv, "{before}: {ucistd}");
        assert_eq!(pos.write_move(mv, Notation::Chess960).0.to_string(), uci960);
        assert_eq!(pos.write_move(mv, Notation::Standard).0.to_string(), ucistd);
        assert!(
            pos.legal_moves(Notation::Chess960)
                .contains(&uci960.to_owned())
        );
        pos.play(mv);
        let ours = pos.fen(CastlingStyle::XFen, EpMode::Legal);
        if uci960.starts_with("P@") {
            // A pawn drop resets the halfmove clock in shakmaty and Fairy-Stockfish; python-chess
            // counts it on (a documented difference).
            let (ours_head, ours_clocks) = ours
                .rsplit_once(' ')
                .and_then(|(h, f)| Some((h.rsplit_once(' ')?, f)))
                .expect("fen");
            let (theirs_head, theirs_clocks) = after
                .rsplit_once(' ')
                .and_then(|(h, f)| Some((h.rsplit_once(' ')?, f)))
                .expect("fen");
            assert_eq!(
                (ours_head.0, ours_clocks),
                (theirs_head.0, theirs_clocks),
                "{before} {uci960}"
            );
            assert_eq!(ours_head.1, "0", "{before} {uci960}");
        } else {
            assert_eq!(ours, after, "{before} {uci960}");
        }
        plies += 1;
        drops += usize::from(uci960.contains('@'));
        castles += usize::from(uci960 != ucistd);
    }
    assert_eq!((plies, drops, castles), (925, 15, 2));
}
