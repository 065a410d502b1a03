//! The daemon's option guard (SPEC section 11): which `setoption` a remote GUI may send, and
//! caps on `Threads` and `Hash`.
//!
//! ```
//! use bytes::Bytes;
//! use fenguard::session::{Action, Guard, Input, Session};
//! use std::time::Instant;
//!
//! let guard = Guard::new(&["Hash".to_owned()], Some(4), Some(256));
//! let mut session = Session::new(false).with_guard(guard);
//! let line = Bytes::from_static(b"setoption name EvalFile value /etc/shadow\n");
//! let out = session.handle(Input::GuiLine(line), Instant::now());
//! let refusal = Bytes::from_static(b"info string fenguard: option not allowed: EvalFile\n");
//! assert!(out.contains(&Action::ToGui(refusal)));
//! assert!(!out.iter().any(|a| matches!(a, Action::ToEngine(_))));
//! ```
//!
//! Rules, for a session with a guard (the stdio proxy has none):
//! - `setoption name fenguard NAME ...` (fenguard's own options, which set the checks and the
//!   log) is the operator's: it passes only when `NAME` is listed in `[serve] client_options`
//!   ([`Guard::with_client_options`]; default none: an allowlist, so an option added later is
//!   refused too), else it is answered `info string fenguard: option not allowed: fenguard
//!   NAME` and the configured `[positions]` and `log.positions` hold.
//! - Another option passes when its name matches the allowlist (ASCII case-insensitive,
//!   whitespace runs ignored; an entry ending in `*` matches names starting with the rest),
//!   the engine did not announce it `type string`, and its name does not contain `path` or
//!   `file` (`UCI_ShredderbasesPath`, `Debug Log File`). Anything else is answered
//!   `info string fenguard: option not allowed: NAME`, never forwarded; the session goes on.
//! - `Threads` above `max_threads` / `Hash` above `max_hash_mb` is sent as the cap, with
//!   `info string fenguard: Threads clamped to N (server limit)`.
//! - The engine's `option name Threads|Hash ... max M` (and a `default` above the cap) is
//!   rewritten to the cap before the GUI sees it.

use std::collections::HashSet;
use std::time::Instant;

use bytes::Bytes;
use tracing::Level;

use super::commands::{normalized_name as normalize, parse_spin_value};
use super::{Action, Session};
use crate::uci::{EngineOption, SetOption, splice, tokens};

/// What the guard made of a GUI `setoption`.
#[derive(Debug)]
pub(super) enum Judged {
    /// Not sent (the GUI was told why).
    Refused,
    /// Sent as it is.
    Unchanged,
    /// Sent with its value edited: this line.
    Edited(Bytes),
}

/// The default allowlist of SPEC section 11.
pub const DEFAULT_ALLOW: [&str; 8] = [
    "Hash",
    "Threads",
    "MultiPV",
    "Ponder",
    "Move Overhead",
    "Skill Level",
    "Contempt",
    "UCI_*",
];

/// The option allowlist and caps of one daemon session.
#[derive(Debug, Clone, Default)]
pub struct Guard {
    /// Normalized allowlist entries (lowercase, single spaces); a trailing `*` is a prefix.
    allow: Vec<String>,
    max_threads: Option<u64>,
    max_hash_mb: Option<u64>,
    /// Normalized names the engine announced as `type string`.
    strings: HashSet<String>,
    /// fenguard's own options a client may set (their announced names, lowercase).
    client_options: Vec<String>,
}

impl Guard {
    /// A guard allowing the options named in `allow` (see the module docs), with caps on
    /// `Threads` (threads) and `Hash` (MiB); `None` is no cap.
    pub fn new(allow: &[String], max_threads: Option<u64>, max_hash_mb: Option<u64>) -> Guard {
        Guard {
            allow: allow.iter().map(|a| normalize(a.as_bytes())).collect(),
            max_threads,
            max_hash_mb,
            strings: HashSet::new(),
            client_options: Vec::new(),
        }
    }

    /// This guard lets a client set fenguard's own options named in `names` (`[serve]
    /// client_options`: names after `fenguard `, e.g. `OnBadPosition`, ASCII
    /// case-insensitive); every other `setoption name fenguard ...` is refused.
    pub fn with_client_options(mut self, names: &[String]) -> Guard {
        self.client_options = names.iter().map(|n| normalize(n.as_bytes())).collect();
        self
    }

    /// Whether a client may set fenguard's own option `name` (its name after `fenguard `, as
    /// announced; `None`: no such option, never allowed).
    pub fn allows_own(&self, name: Option<&str>) -> bool {
        name.is_some_and(|n| self.client_options.contains(&n.to_ascii_lowercase()))
    }

    /// Whether a GUI may set the option `name` (not one of fenguard's own).
    pub fn allows(&self, name: &[u8]) -> bool {
        let name = normalize(name);
        let listed = self
            .allow
            .iter()
            .any(|entry| match entry.strip_suffix('*') {
                Some(prefix) => name.starts_with(prefix),
                None => *entry == name,
            });
        listed && !self.strings.contains(&name) && !name.contains("path") && !name.contains("file")
    }

    /// The cap for option `name`, if it has one.
    pub(super) fn cap(&self, name: &[u8]) -> Option<(&'static str, u64)> {
        match normalize(name).as_str() {
            "threads" => self.max_threads.map(|c| ("Threads", c)),
            "hash" => self.max_hash_mb.map(|c| ("Hash", c)),
            _ => None,
        }
    }

