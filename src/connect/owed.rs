//! What the GUI still waits for from the engine behind `fenguard connect`, so that a lost
//! connection can answer it: `uciok` (after an `id name` when none came) for a `uci`,
//! `readyok` for each `isready`, `bestmove 0000` for each search.
//!
//! ```text
//! let mut owed = Owed::default();
//! owed.on_gui_line(b"uci\n");
//! owed.on_server_line(b"id name Stockfish 15.1\n");
//! owed.on_gui_line(b"isready\n");
//! assert_eq!(owed.answers(), "uciok\nreadyok\n");
//! ```

use crate::session::first_token;

/// The GUI's open requests; fed every line both ways.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(super) struct Owed {
    /// A `uci` without its `uciok`.
    uciok: bool,
    /// An `id name` came after that `uci`.
    named: bool,
    /// `isready`s without their `readyok`.
    readyoks: usize,
    /// Searches (`go`) without their `bestmove`.
    bestmoves: usize,
}

/// The name given with an owed `uciok`.
const NAME: &str = "id name fenguard connect (connection lost)";

impl Owed {
    /// A line the GUI sent.
    pub(super) fn on_gui_line(&mut self, line: &[u8]) {
        match first_token(line) {
            b"uci" => {
                self.uciok = true;
                self.named = false;
            }
            b"isready" => self.readyoks += 1,
            b"go" => self.bestmoves += 1,
            _ => {}
        }
    }

    /// A line the server sent (to the GUI).
    pub(super) fn on_server_line(&mut self, line: &[u8]) {
        match first_token(line) {
            b"uciok" => self.uciok = false,
            b"id" => {
                let mut words = line
                    .split(u8::is_ascii_whitespace)
                    .filter(|w| !w.is_empty());
                if words.nth(1) == Some(b"name") {
                    self.named = true;
                }
            }
            b"readyok" => self.readyoks = self.readyoks.saturating_sub(1),
            b"bestmove" => self.bestmoves = self.bestmoves.saturating_sub(1),
            _ => {}
        }
    }

    /// The answers the GUI is owed, in the order an engine would give them: the handshake's
    /// end, then the `readyok`s, then a `bestmove 0000` for each open search.
    pub(super) fn answers(&self) -> String {
        let mut out = String::new();
        if self.uciok {
            if !self.named {
                out.push_str(NAME);
                out.push('\n');
            }
            out.push_str("uciok\n");
        }
        out.push_str(&"readyok\n".repeat(self.readyoks));
        out.push_str(&"bestmove 0000\n".repeat(self.bestmoves));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn owed(gui: &[&[u8]], server: &[&[u8]]) -> String {
        let mut owed = Owed::default();
        for line in gui {
            owed.on_gui_line(line);
        }
        for line in server {
            owed.on_server_line(line);
        }
        owed.answers()
    }

    #[test]
    fn nothing_is_owed_after_a_full_handshake_and_search() {
        let gui: &[&[u8]] = &[b"uci\n", b"isready\n", b"go depth 1\n"];
        let server: &[&[u8]] = &[b"id name X\n", b"uciok\n", b"readyok\n", b"bestmove e2e4\n"];
        assert_eq!(owed(gui, server), "");
    }

    #[test]
    fn a_uci_without_any_answer_gets_a_name_and_uciok() {
        assert_eq!(
            owed(&[b"uci\n"], &[]),
            "id name fenguard connect (connection lost)\nuciok\n"
        );
    }

    #[test]
    fn a_uci_whose_name_came_gets_only_uciok() {
        assert_eq!(
            owed(
                &[b"uci\n", b"isready\n"],
                &[b"id  name Stockfish\n", b"option name Hash\n"]
            ),
            "uciok\nreadyok\n"
        );
    }

    #[test]
    fn each_isready_and_each_search_is_answered_once() {
        let gui: &[&[u8]] = &[b"isready\n", b"go infinite\n", b"isready\n", b"stop\n"];
        assert_eq!(owed(gui, &[b"readyok\n"]), "readyok\nbestmove 0000\n");
    }

    #[test]
    fn id_author_is_not_a_name() {
        assert_eq!(
            owed(&[b"uci\n"], &[b"id author someone\n"]),
            "id name fenguard connect (connection lost)\nuciok\n"
        );
    }
}
