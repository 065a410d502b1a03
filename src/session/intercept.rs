//! The GUI-side interception glue: `position` outcomes turned into actions and reports, and
//! `setoption` (fenguard's own options, `UCI_Chess960`).
//!
//! Lines to the GUI (each `info string fenguard: ...` on one line, `\n`-terminated; only when
//! `report_to_gui`, except answers to a `setoption name fenguard ...`):
//! - `info string fenguard: rejected position: <code>: <message>` per error that caused the
//!   rejection (under `repair`: the errors without a safe repair);
//! - `info string fenguard: repaired position: <code>: <message>` per repaired error;
//! - `info string fenguard: invalid position forwarded: <code>: <message>` per error under
//!   `forward`;
//! - `info string fenguard: warning: <code>: <message>` per warning (not after a rejection);
//! - `info string fenguard: error: <message>` for a bad `setoption name fenguard ...`.
//!
//! Notes are logged only.

use std::time::Instant;

use bytes::Bytes;
use tracing::Level;

use super::guard::Judged;
use super::offer::NotOffered;
use super::position::{ENABLE_CHESS960, Outcome};
use super::record::{Event, PositionRecord, Verdict};
use super::{Action, Session};
use crate::config::OnInvalid;
use crate::fen::{Code, Diagnostic, Severity};
use crate::uci::{SetOption, map_canonical_offset, parse_setoption, splice};

/// The errors a rejection names: under `repair`, those without a safe repair (all when every
/// error has one, e.g. a repair that failed); otherwise all.
fn reject_reasons(diags: &[Diagnostic], mode: OnInvalid) -> Vec<&Diagnostic> {
    let errors = diags.iter().filter(|d| d.is_error());
    let unfixable: Vec<_> = errors.clone().filter(|d| d.fix.is_none()).collect();
    if mode == OnInvalid::Repair && !unfixable.is_empty() {
        unfixable
    } else {
        errors.collect()
    }
}

/// A record judged on the canonical line, told the GUI's `original` line: `raw` becomes it and
/// every span is mapped into it.
pub(super) fn restore_raw(record: &mut PositionRecord, original: &[u8]) {
    let (body, _) = super::position::split_terminator(original);
    record.raw = super::position::lossy(body);
    for d in &mut record.diagnostics {
        if let Some(span) = &mut d.span {
            span.start = map_canonical_offset(original, span.start);
            span.end = map_canonical_offset(original, span.end).max(span.start);
        }
    }
}

impl Session {
    /// A GUI `position` line in canonical form (`line`; `original` as the GUI sent it, when
    /// that differs):
    /// checked, then forwarded (canonical or as given) or rejected. The record keeps the
    /// GUI's line as `raw`, its diagnostics' spans pointing into it.
    pub(super) fn on_position(
        &mut self,
        out: &mut Vec<Action>,
        line: Bytes,
        original: Option<&[u8]>,
    ) {
        if !self.rules.checked() {
            self.on_unchecked_position(out, line, original);
            return;
        }
        let mut outcome =
            self.position_memo
                .process(&line, &self.settings.positions, &self.c960, &self.rules);
        if let Some(original) = original {
            restore_raw(&mut outcome.record, original);
        }
        if outcome.enable_chess960 {
            self.enable_chess960(out, &outcome);
        }
        self.report_position(out, &outcome);
        let Outcome {
            record,
            sent,
            searched,
            ..
        } = outcome;
        let verdict = record.verdict;
        if let Some(sent) = sent {
            let sent = Bytes::from(sent);
            let valid = matches!(verdict, Verdict::Valid | Verdict::Repaired);
            self.restart.note_position(&sent, valid);
            self.forward_to_engine(out, sent);
        }
        self.rejected = verdict == Verdict::Rejected;
        if !self.rejected {
            self.current = searched;
        }
        self.log_position(out, record);
    }

