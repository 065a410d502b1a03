//! Find the moves in the engine's `bestmove` and `info` lines, and splice replacements into a
//! line keeping every other byte identical.
//!
//! Source: UCI 2006. `bestmove <move1> [ponder <move2>]`; `info` keywords `depth seldepth time
//! nodes pv multipv score (cp|mate|lowerbound|upperbound) currmove currmovenumber hashfull nps
//! tbhits sbhits cpuload string refutation currline`, plus Stockfish's `wdl W D L`. Moves sit
//! after `pv`, `currmove`, `refutation` and `currline` (which may start with a cpu number);
//! everything after `string` is free text.
//!
//! The rules layer's `crate::rules::LineRewriter` rewrites their castling moves into the GUI's
//! notation; [`pv_tail`] finds where a line's pv starts for its memo of the last pv.

use std::borrow::Cow;
use std::ops::Range;

use super::{EngineOption, Token, parse_option, tokens};

/// An engine line read once, by its first token (UCI 2006, "Engine to GUI"): what the session's
/// handshake, guard and interception all work from. Only an `option` and an `id` line are read
/// past their first token; every other line costs one token (the relay's hot path: `info`).
///
/// ```
/// use fenguard::uci::engine_line::EngineLine;
///
/// assert_eq!(EngineLine::parse(b"info depth 3 pv e2e4\n"), EngineLine::Info);
/// assert_eq!(EngineLine::parse(b"id name Stockfish 17\n"), EngineLine::Id(b"name"));
/// let EngineLine::Option(opt) = EngineLine::parse(b"option name Hash type spin default 16\n")
/// else { panic!() };
/// assert_eq!((opt.name, opt.kind), (&b"Hash"[..], &b"spin"[..]));
/// assert_eq!(EngineLine::parse(b"option name\n"), EngineLine::Other); // no name and type
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineLine<'a> {
    /// `id <field> ...` (`name`, `author`): the field token.
    Id(&'a [u8]),
    /// `option name <id> type <t> ...`, read ([`parse_option`]).
    Option(EngineOption<'a>),
    /// `uciok`.
    UciOk,
    /// `readyok`.
    ReadyOk,
    /// `bestmove <move> [ponder <move>]` (moves: [`engine_move_sequences`]).
    BestMove,
    /// `info ...` (moves: [`engine_move_sequences`]).
    Info,
    /// Anything else: another first token, a blank line, an `id` without a field, an `option`
    /// without a name or type.
    Other,
}

impl<'a> EngineLine<'a> {
    /// Reads `line` (terminator included or not).
    pub fn parse(line: &'a [u8]) -> EngineLine<'a> {
        let mut toks = tokens(line);
        let Some(first) = toks.next() else {
            return EngineLine::Other;
        };
        match first.text {
            b"info" => EngineLine::Info,
            b"bestmove" => EngineLine::BestMove,
            b"readyok" => EngineLine::ReadyOk,
            b"uciok" => EngineLine::UciOk,
            b"option" => parse_option(line).map_or(EngineLine::Other, EngineLine::Option),
            b"id" => toks
                .next()
                .map_or(EngineLine::Other, |t| EngineLine::Id(t.text)),
            _ => EngineLine::Other,
        }
    }

    /// Whether the line answers a GUI command (`uciok`, `readyok`, `bestmove`).
    pub fn is_answer(&self) -> bool {
        matches!(
            self,
            EngineLine::UciOk | EngineLine::ReadyOk | EngineLine::BestMove
        )
    }
}

/// Which field a move sequence comes from. Every sequence starts in the searched position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveField {
    /// `bestmove <m> [ponder <m>]`: the best move, then the ponder move after it.
    BestMove,
    /// `info ... pv <m1> <m2> ...`.
    Pv,
    /// `info ... currmove <m>`.
    CurrMove,
    /// `info ... refutation <m1> <m2> ...` (the refuted move, then the refutation).
    Refutation,
    /// `info ... currline [cpu] <m1> ...`.
    CurrLine,
}

/// The move tokens of one field of an engine line, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveSequence<'a> {
    /// The field.
    pub field: MoveField,
    /// Its move tokens (unchecked: a sequence ends at the next keyword, so a stray word in a
    /// pv is a "move" that will not parse).
    pub moves: Vec<Token<'a>>,
}

/// `info` keywords followed by a fixed number of values (UCI 2006; `cp` / `mate` inside
/// `score`, Stockfish's `wdl W D L`); `None` for others.
pub(crate) fn info_arity(word: &[u8]) -> Option<usize> {
    Some(match word {
        b"depth" | b"seldepth" | b"time" | b"nodes" | b"multipv" | b"currmovenumber"
        | b"hashfull" | b"nps" | b"tbhits" | b"sbhits" | b"cpuload" | b"cp" | b"mate" => 1,
        b"score" | b"lowerbound" | b"upperbound" => 0,
        b"wdl" => 3,
        _ => return None,
    })
}

