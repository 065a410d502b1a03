//! The engine's output ending inside a line: an engine killed while writing `bestmove e2e4`
//! leaves `bestmove e2` without a line end. The shell hands such a fragment over as a line
//! without terminator, and only at the end of the engine's output.
//!
//! Rule: a fragment is never relayed nor interpreted; it is logged (a warning, shortened to
//! 200 characters) and transcribed. It is not the engine's `bestmove` (the move may be cut
//! short: `e7e8` of `e7e8q`, or its `ponder` lost), not its `readyok` or `uciok`: what the
//! engine still owed is answered by fenguard when its exit is reported (`bestmove 0000`,
//! `readyok`). An `info` fragment is dropped too: its last number or move may be cut short,
//! and relaying it with a line end added would hand the GUI a line the engine never wrote.
//! So the GUI only ever receives whole lines, each as the engine or fenguard wrote it.

use bytes::Bytes;
use tracing::Level;

use super::{Action, Direction, Session};

/// Characters of a fragment shown in the log.
const SHOWN: usize = 200;

impl Session {
    /// An engine line without terminator: logged and transcribed, not relayed.
    pub(super) fn engine_fragment(&self, line: &Bytes) -> Vec<Action> {
        let mut out = Vec::with_capacity(1 + usize::from(self.transcript));
        self.transcribe(&mut out, Direction::FromEngine, line);
        let text = String::from_utf8_lossy(line);
        let mut shown: String = text.chars().take(SHOWN).collect();
        if shown.len() < text.len() {
            shown.push('…');
        }
        out.push(Action::Log(
            Level::WARN,
            format!("engine output ended inside a line: `{shown}` (not relayed)"),
        ));
        out
    }
}
