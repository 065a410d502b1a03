//! The three output formats of `fenguard check`: `human`, `json` and `fen`.

use crate::fen::escape_controls;
use std::borrow::Cow;
use std::io::{self, Write};

use serde::Serialize;

use super::Settings;
use crate::fen::{Code, Diagnostic, FenDisplay, Severity, analyze, valid_position};

/// `--format` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// The FEN with a caret line under each fault, like a compiler.
    Human,
    /// One JSON object a line: input, valid, repaired, fen, chess960, diagnostics.
    Json,
    /// The normalized FEN, or `invalid`, one a line.
    Fen,
}

/// Checks lines one by one and remembers whether all were fine.
pub(crate) struct Checker {
    settings: Settings,
    line_number: u64,
    all_ok: bool,
    /// Reused output buffer of the `fen` format.
    buf: Vec<u8>,
    /// `--legal-moves`: each valid position's legal moves with the FEN after each (JSON).
    legal_moves: bool,
    /// `--perft DEPTH`: each valid position's perft node count (JSON).
    perft: Option<u32>,
}

impl Checker {
    pub(crate) fn new(settings: Settings) -> Self {
        Checker {
            settings,
            line_number: 0,
            all_ok: true,
            buf: Vec::with_capacity(128),
            legal_moves: false,
            perft: None,
        }
    }

    /// The checker with the debug outputs `--legal-moves` and `--perft` (JSON format), as for
    /// the 10x8 variants: `"legal_moves": [["e2e4", "<fen after>"], ...]` (castles in the
    /// notation the position needs: king-takes-rook when only Chess960 allows a right, else
    /// `e1g1`) and `"perft": N`.
    pub(crate) fn with_debug(mut self, legal_moves: bool, perft: Option<u32>) -> Self {
        self.legal_moves = legal_moves;
        self.perft = perft;
        self
    }

    /// The verdict in a standard game (`UCI_Chess960` off: the proxy's default), when it
    /// differs from this run's Chess960-allowing one: a right only Chess960 allows
    /// (`castling-needs-chess960`) is repaired there by dropping it.
    fn standard_verdict(&self, input: &[u8], chess960: bool) -> Option<StandardVerdict> {
        if !self.settings.options.chess960_allowed || !chess960 {
            return None;
        }
        let options = crate::fen::Options {
            chess960_allowed: false,
            ..self.settings.options
        };
        let analysis = analyze(input, &options);
        let repaired = analysis.repair().map(|r| r.position);
        let position = repaired.as_ref().or(analysis.position());
        Some(StandardVerdict {
            valid: analysis.is_valid(),
            repaired: !analysis.is_valid() && repaired.is_some(),
            fen: position.map(|position| {
                FenDisplay {
                    position,
                    castling: self.settings.castling,
                    ep: self.settings.ep,
                }
                .to_string()
            }),
            codes: analysis.diagnostics().iter().filter(|d| d.is_error()).fold(
                Vec::new(),
                |mut codes, d| {
                    // Each code once (one castling right after another gives the same code).
                    if !codes.contains(&d.code.as_str()) {
                        codes.push(d.code.as_str());
                    }
                    codes
                },
            ),
        })
    }

    /// Whether every line so far was valid (or repaired, with `--repair`).
    pub(crate) fn all_ok(&self) -> bool {
        self.all_ok
    }

