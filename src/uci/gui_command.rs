//! The UCI commands a GUI sends (UCI 2006, "GUI to engine") and the canonical form fenguard
//! forwards them in (SPEC section 12).
//!
//! A command fenguard understands is judged on its tokens ([`super::tokens`]) and forwarded
//! as exactly those tokens, single-spaced and `\n`-ended, so that what the engine reads is what
//! fenguard judged, whatever whitespace (`\v`, `\f`, `\r`, runs of tabs) the GUI's line held.
//! The commands without arguments (`uci`, `isready`, `ucinewgame`, `stop`, `ponderhit`,
//! `quit`) go out as the bare word: engines that compare whole lines (Ethereal's
//! `strEquals(str, "isready")`) then read them too, and nothing after the word reaches an
//! engine.
//!
//! NUL: a C++ engine (`std::getline` + `>>`: Stockfish, Fairy-Stockfish) reads it as a token
//! byte, a C engine (`fgets` + `strcmp`: Ethereal) as the end of the line. The two read the
//! same line only when it holds no NUL, so the session sends no UCI command whose canonical
//! form holds one ([`holds_nul`]): a `position` with a NUL is invalid anyway (its FEN or move
//! is diagnosed at the byte), any other is answered `info string` and not sent.
//!
//! ```
//! use fenguard::uci::{UciCommand, canonical_line};
//!
//! let line = b"\x0bsetoption\tname  Hash value 64\r\n";
//! let cmd = UciCommand::from_word(fenguard::uci::command_word(line)).unwrap();
//! assert_eq!(cmd, UciCommand::SetOption);
//! assert_eq!(canonical_line(line, cmd).unwrap(), b"setoption name Hash value 64\n");
//! assert_eq!(canonical_line(b"isready\n", UciCommand::IsReady), None); // already canonical
//! assert_eq!(canonical_line(b"isready now\n", UciCommand::IsReady).unwrap(), b"isready\n");
//! ```

use super::{is_uci_space, tokens};

/// A command of the UCI protocol sent by the GUI (the first token of its line, compared byte
/// for byte as engines do: `Position` is not `position`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UciCommand {
    /// `uci`.
    Uci,
    /// `debug [on | off]`.
    Debug,
    /// `isready`.
    IsReady,
    /// `setoption name <id> [value <x>]`.
    SetOption,
    /// `register later | name <x> code <y>`.
    Register,
    /// `ucinewgame`.
    UciNewGame,
    /// `position [fen <fenstring> | startpos] moves <move1> ...`.
    Position,
    /// `go` with its sub-commands.
    Go,
    /// `stop`.
    Stop,
    /// `ponderhit`.
    PonderHit,
    /// `quit`.
    Quit,
}

impl UciCommand {
    /// Every UCI command, in the order of the UCI description.
    pub const ALL: [UciCommand; 11] = [
        UciCommand::Uci,
        UciCommand::Debug,
        UciCommand::IsReady,
        UciCommand::SetOption,
        UciCommand::Register,
        UciCommand::UciNewGame,
        UciCommand::Position,
        UciCommand::Go,
        UciCommand::Stop,
        UciCommand::PonderHit,
        UciCommand::Quit,
    ];

    /// The command for a line's first token, `None` for anything else (an engine's own
    /// command such as Stockfish's `bench`, `d`, `export_net`, or a blank line).
    pub fn from_word(word: &[u8]) -> Option<UciCommand> {
        Some(match word {
            b"uci" => UciCommand::Uci,
            b"debug" => UciCommand::Debug,
            b"isready" => UciCommand::IsReady,
            b"setoption" => UciCommand::SetOption,
            b"register" => UciCommand::Register,
            b"ucinewgame" => UciCommand::UciNewGame,
            b"position" => UciCommand::Position,
            b"go" => UciCommand::Go,
            b"stop" => UciCommand::Stop,
            b"ponderhit" => UciCommand::PonderHit,
            b"quit" => UciCommand::Quit,
            _ => return None,
        })
    }

    /// The command word.
    pub const fn word(self) -> &'static str {
        match self {
            UciCommand::Uci => "uci",
            UciCommand::Debug => "debug",
            UciCommand::IsReady => "isready",
            UciCommand::SetOption => "setoption",
            UciCommand::Register => "register",
            UciCommand::UciNewGame => "ucinewgame",
            UciCommand::Position => "position",
            UciCommand::Go => "go",
            UciCommand::Stop => "stop",
            UciCommand::PonderHit => "ponderhit",
            UciCommand::Quit => "quit",
        }
    }

    /// Whether the command takes arguments (its canonical form keeps the tokens after the
    /// word); `uci`, `isready`, `ucinewgame`, `stop`, `ponderhit` and `quit` take none.
    pub const fn takes_arguments(self) -> bool {
        matches!(
            self,
            UciCommand::Debug
                | UciCommand::SetOption
                | UciCommand::Register
                | UciCommand::Position
                | UciCommand::Go
        )
    }
}

