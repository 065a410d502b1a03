//! Who speaks which castling notation (SPEC sections 3 and 7): the engine's offer of
//! `UCI_Chess960`, the GUI's `setoption name UCI_Chess960 value ...`, and fenguard's own switch
//! in `chess960 = "detect"` mode.
//!
//! The GUI's notation is its last `UCI_Chess960` value (standard until it sets one). The
//! engine is in Chess960 mode when it offered the option and either the GUI's (forwarded)
//! value is true or fenguard switched it on; a GUI `setoption` overrides fenguard's switch,
//! since it is forwarded to the engine.

use crate::uci::{EngineOption, Notation};

/// The Chess960 state of one session.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Chess960State {
    /// The engine announced `option name UCI_Chess960 ...` after the last `uci`.
    pub engine_offers: bool,
    /// The GUI's last `UCI_Chess960` value (false until it sends one).
    pub gui: bool,
    /// fenguard sent `setoption name UCI_Chess960 value true` itself (detect mode).
    pub detected: bool,
}

impl Chess960State {
    /// Whether the engine is in Chess960 mode.
    pub fn engine_on(&self) -> bool {
        self.engine_offers && (self.gui || self.detected)
    }

    /// The GUI's castling notation.
    pub fn gui_notation(&self) -> Notation {
        Notation::from_chess960(self.gui)
    }

    /// The engine's castling notation.
    pub fn engine_notation(&self) -> Notation {
        Notation::from_chess960(self.engine_on())
    }

    /// Whether castling moves must be translated between the two sides.
    pub fn notations_differ(&self) -> bool {
        self.gui != self.engine_on()
    }

    /// The GUI sent `uci`: the engine announces its options afresh.
    pub fn on_uci(&mut self) {
        self.engine_offers = false;
    }

    /// An engine `option` line; notes an offer of `UCI_Chess960` (name case-insensitive).
    pub fn on_engine_option(&mut self, option: &EngineOption<'_>) {
        if option.name_is("UCI_Chess960") {
            self.engine_offers = true;
        }
    }

    /// The GUI set `UCI_Chess960` to `value` (forwarded to the engine, so it replaces any
    /// switch fenguard made).
    pub fn on_gui_setoption(&mut self, value: bool) {
        self.gui = value;
        self.detected = false;
    }
}
