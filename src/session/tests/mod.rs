//! Session behaviour, by plain calls, split by topic.

mod adapter;
mod basic;
mod chess960;
mod engine_end;
mod guard;
mod guard_reading;
mod handshake;
mod hostile;
mod inputs;
mod offer;
mod operator;
mod option_blame;
mod options;
mod order;
mod position;
mod position_memo;
mod quit;
mod reports;
mod restart;
mod search;
mod stalls;
mod variants;
mod variants_adapter;
mod variants_checked;

use crate::session::Input;
use bytes::Bytes;
use std::time::Instant;

use super::{Action, Event, PositionRecord, SearchRecord, Session, Settings};
use crate::config::PositionsConfig;

/// A session with the default settings changed by `change`.
pub(super) fn session_with(change: impl FnOnce(&mut PositionsConfig)) -> Session {
    let mut settings = Settings::default();
    change(&mut settings.positions);
    Session::with_settings(false, settings)
}

/// Sends `line` (a `\n` is appended) from the GUI.
pub(super) fn gui(s: &mut Session, line: &str) -> Vec<Action> {
    s.handle(
        Input::GuiLine(Bytes::from(format!("{line}\n"))),
        Instant::now(),
    )
}

/// Sends `line` (a `\n` is appended) from the engine.
pub(super) fn engine(s: &mut Session, line: &str) -> Vec<Action> {
    s.handle(
        Input::EngineLine(Bytes::from(format!("{line}\n"))),
        Instant::now(),
    )
}

/// The engine ends by `signal` (a crash), now.
pub(super) fn engine_signalled(s: &mut Session, signal: i32) -> Vec<Action> {
    s.handle(
        Input::EngineExited(super::EngineExit {
            signal: Some(signal),
            ..super::EngineExit::default()
        }),
        Instant::now(),
    )
}

fn lines(actions: &[Action], engine: bool) -> Vec<String> {
    actions
        .iter()
        .filter_map(|a| match (a, engine) {
            (Action::ToEngine(l), true) | (Action::ToGui(l), false) => {
                Some(String::from_utf8_lossy(l).into_owned())
            }
            _ => None,
        })
        .collect()
}

/// The lines written to the engine, terminators included.
pub(super) fn to_engine(actions: &[Action]) -> Vec<String> {
    lines(actions, true)
}

/// The lines written to the GUI, terminators included.
pub(super) fn to_gui(actions: &[Action]) -> Vec<String> {
    lines(actions, false)
}

/// The `position` record among `actions`; panics when there is not exactly one.
pub(super) fn position_record(actions: &[Action]) -> PositionRecord {
    let found: Vec<&PositionRecord> = actions
        .iter()
        .filter_map(|a| match a {
            Action::Record(r) => match &r.event {
                Event::Position(p) => Some(&**p),
                _ => None,
            },
            _ => None,
        })
        .collect();
    assert_eq!(found.len(), 1, "{actions:?}");
    found[0].clone()
}

/// The `search` records among `actions`.
pub(super) fn search_records(actions: &[Action]) -> Vec<SearchRecord> {
    actions
        .iter()
        .filter_map(|a| match a {
            Action::Record(r) => match &r.event {
                Event::Search(s) => Some(s.clone()),
                _ => None,
            },
            _ => None,
        })
        .collect()
}

/// The codes of a record's diagnostics, in order.
pub(super) fn codes(record: &PositionRecord) -> Vec<&'static str> {
    record.diagnostics.iter().map(|d| d.code.as_str()).collect()
}

/// A session whose engine offers `UCI_Chess960` (after `uci`).
pub(super) fn engine_offering_chess960(s: &mut Session) {
    gui(s, "uci");
    engine(s, "option name UCI_Chess960 type check default false");
    engine(s, "uciok");
}

/// Fairy-Stockfish 11.1 LB's `UCI_Variant` announcement (Debian's `fairy-stockfish`), with
/// `atomic` added (a later build's): every variant the tests play.
pub(super) const FAIRY_VARIANTS: &str = "option name UCI_Variant type combo default chess var 3check var 5check var ai-wok var almost var amazon var antichess var asean var atomic var breakthrough var bughouse var cambodian var capablanca var capahouse var caparandom var centaur var chancellor var chess var chessgi var chigorin var clobber var clobber10 var codrus var courier var crazyhouse var dobutsu var embassy var euroshogi var extinction var fairy var fischerandom var gardner var giveaway var gorogoro var gothic var grand var hoppelpoppel var horde var janggi var janggicasual var janggimodern var janggitraditional var janus var jesonmor var judkins var karouk var kinglet var kingofthehill var knightmate var koedem var kyotoshogi var loop var losalamos var losers var makpong var makruk var manchu var micro var mini var minishogi var minixiangqi var modern var newzealand var nocastle var normal var placement var pocketknight var racingkings var seirawan var shako var shatar var shatranj var shogi var shouse var sittuyin var suicide var supply var threekings var xiangqi";

/// After `uci`, the engine announces `options` (whole `option` lines), then `uciok`.
pub(super) fn engine_announcing(s: &mut Session, options: &[&str]) {
    gui(s, "uci");
    for option in options {
        engine(s, option);
    }
    engine(s, "uciok");
}

/// A session whose engine offers Fairy-Stockfish's variants (after `uci`), not
/// `UCI_Chess960`.
pub(super) fn engine_offering_variants(s: &mut Session) {
    engine_announcing(s, &[FAIRY_VARIANTS]);
}