    /// Writes the `position` record `record` (when positions are logged) as the one later
    /// `search` records refer to.
    pub(super) fn log_position(&mut self, out: &mut Vec<Action>, record: PositionRecord) {
        self.position_seq = None;
        if self.settings.log_positions {
            let action = self.record(Event::Position(Box::new(record)));
            self.position_seq = Some(self.seq);
            out.push(action);
        }
    }

    /// Detect mode: switches the engine to Chess960 before the position is sent.
    fn enable_chess960(&mut self, out: &mut Vec<Action>, outcome: &Outcome) {
        self.c960.detected = true;
        let fen = outcome.start_fen.clone().unwrap_or_default();
        out.push(Action::Log(
            Level::INFO,
            format!("position needs Chess960 ({fen}): sending `{ENABLE_CHESS960}` to the engine"),
        ));
        let mut line = ENABLE_CHESS960.as_bytes().to_vec();
        line.push(b'\n');
        let line = Bytes::from(line);
        self.restart.note_setoption(b"UCI_Chess960", &line);
        self.forward_to_engine(out, line);
        let event = Event::Chess960Enabled {
            sent: ENABLE_CHESS960.to_owned(),
            fen,
        };
        out.push(self.record(event));
    }

    fn report_position(&self, out: &mut Vec<Action>, outcome: &Outcome) {
        let record = &outcome.record;
        let diags = &record.diagnostics;
        let (label, level, shown): (&str, Level, Vec<&Diagnostic>) = match record.verdict {
            Verdict::Valid | Verdict::Unchecked => ("", Level::INFO, Vec::new()),
            Verdict::Repaired => (
                "repaired position",
                Level::INFO,
                diags.iter().filter(|d| d.is_error()).collect(),
            ),
            Verdict::Rejected => (
                "rejected position",
                Level::WARN,
                reject_reasons(diags, self.settings.positions.on_invalid),
            ),
            Verdict::ForwardedInvalid => (
                "invalid position forwarded",
                Level::WARN,
                diags.iter().filter(|d| d.is_error()).collect(),
            ),
        };
        for d in shown {
            let text = format!("{label}: {}: {}", d.code, d.message);
            let raw = record.raw.escape_debug();
            out.push(Action::Log(level, format!("{text} (in \"{raw}\")")));
            self.report(out, text);
        }
        for d in diags.iter().filter(|d| !d.is_error()) {
            let text = format!("{}: {}: {}", d.severity, d.code, d.message);
            out.push(Action::Log(Level::DEBUG, format!("position {text}")));
            if d.severity == Severity::Warning && record.verdict != Verdict::Rejected {
                self.report(out, text);
            }
        }
    }

    /// A GUI `setoption` (canonical), read once: judged by the guard ([`super::guard`]), then
    /// fenguard's own options are applied and not forwarded; a `UCI_Chess960` value is noted
    /// and forwarded; anything else is forwarded.
    pub(super) fn on_setoption(&mut self, out: &mut Vec<Action>, line: Bytes, now: Instant) {
        let Some(line) = self.adapt_setoption(out, line) else {
            return;
        };
        let Some(opt) = parse_setoption(&line) else {
            self.unreadable_setoption(out, &line, now);
            return;
        };
        match self.judge_setoption(out, &line, &opt, now) {
            Judged::Refused => {}
            Judged::Unchanged => {
                self.timers.slow_pending = true;
                self.apply_setoption(out, &line, &opt, now);
            }
            Judged::Edited(edited) => {
                self.timers.slow_pending = true;
                if let Some(opt) = parse_setoption(&edited) {
                    self.apply_setoption(out, &edited, &opt, now);
                }
            }
        }
    }