    /// Checks one input line (without its line end) and writes its output.
    pub(crate) fn line(&mut self, input: &[u8], out: &mut impl Write) -> io::Result<()> {
        self.line_number += 1;
        if self.settings.format == Format::Fen && !self.settings.repair {
            // Only the verdict and the position are printed: no diagnostics needed.
            let position = valid_position(input, &self.settings.options);
            self.all_ok &= position.is_some();
            return self.write_fen(position.as_ref(), out);
        }
        let analysis = analyze(input, &self.settings.options);
        let repaired = match analysis.is_valid() || !self.settings.repair {
            true => None,
            false => analysis.repair().map(|r| r.position),
        };
        self.all_ok &= analysis.is_valid() || repaired.is_some();
        let position = repaired.as_ref().or(analysis.position());
        let fen = position.map(|position| FenDisplay {
            position,
            castling: self.settings.castling,
            ep: self.settings.ep,
        });
        let chess960 = position.map_or_else(
            || analysis.needs_chess960(),
            crate::fen::position_needs_chess960,
        );
        let standard = self.standard_verdict(input, chess960);
        match self.settings.format {
            Format::Fen => self.write_fen(position, out),
            Format::Json => {
                let notation = crate::uci::Notation::from_chess960(chess960);
                let record = Record {
                    input: String::from_utf8_lossy(input),
                    valid: analysis.is_valid(),
                    repaired: repaired.is_some(),
                    fen: fen.map(|f| f.to_string()),
                    chess960,
                    diagnostics: json_diagnostics(analysis.diagnostics(), input),
                    standard_valid: standard.as_ref().map(|s| s.valid),
                    standard_repaired: standard.as_ref().map(|s| s.repaired),
                    standard_fen: standard.as_ref().and_then(|s| s.fen.clone()),
                    standard_codes: standard.as_ref().map(|s| s.codes.clone()),
                    legal_moves: position.filter(|_| self.legal_moves).map(|p| {
                        legal_moves(p, notation, self.settings.castling, self.settings.ep)
                    }),
                    perft: self
                        .perft
                        .and_then(|d| position.map(|p| shakmaty::perft(p, d))),
                };
                serde_json::to_writer(&mut *out, &record)?;
                out.write_all(b"\n")
            }
            Format::Human => {
                let fen = fen.map(|f| f.to_string());
                write_human_block(
                    out,
                    self.line_number,
                    (analysis.is_valid(), repaired.is_some()),
                    fen.as_deref(),
                    input,
                    analysis.diagnostics(),
                    self.settings.style.color,
                )?;
                if let Some(s) = standard {
                    s.write_human(out)?;
                }
                super::boards::write_boards(
                    out,
                    &self.settings,
                    crate::view::Shape::EIGHT,
                    input,
                    analysis.diagnostics(),
                    fen.as_deref(),
                    repaired.is_some(),
                )
            }
        }
    }

    /// The output line of an input line longer than the cap (`line` holds its first bytes,
    /// `length` is its full length in bytes, line end included): invalid, `line-too-long`.
    /// The JSON `input` shows the first 64 bytes and `…`.
    pub(crate) fn too_long(
        &mut self,
        line: &[u8],
        length: u64,
        out: &mut impl Write,
    ) -> io::Result<()> {
        self.line_number += 1;
        self.all_ok = false;
        let d = Diagnostic::new(
            Code::LineTooLong,
            Severity::Error,
            None,
            format!(
                "line of {length} bytes is longer than the {}-byte cap; not checked",
                crate::framing::MAX_LINE
            ),
        );
        let head = String::from_utf8_lossy(&line[..line.len().min(64)]) + "…";
        match self.settings.format {
            Format::Fen => self.write_fen(None, out),
            Format::Json => {
                let record = Record {
                    input: head,
                    valid: false,
                    repaired: false,
                    fen: None,
                    chess960: false,
                    diagnostics: json_diagnostics(std::slice::from_ref(&d), line)
                        .into_owned()
                        .into(),
                    ..Record::default()
                };
                serde_json::to_writer(&mut *out, &record)?;
                out.write_all(b"\n")
            }
            Format::Human => {
                writeln!(out, "line {}: invalid", self.line_number)?;
                writeln!(out, "  {}", escape_controls(&d.to_string()))
            }
        }
    }

    /// The `fen` format: the normalized FEN, or `invalid`, and a line end.
    fn write_fen(
        &mut self,
        position: Option<&shakmaty::Chess>,
        out: &mut impl Write,
    ) -> io::Result<()> {
        self.buf.clear();
        match position {
            Some(position) => FenDisplay {
                position,
                castling: self.settings.castling,
                ep: self.settings.ep,
            }
            .append_to(&mut self.buf),
            None => self.buf.extend_from_slice(b"invalid"),
        }
        self.buf.push(b'\n');
        out.write_all(&self.buf)
    }
}

/// One JSON line (SPEC section 4), plus the standard-game verdict when it differs and the
/// debug outputs.
#[derive(Serialize, Default)]
struct Record<'a> {
    input: std::borrow::Cow<'a, str>,
    valid: bool,
    repaired: bool,
    fen: Option<String>,
    chess960: bool,
    diagnostics: Cow<'a, [Diagnostic]>,
    /// In a standard game (the proxy with `UCI_Chess960` off): valid?
    #[serde(skip_serializing_if = "Option::is_none")]
    standard_valid: Option<bool>,
    /// In a standard game: repaired (the proxy sends `standard_fen`)?
    #[serde(skip_serializing_if = "Option::is_none")]
    standard_repaired: Option<bool>,
    /// In a standard game: the FEN the proxy sends.
    #[serde(skip_serializing_if = "Option::is_none")]
    standard_fen: Option<String>,
    /// In a standard game: the error codes.
    #[serde(skip_serializing_if = "Option::is_none")]
    standard_codes: Option<Vec<&'static str>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    legal_moves: Option<Vec<[String; 2]>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    perft: Option<u64>,
}

/// The verdict of a position in a standard game, where it differs from Chess960's.
struct StandardVerdict {
    valid: bool,
    repaired: bool,
    fen: Option<String>,
    codes: Vec<&'static str>,
}

