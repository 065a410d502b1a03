//! `fenguard check --variant NAME` for every variant but chess: the rules picked once per run
//! ([`Rules::for_variant`]) and each line checked through the proxy's own rules entry
//! ([`Game::analyze`] and the [`GameRules`] questions), with the same formats (human, json,
//! fen), repair and exit statuses as chess. The 8x8 and 10x8 boards keep their own record
//! shapes (the oracle scripts read them): `--legal-moves` lists UCI moves for 8x8 (Chess960
//! notation, standard with `--standard`; `scripts/variant8_oracle.py`) and `[move, fen]` pairs
//! for 10x8 (`scripts/variant10_oracle.py`), where `--perft` also applies.

use std::borrow::Cow;
use std::io::{self, BufWriter, Write};
use std::process::ExitCode;

use serde::Serialize;

use super::output::{Checker, Format, json_diagnostics, write_human, write_human_block};
use super::{CheckArgs, Settings};
use crate::fen::Diagnostic;
use crate::framing::MAX_LINE;
use crate::rules::{Game, GameRules, Rules};
use crate::uci::Notation;
use crate::variant::Variant;

/// Runs `check` for a variant other than chess; `None` for chess (the caller's own path).
pub(super) fn run(args: &CheckArgs) -> Option<ExitCode> {
    let variant = &args.variant.variant;
    let usage = |message: String| {
        eprintln!("fenguard check: {message}");
        Some(ExitCode::from(2))
    };
    let rules = Rules::for_variant(variant);
    match &rules {
        Rules::Chess => None,
        Rules::Eight(_) | Rules::Ten(_) => Some(run_variant(args, rules, variant)),
        // `--variant`'s parser accepts modelled variants only (`Variant::modelled_names`).
        Rules::Unchecked(_) => usage(format!("unsupported variant `{}`", variant.uci_name())),
    }
}

