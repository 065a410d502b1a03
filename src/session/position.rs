//! The `position` pipeline (SPEC sections 6 and 7): parse the command, check the FEN with the
//! FEN core (spans shifted into the GUI's line), check every move in sequence, apply the
//! Chess960 rules, decide the verdict by `positions.on_invalid` and build the line for the
//! engine. Pure: the session turns the [`Outcome`] into actions. The rules in force (chess, an
//! 8x8 variant, a 10x8 board) are asked through one [`Game`]; `startpos` is the variant's
//! start (sent to the engine as `position startpos`).

use super::chess960::Chess960State;
use super::game::Game;
use super::game::Written;
use super::game_moves::{append_written, play_moves};
use super::record::{Moves, PositionRecord, Verdict};
use super::variant::Rules;
use crate::config::{CastlingOut, Chess960Mode, EnPassantOut, OnInvalid, PositionsConfig};
use crate::fen::{CastlingStyle, Code, Diagnostic, EpMode};
use crate::uci::{CommandError, Notation, PositionCommand, PositionStart, Token, parse_position};

/// The command `position` lines are answered with to switch the engine (detect mode).
pub const ENABLE_CHESS960: &str = "setoption name UCI_Chess960 value true";

/// What to do with one `position` line.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    /// The record (its `sent` is the line without terminator).
    pub record: PositionRecord,
    /// The bytes for the engine, terminator included, when something is sent.
    pub sent: Option<Vec<u8>>,
    /// The position the engine searches after this command, when fenguard knows it.
    pub searched: Option<Game>,
    /// Send [`ENABLE_CHESS960`] to the engine first.
    pub enable_chess960: bool,
    /// The start position in X-FEN (for the `chess960-enabled` record).
    pub start_fen: Option<String>,
}

/// Splits a line into its body and its terminator (`\n`, `\r\n` or nothing).
pub fn split_terminator(line: &[u8]) -> (&[u8], &[u8]) {
    let body_len = match line {
        [rest @ .., b'\r', b'\n'] => rest.len(),
        [rest @ .., b'\n'] => rest.len(),
        _ => line.len(),
    };
    line.split_at(body_len)
}

/// The move tokens (of `line`) as one space-separated string: one copy of `line`'s bytes
/// when they are single-spaced there already (a canonical line).
pub(super) fn joined(line: &[u8], moves: &[Token<'_>]) -> Moves {
    let single_spaced = moves
        .windows(2)
        .all(|w| w[1].span.start == w[0].span.end + 1 && line[w[0].span.end] == b' ');
    if let (Some(first), Some(last), true) = (moves.first(), moves.last(), single_spaced) {
        return Moves(lossy(&line[first.span.start..last.span.end]));
    }
    let mut text = String::with_capacity(moves.len() * 5);
    for t in moves {
        if !text.is_empty() {
            text.push(' ');
        }
        match std::str::from_utf8(t.text) {
            Ok(m) => text.push_str(m),
            Err(_) => text.push_str(&String::from_utf8_lossy(t.text)),
        }
    }
    Moves(text)
}

pub(super) fn lossy(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(text) => text.to_owned(),
        Err(_) => String::from_utf8_lossy(bytes).into_owned(),
    }
}

fn command_diag(e: &CommandError) -> Diagnostic {
    Diagnostic::error(Code::BadPositionCommand, e.span(), e.to_string())
}

fn castling_style(config: &PositionsConfig, engine_on: bool) -> CastlingStyle {
    match config.castling {
        CastlingOut::Auto if engine_on => CastlingStyle::Shredder,
        CastlingOut::Auto | CastlingOut::Xfen => CastlingStyle::XFen,
        CastlingOut::Shredder => CastlingStyle::Shredder,
    }
}

fn ep_mode(config: &PositionsConfig) -> EpMode {
    match config.en_passant {
        EnPassantOut::Legal => EpMode::Legal,
        EnPassantOut::Xfen => EpMode::XFen,
        EnPassantOut::Fen => EpMode::Fen,
    }
}