impl StandardVerdict {
    /// `  in a standard game (UCI_Chess960 off): repaired: <fen> (codes)`.
    fn write_human(&self, out: &mut impl Write) -> io::Result<()> {
        let status = match (self.valid, self.repaired) {
            (true, _) => "valid",
            (false, true) => "repaired",
            (false, false) => "invalid",
        };
        write!(out, "  in a standard game (UCI_Chess960 off): {status}")?;
        if let Some(fen) = &self.fen {
            write!(out, ": {}", escape_controls(fen))?;
        }
        match self.codes.is_empty() {
            true => writeln!(out),
            false => writeln!(out, " ({})", self.codes.join(", ")),
        }
    }
}

/// Each legal move of `pos` in `notation` with the FEN after it.
fn legal_moves(
    pos: &shakmaty::Chess,
    notation: crate::uci::Notation,
    castling: crate::fen::CastlingStyle,
    ep: crate::fen::EpMode,
) -> Vec<[String; 2]> {
    use shakmaty::Position as _;
    pos.legal_moves()
        .into_iter()
        .map(|mv| {
            let (uci, _) = crate::rules::write_move(pos, mv, notation);
            let mut after = pos.clone();
            after.play_unchecked(mv);
            let fen = FenDisplay {
                position: &after,
                castling,
                ep,
            };
            [uci.to_string(), fen.to_string()]
        })
        .collect()
}

/// The diagnostics of `input` as `--format json` shows them. A span is a byte range into
/// `input` as the JSON shows it: where `input` is not UTF-8, each invalid sequence is shown as
/// U+FFFD (3 bytes), and the spans are moved to match (SPEC 4: "a half-open byte range into
/// `input`"); a UTF-8 input's diagnostics are used as they are.
pub(crate) fn json_diagnostics<'a>(diags: &'a [Diagnostic], input: &[u8]) -> Cow<'a, [Diagnostic]> {
    if std::str::from_utf8(input).is_ok() {
        return Cow::Borrowed(diags);
    }
    let shown = |at: usize| String::from_utf8_lossy(&input[..at.min(input.len())]).len();
    let moved = diags.iter().map(|d| Diagnostic {
        span: d.span.as_ref().map(|s| shown(s.start)..shown(s.end)),
        ..d.clone()
    });
    Cow::Owned(moved.collect())
}

/// The human output of one input line: `line N: valid|repaired|invalid[: FEN]`, then each
/// diagnostic with carets under its place (`verdict` is (valid, repaired)).
pub(crate) fn write_human_block(
    out: &mut impl Write,
    line_number: u64,
    verdict: (bool, bool),
    fen: Option<impl std::fmt::Display>,
    input: &[u8],
    diagnostics: &[Diagnostic],
    color: bool,
) -> io::Result<()> {
    let status = match verdict {
        (true, _) => "valid",
        (false, true) => "repaired",
        (false, false) => "invalid",
    };
    match fen {
        Some(fen) => writeln!(
            out,
            "line {line_number}: {status}: {}",
            escape_controls(&fen.to_string())
        )?,
        None => writeln!(out, "line {line_number}: {status}")?,
    }
    for d in diagnostics {
        write_human(input, d, out, color)?;
    }
    Ok(())
}

/// `  error[code]: message`, then the input with carets under the span, then the fix; with
/// `color`, the heading and the carets in the severity's colour (ANSI).
pub(crate) fn write_human(
    input: &[u8],
    d: &Diagnostic,
    out: &mut impl Write,
    color: bool,
) -> io::Result<()> {
    let (on, off) = match (color, d.severity) {
        (false, _) => ("", ""),
        (true, Severity::Error) => ("\x1b[1;31m", "\x1b[0m"),
        (true, Severity::Warning) => ("\x1b[1;33m", "\x1b[0m"),
        (true, Severity::Note) => ("\x1b[1;36m", "\x1b[0m"),
    };
    let message = escape_controls(&d.message);
    writeln!(out, "  {on}{}[{}]{off}: {message}", d.severity, d.code)?;
    if let Some(span) = &d.span {
        let shown: String = String::from_utf8_lossy(input)
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
        let start = span.start.min(input.len());
        let end = span.end.clamp(start, input.len());
        let column = String::from_utf8_lossy(&input[..start]).chars().count();
        let width = String::from_utf8_lossy(&input[start..end])
            .chars()
            .count()
            .max(1);
        writeln!(out, "   | {shown}")?;
        writeln!(
            out,
            "   | {}{on}{}{off}",
            " ".repeat(column),
            "^".repeat(width)
        )?;
    }
    if let Some(fix) = &d.fix {
        writeln!(out, "   = fix: {}", escape_controls(fix))?;
    }
    Ok(())
}
