//! The last `position` line and its outcome, so that the next line that resends the same game
//! with more moves (what GUIs send every move) plays only the moves that are new: a `position`
//! costs the same at ply 300 as at ply 3. The outcome is exactly [`super::position::process`]'s (the
//! test `memo_gives_what_the_full_pipeline_gives` replays many lines both ways).
//!
//! A line continues the remembered one when, under the same settings, Chess960 state and
//! rules, its bytes start with the remembered line's (up to whitespace), its start (`startpos`
//! or the FEN's range) is the same, and its first moves are the remembered ones: then the FEN
//! diagnostics, the canonical FEN sent and the earlier moves' diagnostics are those already
//! found, and the new moves are played from the remembered final position. Only a
//! remembered outcome that was sent (valid or repaired, every move played, nothing switched
//! to Chess960) is continued; a continuation whose new moves do not all play, or whose verdict
//! is no longer valid or repaired, is processed again in full.

use super::chess960::Chess960State;
use super::game::append_written;
use super::position::{Outcome, joined, lossy, process_command, split_terminator, verdict};
use super::record::{Moves, PositionRecord, Verdict};
use super::variant::Rules;
use crate::config::{OnInvalid, PositionsConfig};
use crate::rules::play_moves_from;
use crate::uci::{Notation, PositionCommand, PositionStart, parse_position};
use std::ops::Range;

/// The remembered `position` line (see the module documentation).
#[derive(Debug, Default)]
pub struct PositionMemo {
    last: Option<Memo>,
    continued: u64,
}

#[derive(Debug)]
struct Memo {
    /// The line without its terminator.
    body: Vec<u8>,
    config: PositionsConfig,
    c960: Chess960State,
    rules: Rules,
    start: PositionStart,
    /// How many moves it had, and the span of its last one.
    moves: usize,
    last_move: Option<Range<usize>>,
    outcome: Outcome,
}

impl PositionMemo {
    /// [`super::position::process`] for `line`, continuing the remembered line when `line` extends
    /// it; `line` and its outcome are remembered for the next call.
    pub fn process(
        &mut self,
        line: &[u8],
        config: &PositionsConfig,
        c960: &Chess960State,
        rules: &Rules,
    ) -> Outcome {
        let (body, term) = split_terminator(line);
        let cmd = parse_position(body);
        if let Ok(cmd) = &cmd
            && let Some(memo) = &mut self.last
            && let Some((raw, sent)) = memo.extend(body, term, cmd, config, c960, rules)
        {
            self.continued += 1;
            let mut outcome = memo.outcome.clone();
            outcome.record.raw = raw;
            outcome.sent = Some(sent);
            return outcome;
        }
        let shape = cmd.as_ref().ok().map(|cmd| {
            let last_move = cmd.moves.last().map(|t| t.span.clone());
            (cmd.start.clone(), cmd.moves.len(), last_move)
        });
        let outcome = process_command(line, cmd, config, c960, rules);
        match shape {
            Some((start, moves, last_move)) if continuable(&outcome, config) => {
                // The last memo's buffers are reused: a line that starts a new game every time
                // allocates nothing here.
                let memo = self.last.get_or_insert_with(Memo::empty);
                memo.body.clear();
                memo.body.extend_from_slice(body);
                memo.config.clone_from(config);
                memo.c960 = *c960;
                memo.rules.clone_from(rules);
                memo.start = start;
                memo.moves = moves;
                memo.last_move = last_move;
                remember(&mut memo.outcome, &outcome);
            }
            _ => self.last = None,
        }
        outcome
    }

    /// How many lines were continued rather than processed in full.
    pub fn continued(&self) -> u64 {
        self.continued
    }
}

/// Copies `src` into `dst` (reusing `dst`'s buffers) but for what a continuation builds anew
/// from its own line, the GUI's line (`raw`) and the bytes sent, which are left empty. Every
/// field is named, so that a field added to [`Outcome`] or [`PositionRecord`] must be added
/// here.
fn remember(dst: &mut Outcome, src: &Outcome) {
    let Outcome {
        record,
        sent: _,
        searched,
        enable_chess960,
        start_fen,
    } = src;
    let PositionRecord {
        raw: _,
        verdict,
        diagnostics,
        fen_in,
        fen_out,
        moves_in,
        moves_out,
        chess960,
        final_fen,
        sent,
        variant,
    } = record;
    let kept = &mut dst.record;
    kept.raw.clear();
    kept.verdict = *verdict;
    kept.diagnostics.clone_from(diagnostics);
    kept.fen_in.clone_from(fen_in);
    kept.fen_out.clone_from(fen_out);
    kept.moves_in.0.clone_from(&moves_in.0);
    kept.moves_out.0.clone_from(&moves_out.0);
    kept.chess960 = *chess960;
    kept.final_fen.clone_from(final_fen);
    kept.sent.clone_from(sent);
    kept.variant.clone_from(variant);
    dst.sent = None;
    dst.searched.clone_from(searched);
    dst.enable_chess960 = *enable_chess960;
    dst.start_fen.clone_from(start_fen);
}

