//! The rules fenguard judges by are the rules the engine plays (SPEC section 12): an engine
//! model ([`EngineVariant`]) that announced some options and reads the `setoption` lines
//! fenguard forwards as Stockfish / Fairy-Stockfish read them, checked against the session's
//! rules after every GUI line ([`check_rules`]).
//!
//! Shared by `tests/props_session.rs` (beside `engine_reading.rs`, whose tokenizer it uses).

use bytes::Bytes;
use std::time::Instant;

use fenguard::rules::Rules;
use fenguard::session::Input as SessionInput;
use fenguard::session::{Action, Commands, Session};
use fenguard::variant::Variant;

use super::engine_reading::{session, stockfish_setoption, stockfish_tokens};

/// The variant an engine plays, from the lines it reads, modelled on Stockfish's option table
/// as Fairy-Stockfish uses it: an option it did not announce is `No such option`; names compare
/// ASCII case-insensitively; a combo value must be one of its `var`s in any case, but the
/// variant is then looked up as spelled (`Horde` leaves Fairy-Stockfish in chess), which this
/// model refuses to guess (it panics: fenguard must send the engine's own spelling); a check
/// value must be exactly `true` or `false`; a cutechess-style check option `UCI_<Variant>`
/// selects its variant when `true` and goes back to chess when `false` and it was selected.
#[derive(Debug, Clone)]
pub struct EngineVariant {
    /// `UCI_Variant`'s `var`s as the engine spells them; `None`: no such option.
    pub vars: Option<Vec<String>>,
    /// The `type check` options it announced, as spelled.
    pub checks: Vec<String>,
    /// The rules of the variant it plays.
    pub rules: Rules,
}

impl EngineVariant {
    /// An engine announcing `vars` and `checks`, playing chess.
    pub fn new(vars: Option<Vec<String>>, checks: Vec<String>) -> EngineVariant {
        EngineVariant {
            vars,
            checks,
            rules: Rules::Chess,
        }
    }

    /// Its `option` lines (without `\n`).
    pub fn option_lines(&self) -> Vec<String> {
        let mut lines: Vec<String> = self
            .checks
            .iter()
            .map(|c| format!("option name {c} type check default false"))
            .collect();
        if let Some(vars) = &self.vars {
            let mut line = "option name UCI_Variant type combo default chess".to_owned();
            for v in vars {
                line.push_str(" var ");
                line.push_str(v);
            }
            lines.push(line);
        }
        lines
    }

    /// The engine reads `line` (one line it was sent).
    ///
    /// # Panics
    /// When it gets a `var` of its combo in a spelling it cannot look up.
    pub fn read(&mut self, line: &[u8]) {
        let toks = stockfish_tokens(line);
        if toks.first().map(Vec::as_slice) != Some(b"setoption") {
            return;
        }
        let (name, value) = stockfish_setoption(&toks);
        let name = String::from_utf8_lossy(&name).into_owned();
        let value = String::from_utf8_lossy(&value).into_owned();
        if name.eq_ignore_ascii_case("UCI_Variant") {
            let Some(vars) = &self.vars else { return };
            if !vars.iter().any(|v| v.eq_ignore_ascii_case(&value)) {
                return;
            }
            assert!(
                vars.contains(&value),
                "the engine got `{value}`, which its variant table does not spell so: {line:?}"
            );
            self.rules = Rules::for_variant(&Variant::from_uci_name(&value));
            return;
        }
        if !self.checks.iter().any(|c| c.eq_ignore_ascii_case(&name)) {
            return;
        }
        let on = match value.as_str() {
            "true" => true,
            "false" => false,
            _ => return,
        };
        let Some(rest) = name
            .get(4..)
            .filter(|_| name[..4].eq_ignore_ascii_case("UCI_"))
        else {
            return;
        };
        let variant = Variant::from_uci_name(rest);
        if matches!(variant, Variant::Chess | Variant::Other(_))
            || rest.eq_ignore_ascii_case("Chess960")
        {
            return;
        }
        let rules = Rules::for_variant(&variant);
        if on {
            self.rules = rules;
        } else if self.rules == rules {
            self.rules = Rules::Chess;
        }
    }
}

/// Feeds `line` (a GUI line) to `s` and the lines it sends to `engine`; then checks that the
/// rules `s` judges by are the rules `engine` plays.
///
/// # Panics
/// When they differ (or [`EngineVariant::read`] panics).
pub fn check_rules(s: &mut Session, engine: &mut EngineVariant, line: &[u8]) {
    let actions = s.handle(
        SessionInput::GuiLine(Bytes::copy_from_slice(line)),
        Instant::now(),
    );
    for action in &actions {
        if let Action::ToEngine(sent) = action {
            engine.read(sent);
        }
    }
    assert_eq!(
        s.rules(),
        &engine.rules,
        "after {line:?} (engine {engine:?}) -> {actions:?}"
    );
}

/// A session (`guarded`: the daemon's) whose engine announced `engine`'s options, after `uci`
/// and, with `uciok`, the engine's `uciok` (without it the option list is never complete).
pub fn announced_session(guarded: bool, engine: &EngineVariant, uciok: bool) -> Session {
    let mut s = session(guarded, Commands::Any);
    let feed = |s: &mut Session, input: SessionInput| {
        s.handle(input, Instant::now());
    };
    feed(&mut s, SessionInput::GuiLine(Bytes::from_static(b"uci\n")));
    for line in engine.option_lines() {
        feed(
            &mut s,
            SessionInput::EngineLine(Bytes::from(format!("{line}\n"))),
        );
    }
    if uciok {
        feed(
            &mut s,
            SessionInput::EngineLine(Bytes::from_static(b"uciok\n")),
        );
    }
    s
}