/// The `info` keywords followed by moves (`pv`, `currmove`, `refutation`, `currline`).
pub(crate) fn move_field(word: &[u8]) -> Option<MoveField> {
    match word {
        b"pv" => Some(MoveField::Pv),
        b"currmove" => Some(MoveField::CurrMove),
        b"refutation" => Some(MoveField::Refutation),
        b"currline" => Some(MoveField::CurrLine),
        _ => None,
    }
}

fn is_info_keyword(word: &[u8]) -> bool {
    // Every keyword is lower-case letters: a move (`e2e4`) or a number is rejected at once
    // (the relay's hot path: most tokens of a pv).
    if !word.iter().all(u8::is_ascii_lowercase) {
        return false;
    }
    word == b"string" || info_arity(word).is_some() || move_field(word).is_some()
}

/// The move sequences of a `bestmove` or `info` line; empty for any other line.
pub fn engine_move_sequences(line: &[u8]) -> Vec<MoveSequence<'_>> {
    let mut toks = tokens(line).peekable();
    let mut out = Vec::new();
    match toks.next() {
        Some(t) if t.text == b"bestmove" => {
            let mut moves: Vec<Token<'_>> = toks.next().into_iter().collect();
            if let (Some(kw), Some(p)) = (toks.next(), toks.next())
                && kw.text == b"ponder"
            {
                moves.push(p);
            }
            if !moves.is_empty() {
                out.push(MoveSequence {
                    field: MoveField::BestMove,
                    moves,
                });
            }
        }
        Some(t) if t.text == b"info" => {
            while let Some(t) = toks.next() {
                if t.text == b"string" {
                    break;
                }
                if let Some(n) = info_arity(t.text) {
                    for _ in 0..n {
                        toks.next_if(|v| !is_info_keyword(v.text));
                    }
                    continue;
                }
                let Some(field) = move_field(t.text) else {
                    continue;
                };
                if field == MoveField::CurrLine {
                    toks.next_if(|v| !v.text.is_empty() && v.text.iter().all(u8::is_ascii_digit));
                }
                let mut moves = Vec::with_capacity(16);
                while let Some(m) = toks.next_if(|v| !is_info_keyword(v.text)) {
                    moves.push(m);
                    if field == MoveField::CurrMove {
                        break;
                    }
                }
                out.push(MoveSequence { field, moves });
            }
        }
        _ => {}
    }
    out
}

/// Replaces byte ranges of `line`. `replacements` are sorted by start and do not overlap.
/// Returns the line itself, borrowed, when there is nothing to replace.
///
/// # Panics
/// Never for ranges taken from tokens of `line`; ranges outside `line` are skipped.
pub fn splice<'a>(line: &'a [u8], replacements: &[(Range<usize>, Vec<u8>)]) -> Cow<'a, [u8]> {
    if replacements.is_empty() {
        return Cow::Borrowed(line);
    }
    let extra: usize = replacements.iter().map(|(_, r)| r.len()).sum();
    let mut out = Vec::with_capacity(line.len() + extra);
    let mut at = 0;
    for (range, text) in replacements {
        if range.start < at || range.end > line.len() || range.start > range.end {
            continue;
        }
        out.extend_from_slice(&line[at..range.start]);
        out.extend_from_slice(text);
        at = range.end;
    }
    out.extend_from_slice(&line[at..]);
    Cow::Owned(out)
}

/// Whether any token of `line` could be a castling move in some notation: four bytes
/// `[a-h][18][a-h][18]` with the same rank digit. A cheap filter for the relay's hot path.
pub fn may_hold_castle(line: &[u8]) -> bool {
    tokens(line).any(|t| match t.text {
        [f1, r1, f2, r2] => {
            (b'a'..=b'h').contains(f1)
                && (b'a'..=b'h').contains(f2)
                && r1 == r2
                && (*r1 == b'1' || *r1 == b'8')
        }
        _ => false,
    })
}

/// The byte offset of the `pv` keyword of an `info` line when its pv is the line's first move
/// field and no `string` comes before it: then [`engine_move_sequences`] reads the bytes from
/// there on alike whatever comes before, so two lines with the same tail from their `pv` have
/// the same move sequences (spans shifted). `None` for any other line.
pub fn pv_tail(line: &[u8]) -> Option<usize> {
    let mut toks = tokens(line).peekable();
    if toks.next()?.text != b"info" {
        return None;
    }
    while let Some(t) = toks.next() {
        if let Some(n) = info_arity(t.text) {
            for _ in 0..n {
                toks.next_if(|v| !is_info_keyword(v.text));
            }
            continue;
        }
        if t.text == b"string" {
            return None;
        }
        match move_field(t.text) {
            Some(MoveField::Pv) => return Some(t.span.start),
            Some(_) => return None,
            None => {}
        }
    }
    None
}
