//! The offline `fenguard check` command: lint and normalize FENs from
//! arguments, `--file F`, or standard input (`-`), streaming through buffers.

mod boards;
mod html;
mod output;
mod variant;

use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use crate::fen::{CastlingStyle, EpMode, Options};
use crate::framing::MAX_LINE;
use crate::variant::Variant;

pub use output::Format;

/// Options of `fenguard check`.
#[derive(Debug, Clone, clap::Args)]
pub struct CheckArgs {
    /// FENs to check; `-` reads FENs from standard input, one a line. Without FENs and
    /// without `--file`, standard input is read.
    #[arg(value_name = "FEN", allow_hyphen_values = false)]
    pub fens: Vec<std::ffi::OsString>,
    /// Read FENs from this file, one a line.
    #[arg(long, value_name = "F")]
    pub file: Option<PathBuf>,
    /// Output: `human` (carets under faults), `json` (one object a line) or `fen` (the
    /// normalized FEN or `invalid`, one a line).
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
    /// Castling field style: `xfen` (KQkq, file letters for inner rooks) or `shredder`
    /// (always file letters, e.g. HAha).
    #[arg(long, value_enum, default_value_t = CastlingArg::Xfen)]
    pub castling: CastlingArg,
    /// En passant squares written: `legal` (a legal capture exists), `xfen` (an enemy pawn
    /// is adjacent), `fen` (every valid square, as given).
    #[arg(long, value_enum, default_value_t = EpArg::Legal)]
    pub ep: EpArg,
    /// Repair what has one safe reading (castling rights without their king or rook, an en
    /// passant square that cannot be, malformed counters, missing trailing fields) and print the
    /// repaired FEN.
    #[arg(long)]
    pub repair: bool,
    /// Standard-chess castling rules: a right only Chess960 allows is an error.
    #[arg(long)]
    pub standard: bool,
    /// `--variant NAME` and its debug outputs.
    #[command(flatten)]
    pub variant: VariantArgs,
    /// `--board`, `--color`, `--unicode`, `--html`.
    #[command(flatten)]
    pub view: crate::view::ViewArgs,
}

/// `fenguard check --variant NAME` (SPEC section 10) and the 10x8 debug outputs the
/// differential and perft scripts read.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct VariantArgs {
    /// The rules to check under, by Fairy-Stockfish `UCI_Variant` name (case-insensitive).
    /// Any other name is a usage error (exit status 2).
    #[arg(long = "variant", value_name = "NAME", default_value = "chess", ignore_case = true, value_parser = variant_parser())]
    pub variant: Variant,
    /// Debug output (chess, 10x8 variants and 8x8 variants, `--format json`; for a variant also
    /// a `moves:` line in the human and fen formats): each valid position's legal moves in UCI,
    /// with the FEN after each in chess and 10x8, as `"legal_moves": [["e2e4", "<fen>"], ...]`
    /// (castles king-to-target, king-takes-rook in caparandom and in a chess position only
    /// Chess960 allows).
    #[arg(long)]
    pub legal_moves: bool,
    /// Debug output (every checked variant, `--format json`): the perft node count of each
    /// valid position to this depth, as `"perft": N`.
    #[arg(long, value_name = "DEPTH")]
    pub perft: Option<u32>,
}

/// The `--variant` values, from [`Variant::modelled_names`], each with its aliases named in its
/// help (so `--help` lists every name that is accepted).
fn variant_parser() -> impl clap::builder::TypedValueParser<Value = Variant> {
    use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser as _};
    let values = Variant::modelled_names().into_iter().map(|name| {
        let variant = Variant::from_uci_name(name);
        let aliases = variant.aliases();
        let board = match (variant == Variant::Chess, variant.is_10x8()) {
            (true, _) => "standard chess and Chess960",
            (false, true) => "10x8",
            (false, false) => "8x8",
        };
        let help = match aliases {
            [] => board.to_owned(),
            _ => format!("{board} (also: {})", aliases.join(", ")),
        };
        PossibleValue::new(name)
            .aliases(aliases.iter().copied())
            .help(help)
    });
    PossibleValuesParser::new(values.collect::<Vec<_>>()).map(|name| Variant::from_uci_name(&name))
}

/// `--castling` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum CastlingArg {
    /// X-FEN: `KQkq`, file letters for inner rooks.
    Xfen,
    /// Shredder-FEN: rook file letters always.
    Shredder,
}

/// `--ep` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum EpArg {
    /// Only with a legal en passant capture.
    Legal,
    /// With a pseudo-legal capture (X-FEN).
    Xfen,
    /// Every valid en passant square.
    Fen,
}

/// Settings shared by every line.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Settings {
    pub format: Format,
    pub castling: CastlingStyle,
    pub ep: EpMode,
    pub repair: bool,
    pub options: Options,
    /// `--board` (human format).
    pub board: crate::view::BoardWhen,
    /// Colour and Unicode of boards and carets.
    pub style: crate::view::Style,
}