    /// An engine `option` line: notes string options; rewrites a capped option's `max` (and a
    /// `default` above the cap) to the cap.
    fn engine_option(&mut self, line: &Bytes, opt: &EngineOption<'_>) -> Bytes {
        if opt.kind.eq_ignore_ascii_case(b"string") {
            self.strings.insert(normalize(opt.name));
        }
        let Some((_, cap)) = self.cap(opt.name) else {
            return line.clone();
        };
        let toks: Vec<_> = tokens(line).collect();
        let mut edits = Vec::new();
        for pair in toks.windows(2) {
            let number = std::str::from_utf8(pair[1].text)
                .ok()
                .and_then(|v| v.parse::<u64>().ok());
            if matches!(pair[0].text, b"max" | b"default") && number.is_some_and(|n| n > cap) {
                edits.push((pair[1].span.clone(), cap.to_string().into_bytes()));
            }
        }
        if edits.is_empty() {
            return line.clone();
        }
        Bytes::from(splice(line, &edits).into_owned())
    }
}

impl Session {
    /// This session guards options (a daemon session); only UCI commands then reach the
    /// engine ([`super::Commands::Uci`], SPEC section 12).
    pub fn with_guard(mut self, guard: Guard) -> Session {
        self.guard = Some(guard);
        self.commands = super::Commands::Uci;
        self
    }

    /// A GUI `setoption` (canonical `line`, read as `opt`) judged: refused (the GUI told
    /// why), passed unchanged, or passed with its value edited (a spin value in canonical
    /// decimal, clamped under the guard). Without a guard only spin values are checked.
    pub(super) fn judge_setoption(
        &mut self,
        out: &mut Vec<Action>,
        line: &Bytes,
        opt: &SetOption<'_>,
        now: Instant,
    ) -> Judged {
        if let Some(own) = super::options::own_option(opt.name) {
            if self.guard.as_ref().is_some_and(|g| !g.allows_own(own)) {
                let name = match own {
                    Some(own) => format!("fenguard {own}"),
                    None => String::from_utf8_lossy(opt.name).into_owned(),
                };
                self.refuse(out, &name, now);
                return Judged::Refused;
            }
            return Judged::Unchanged;
        }
        let cap = self.guard.as_ref().and_then(|g| g.cap(opt.name));
        if self.guard.as_ref().is_some_and(|g| !g.allows(opt.name)) {
            let name = String::from_utf8_lossy(opt.name).into_owned();
            self.refuse(out, &name, now);
            return Judged::Refused;
        }
        let (Some(value), Some(span)) = (opt.value, opt.value_span.clone()) else {
            return Judged::Unchanged;
        };
        // A spin value must be a decimal integer (an option the guard caps is read as a spin
        // even unannounced).
        if value.is_empty() || !(cap.is_some() || self.spins.contains(opt.name)) {
            return Judged::Unchanged;
        }
        let asked = match parse_spin_value(value) {
            Ok(n) => n,
            Err(why) => {
                let name: String = String::from_utf8_lossy(opt.name).chars().take(80).collect();
                let shown: String = String::from_utf8_lossy(value).chars().take(40).collect();
                let text =
                    format!("bad value for spin option {name}: `{shown}` ({why}); not forwarded");
                let kind = format!("bad value for spin option {name}");
                self.log_refusal(out, now, &kind, text.clone());
                self.say(out, &text);
                return Judged::Refused;
            }
        };
        let mut sent = asked.to_string();
        if let Some((name, cap)) = cap
            && asked > i64::try_from(cap).unwrap_or(i64::MAX)
        {
            let text = format!("{name} clamped to {cap} (server limit; asked {asked})");
            out.push(Action::Log(Level::INFO, text.clone()));
            self.say(out, &text);
            sent = cap.to_string();
        }
        if sent.as_bytes() == value {
            return Judged::Unchanged;
        }
        Judged::Edited(Bytes::from(
            splice(line, &[(span, sent.into_bytes())]).into_owned(),
        ))
    }

    /// A `setoption` fenguard cannot read as `setoption name <id> [value <x>]`: not sent, so
    /// no option reaches the engine unjudged (Stockfish skips the second token whatever it is:
    /// `setoption nam Threads value 1e1` sets 10 threads).
    pub(super) fn unreadable_setoption(
        &mut self,
        out: &mut Vec<Action>,
        line: &[u8],
        now: Instant,
    ) {
        let text = String::from_utf8_lossy(crate::uci::trim_uci(line)).into_owned();
        if self.guard.is_some() {
            self.refuse(out, &text, now);
        } else {
            let text: String = text.chars().take(120).collect();
            let text = format!(
                "bad setoption (expected `setoption name <id> [value <x>]`), not forwarded: {text}"
            );
            out.push(Action::Log(Level::WARN, text.clone()));
            self.say(out, &text);
        }
    }

    /// Refuses option `name`: the GUI is told each time, the log sums them (`refusals.rs`).
    fn refuse(&mut self, out: &mut Vec<Action>, name: &str, now: Instant) {
        let name: String = name.chars().take(80).collect();
        let kind = format!("option not allowed: {name}");
        self.log_refusal(out, now, &kind, format!("{kind} (not forwarded)"));
        self.say(out, &kind);
    }

    /// An engine `option` line (`line`, read as `opt`) under the guard (see [`Guard`]);
    /// unchanged without one.
    pub(super) fn guard_option(&mut self, line: &Bytes, opt: &EngineOption<'_>) -> Bytes {
        match &mut self.guard {
            Some(guard) => guard.engine_option(line, opt),
            None => line.clone(),
        }
    }
}
