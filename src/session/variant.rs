//! Which game rules the session applies (SPEC section 10): set by the GUI's `setoption name
//! UCI_Variant value V`, or by a cutechess-style check option such as `UCI_CapaRandom` /
//! `UCI_Giveaway` set `true`.
//!
//! ```text
//! setoption name UCI_Variant value chess       -> Rules::Chess (checked, as always)
//! setoption name UCI_Variant value crazyhouse  -> Rules::Eight(Variant::Crazyhouse)
//! setoption name UCI_CapaRandom value true     -> Rules::Ten(Variant10::CapaRandom)
//! setoption name UCI_Variant value shogi       -> Rules::Unchecked("shogi")
//! ```
//!
//! Chess, the 8x8 variants of shakmaty and the 10x8 boards are modelled: the session checks
//! their positions and moves through one [`super::game::Game`], asked the same questions in
//! every variant (`game.rs`). Every other variant is [`Rules::Unchecked`], for which the
//! session is transparent (SPEC 6, "Never worse than the bare engine"): `position` and `go`
//! lines are forwarded unchanged, the engine's lines relayed unjudged (no `bestmove` check, no
//! castling rewrite), with one `info string` and one `variant-not-checked` note per variant
//! set. Records name the variant (all but chess).

use bytes::Bytes;
use tracing::Level;

use super::record::{PositionRecord, Verdict};
use super::{Action, Session};
use crate::fen::{Code, Diagnostic, Severity};
use crate::uci::SetOption;
use crate::variant::Variant;
use crate::variant::board10::Variant10;

/// The rules a session applies to positions and moves.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Rules {
    /// Chess and Chess960: positions parsed, validated, repaired; moves checked.
    #[default]
    Chess,
    /// An 8x8 variant of shakmaty (crazyhouse, atomic, kingofthehill, 3check, horde,
    /// racingkings, antichess, giveaway): checked like chess.
    Eight(Variant),
    /// A 10x8 variant (capablanca, caparandom, gothic, janus, embassy): checked like chess.
    Ten(Variant10),
    /// A variant fenguard has no rules for (its lowercase `UCI_Variant` name): everything
    /// passes unchanged.
    Unchecked(String),
}

impl Rules {
    /// The rules for `variant`: chess, an 8x8 variant, a 10x8 board, or unchecked.
    pub fn for_variant(variant: &Variant) -> Rules {
        if let Some(v10) = Variant10::from_variant(variant) {
            return Rules::Ten(v10);
        }
        match variant {
            Variant::Chess => Rules::Chess,
            v if v.is_8x8_variant() => Rules::Eight(v.clone()),
            other => Rules::Unchecked(other.uci_name().to_owned()),
        }
    }

    /// The variant name records carry (`None` for chess, SPEC 8).
    pub fn record_name(&self) -> Option<String> {
        match self {
            Rules::Chess => None,
            Rules::Eight(v) => Some(v.uci_name().to_owned()),
            Rules::Ten(v) => Some(v.variant().uci_name().to_owned()),
            Rules::Unchecked(name) => Some(name.clone()),
        }
    }

    /// Whether positions and moves are checked (every rules value but [`Rules::Unchecked`]).
    pub fn checked(&self) -> bool {
        !matches!(self, Rules::Unchecked(_))
    }
}

/// The rules a GUI `setoption` selects, when it selects any: `UCI_Variant` with a value, or a
/// `UCI_<Variant>` check option naming a known variant (`UCI_CapaRandom`, `UCI_Giveaway`,
/// `UCI_Crazyhouse`; not `UCI_Chess960`), `true` selecting it and `false` going back to chess
/// (only when it was the selected one: `current`).
pub(super) fn selected_by(opt: &SetOption<'_>, current: &Rules) -> Option<Rules> {
    if opt.name_is("UCI_Variant") {
        let value = String::from_utf8_lossy(crate::uci::trim_uci(opt.value?)).into_owned();
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
    pub(super) fn on_unchecked_position(
        &mut self,
        out: &mut Vec<Action>,
        line: Bytes,
        original: Option<&[u8]>,
    ) {
        let (body, _) = super::position::split_terminator(&line);
        let sent = String::from_utf8_lossy(body).into_owned();
        let raw = original.map_or_else(
            || sent.clone(),
            |o| String::from_utf8_lossy(super::position::split_terminator(o).0).into_owned(),
        );
        let mut diagnostics = Vec::new();
        if !std::mem::replace(&mut self.variant_noted, true) {
            let name = self.rules.record_name().unwrap_or_default();
            diagnostics.push(Diagnostic::new(
                Code::VariantNotChecked,
                Severity::Note,
                None,
                format!("variant {name}: fenguard has no rules for it; not checked"),
            ));
        }
        // Replayed after a restart like a checked position (the engine must search the GUI's).
        self.restart.note_position(&line, true);
        self.forward_to_engine(out, line);
        self.current = None;
        self.rejected = false;
        let mut record = PositionRecord::unread(
            raw,
            Verdict::Unchecked,
            self.c960.engine_on(),
            self.rules.record_name(),
        );
        record.diagnostics = diagnostics;
        record.sent = Some(sent);
        self.log_position(out, record);
    }
}
