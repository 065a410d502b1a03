//! The 10x8 board of the X-FEN definition (Capablanca family: `capablanca`, `caparandom`,
//! `gothic`, `janus`, `embassy`): X-FEN / Shredder-FEN reading with diagnostics in the board's
//! own terms, validation, a legal move generator, UCI moves in both castling notations, FEN
//! writing, perft. Pure: no I/O. Fairy-Stockfish (and its binding pyffish) is the oracle.
//!
//! The API the session uses, one type, [`Board10`]:
//! - [`Board10::from_fen`]`(&[u8], &Options) -> Analysis10`: diagnostics (the `fen` module's
//!   [`Diagnostic`](crate::fen::Diagnostic) and codes), the valid board, the repaired board;
//!   [`Board10::start`] for `startpos`.
//! - [`Board10::legal_moves`], [`Board10::parse_uci`]`(&str, Notation)`,
//!   [`Board10::write_uci`]`(Move10, Notation)`, [`Board10::is_castle`], [`Board10::play`].
//! - [`Board10::fen`]`(CastlingStyle, EpMode)`, [`Board10::needs_chess960`], [`Board10::perft`].
//!
//! Castling is Chess960-style in every variant (the king on its back rank, a rook on either
//! side; the king goes to the variant's target file, c/i in capablanca, gothic and caparandom,
//! b/h in embassy, b/i in janus, the rook lands next to it on the inner side). It is written
//! king-to-target outside Chess960 mode and king-takes-rook in Chess960 mode and in caparandom
//! ([`Notation::for_engine`]): `e1h1` is a castle in embassy.
//!
//! ```
//! use fenguard::fen::{CastlingStyle, EpMode};
//! use fenguard::variant::board10::{Board10, Notation, Options, Variant10};
//!
//! let fen = b"r3k4r/10/10/10/10/10/10/R3K4R w KQkq - 0 1";
//! let analysis = Board10::from_fen(fen, &Options::new(Variant10::Embassy));
//! let mut board = analysis.board().expect("valid").clone();
//! let castle = board.parse_uci("e1h1", Notation::KingToTarget).unwrap();
//! assert!(board.is_castle(castle));
//! assert_eq!(board.write_uci(castle, Notation::KingTakesRook), "e1j1");
//! board.play(castle);
//! assert_eq!(board.fen(CastlingStyle::XFen, EpMode::Legal), "r3k4r/10/10/10/10/10/10/R5RK2 b kq - 1 1");
//!
//! let bad = Board10::from_fen(b"rnabqkbcnr/ppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1",
//!                             &Options::new(Variant10::Capablanca));
//! assert_eq!(bad.diagnostics()[0].message, "rank 7 has 9 squares, expected 10");
//! ```

mod analysis;
mod castling;
mod movegen;
mod parse;
mod piece;
mod position;
mod square;
mod uci;
mod write;

pub use analysis::{Analysis10, Options};
pub use piece::{Piece10, Role10, Rules10, TABLE, Variant10};
pub use position::{Board10, Move10, MoveKind, Side};
pub use square::Square10;
pub use uci::{Notation, UciError10};
