//! `fenguard check --variant NAME`: picks the rules once per run. `chess` goes to the chess
//! checker (`output.rs`); the 10x8 variants to [`Board10`] with the same formats (human, json,
//! fen), repair and exit statuses; the 8x8 variants plug in at the marked arm.

use std::borrow::Cow;
use std::io::{self, BufWriter, Write};
use std::process::ExitCode;

use serde::Serialize;

use super::output::{Checker, Format, json_diagnostics, write_human_block};
use super::{CheckArgs, Settings};
use crate::fen::Diagnostic;
use crate::framing::MAX_LINE;
use crate::variant::Variant;
use crate::variant::board10::{Board10, Notation, Options, Variant10};

/// A checker of input lines: one output line (json, fen) or block (human) per input line.
pub(crate) trait Lines {
    /// Checks one input line (without its line end) and writes its output.
    fn line<W: Write>(&mut self, input: &[u8], out: &mut W) -> io::Result<()>;
}

impl Lines for Checker {
    fn line<W: Write>(&mut self, input: &[u8], out: &mut W) -> io::Result<()> {
        Checker::line(self, input, out)
    }
}

/// Runs `check` for a variant other than chess; `None` for chess (the caller's own path).
pub(super) fn run(args: &CheckArgs) -> Option<ExitCode> {
    let variant = &args.variant.variant;
    let usage = |message: String| {
        eprintln!("fenguard check: {message}");
        Some(ExitCode::from(2))
    };
    match variant {
        Variant::Chess => None,
        v if v.is_10x8() => {
            let v10 = Variant10::from_variant(v).expect("a 10x8 variant");
            Some(run_10x8(args, v10))
        }
        // The 8x8 variants (shakmaty's `variant` feature): the caller's path, with `Checker8`.
        v if v.is_8x8_variant() => {
            if args.variant.perft.is_some() {
                return usage("--perft applies to the 10x8 variants".to_owned());
            }
            None
        }
        other => usage(format!(
            "unsupported variant `{}`; expected chess, crazyhouse, atomic, kingofthehill, 3check, horde, racingkings, antichess, giveaway, capablanca, caparandom, gothic, janus or embassy",
            other.uci_name()
        )),
    }
}

fn run_10x8(args: &CheckArgs, variant: Variant10) -> ExitCode {
    let settings = Settings::from(args);
    let mut checker = Checker10 {
        settings,
        options: Options {
            variant,
            chess960_allowed: settings.options.chess960_allowed,
        },
        legal_moves: args.variant.legal_moves,
        perft: args.variant.perft,
        line_number: 0,
        all_ok: true,
    };
    let stdout = io::stdout();
    let mut out = BufWriter::with_capacity(64 * 1024, stdout.lock());
    // Lines over the cap get the chess checker's `line-too-long` answer.
    let mut long = Checker::new(settings);
    let result = super::check_all(
        args,
        &mut |l, n, o| match l.len() > MAX_LINE {
            true => long.too_long(l, n, o),
            false => checker.line(l, o),
        },
        &mut out,
    )
    .and_then(|()| out.flush());
    match result {
        Ok(()) if checker.all_ok && long.all_ok() => ExitCode::SUCCESS,
        Ok(()) => ExitCode::from(1),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::from(2),
        Err(e) => {
            let _ = out.flush();
            eprintln!("fenguard check: {e}");
            ExitCode::from(2)
        }
    }
}

/// The 10x8 checker.
struct Checker10 {
    settings: Settings,
    options: Options,
    legal_moves: bool,
    perft: Option<u32>,
    line_number: u64,
    all_ok: bool,
}

impl Lines for Checker10 {
    fn line<W: Write>(&mut self, input: &[u8], out: &mut W) -> io::Result<()> {
        self.line_number += 1;
        if self.settings.format == Format::Fen && !self.settings.repair {
            // Only the verdict and the position are printed: no notes needed.
            let board = Board10::valid_from_fen(input, &self.options);
            self.all_ok &= board.is_some();
            let fen = board.map(|b| b.fen(self.settings.castling, self.settings.ep));
            return writeln!(out, "{}", fen.as_deref().unwrap_or("invalid"));
        }
        let analysis = Board10::from_fen(input, &self.options);
        let repaired = match analysis.is_valid() || !self.settings.repair {
            true => None,
            false => analysis.repair(),
        };
        self.all_ok &= analysis.is_valid() || repaired.is_some();
        let board = repaired.or(analysis.board());
        let (castling, ep) = (self.settings.castling, self.settings.ep);
        let fen = board.map(|b| b.fen(castling, ep));
        match self.settings.format {
            Format::Fen => writeln!(out, "{}", fen.as_deref().unwrap_or("invalid")),
            Format::Json => {
                let notation = Notation::for_engine(self.options.variant, false);
                let record = Record {
                    input: String::from_utf8_lossy(input),
                    valid: analysis.is_valid(),
                    repaired: repaired.is_some(),
                    fen,
                    chess960: analysis.needs_chess960(),
                    variant: self.options.variant.name(),
                    diagnostics: json_diagnostics(analysis.diagnostics(), input),
                    legal_moves: board.filter(|_| self.legal_moves).map(|b| {
                        b.legal_moves()
                            .into_iter()
                            .map(|m| {
                                let mut after = b.clone();
                                after.play(m);
                                [b.write_uci(m, notation), after.fen(castling, ep)]
                            })
                            .collect()
                    }),
                    perft: self.perft.and_then(|d| board.map(|b| b.perft(d))),
                };
                serde_json::to_writer(&mut *out, &record)?;
                out.write_all(b"\n")
            }
            Format::Human => write_human_block(
                out,
                self.line_number,
                (analysis.is_valid(), repaired.is_some()),
                fen.as_deref(),
                input,
                analysis.diagnostics(),
            ),
        }
    }
}

/// One JSON line: SPEC section 4's fields, plus `variant` and the debug outputs.
#[derive(Serialize)]
struct Record<'a> {
    input: std::borrow::Cow<'a, str>,
    valid: bool,
    repaired: bool,
    fen: Option<String>,
    chess960: bool,
    variant: &'static str,
    diagnostics: Cow<'a, [Diagnostic]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    legal_moves: Option<Vec<[String; 2]>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    perft: Option<u64>,
}