/// Whether `line` is already in canonical form for `cmd`: tokens separated by single spaces,
/// no leading or trailing whitespace, one `\n` at the end, no NUL (and only the word for a
/// command without arguments).
pub fn is_canonical(line: &[u8], cmd: UciCommand) -> bool {
    let Some(body) = line.strip_suffix(b"\n") else {
        return false;
    };
    if !cmd.takes_arguments() {
        return body == cmd.word().as_bytes();
    }
    let (Some(&first), Some(&last)) = (body.first(), body.last()) else {
        return false;
    };
    if first == b' ' || last == b' ' {
        return false;
    }
    // Two passes without early exit, so that they run over many bytes at a time (the relay's
    // hot path: every `position` and `go`): no UCI space but the space, no two spaces in a row.
    let other_space = body
        .iter()
        .fold(false, |found, &b| found | (is_uci_space(b) & (b != b' ')));
    let double_space = body
        .iter()
        .zip(&body[1..])
        .fold(false, |found, (&a, &b)| found | ((a == b' ') & (b == b' ')));
    !(other_space | double_space)
}

/// The canonical form of a line whose first token is `cmd` (see the module docs), or `None`
/// when `line` is canonical already (the common case: no copy).
pub fn canonical_line(line: &[u8], cmd: UciCommand) -> Option<Vec<u8>> {
    if is_canonical(line, cmd) {
        return None;
    }
    if !cmd.takes_arguments() {
        let mut out = cmd.word().as_bytes().to_vec();
        out.push(b'\n');
        return Some(out);
    }
    let mut out = Vec::with_capacity(line.len() + 1);
    for t in tokens(line) {
        if !out.is_empty() {
            out.push(b' ');
        }
        out.extend_from_slice(t.text);
    }
    out.push(b'\n');
    Some(out)
}

/// What the first piece of a line longer than the line cap may be, read as the engine will
/// read the whole line: `Some(cmd)` when its first token is a UCI command (or, cut at the
/// piece's end, spells one so far); `None` inside `Some` when the piece holds no token yet, or
/// a token cut at its end that may still grow into a command word (`positio` + `n fen ...` in
/// the next piece): fenguard cannot tell, so such a line must not reach the engine either.
/// `None` (the outer one): the line is surely no UCI command.
///
/// ```
/// use fenguard::uci::{UciCommand, overlong_command};
/// assert_eq!(overlong_command(b"go depth 5 searchmoves"), Some(Some(UciCommand::Go)));
/// assert_eq!(overlong_command(b"      "), Some(None)); // whitespace only, so far
/// assert_eq!(overlong_command(b"   positio"), Some(None)); // may become `position`
/// assert_eq!(overlong_command(b"pppppppppppppppp"), None); // no command starts so
/// assert_eq!(overlong_command(b"bench 16"), None);
/// ```
pub fn overlong_command(piece: &[u8]) -> Option<Option<UciCommand>> {
    let Some(first) = tokens(piece).next() else {
        return Some(None);
    };
    let command = UciCommand::from_word(first.text);
    if first.span.end < piece.len() {
        return command.map(Some);
    }
    // Cut at the piece's end: it may still grow.
    let grows = UciCommand::ALL
        .iter()
        .any(|c| c.word().as_bytes().starts_with(first.text));
    (command.is_some() || grows).then_some(command)
}

/// The UCI command some engine would still read in a line whose first token is no UCI
/// command, so that the line must not be relayed unjudged:
/// - its first token is a command word up to a NUL (`isready\0`): a C engine (`fgets` +
///   `strcmp`) ends the line at the NUL;
/// - a part after a `\r` inside the line (not its final `\r\n`) starts with a command word
///   (`x\rposition fen 8/8/8/8/8/8/8/8 w - - 0 1`): an engine reading with universal newlines
///   (Python's text-mode `sys.stdin`, `input()`) ends a line at a lone `\r`.
///
/// ```
/// use fenguard::uci::{UciCommand, hidden_command};
/// assert_eq!(hidden_command(b"isready\0\n"), Some(UciCommand::IsReady));
/// assert_eq!(hidden_command(b"x\rposition startpos\n"), Some(UciCommand::Position));
/// assert_eq!(hidden_command(b"flip\r\n"), None);
/// assert_eq!(hidden_command(b"info \xff\r\n"), None);
/// ```
pub fn hidden_command(line: &[u8]) -> Option<UciCommand> {
    let body = line.strip_suffix(b"\n").unwrap_or(line);
    let body = body.strip_suffix(b"\r").unwrap_or(body);
    body.split(|&b| b == b'\r').find_map(|part| {
        let word = tokens(part).next()?.text;
        let word = word.split(|&b| b == 0).next().unwrap_or_default();
        UciCommand::from_word(word)
    })
}

