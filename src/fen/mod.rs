//! Read FENs the way GUIs really write them, say exactly what is wrong and where, repair what
//! has one safe reading, and write them back in the dialect an engine wants. Pure: no I/O.
//!
//! Formats: FEN, X-FEN and Shredder-FEN (SPEC section 2); semantics follow python-chess
//! 1.11.2 (`Board(fen, chess960=True)`, `is_valid()`, `fen()` / `shredder_fen()`).
//!
//! ```
//! use fenguard::fen::{analyze, CastlingStyle, EpMode, Options};
//!
//! let analysis = analyze(b"4k3/8/8/8/8/8/8/4K2R w KQ - 0 1", &Options::default());
//! assert!(!analysis.is_valid());
//! assert_eq!(analysis.diagnostics()[0].code.as_str(), "castling-without-rook");
//!
//! let repaired = analysis.repair().expect("dropping the right repairs it");
//! assert_eq!(repaired.fen(CastlingStyle::XFen, EpMode::Legal), "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
//! ```

mod analysis;
mod castling;
mod diagnostic;
mod epd;
pub(crate) mod fields;
mod geometry;
mod needs_variant;
mod parse;
mod placement;
pub(crate) mod sink;
mod text;
mod validate;
mod write;

pub use analysis::{Analysis, Options, Repaired, analyze, valid_position};
pub use castling::CastlingStyle;
pub(crate) use castling::{CastlingField, resolve as resolve_castling};
pub use diagnostic::{Code, Diagnostic, Severity};
pub use geometry::Geometry;
pub use needs_variant::needs_variant;
pub use text::escape_controls;
pub use write::{EpMode, FenDisplay, UnknownMode, write_fen};

/// Whether `position` has a castling right that standard chess cannot express (its king is
/// not on the e-file or its rook not on the a- or h-file), SPEC section 7.
pub fn position_needs_chess960(position: &shakmaty::Chess) -> bool {
    use shakmaty::Position;
    castling::needs_chess960(position.board(), position.castles().castling_rights())
}