impl From<&CheckArgs> for Settings {
    fn from(args: &CheckArgs) -> Self {
        Settings {
            format: args.format,
            castling: match args.castling {
                CastlingArg::Xfen => CastlingStyle::XFen,
                CastlingArg::Shredder => CastlingStyle::Shredder,
            },
            ep: match args.ep {
                EpArg::Legal => EpMode::Legal,
                EpArg::Xfen => EpMode::XFen,
                EpArg::Fen => EpMode::Fen,
            },
            repair: args.repair,
            options: Options {
                chess960_allowed: !args.standard,
                ..Options::default()
            },
            board: args.view.board,
            style: process_style(&args.view),
        }
    }
}

/// Runs `fenguard check`; exit status 0 all valid (or repaired, with `--repair`), 1 some
/// invalid, 2 usage or I/O error.
pub fn run(args: CheckArgs) -> ExitCode {
    if args.view.html {
        return html::run(&args);
    }
    if let Some(status) = variant::run(&args) {
        return status;
    }
    let settings = Settings::from(&args);
    let stdout = io::stdout();
    let mut out = BufWriter::with_capacity(64 * 1024, stdout.lock());
    let mut checker =
        output::Checker::new(settings).with_debug(args.variant.legal_moves, args.variant.perft);
    let result = check_all(
        &args,
        &mut |l, n, o| match l.len() > MAX_LINE {
            true => checker.too_long(l, n, o),
            false => checker.line(l, o),
        },
        &mut out,
    )
    .and_then(|()| out.flush());
    match result {
        Ok(()) if checker.all_ok() => ExitCode::SUCCESS,
        Ok(()) => ExitCode::from(1),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::from(2),
        Err(e) => {
            let _ = out.flush();
            eprintln!("fenguard check: {e}");
            ExitCode::from(2)
        }
    }
}

/// The board style of this process: `--color` and `--unicode` against whether standard
/// output is a terminal and `NO_COLOR` (SPEC section 14).
pub fn process_style(view: &crate::view::ViewArgs) -> crate::view::Style {
    use std::io::IsTerminal as _;
    view.style(
        io::stdout().is_terminal(),
        std::env::var_os("NO_COLOR").as_deref(),
    )
}

/// Checks one line (without its line end; at most [`MAX_LINE`] + 2 of its bytes kept) given
/// its full length in bytes, and writes its output.
pub(crate) type LineFn<'a, W> = dyn FnMut(&[u8], u64, &mut W) -> io::Result<()> + 'a;

pub(crate) fn check_all<W: Write>(
    args: &CheckArgs,
    checker: &mut LineFn<'_, W>,
    out: &mut W,
) -> io::Result<()> {
    let read_stdin = args.fens.is_empty() && args.file.is_none();
    for fen in &args.fens {
        if fen == "-" {
            check_lines(
                BufReader::with_capacity(64 * 1024, io::stdin()),
                checker,
                out,
            )?;
        } else {
            let fen = fen.as_encoded_bytes();
            checker(fen, fen.len() as u64, out)?;
        }
    }
    if let Some(path) = &args.file {
        let file = File::open(path).map_err(|e| {
            io::Error::new(
                e.kind(),
                format!("cannot read --file {}: {e}", path.display()),
            )
        })?;
        check_lines(BufReader::with_capacity(64 * 1024, file), checker, out)?;
    }
    if read_stdin {
        check_lines(
            BufReader::with_capacity(64 * 1024, io::stdin()),
            checker,
            out,
        )?;
    }
    Ok(())
}

/// Checks every line of `input` (a final line without newline included), reusing one buffer.
/// A line longer than [`MAX_LINE`] is not kept: its first bytes are, the rest is read and
/// dropped, and the checker is told its full length (it answers `line-too-long`), so memory
/// stays bounded whatever the input. The output is flushed whenever the input has nothing
/// more buffered, so a program that feeds one line and waits gets its answer, while a file is
/// still written in large blocks.
fn check_lines<R: io::Read, W: Write>(
    mut input: BufReader<R>,
    checker: &mut LineFn<'_, W>,
    out: &mut W,
) -> io::Result<()> {
    let mut line = Vec::with_capacity(256);
    loop {
        line.clear();
        let length = read_capped_line(&mut input, &mut line, MAX_LINE + 2)?;
        if length == 0 {
            return Ok(());
        }
        if line.last() == Some(&b'\n') {
            line.pop();
            if line.last() == Some(&b'\r') {
                line.pop();
            }
        }
        checker(&line, length, out)?;
        if input.buffer().is_empty() {
            out.flush()?;
        }
    }
}

/// Reads one line (through its `\n`, or to the end of input) and appends at most `keep` of
/// its bytes to `line`; returns the line's full length in bytes (0 at the end of input).
fn read_capped_line(input: &mut impl BufRead, line: &mut Vec<u8>, keep: usize) -> io::Result<u64> {
    let mut length = 0u64;
    loop {
        let buf = match input.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            return Ok(length);
        }
        let (take, ended) = match buf.iter().position(|&b| b == b'\n') {
            Some(at) => (at + 1, true),
            None => (buf.len(), false),
        };
        let room = keep.saturating_sub(line.len()).min(take);
        line.extend_from_slice(&buf[..room]);
        input.consume(take);
        length += take as u64;
        if ended {
            return Ok(length);
        }
    }
}
