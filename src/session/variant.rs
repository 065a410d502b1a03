//! Which game rules the session applies (SPEC section 10): set by the GUI's `setoption name
//! UCI_Variant value V`, or by a cutechess-style check option such as `UCI_CapaRandom` /
//! `UCI_Giveaway` set `true`, when the engine offers it (`offer.rs`, SPEC 12: the engine
//! announced `UCI_Variant` with that `var`, or that check option). A selection the engine
//! does not offer changes nothing: the GUI gets `info string fenguard: variant V not offered
//! by the engine (...): positions are judged as chess` (the rules in force), and the line goes
//! on to the engine in the stdio proxy (which answers `No such option` itself) but not in a
//! daemon session, nor before the engine's first `uciok` (its options unknown, fenguard could
//! not judge what it would play). An offered value goes out as the engine spells it (its
//! `var`; `true` / `false` for a check option).
//!
//! ```text
//! setoption name UCI_Variant value chess       -> Rules::Chess (checked, as always)
//! setoption name UCI_Variant value crazyhouse  -> Rules::Eight(Variant::Crazyhouse)
//! setoption name UCI_CapaRandom value true     -> Rules::Ten(Variant10::CapaRandom)
//! setoption name UCI_Variant value shogi       -> Rules::Unchecked("shogi")
//! ```
//!
//! Chess, the 8x8 variants of shakmaty and the 10x8 boards are modelled: the session checks
//! their positions and moves through one [`crate::rules::Game`], asked the same questions in
//! every variant (the rules layer). Every other variant is [`Rules::Unchecked`], for which the
//! session is transparent (SPEC 6, "Never worse than the bare engine"): `position` and `go`
//! lines are forwarded unchanged, the engine's lines relayed unjudged (no `bestmove` check, no
//! castling rewrite), with one `info string` and one `variant-not-checked` note per variant
//! set. Records name the variant (all but chess).

use std::time::Instant;

use bytes::Bytes;
use tracing::Level;

use super::offer::NotOffered;
use super::record::{PositionRecord, Verdict};
use super::{Action, Session};
use crate::fen::{Code, Diagnostic, Severity};
pub use crate::rules::Rules;
use crate::uci::SetOption;
use crate::variant::Variant;

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
    /// The GUI's `opt` asked for `wanted`, which the engine does not offer (`why`): the rules
    /// stay, the GUI gets one `info string` (SPEC 10, 12). The caller forwards the line in
    /// the stdio proxy (the engine answers it itself) and not in a daemon session.
    pub(super) fn variant_not_offered(
        &mut self,
        out: &mut Vec<Action>,
        opt: &SetOption<'_>,
        wanted: &Rules,
        why: NotOffered,
        now: Instant,
    ) {
        let name: String = String::from_utf8_lossy(opt.name).chars().take(80).collect();
        let value: String =
            String::from_utf8_lossy(crate::uci::trim_uci(opt.value.unwrap_or_default()))
                .chars()
                .take(40)
                .collect();
        let reason = match why {
            NotOffered::Unknown => "its options are not known before its uciok".to_owned(),
            NotOffered::NoOption => format!("it announced no option {name}"),
            NotOffered::NoVar if value.is_empty() => format!("its {name} has no empty var"),
            NotOffered::NoVar => format!("its {name} has no var {value}"),
        };
        let wanted = match wanted.record_name() {
            Some(name) if !name.is_empty() => name,
            _ if value.is_empty() => "(no value)".to_owned(),
            _ => "chess".to_owned(),
        };
        let judged = self
            .rules
            .record_name()
            .unwrap_or_else(|| "chess".to_owned());
        let sent = if self.guard.is_some() || why == NotOffered::Unknown {
            "; not forwarded"
        } else {
            ""
        };
        let text = format!(
            "variant {wanted} not offered by the engine ({reason}): positions are judged as {judged}{sent}"
        );
        let kind = format!("variant not offered: {name}");
        self.log_refusal(out, now, &kind, text.clone());
        self.say(out, &text);
    }

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
