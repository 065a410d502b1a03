//! `fenguard check --variant NAME` for the 8x8 variants: the same formats, repair and exit
//! statuses as chess, through [`crate::variant::eight`]; `--legal-moves` adds each position's
//! legal moves (a debugging aid, used by `scripts/variant8_oracle.py`).

use std::borrow::Cow;
use std::io::{self, Write};

use serde::Serialize;

use super::Settings;
use super::output::{Format, json_diagnostics, write_human};
use crate::fen::{CastlingStyle, Diagnostic, EpMode, Options};
use crate::uci::Notation;
use crate::variant::Variant;
use crate::variant::eight::analyze;

/// How to check a line of an 8x8 variant.
#[derive(Debug, Clone, Copy)]
pub struct CheckOptions {
    /// Castling field style of the output FEN.
    pub castling: CastlingStyle,
    /// En passant squares written.
    pub ep: EpMode,
    /// Repair what has one safe reading.
    pub repair: bool,
    /// Analysis options (`chess960_allowed: false` is `--standard`).
    pub options: Options,
    /// Also list the legal moves (Chess960 notation, or standard with `--standard`).
    pub legal_moves: bool,
}

/// The verdict on one line.
#[derive(Debug, Clone)]
pub struct CheckResult {
    /// No error.
    pub valid: bool,
    /// Invalid, and repaired (only with `repair`).
    pub repaired: bool,
    /// The normalized (or repaired) FEN, `None` when invalid and not repaired.
    pub fen: Option<String>,
    /// Whether a castling right of the position needs Chess960.
    pub chess960: bool,
    /// Every finding.
    pub diagnostics: Vec<Diagnostic>,
    /// The legal moves of the written position, when asked for.
    pub legal_moves: Option<Vec<String>>,
}

/// Checks one input line as a FEN of the 8x8 `variant`.
pub fn check_line(variant: &Variant, line: &[u8], opts: &CheckOptions) -> CheckResult {
    let analysis = analyze(variant, line, &opts.options);
    let valid = analysis.is_valid();
    let position = match (valid, opts.repair) {
        (true, _) => analysis.position(),
        (false, true) => analysis.repair(),
        (false, false) => None,
    };
    let notation = Notation::from_chess960(opts.options.chess960_allowed);
    CheckResult {
        valid,
        repaired: !valid && position.is_some(),
        fen: position.map(|p| p.fen(opts.castling, opts.ep)),
        chess960: position.is_some_and(|p| p.needs_chess960()),
        diagnostics: analysis.diagnostics().to_vec(),
        legal_moves: position
            .filter(|_| opts.legal_moves)
            .map(|p| p.legal_moves(notation)),
    }
}

/// Checks lines one by one in the chosen format and remembers whether all were fine.
pub(crate) struct Checker8 {
    variant: Variant,
    format: Format,
    opts: CheckOptions,
    line_number: u64,
    all_ok: bool,
}

impl Checker8 {
    pub(crate) fn new(variant: Variant, settings: Settings, legal_moves: bool) -> Self {
        Checker8 {
            variant,
            format: settings.format,
            opts: CheckOptions {
                castling: settings.castling,
                ep: settings.ep,
                repair: settings.repair,
                options: settings.options,
                legal_moves,
            },
            line_number: 0,
            all_ok: true,
        }
    }

    /// Whether every line so far was valid (or repaired, with `--repair`).
    pub(crate) fn all_ok(&self) -> bool {
        self.all_ok
    }

    /// Checks one input line (without its line end) and writes its output.
    pub(crate) fn line<W: Write>(&mut self, input: &[u8], out: &mut W) -> io::Result<()> {
        self.line_number += 1;
        let r = check_line(&self.variant, input, &self.opts);
        self.all_ok &= r.valid || r.repaired;
        match self.format {
            Format::Fen => {
                writeln!(out, "{}", r.fen.as_deref().unwrap_or("invalid"))?;
            }
            Format::Json => {
                let record = Record {
                    input: String::from_utf8_lossy(input),
                    variant: self.variant.uci_name(),
                    valid: r.valid,
                    repaired: r.repaired,
                    fen: r.fen.as_deref(),
                    chess960: r.chess960,
                    diagnostics: json_diagnostics(&r.diagnostics, input),
                    legal_moves: r.legal_moves.as_deref(),
                };
                serde_json::to_writer(&mut *out, &record)?;
                out.write_all(b"\n")?;
                return Ok(());
            }
            Format::Human => {
                let status = match (r.valid, r.repaired) {
                    (true, _) => "valid",
                    (false, true) => "repaired",
                    (false, false) => "invalid",
                };
                let variant = self.variant.uci_name();
                match &r.fen {
                    Some(fen) => writeln!(
                        out,
                        "line {} ({variant}): {status}: {fen}",
                        self.line_number
                    )?,
                    None => writeln!(out, "line {} ({variant}): {status}", self.line_number)?,
                }
                for d in &r.diagnostics {
                    write_human(input, d, out)?;
                }
            }
        }
        if let Some(moves) = &r.legal_moves {
            writeln!(out, "moves: {}", moves.join(" "))?;
        }
        Ok(())
    }
}

/// One JSON line: SPEC section 4's fields, `variant`, and `legal_moves` when asked for.
#[derive(Serialize)]
struct Record<'a> {
    input: std::borrow::Cow<'a, str>,
    variant: &'a str,
    valid: bool,
    repaired: bool,
    fen: Option<&'a str>,
    chess960: bool,
    diagnostics: Cow<'a, [Diagnostic]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    legal_moves: Option<&'a [String]>,
}
