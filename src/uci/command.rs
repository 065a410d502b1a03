//! Parse the GUI commands fenguard acts on (`position`, `go`, `setoption`) and the engine's
//! `option` lines, keeping byte spans into the original line.
//!
//! Source: the UCI protocol description (2006): `position [fen <fenstring> | startpos] moves
//! <move1> .... <movei>`, `go` with its sub-commands, `setoption name <id> [value <x>]`,
//! `option name <id> type <t> [default <x>] [min <x>] [max <x>] [var <x>]*`. Keywords compare
//! byte for byte (engines do); option names and check values compare ASCII case-insensitively
//! (`True`, `FALSE` occur in the wild).

use std::ops::Range;

use super::{Token, tokens};

/// Where a `position` command starts from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionStart {
    /// `position startpos`.
    Startpos,
    /// `position fen ...`: the half-open byte range of the FEN text in the line, from the first
    /// byte of the token after `fen` to the last byte before `moves` (or the end), whitespace
    /// runs inside kept as sent. Empty (at the end of `fen`) when nothing follows `fen`. The FEN
    /// is not checked here: the FEN core diagnoses it (`empty-input` for an empty range,
    /// a syntax code for `position fen startpos`), adding `range.start` to its spans.
    Fen(Range<usize>),
}

/// A parsed `position` command, borrowing the line it came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionCommand<'a> {
    /// The whole line as given (trailing newline included, if any).
    pub line: &'a [u8],
    /// `startpos` or the FEN's range.
    pub start: PositionStart,
    /// The `moves` keyword, when present (it may be followed by no moves at all).
    pub moves_keyword: Option<Token<'a>>,
    /// The move tokens after `moves`, unchecked (see [`crate::rules::play_moves`]).
    pub moves: Vec<Token<'a>>,
}

impl<'a> PositionCommand<'a> {
    /// The FEN text (a slice of the line), or `None` for `startpos`.
    pub fn fen(&self) -> Option<&'a [u8]> {
        match &self.start {
            PositionStart::Startpos => None,
            PositionStart::Fen(range) => Some(&self.line[range.clone()]),
        }
    }
}

/// Why a `position` line could not be parsed. The FEN itself is never judged here.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CommandError {
    /// The line's first token is not `position`.
    #[error("not a position command")]
    NotPosition,
    /// Nothing after `position`.
    #[error("expected `startpos` or `fen <FEN>` after `position`, found nothing")]
    MissingStart {
        /// Empty range at the end of `position`.
        span: Range<usize>,
    },
    /// Something other than `startpos` or `fen` after `position` (`position blah`).
    #[error("expected `startpos` or `fen <FEN>` after `position`, found `{found}`")]
    UnknownStart {
        /// The token found, lossily decoded.
        found: String,
        /// Its range in the line.
        span: Range<usize>,
    },
    /// A token between `startpos` and `moves` (`position startpos e2e4`).
    #[error("expected `moves` or the end of the line after `startpos`, found `{found}`")]
    UnexpectedToken {
        /// The token found, lossily decoded.
        found: String,
        /// Its range in the line.
        span: Range<usize>,
    },
}

impl CommandError {
    /// Byte range of the fault in the line, if it has one.
    pub fn span(&self) -> Option<Range<usize>> {
        match self {
            CommandError::NotPosition => None,
            CommandError::MissingStart { span }
            | CommandError::UnknownStart { span, .. }
            | CommandError::UnexpectedToken { span, .. } => Some(span.clone()),
        }
    }
}