fn run_variant(args: &CheckArgs, rules: Rules, variant: &Variant) -> ExitCode {
    let settings = Settings::from(args);
    let mut checker = VariantChecker {
        ten: matches!(rules, Rules::Ten(_)),
        rules,
        name: variant.uci_name().to_owned(),
        settings,
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

/// The checker of a variant's lines.
struct VariantChecker {
    rules: Rules,
    /// A 10x8 board (its record shape), else an 8x8 variant.
    ten: bool,
    /// The `UCI_Variant` name records carry.
    name: String,
    settings: Settings,
    legal_moves: bool,
    perft: Option<u32>,
    line_number: u64,
    all_ok: bool,
}

/// One line's verdict.
struct Verdict {
    valid: bool,
    repaired: bool,
    /// The position printed: the valid one, or the repaired one with `--repair`.
    shown: Option<Game>,
    /// The valid or repairable position (its castling rights decide `chess960` on 10x8).
    repairable: Option<Game>,
    diagnostics: Vec<Diagnostic>,
}

impl VariantChecker {
    fn chess960_allowed(&self) -> bool {
        self.settings.options.chess960_allowed
    }

    fn verdict(&self, input: &[u8]) -> Verdict {
        let a = Game::analyze(&self.rules, input, self.chess960_allowed(), true);
        let shown = a.game.clone().filter(|_| a.valid || self.settings.repair);
        Verdict {
            valid: a.valid,
            repaired: !a.valid && shown.is_some(),
            shown,
            repairable: a.game,
            diagnostics: a.diagnostics,
        }
    }

    fn line<W: Write>(&mut self, input: &[u8], out: &mut W) -> io::Result<()> {
        self.line_number += 1;
        let (castling, ep) = (self.settings.castling, self.settings.ep);
        let moves_too = self.legal_moves;
        if self.settings.format == Format::Fen && !self.settings.repair && !moves_too {
            // Only the verdict and the position are printed: no notes needed.
            let game = Game::valid(&self.rules, input, self.chess960_allowed());
            self.all_ok &= game.is_some();
            let fen = game.map(|g| g.fen(castling, ep));
            return writeln!(out, "{}", fen.as_deref().unwrap_or("invalid"));
        }
        let v = self.verdict(input);
        self.all_ok &= v.valid || v.repaired;
        let fen = v.shown.as_ref().map(|g| g.fen(castling, ep));
        match (self.settings.format, self.ten) {
            (Format::Fen, _) => {
                writeln!(out, "{}", fen.as_deref().unwrap_or("invalid"))?;
                self.moves_line8(&v, out)
            }
            (Format::Json, true) => self.json10(input, &v, fen, out),
            (Format::Json, false) => self.json8(input, &v, fen.as_deref(), out),
            (Format::Human, true) => {
                write_human_block(
                    out,
                    self.line_number,
                    (v.valid, v.repaired),
                    fen.as_deref(),
                    input,
                    &v.diagnostics,
                    self.settings.style.color,
                )?;
                self.boards(input, &v, fen.as_deref(), out)?;
                self.moves_line8(&v, out)
            }
            (Format::Human, false) => self.human8(input, &v, fen.as_deref(), out),
        }
    }

    /// The legal moves of the printed position: 8x8 in the `--standard` notation, 10x8 as
    /// its JSON writes them (king-to-target castles, king-takes-rook in caparandom).
    fn moves8(&self, v: &Verdict) -> Option<Vec<String>> {
        let notation = match self.ten {
            true => Notation::Standard,
            false => Notation::from_chess960(self.chess960_allowed()),
        };
        let game = v.shown.as_ref().filter(|_| self.legal_moves)?;
        let moves = game.legal_moves().into_iter();
        Some(
            moves
                .map(|m| game.write(m, notation).0.to_string())
                .collect(),
        )
    }

    fn json8<W: Write>(
        &self,
        input: &[u8],
        v: &Verdict,
        fen: Option<&str>,
        out: &mut W,
    ) -> io::Result<()> {
        let moves = self.moves8(v);
        let record = Record8 {
            input: String::from_utf8_lossy(input),
            variant: &self.name,
            valid: v.valid,
            repaired: v.repaired,
            fen,
            chess960: v.shown.as_ref().is_some_and(Game::needs_chess960),
            diagnostics: records(&v.diagnostics, input),
            legal_moves: moves.as_deref(),
            perft: self
                .perft
                .and_then(|d| v.shown.as_ref().map(|g| crate::rules::perft(g, d))),
        };
        serde_json::to_writer(&mut *out, &record)?;
        out.write_all(b"\n")
    }

    fn human8<W: Write>(
        &self,
        input: &[u8],
        v: &Verdict,
        fen: Option<&str>,
        out: &mut W,
    ) -> io::Result<()> {
        let status = match (v.valid, v.repaired) {
            (true, _) => "valid",
            (false, true) => "repaired",
            (false, false) => "invalid",
        };
        let (n, variant) = (self.line_number, &self.name);
        match fen {
            Some(fen) => writeln!(
                out,
                "line {n} ({variant}): {status}: {}",
                crate::fen::escape_controls(fen)
            )?,
            None => writeln!(out, "line {n} ({variant}): {status}")?,
        }
        for d in &v.diagnostics {
            write_human(input, d, out, self.settings.style.color)?;
        }
        self.boards(input, v, fen, out)?;
        self.moves_line8(v, out)
    }

    /// The board block under a line's human output (SPEC section 14).
    fn boards<W: Write>(
        &self,
        input: &[u8],
        v: &Verdict,
        fen: Option<&str>,
        out: &mut W,
    ) -> io::Result<()> {
        super::boards::write_boards(
            out,
            &self.settings,
            crate::view::Shape::for_variant(Some(&self.name)),
            input,
            &v.diagnostics,
            fen,
            v.repaired,
        )
    }

    /// `moves: ...` after a line's fen or human output, with `--legal-moves`.
    fn moves_line8<W: Write>(&self, v: &Verdict, out: &mut W) -> io::Result<()> {
        match self.moves8(v) {
            Some(moves) => writeln!(out, "moves: {}", moves.join(" ")),
            None => Ok(()),
        }
    }

    fn json10<W: Write>(
        &self,
        input: &[u8],
        v: &Verdict,
        fen: Option<String>,
        out: &mut W,
    ) -> io::Result<()> {
        let (castling, ep) = (self.settings.castling, self.settings.ep);
        let game = v.shown.as_ref();
        let record = Record10 {
            input: String::from_utf8_lossy(input),
            valid: v.valid,
            repaired: v.repaired,
            fen,
            chess960: v.repairable.as_ref().is_some_and(Game::needs_chess960),
            variant: &self.name,
            diagnostics: records(&v.diagnostics, input),
            legal_moves: game.filter(|_| self.legal_moves).map(|g| {
                g.legal_moves()
                    .into_iter()
                    .map(|m| {
                        let mut after = g.clone();
                        after.play(m);
                        let uci = g.write(m, Notation::Standard).0.to_string();
                        [uci, after.fen(castling, ep)]
                    })
                    .collect()
            }),
            perft: self.perft.and_then(|d| match game {
                Some(Game::Ten(b)) => Some(b.perft(d)),
                _ => None,
            }),
        };
        serde_json::to_writer(&mut *out, &record)?;
        out.write_all(b"\n")
    }
}

fn records<'a>(diagnostics: &'a [Diagnostic], input: &[u8]) -> Cow<'a, [Diagnostic]> {
    json_diagnostics(diagnostics, input)
}

/// One JSON line of an 8x8 variant: SPEC section 4's fields, `variant`, and `legal_moves`
/// when asked for.
#[derive(Serialize)]
struct Record8<'a> {
    input: Cow<'a, str>,
    variant: &'a str,
    valid: bool,
    repaired: bool,
    fen: Option<&'a str>,
    chess960: bool,
    diagnostics: Cow<'a, [Diagnostic]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    legal_moves: Option<&'a [String]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    perft: Option<u64>,
}

/// One JSON line of a 10x8 variant: SPEC section 4's fields, plus `variant` and the debug
/// outputs.
#[derive(Serialize)]
struct Record10<'a> {
    input: Cow<'a, str>,
    valid: bool,
    repaired: bool,
    fen: Option<String>,
    chess960: bool,
    variant: &'a str,
    diagnostics: Cow<'a, [Diagnostic]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    legal_moves: Option<Vec<[String; 2]>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    perft: Option<u64>,
}
