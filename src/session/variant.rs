//! Which game rules the session applies (SPEC section 10): set by the GUI's `setoption name
//! UCI_Variant value V`, or by a cutechess-style check option such as `UCI_CapaRandom` /
//! `UCI_Giveaway` set `true`.
//!
//! ```text
//! setoption name UCI_Variant value chess       -> Rules::Chess (checked, as always)
//! setoption name UCI_Variant value crazyhouse  -> Rules::Unchecked("crazyhouse")
//! setoption name UCI_CapaRandom value true     -> Rules::Unchecked("caparandom")
//! ```
//!
//! This is the seam the variants plug into: today only chess (and Chess960) is modelled, so
//! every other variant is [`Rules::Unchecked`], for which the session is transparent (SPEC 6,
//! "Never worse than the bare engine"): `position` and `go` lines are forwarded unchanged, the
//! engine's lines relayed unjudged (no `bestmove` check, no castling rewrite), with one
//! `info string` and one `variant-not-checked` note per variant set, and records naming the
//! variant. The 8x8 variants of shakmaty and the 10x8 boards (pure modules under
//! `src/variant/`) will each become a rules value here, asked the same questions as chess.

use bytes::Bytes;
use tracing::Level;

use super::record::{DiagnosticRecord, Moves, PositionRecord, Verdict};
use super::{Action, Session};
use crate::uci::SetOption;
use crate::variant::Variant;

/// The rules a session applies to positions and moves.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Rules {
    /// Chess and Chess960: positions parsed, validated, repaired; moves checked.
    #[default]
    Chess,
    /// A variant fenguard has no rules for (its lowercase `UCI_Variant` name): everything
    /// passes unchanged.
    Unchecked(String),
}

impl Rules {
    /// The rules for `variant`: chess for [`Variant::Chess`], unchecked for every other one
    /// (none is modelled in the session yet).
    pub fn for_variant(variant: &Variant) -> Rules {
        match variant {
            Variant::Chess => Rules::Chess,
            other => Rules::Unchecked(other.uci_name().to_owned()),
        }
    }

    /// The variant name records carry (`None` for chess, SPEC 8).
    pub fn record_name(&self) -> Option<String> {
        match self {
            Rules::Chess => None,
            Rules::Unchecked(name) => Some(name.clone()),
        }
    }

    /// Whether positions and moves are checked.
    pub fn checked(&self) -> bool {
        *self == Rules::Chess
    }
}

/// The rules a GUI `setoption` selects, when it selects any: `UCI_Variant` with a value, or a
/// `UCI_<Variant>` check option naming a known variant (`UCI_CapaRandom`, `UCI_Giveaway`,
/// `UCI_Crazyhouse`; not `UCI_Chess960`), `true` selecting it and `false` going back to chess
/// (only when it was the selected one: `current`).
pub(super) fn selected_by(opt: &SetOption<'_>, current: &Rules) -> Option<Rules> {
    if opt.name_is("UCI_Variant") {
        let value = String::from_utf8_lossy(opt.value?.trim_ascii()).into_owned();
        return Some(Rules::for_variant(&Variant::from_uci_name(&value)));
    }
    let name = std::str::from_utf8(opt.name).ok()?;
    let (prefix, rest) = name.split_at_checked(4)?;
    if !prefix.eq_ignore_ascii_case("UCI_") || rest.eq_ignore_ascii_case("Chess960") {
        return None;
    }
    let variant = Variant::from_uci_name(rest);
    if matches!(variant, Variant::Chess | Variant::Other(_)) {
        return None;
    }
    let rules = Rules::for_variant(&variant);
    match opt.check_value()? {
        true => Some(rules),
        false if rules == *current => Some(Rules::Chess),
        false => None,
    }
}

impl Session {
    /// The GUI selected `rules` (its `setoption` is forwarded by the caller): one `info string`
    /// when an unchecked variant is newly selected.
    pub(super) fn select_rules(&mut self, out: &mut Vec<Action>, rules: Rules) {
        if rules == self.rules {
            return;
        }
        self.rules = rules;
        self.variant_noted = false;
        self.current = None;
        self.rejected = false;
        if let Rules::Unchecked(name) = &self.rules {
            let text = format!(
                "variant {name}: fenguard has no rules for it; positions and moves pass unchecked"
            );
            out.push(Action::Log(Level::INFO, text.clone()));
            self.say(out, &text);
        }
    }

    /// A `position` under an unchecked variant: forwarded unchanged and recorded (the first
    /// one after the variant was selected carries the `variant-not-checked` note).
    pub(super) fn on_unchecked_position(&mut self, out: &mut Vec<Action>, line: Bytes) {
        let (body, _) = super::position::split_terminator(&line);
        let raw = String::from_utf8_lossy(body).into_owned();
        let mut diagnostics = Vec::new();
        if !std::mem::replace(&mut self.variant_noted, true) {
            let name = self.rules.record_name().unwrap_or_default();
            diagnostics.push(DiagnosticRecord {
                code: "variant-not-checked",
                severity: "note",
                message: format!("variant {name}: fenguard has no rules for it; not checked"),
                span: None,
                fix: None,
            });
        }
        // Replayed after a restart like a checked position (the engine must search the GUI's).
        self.restart.note_position(&line, true);
        self.forward_to_engine(out, line);
        self.current = None;
        self.rejected = false;
        self.position_seq = None;
        if self.settings.log_positions {
            let record = PositionRecord {
                raw: raw.clone(),
                verdict: Verdict::Unchecked,
                diagnostics,
                fen_in: None,
                fen_out: None,
                moves_in: Moves::default(),
                moves_out: Moves::default(),
                chess960: self.c960.engine_on(),
                final_fen: None,
                sent: Some(raw),
                variant: self.rules.record_name(),
            };
            let action = self.record(super::record::Event::Position(Box::new(record)));
            self.position_seq = Some(self.seq);
            out.push(action);
        }
    }
}