fn lossy(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Parses `position [startpos | fen <fields...>] [moves <m1> ...]`.
///
/// # Errors
/// [`CommandError`] when the first token is not `position`, when neither `startpos` nor
/// `fen` follows it, or when anything but `moves` follows `startpos`.
pub fn parse_position(line: &[u8]) -> Result<PositionCommand<'_>, CommandError> {
    let mut toks = tokens(line);
    let word = match toks.next() {
        Some(t) if t.text == b"position" => t,
        _ => return Err(CommandError::NotPosition),
    };
    let start_tok = toks.next().ok_or(CommandError::MissingStart {
        span: word.span.end..word.span.end,
    })?;
    let mut moves_keyword = None;
    let start = match start_tok.text {
        b"startpos" => {
            if let Some(t) = toks.next() {
                if t.text != b"moves" {
                    return Err(CommandError::UnexpectedToken {
                        found: lossy(t.text),
                        span: t.span,
                    });
                }
                moves_keyword = Some(t);
            }
            PositionStart::Startpos
        }
        b"fen" => {
            let mut range = start_tok.span.end..start_tok.span.end;
            let mut first = true;
            for t in toks.by_ref() {
                if t.text == b"moves" {
                    moves_keyword = Some(t);
                    break;
                }
                if first {
                    range.start = t.span.start;
                    first = false;
                }
                range.end = t.span.end;
            }
            PositionStart::Fen(range)
        }
        other => {
            return Err(CommandError::UnknownStart {
                found: lossy(other),
                span: start_tok.span,
            });
        }
    };
    // Room for every move of a game at once (a move and its space take five bytes or more);
    // a longer list grows as usual.
    let mut moves = Vec::with_capacity((toks.rest().len() / 5 + 1).min(1024));
    moves.extend(toks);
    Ok(PositionCommand {
        line,
        start,
        moves_keyword,
        moves,
    })
}

/// The `go` sub-command keywords that end a `searchmoves` list (UCI 2006, plus Stockfish's
/// `perft`).
pub const GO_KEYWORDS: &[&[u8]] = &[
    b"searchmoves",
    b"ponder",
    b"wtime",
    b"btime",
    b"winc",
    b"binc",
    b"movestogo",
    b"depth",
    b"nodes",
    b"mate",
    b"movetime",
    b"infinite",
    b"perft",
];

/// A parsed `go` command: what fenguard acts on (`searchmoves`, a search that waits for
/// `stop`, Stockfish's `perft`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GoCommand<'a> {
    /// The `searchmoves` keyword, when present.
    pub searchmoves_keyword: Option<Token<'a>>,
    /// The move tokens after `searchmoves`, up to the next [`GO_KEYWORDS`] entry or the end.
    pub searchmoves: Vec<Token<'a>>,
    /// A token after `go` is `infinite` or `ponder`: no `bestmove` before `stop` / `ponderhit`.
    pub waits_for_stop: bool,
    /// A token after `go` is `perft` (Stockfish's node count: never a `bestmove`).
    pub perft: bool,
}

/// Parses a `go` line; `None` when the first token is not `go`. To rewrite the moves, give
/// [`super::splice`] the `searchmoves` spans and their replacements.
pub fn parse_go(line: &[u8]) -> Option<GoCommand<'_>> {
    let mut toks = tokens(line);
    if toks.next()?.text != b"go" {
        return None;
    }
    let mut cmd = GoCommand {
        searchmoves_keyword: None,
        searchmoves: Vec::new(),
        waits_for_stop: false,
        perft: false,
    };
    let mut in_moves = false;
    for t in toks {
        cmd.waits_for_stop |= t.text == b"infinite" || t.text == b"ponder";
        cmd.perft |= t.text == b"perft";
        if GO_KEYWORDS.contains(&t.text) {
            in_moves = t.text == b"searchmoves";
            if in_moves && cmd.searchmoves_keyword.is_none() {
                cmd.searchmoves_keyword = Some(t);
            }
        } else if in_moves {
            cmd.searchmoves.push(t);
        }
    }
    Some(cmd)
}

/// Compares a multi-token name with `expected` token by token, ASCII case-insensitively, so
/// whitespace runs inside the name do not matter.
fn tokens_eq_ignore_case(name: &[u8], expected: &str) -> bool {
    let mut a = tokens(name);
    let mut b = tokens(expected.as_bytes());
    loop {
        match (a.next(), b.next()) {
            (None, None) => return true,
            (Some(x), Some(y)) if x.text.eq_ignore_ascii_case(y.text) => {}
            _ => return false,
        }
    }
}

/// The raw slice and range from the first to the last of `toks` (empty range at `at` if none).
fn join(line: &[u8], toks: &[Token<'_>], at: usize) -> Range<usize> {
    match (toks.first(), toks.last()) {
        (Some(f), Some(l)) => f.span.start..l.span.end,
        _ => at.min(line.len())..at.min(line.len()),
    }
}

/// A parsed `setoption name <id> [value <x>]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetOption<'a> {
    /// The option name as sent (may hold spaces), from its first to its last token.
    pub name: &'a [u8],
    /// Range of `name` in the line.
    pub name_span: Range<usize>,
    /// The value as sent (may hold spaces; empty after a bare `value`), `None` without `value`.
    pub value: Option<&'a [u8]>,
    /// Range of the value in the line.
    pub value_span: Option<Range<usize>>,
}

