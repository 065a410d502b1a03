//! Which GUI commands reach the engine (`[guard] commands`, SPEC section 12) and how `spin`
//! option values are read.
//!
//! - `Commands::Any` (the stdio proxy's default): a line that is not a UCI command is relayed
//!   byte for byte, as the bare engine would get it (never worse).
//! - `Commands::Uci` (`fenguard serve` and `provide` always): only the UCI commands (`uci`,
//!   `debug`, `isready`, `setoption`, `register`, `ucinewgame`, `position`, `go`, `stop`,
//!   `ponderhit`, `quit`) reach the engine; anything else (Stockfish's `bench`, `d`, `eval`,
//!   `export_net FILE`, `flip`) is answered `info string fenguard: command not allowed: WORD`,
//!   a blank line is dropped, and the session goes on. The lichess external-engine docs
//!   recommend exactly such a "safe UCI" filter.
//!
//! A `setoption` of an option the engine announced `type spin` (and, in a daemon session, of
//! the capped `Threads` and `Hash`) must carry a plain decimal integer (`-?[0-9]+`): engines
//! read spin values with `stof`/`atoi`, so `1e1`, `0x6` or `3abc` would mean 10, 6 and 3 to
//! Stockfish 15.1 while no cap could read them. Such a value is refused with
//! `info string fenguard: bad value for spin option NAME: ...` and not forwarded; a decimal one
//! goes out in canonical form (no leading zeros, no `+`), clamped by the guard when capped.
//!
//! ```
//! use bytes::Bytes;
//! use fenguard::session::{Action, Commands, Input, Session};
//! use std::time::Instant;
//!
//! let mut session = Session::new(false).with_commands(Commands::Uci);
//! let line = Bytes::from_static(b"export_net /tmp/x.nnue\n");
//! let out = session.handle(Input::GuiLine(line), Instant::now());
//! let refusal = Bytes::from_static(b"info string fenguard: command not allowed: export_net\n");
//! assert!(out.contains(&Action::ToGui(refusal)));
//! assert!(!out.iter().any(|a| matches!(a, Action::ToEngine(_))));
//! ```

use std::collections::HashSet;
use std::time::Instant;

use bytes::Bytes;
use serde::Deserialize;
use tracing::Level;

use super::owed::Entry;
use super::{Action, Session, first_token};
use crate::uci::{EngineOption, UciCommand, hidden_command, tokens};

/// `[guard] commands`: which GUI commands reach the engine.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Commands {
    /// Every line: the UCI commands judged and canonical, the rest byte for byte.
    #[default]
    Any,
    /// Only the UCI commands; anything else is refused with an `info string`.
    Uci,
}

/// Normalized option name: lowercase, whitespace runs as one space (engines compare option
/// names ASCII case-insensitively, word by word).
pub(super) fn normalized_name(name: &[u8]) -> String {
    let mut out = String::with_capacity(name.len());
    for t in tokens(name) {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(&String::from_utf8_lossy(t.text).to_ascii_lowercase());
    }
    out
}

/// The options the engine announced as `type spin`, by normalized name.
#[derive(Debug, Clone, Default)]
pub(super) struct SpinOptions(HashSet<String>);

impl SpinOptions {
    /// An engine `option` line: `type spin` is noted (any other type forgets the name).
    pub(super) fn note(&mut self, opt: &EngineOption<'_>) {
        let name = normalized_name(opt.name);
        if opt.kind == b"spin" {
            self.0.insert(name);
        } else {
            self.0.remove(&name);
        }
    }

    pub(super) fn contains(&self, name: &[u8]) -> bool {
        !self.0.is_empty() && self.0.contains(&normalized_name(name))
    }
}

/// A spin value read as the engine must read it: one token `-?[0-9]+` that fits an `i64`.
///
/// # Errors
/// What is wrong, for the GUI's `info string`: `expected a decimal integer` or `out of range`.
pub fn parse_spin_value(value: &[u8]) -> Result<i64, &'static str> {
    let mut toks = tokens(value);
    let (Some(token), None) = (toks.next(), toks.next()) else {
        return Err("expected a decimal integer");
    };
    let digits = token.text.strip_prefix(b"-").unwrap_or(token.text);
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return Err("expected a decimal integer");
    }
    std::str::from_utf8(token.text)
        .ok()
        .and_then(|t| t.parse::<i64>().ok())
        .ok_or("out of range")
}

impl Session {
    /// Which commands reach the engine (see [`Commands`]); a session with a guard
    /// ([`Session::with_guard`]) always has [`Commands::Uci`].
    pub fn with_commands(mut self, commands: Commands) -> Session {
        self.commands = commands;
        self
    }

    /// A GUI line that is not a UCI command: relayed byte for byte, or refused under
    /// [`Commands::Uci`]. A line in which some engine would still read a UCI command
    /// ([`hidden_command`]: `isready\0`, `x\rposition ...`) is not sent at all.
    pub(super) fn on_other_command(&mut self, out: &mut Vec<Action>, line: Bytes, now: Instant) {
        if let Some(command) = hidden_command(&line) {
            let why = "a NUL or a lone \\r before a UCI command in it";
            self.not_sent(out, &line, Some(command), why);
            return;
        }
        if self.commands == Commands::Any {
            self.forward_to_engine(out, line);
            return;
        }
        let Some(word) = tokens(&line).next() else {
            out.push(Action::Log(Level::DEBUG, "blank line dropped".to_owned()));
            return;
        };
        let word: String = String::from_utf8_lossy(word.text)
            .chars()
            .take(80)
            .collect();
        let kind = format!("command not allowed: {word}");
        self.log_refusal(out, now, &kind, format!("{kind} (not forwarded)"));
        self.say(out, &kind);
    }

    /// A GUI command that is not sent to the engine (`why`: over the line cap, a NUL byte):
    /// the GUI is told, and answered what it waits for (`bestmove 0000` for a `go`, `readyok`
    /// for an `isready`) in its turn.
    pub(super) fn not_sent(
        &mut self,
        out: &mut Vec<Action>,
        line: &[u8],
        command: Option<UciCommand>,
        why: &str,
    ) {
        let word = String::from_utf8_lossy(first_token(line));
        let word: String = word.chars().take(80).collect();
        let text = if word.is_empty() {
            format!("command not sent to the engine ({why}; no word in its first bytes)")
        } else {
            format!("command not sent to the engine ({why}): {word}")
        };
        out.push(Action::Log(Level::WARN, text.clone()));
        self.say(out, &text);
        match command {
            Some(UciCommand::Go) => {
                let shown = String::from_utf8_lossy(&line[..line.len().min(200)]);
                self.answer_unsent_go(shown.trim_end().to_owned());
            }
            Some(UciCommand::IsReady) => self.owed.entries.push_back(Entry::Readyok { own: true }),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spin_values_must_be_plain_decimals() {
        assert_eq!(parse_spin_value(b"64"), Ok(64));
        assert_eq!(parse_spin_value(b"-3"), Ok(-3));
        assert_eq!(parse_spin_value(b"007"), Ok(7));
        for bad in [
            &b"1e1"[..],
            b"0x6",
            b"3abc",
            b"+4",
            b"4.0",
            b"-",
            b"4 8",
            b"",
            b"\xd9\xa3",
        ] {
            assert_eq!(
                parse_spin_value(bad),
                Err("expected a decimal integer"),
                "{bad:?}"
            );
        }
        assert_eq!(
            parse_spin_value(b"99999999999999999999"),
            Err("out of range")
        );
    }
}
