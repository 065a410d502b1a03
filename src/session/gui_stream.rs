//! Keeps the GUI's output made of whole lines: while an engine line is only partly relayed
//! (an over-long line arriving in pieces), lines fenguard
//! writes itself in answer to the GUI (`bestmove 0000`, `info string fenguard: ...`) wait, and
//! follow as soon as the engine's line is complete. Without this, `bestmove 0000\n` could land
//! inside an engine line of several megabytes, and the GUI would read neither.

use super::{Action, Direction};

/// The state of the GUI's output stream.
#[derive(Debug, Default)]
pub(super) struct GuiStream {
    /// The last byte written to the GUI was not `\n`: an engine line is in progress.
    mid_line: bool,
    /// fenguard's own GUI writes (and their transcript entries) waiting for the line's end.
    deferred: Vec<Action>,
}

fn writes_to_gui(action: &Action) -> bool {
    matches!(
        action,
        Action::ToGui(_) | Action::Transcript(Direction::ToGui, _)
    )
}

impl GuiStream {
    /// After a GUI event: while an engine line is in progress, its GUI writes are held back.
    pub(super) fn hold_own_writes(&mut self, out: &mut Vec<Action>) {
        if self.mid_line && out.iter().any(writes_to_gui) {
            let (held, kept): (Vec<Action>, Vec<Action>) =
                std::mem::take(out).into_iter().partition(writes_to_gui);
            *out = kept;
            self.deferred.extend(held);
        }
    }

    /// After an engine event: notes whether the relayed line is complete, and once it is,
    /// appends the held writes.
    pub(super) fn after_engine_writes(&mut self, out: &mut Vec<Action>) {
        let last = out.iter().rev().find_map(|a| match a {
            Action::ToGui(bytes) => bytes.last().copied(),
            _ => None,
        });
        if let Some(byte) = last {
            self.mid_line = byte != b'\n';
        }
        if !self.mid_line {
            out.append(&mut self.deferred);
        }
    }

    /// The engine is gone: a `\n` ends its broken line, then the held writes go out.
    pub(super) fn flush_at_exit(&mut self) -> Vec<Action> {
        if self.deferred.is_empty() && !self.mid_line {
            return Vec::new();
        }
        self.mid_line = false;
        let mut out = vec![Action::ToGui(bytes::Bytes::from_static(b"\n"))];
        out.append(&mut self.deferred);
        out
    }
}