/// The verdict for diagnostics `diags`: `complete` says that a start position exists and
/// every move was played (possibly after repairs).
pub(super) fn verdict(diags: &[Diagnostic], complete: bool, mode: OnInvalid) -> Verdict {
    let mut errors = diags.iter().filter(|d| d.is_error()).peekable();
    if errors.peek().is_none() && complete {
        return Verdict::Valid;
    }
    match mode {
        OnInvalid::Repair if complete && errors.all(|d| d.fix.is_some()) => Verdict::Repaired,
        OnInvalid::Repair | OnInvalid::Reject => Verdict::Rejected,
        OnInvalid::Forward => Verdict::ForwardedInvalid,
    }
}

/// Runs the pipeline on one GUI `position` line (terminator included) under `rules` (a checked
/// rules value: chess, [`Rules::Eight`] or [`Rules::Ten`]).
pub fn process(
    line: &[u8],
    config: &PositionsConfig,
    c960: &Chess960State,
    rules: &Rules,
) -> Outcome {
    let (body, _) = split_terminator(line);
    process_command(line, parse_position(body), config, c960, rules)
}

/// [`process`] with the line's body already parsed (`cmd`, from [`parse_position`] on the
/// line without its terminator).
pub(super) fn process_command(
    line: &[u8],
    cmd: Result<PositionCommand<'_>, CommandError>,
    config: &PositionsConfig,
    c960: &Chess960State,
    rules: &Rules,
) -> Outcome {
    let (body, term) = split_terminator(line);
    let mut outcome = Outcome {
        record: PositionRecord::unread(
            lossy(body),
            Verdict::Rejected,
            c960.engine_on(),
            rules.record_name(),
        ),
        sent: None,
        searched: None,
        enable_chess960: false,
        start_fen: None,
    };
    let cmd = match cmd {
        Ok(cmd) => cmd,
        Err(e) => {
            outcome.record.diagnostics.push(command_diag(&e));
            finish_invalid(&mut outcome, line, config.on_invalid);
            return outcome;
        }
    };
    let record = &mut outcome.record;
    record.moves_in = joined(cmd.line, &cmd.moves);
    let start = start_position(&cmd, config, c960, rules, record);
    let mut engine_on = c960.engine_on();
    if !engine_on && start.as_ref().is_some_and(Game::needs_chess960) {
        let wanted = c960.gui || config.chess960 == Chess960Mode::Detect;
        if wanted && c960.engine_offers {
            outcome.enable_chess960 = true;
            engine_on = true;
        } else if wanted {
            record.diagnostics.push(Diagnostic::error(
                Code::EngineLacksChess960,
                None,
                "the position needs Chess960 castling, but the engine does not offer UCI_Chess960",
            ));
        }
    }
    let repair = config.on_invalid == OnInvalid::Repair && config.check_moves;
    let mut complete = start.is_some();
    let mut final_pos = None;
    let mut engine_moves = None;
    if let Some(start) = &start {
        let engine = Notation::from_chess960(engine_on);
        // Castling moves must be translated whenever the notations differ, checked or not.
        let translate = c960.gui_notation() != engine;
        let played = play_moves(
            start.clone(),
            &cmd.moves,
            1,
            c960.gui_notation(),
            engine,
            repair,
        );
        if config.check_moves {
            record
                .diagnostics
                .extend(played.diagnostics.iter().map(|d| d.diagnostic.clone()));
            complete = played.is_complete();
        }
        final_pos = played.is_complete().then_some(played.position);
        // Unchecked (`check_moves = false`), the moves from one that cannot be played on go
        // out as given.
        let untranslated = played.stopped_at.map_or(cmd.moves.len(), |n| n - 1);
        engine_moves = (config.check_moves || translate).then_some((played.moves, untranslated));
    }
    record.verdict = verdict(&record.diagnostics, complete, config.on_invalid);
    match (record.verdict, start) {
        (Verdict::Valid | Verdict::Repaired, Some(start)) => {
            record.chess960 = engine_on;
            let mut sent = Vec::with_capacity(line.len() + 32);
            // Where the FEN sent is in `sent` (`None`: `startpos`).
            let mut fen_at = None;
            if cmd.start == PositionStart::Startpos {
                sent.extend_from_slice(b"position startpos");
                record.fen_out = Some("startpos".to_owned());
            } else {
                sent.extend_from_slice(b"position fen ");
                let at = sent.len();
                start.append_fen(
                    castling_style(config, engine_on),
                    ep_mode(config),
                    &mut sent,
                );
                fen_at = Some(at..sent.len());
            }
            let moves_at = sent.len() + b" moves ".len();
            let (translated, given): (&[Written], &[Token<'_>]) = match &engine_moves {
                Some((moves, from)) => (moves, cmd.moves.get(*from..).unwrap_or_default()),
                None => (&[], &cmd.moves),
            };
            if !translated.is_empty() || !given.is_empty() {
                sent.extend_from_slice(b" moves");
            }
            for m in translated {
                sent.push(b' ');
                append_written(&mut sent, m);
            }
            for t in given {
                sent.push(b' ');
                sent.extend_from_slice(t.text);
            }
            // One reading of `sent` as text for the record's three parts of it (every part
            // ends before a space fenguard wrote, so the slices are on character boundaries).
            let (text, utf8) = match std::str::from_utf8(&sent) {
                Ok(text) => (text.to_owned(), true),
                Err(_) => (String::from_utf8_lossy(&sent).into_owned(), false),
            };
            let part = |range: std::ops::Range<usize>| match utf8 {
                true => text[range].to_owned(),
                false => lossy(&sent[range]),
            };
            if let Some(range) = fen_at {
                record.fen_out = Some(part(range));
            }
            if sent.len() > moves_at {
                record.moves_out = Moves(part(moves_at..sent.len()));
            }
            record.sent = Some(text);
            sent.extend_from_slice(term);
            outcome.sent = Some(sent);
            if outcome.enable_chess960 {
                outcome.start_fen = Some(start.xfen());
            }
            record.final_fen = final_pos.as_ref().map(Game::xfen);
            outcome.searched = final_pos;
        }
        _ => {
            outcome.enable_chess960 = false;
            finish_invalid(&mut outcome, line, config.on_invalid);
        }
    }
    outcome
}

/// Rejects, or forwards the GUI's line unchanged under `on_invalid = "forward"`.
fn finish_invalid(outcome: &mut Outcome, line: &[u8], mode: OnInvalid) {
    let record = &mut outcome.record;
    record.final_fen = None;
    if mode == OnInvalid::Forward {
        record.verdict = Verdict::ForwardedInvalid;
        record.moves_out.clone_from(&record.moves_in);
        record.sent = Some(record.raw.clone());
        outcome.sent = Some(line.to_vec());
    } else {
        record.verdict = Verdict::Rejected;
        record.moves_out = Moves::default();
    }
}

/// The start position (FEN analyzed, repaired when allowed), its diagnostics pushed.
fn start_position(
    cmd: &PositionCommand<'_>,
    config: &PositionsConfig,
    c960: &Chess960State,
    rules: &Rules,
    record: &mut PositionRecord,
) -> Option<Game> {
    let range = match &cmd.start {
        PositionStart::Startpos => {
            record.fen_in = Some("startpos".to_owned());
            return Game::start(rules);
        }
        PositionStart::Fen(range) => range.clone(),
    };
    let text = &cmd.line[range.clone()];
    record.fen_in = Some(lossy(text));
    let chess960_allowed = c960.gui || config.chess960 == Chess960Mode::Detect;
    let repair = config.on_invalid != OnInvalid::Reject;
    let analysis = Game::analyze(rules, text, chess960_allowed, repair);
    record.diagnostics.extend(
        analysis
            .diagnostics
            .iter()
            .map(|d| d.clone().shifted(range.start)),
    );
    analysis.game
}