/// Whether a canonical line holds a NUL byte (see the module docs).
pub fn holds_nul(canonical: &[u8]) -> bool {
    canonical.contains(&0)
}

/// Maps a byte offset in [`canonical_line`]`(original, ..)` back to the offset of the same byte
/// in `original` (a diagnostic's span, computed on the canonical line, shown on the GUI's).
/// An offset inside or at the end of a token maps into that token; one past the last token
/// maps to the end of the last token (or of `original`'s readable part, when it has none).
pub fn map_canonical_offset(original: &[u8], offset: usize) -> usize {
    let mut canonical_start = 0;
    let mut last_end = 0;
    for t in tokens(original) {
        let len = t.span.len();
        if offset <= canonical_start + len {
            return t.span.start + offset.saturating_sub(canonical_start);
        }
        canonical_start += len + 1;
        last_end = t.span.end;
    }
    last_end
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_command_word_reads_back() {
        for cmd in UciCommand::ALL {
            assert_eq!(UciCommand::from_word(cmd.word().as_bytes()), Some(cmd));
        }
        assert_eq!(UciCommand::from_word(b"Position"), None);
        assert_eq!(UciCommand::from_word(b"export_net"), None);
        assert_eq!(UciCommand::from_word(b""), None);
    }

    #[test]
    fn canonical_lines_are_left_alone() {
        assert!(is_canonical(b"go depth 5\n", UciCommand::Go));
        assert!(is_canonical(b"quit\n", UciCommand::Quit));
        assert!(!is_canonical(b"go depth 5\r\n", UciCommand::Go));
        assert!(!is_canonical(b"go  depth 5\n", UciCommand::Go));
        assert!(!is_canonical(b" go depth 5\n", UciCommand::Go));
        assert!(!is_canonical(b"go depth 5 \n", UciCommand::Go));
        assert!(!is_canonical(b"go depth\x0b5\n", UciCommand::Go));
        assert!(is_canonical(b"go depth 5\x00x\n", UciCommand::Go));
        assert!(!is_canonical(b"go depth 5", UciCommand::Go));
        assert!(!is_canonical(b"quit now\n", UciCommand::Quit));
        assert!(!is_canonical(b"\n", UciCommand::Go));
        assert!(!is_canonical(b"go\tdepth 5\n", UciCommand::Go));
        assert!(!is_canonical(b"go depth 5\r\n", UciCommand::Go));
        assert!(is_canonical(b"go\n", UciCommand::Go));
    }

    #[test]
    fn every_c_space_byte_is_folded_into_one_space() {
        for sep in [b' ', b'\t', b'\n', 0x0b, 0x0c, b'\r'] {
            let mut line = vec![sep];
            line.extend_from_slice(b"go");
            line.extend([sep, sep]);
            line.extend_from_slice(b"depth");
            line.push(sep);
            line.extend_from_slice(b"5");
            line.extend([sep, b'\n']);
            assert_eq!(
                canonical_line(&line, UciCommand::Go).unwrap(),
                b"go depth 5\n",
                "{sep:#04x}"
            );
        }
    }

    #[test]
    fn a_nul_stays_in_its_token() {
        let line = canonical_line(b"go depth 5\x00 searchmoves\x0be2e4\n", UciCommand::Go);
        assert_eq!(
            line.as_deref(),
            Some(&b"go depth 5\x00 searchmoves e2e4\n"[..])
        );
        assert!(holds_nul(&line.unwrap()));
    }

    #[test]
    fn offsets_map_back_to_the_original_line() {
        let original = b"\x0bposition\t\tfen  8/8 w\r\n";
        let canonical = canonical_line(original, UciCommand::Position).unwrap();
        assert_eq!(canonical, b"position fen 8/8 w\n");
        // `fen` starts at 9 in the canonical line, at 11 in the original.
        assert_eq!(map_canonical_offset(original, 9), 11);
        assert_eq!(map_canonical_offset(original, 12), 14); // end of `fen`
        assert_eq!(map_canonical_offset(original, 13), 16); // start of `8/8`
        assert_eq!(map_canonical_offset(original, 18), 21); // end of `w`
        assert_eq!(map_canonical_offset(original, 40), 21);
    }
}