    /// A judged `setoption` (`line`, read as `opt`): applied, noted and forwarded (a variant
    /// the engine does not offer changes no rules, and in a daemon session is not forwarded).
    fn apply_setoption(
        &mut self,
        out: &mut Vec<Action>,
        line: &Bytes,
        opt: &SetOption<'_>,
        now: Instant,
    ) {
        match self.settings.apply(opt) {
            Ok(Some(done)) => {
                out.push(Action::Log(Level::INFO, done));
                return;
            }
            Err(message) => {
                out.push(Action::Log(Level::WARN, message.clone()));
                self.say(out, &format!("error: {message}"));
                return;
            }
            Ok(None) => {}
        }
        let mut sent = line.clone();
        if let Some(rules) = super::variant::selected_by(opt, &self.rules) {
            match self.offer.offers(opt) {
                Ok(value) => {
                    self.select_rules(out, rules);
                    // The engine gets the value fenguard acts on, as the engine spells it.
                    if let Some(span) = opt.value_span.clone()
                        && line[span.clone()] != *value.as_bytes()
                    {
                        let edit = [(span, value.into_bytes())];
                        sent = Bytes::from(splice(line, &edit).into_owned());
                    }
                }
                Err(why) => {
                    self.variant_not_offered(out, opt, &rules, why, now);
                    // Unknown: the engine may play it, fenguard could not judge it.
                    if self.guard.is_some() || why == NotOffered::Unknown {
                        return;
                    }
                }
            }
        }
        if opt.name_is("UCI_Chess960") {
            match (opt.check_value(), opt.value_span.clone()) {
                (Some(value), Some(span)) => {
                    self.c960.on_gui_setoption(value);
                    // Engines compare check values exactly (Stockfish 15.1 ignores `True`):
                    // the engine gets the value fenguard acts on, in the UCI spec's spelling.
                    let word: &[u8] = if value { b"true" } else { b"false" };
                    if line[span.clone()] != *word {
                        sent = Bytes::from(splice(line, &[(span, word.to_vec())]).into_owned());
                    }
                }
                _ => out.push(Action::Log(
                    Level::WARN,
                    "setoption UCI_Chess960 without a true/false value: notation unchanged"
                        .to_owned(),
                )),
            }
        }
        self.restart.note_setoption(opt.name, &sent);
        self.restart.suspects.on_setoption(opt.name);
        self.restart.search_suspects.on_setoption(opt.name);
        self.forward_to_engine(out, sent);
    }

    /// The first piece of a `position` line over the line cap: not sent, not interpreted;
    /// rejected with `line-too-long` (until a valid `position`, `go` gets `bestmove 0000`).
    pub(super) fn reject_overlong_position(&mut self, first: &[u8]) -> Vec<Action> {
        let mut out = Vec::new();
        let message = format!(
            "position command longer than {} bytes; not sent to the engine",
            first.len()
        );
        out.push(Action::Log(
            Level::WARN,
            format!("rejected position: line-too-long: {message}"),
        ));
        self.report(
            &mut out,
            format!("rejected position: line-too-long: {message}"),
        );
        self.rejected = true;
        let shown = &first[..first.len().min(200)];
        let mut record = PositionRecord::unread(
            format!("{}...", String::from_utf8_lossy(shown)),
            Verdict::Rejected,
            self.c960.engine_on(),
            self.rules.record_name(),
        );
        record
            .diagnostics
            .push(Diagnostic::error(Code::LineTooLong, None, message));
        self.log_position(&mut out, record);
        out
    }

    /// Sends `info string fenguard: <text>` to the GUI when `report_to_gui` is on.
    pub(super) fn report(&self, out: &mut Vec<Action>, text: String) {
        if self.settings.positions.report_to_gui {
            self.say(out, &text);
        }
    }

    /// Sends `info string fenguard: <text>` to the GUI as one clean line: line breaks and
    /// tabs in `text` become spaces, other control characters (NUL, ESC, C1 ...) are escaped
    /// as `\u{..}`, so a GUI never receives raw control bytes (`text` is UTF-8 already: input
    /// bytes reach messages lossily decoded).
    pub(super) fn say(&self, out: &mut Vec<Action>, text: &str) {
        let mut line = String::with_capacity(text.len() + 24);
        line.push_str("info string fenguard: ");
        for c in text.chars() {
            match c {
                '\n' | '\r' | '\t' => line.push(' '),
                c if c.is_control() => line.extend(c.escape_unicode()),
                c => line.push(c),
            }
        }
        line.push('\n');
        self.forward_to_gui(out, Bytes::from(line));
    }
}