impl SetOption<'_> {
    /// Whether the name is `expected`, ASCII case-insensitively, whitespace runs ignored.
    pub fn name_is(&self, expected: &str) -> bool {
        tokens_eq_ignore_case(self.name, expected)
    }

    /// The value read as a UCI check value (see [`parse_check_value`]).
    pub fn check_value(&self) -> Option<bool> {
        self.value.and_then(parse_check_value)
    }
}

/// Reads a check option value: `true` / `false` in any ASCII case, surrounding whitespace
/// ignored; anything else is `None`.
pub fn parse_check_value(value: &[u8]) -> Option<bool> {
    let v = super::trim_uci(value);
    if v.eq_ignore_ascii_case(b"true") {
        Some(true)
    } else if v.eq_ignore_ascii_case(b"false") {
        Some(false)
    } else {
        None
    }
}

/// Parses `setoption name <id> [value <x>]`; `None` when the line is not a `setoption` or has
/// no name. The name runs up to the first `value` token.
pub fn parse_setoption(line: &[u8]) -> Option<SetOption<'_>> {
    let mut toks = tokens(line);
    if toks.next()?.text != b"setoption" {
        return None;
    }
    if toks.next()?.text != b"name" {
        return None;
    }
    let mut name = Vec::new();
    let mut value_kw = None;
    for t in toks.by_ref() {
        if t.text == b"value" {
            value_kw = Some(t);
            break;
        }
        name.push(t);
    }
    if name.is_empty() {
        return None;
    }
    let name_span = join(line, &name, 0);
    let value_span = value_kw.map(|kw| {
        let rest: Vec<Token<'_>> = toks.collect();
        join(line, &rest, kw.span.end)
    });
    Some(SetOption {
        name: &line[name_span.clone()],
        name_span,
        value: value_span.clone().map(|r| &line[r]),
        value_span,
    })
}

/// A parsed engine `option name <id> type <t> [default <x>] ...` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineOption<'a> {
    /// The option name (may hold spaces), from its first to its last token.
    pub name: &'a [u8],
    /// The type token: `check`, `spin`, `combo`, `button` or `string`.
    pub kind: &'a [u8],
    /// The default value as sent (up to `min`/`max`/`var` or the end), if any.
    pub default: Option<&'a [u8]>,
}

impl EngineOption<'_> {
    /// Whether the name is `expected`, ASCII case-insensitively, whitespace runs ignored.
    pub fn name_is(&self, expected: &str) -> bool {
        tokens_eq_ignore_case(self.name, expected)
    }
}

/// Parses an engine's `option` line; `None` when it is not one or lacks `name` or `type`.
pub fn parse_option(line: &[u8]) -> Option<EngineOption<'_>> {
    let mut toks = tokens(line);
    if toks.next()?.text != b"option" || toks.next()?.text != b"name" {
        return None;
    }
    let mut name = Vec::new();
    let mut has_type = false;
    for t in toks.by_ref() {
        if t.text == b"type" {
            has_type = true;
            break;
        }
        name.push(t);
    }
    if name.is_empty() || !has_type {
        return None;
    }
    let kind = toks.next()?.text;
    let mut default = None;
    let mut in_default: Option<Vec<Token<'_>>> = None;
    for t in toks {
        match t.text {
            b"default" if default.is_none() && in_default.is_none() => {
                in_default = Some(Vec::new())
            }
            b"min" | b"max" | b"var" | b"default" => {
                if let Some(d) = in_default.take() {
                    default = Some(d);
                }
            }
            _ => {
                if let Some(d) = in_default.as_mut() {
                    d.push(t);
                }
            }
        }
    }
    let default = default.or(in_default).map(|d| {
        let r = join(line, &d, line.len());
        &line[r]
    });
    Some(EngineOption {
        name: &line[join(line, &name, 0)],
        kind,
        default,
    })
}
