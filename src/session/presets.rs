//! The engine's options as the GUI sees them (SPEC section 15): `[engine.options]` presets
//! sent after the first engine's `uciok` (and, noted as options the GUI set, replayed after
//! every restart: `restart.rs`), `options_mode = "force"` (the GUI's `setoption` for a preset
//! is answered `info string fenguard: ...` and not forwarded), `hide_options` (not shown to
//! the GUI) and `rename_options` (`OLD` shown as `NEW`, the GUI's `setoption name NEW` sent as
//! `OLD`). A preset's `option` line shows the preset as its default, so a GUI that sends every
//! option's default does not undo it.
//!
//! Option names compare as UCI compares them: ASCII case-insensitively, whitespace runs
//! ignored.

use bytes::Bytes;
use tracing::Level;

use super::{Action, Session};
use crate::uci::{EngineOption, parse_option, parse_setoption, splice, tokens};

/// `name` with its tokens lower-cased and single-spaced.
pub(super) fn norm(name: &[u8]) -> String {
    let words: Vec<String> = tokens(name)
        .map(|t| String::from_utf8_lossy(t.text).to_ascii_lowercase())
        .collect();
    words.join(" ")
}

/// The range of `part` (a subslice of `line`) in `line`.
fn range_in(line: &[u8], part: &[u8]) -> std::ops::Range<usize> {
    let start = (part.as_ptr() as usize).saturating_sub(line.as_ptr() as usize);
    start..start + part.len()
}

impl Session {
    /// An engine `option` line on its way to the GUI: noted as offered; `None` when hidden;
    /// else renamed and given the preset as default.
    pub(super) fn adapt_engine_option(&mut self, line: Bytes) -> Option<Bytes> {
        let adapter = &mut self.adapter;
        let opt: EngineOption<'_> = parse_option(&line)?;
        let name = norm(opt.name);
        adapter.offered.insert(name.clone());
        if adapter.hide.iter().any(|h| norm(h.as_bytes()) == name) {
            return None;
        }
        let mut edits = Vec::new();
        if let Some((_, new)) = adapter
            .rename
            .iter()
            .find(|(old, _)| norm(old.as_bytes()) == name)
        {
            edits.push((range_in(&line, opt.name), new.as_bytes().to_vec()));
        }
        if let (Some(default), Some(value)) = (opt.default, adapter.presets.get(&name_of(&opt))) {
            edits.push((range_in(&line, default), value.as_bytes().to_vec()));
        }
        if edits.is_empty() {
            return Some(line.clone());
        }
        let edited = splice(&line, &edits).into_owned();
        Some(Bytes::from(edited))
    }

    /// After the first engine's `uciok`: the presets the engine offered go to it (and are
    /// replayed after a restart); the others are logged.
    pub(super) fn send_presets(&mut self, out: &mut Vec<Action>) {
        if std::mem::replace(&mut self.adapter.presets_sent, true) {
            return;
        }
        for (name, value) in self.adapter.presets.0.clone() {
            if !self.adapter.offered.contains(&norm(name.as_bytes())) {
                out.push(Action::Log(
                    Level::WARN,
                    format!("preset option `{name}` is not offered by the engine: not sent"),
                ));
                continue;
            }
            let line = match value.is_empty() {
                true => format!("setoption name {name}\n"),
                false => format!("setoption name {name} value {value}\n"),
            };
            let line = Bytes::from(line);
            out.push(Action::Log(
                Level::INFO,
                format!("preset option {name} = {value}"),
            ));
            self.restart.note_setoption(name.as_bytes(), &line);
            self.timers.slow_pending = true;
            self.forward_to_engine(out, line);
        }
    }

    /// A GUI `setoption` (canonical) before it is judged: a renamed option's name put back;
    /// `None` (answered, not forwarded) for a preset under `options_mode = "force"`.
    pub(super) fn adapt_setoption(&mut self, out: &mut Vec<Action>, line: Bytes) -> Option<Bytes> {
        let Some(opt) = parse_setoption(&line) else {
            return Some(line);
        };
        let name = norm(opt.name);
        let mut engine_name = None;
        if let Some((old, _)) = self
            .adapter
            .rename
            .iter()
            .find(|(_, new)| norm(new.as_bytes()) == name)
        {
            engine_name = Some(old.clone());
        }
        let lookup = engine_name.clone().unwrap_or_else(|| lossy(opt.name));
        if self.adapter.force
            && let Some(value) = self.adapter.presets.get(&lookup)
        {
            let text = format!(
                "option {} is set to {value} by fenguard's configuration (options_mode = force): not sent to the engine",
                lossy(opt.name)
            );
            out.push(Action::Log(Level::INFO, text.clone()));
            self.say(out, &text);
            return None;
        }
        let Some(old) = engine_name else {
            return Some(line);
        };
        let edited = splice(&line, &[(opt.name_span.clone(), old.into_bytes())]).into_owned();
        Some(Bytes::from(edited))
    }
}

/// The option's name as text (for the preset lookup, which compares case-insensitively).
fn name_of(opt: &EngineOption<'_>) -> String {
    lossy(opt.name)
}

fn lossy(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}
