//! The GUI quits (its `quit`, or the end of its input): the engine gets `engine.quit_grace_ms`
//! to exit, then is killed ([`Action::StartQuitGrace`]; SPEC section 6).
//!
//! Never worse than the bare engine: an engine reads its input in order, so a GUI that sends
//! `uci` and `quit` at once (pychess's engine probe, a GUI closing during the handshake) gets
//! the engine's whole `uci` answer and its `uciok` before the engine reads `quit`, however long
//! the engine takes to start (an engine loading a large network takes seconds). So while the
//! GUI still waits for `uciok`, the grace starts at the engine's `uciok`, not at `quit`; an
//! engine that never sends it is bounded by its `uciok` deadline
//! (`engine.startup_timeout_ms`), after which the grace starts.
//!
//! Where the end of the GUI's input means the GUI is gone (the daemon's closed connection:
//! [`Session::with_gone_at_eof`]), nobody reads a `uciok` any more: the grace starts at once,
//! also one put off by an earlier `quit`, so a client that sends `uci` and leaves holds no
//! engine (nor a session slot) longer than the grace.

use tracing::Level;

use super::{Action, Session};

impl Session {
    /// The GUI quit: the grace starts now, or at the engine's `uciok` when the GUI waits for
    /// one. A second `quit` changes nothing.
    pub(super) fn start_quitting(&mut self, out: &mut Vec<Action>) {
        if self.quitting {
            return;
        }
        self.quitting = true;
        if self.gui_awaits_uciok {
            self.grace_after_uciok = true;
            out.push(Action::Log(
                Level::DEBUG,
                "GUI quit while waiting for the engine's uciok: the quit grace starts at it"
                    .to_owned(),
            ));
        } else {
            out.push(Action::StartQuitGrace);
        }
    }

    /// The end of the GUI's input: as `quit`, or, where it means the GUI is gone
    /// ([`Session::with_gone_at_eof`]), the grace starts now.
    pub(super) fn quit_at_eof(&mut self, out: &mut Vec<Action>) {
        if !self.gone_at_eof {
            self.start_quitting(out);
        } else if !self.quitting || self.grace_after_uciok {
            self.quitting = true;
            self.grace_after_uciok = false;
            out.push(Action::StartQuitGrace);
        }
    }

    /// The end of the GUI's input means the GUI is gone (a daemon's connection): no `uciok`
    /// is waited for after it (see the module's text). The stdio proxy's GUI may still read
    /// after closing its output (`printf 'uci\n' | fenguard -- ENGINE`).
    pub fn with_gone_at_eof(mut self) -> Session {
        self.gone_at_eof = true;
        self
    }

    /// The engine's `uciok` was relayed (`timed_out`: or its deadline passed): the grace put
    /// off by [`Session::start_quitting`] starts, once the GUI waits for no more `uciok`.
    pub(super) fn quit_grace_due(&mut self, out: &mut Vec<Action>, timed_out: bool) {
        if self.grace_after_uciok && (timed_out || !self.gui_awaits_uciok) {
            self.grace_after_uciok = false;
            out.push(Action::StartQuitGrace);
        }
    }
}