/// Whether a later line may continue `outcome`: it was sent as checked, every move played, and
/// it did not switch the engine to Chess960 (the state it was judged in changes then).
fn continuable(outcome: &Outcome, config: &PositionsConfig) -> bool {
    config.check_moves
        && matches!(outcome.record.verdict, Verdict::Valid | Verdict::Repaired)
        && outcome.searched.is_some()
        && outcome.record.sent.is_some()
        && !outcome.enable_chess960
}

impl Memo {
    /// A memo of nothing yet (its buffers are filled by [`PositionMemo::process`]).
    fn empty() -> Memo {
        Memo {
            body: Vec::new(),
            config: PositionsConfig::default(),
            c960: Chess960State::default(),
            rules: Rules::default(),
            start: PositionStart::Startpos,
            moves: 0,
            last_move: None,
            outcome: Outcome {
                record: PositionRecord::unread(String::new(), Verdict::Rejected, false, None),
                sent: None,
                searched: None,
                enable_chess960: false,
                start_fen: None,
            },
        }
    }

    /// Whether `cmd` (the line `body` + `term`) continues this line; if so this memo becomes
    /// `cmd`'s, its outcome the line's but for the GUI's line and the bytes sent, which are
    /// returned (`raw`, `sent`). Left unchanged otherwise (then the full pipeline runs and
    /// replaces it).
    fn extend(
        &mut self,
        body: &[u8],
        term: &[u8],
        cmd: &PositionCommand<'_>,
        config: &PositionsConfig,
        c960: &Chess960State,
        rules: &Rules,
    ) -> Option<(String, Vec<u8>)> {
        let continues = body.starts_with(&self.body)
            && body
                .get(self.body.len())
                .is_none_or(|&b| crate::uci::is_uci_space(b))
            && cmd.start == self.start
            && cmd.moves.len() >= self.moves
            && self.moves.checked_sub(1).map(|i| &cmd.moves[i].span) == self.last_move.as_ref()
            && *c960 == self.c960
            && *config == self.config
            && *rules == self.rules;
        if !continues {
            return None;
        }
        let new = &cmd.moves[self.moves..];
        let played = match &self.outcome.searched {
            Some(searched) if !new.is_empty() => {
                let engine = Notation::from_chess960(c960.engine_on());
                let played = play_moves_from(
                    searched.clone(),
                    new,
                    self.moves + 1,
                    c960.gui_notation(),
                    engine,
                    config.on_invalid == OnInvalid::Repair,
                );
                if !played.is_complete() {
                    return None;
                }
                Some(played)
            }
            Some(_) => None,
            None => return None,
        };
        let record = &mut self.outcome.record;
        let Some(sent) = &mut record.sent else {
            return None;
        };
        if let Some(played) = played {
            let diagnostics: Vec<_> = played
                .diagnostics
                .iter()
                .map(|d| d.diagnostic.clone())
                .collect();
            if !diagnostics.is_empty() {
                let all = [record.diagnostics.as_slice(), &diagnostics].concat();
                let verdict = verdict(&all, true, config.on_invalid);
                if !matches!(verdict, Verdict::Valid | Verdict::Repaired) {
                    return None;
                }
                record.verdict = verdict;
                record.diagnostics = all;
            }
            extend_moves(&mut record.moves_in, &joined(cmd.line, new).0);
            let mut written = Vec::with_capacity(played.moves.len() * 5);
            for m in &played.moves {
                if !written.is_empty() {
                    written.push(b' ');
                }
                append_written(&mut written, m);
            }
            let written = lossy(&written);
            sent.push_str(if self.moves == 0 { " moves " } else { " " });
            sent.push_str(&written);
            extend_moves(&mut record.moves_out, &written);
            record.final_fen = Some(played.position.xfen());
            self.outcome.searched = Some(played.position);
        }
        let mut line = Vec::with_capacity(sent.len() + term.len());
        line.extend_from_slice(sent.as_bytes());
        line.extend_from_slice(term);
        self.body.clear();
        self.body.extend_from_slice(body);
        self.moves = cmd.moves.len();
        self.last_move = cmd.moves.last().map(|t| t.span.clone());
        Some((lossy(body), line))
    }
}

/// Appends the space-separated moves `more` to the list `moves`.
fn extend_moves(moves: &mut Moves, more: &str) {
    if !moves.0.is_empty() && !more.is_empty() {
        moves.0.push(' ');
    }
    moves.0.push_str(more);
}
