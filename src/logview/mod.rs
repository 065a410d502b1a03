//! `fenguard log [OPTIONS] [FILE]`: read `positions.jsonl` (SPEC section 8): every record
//! rebuilt in full (compact `position` records expanded), filtered by session, verdict,
//! diagnostic code, kind or seq, shown for people or as JSON Lines, followed as it is written,
//! or written as PGN games.
//!
//! ```text
//! $ fenguard log --verdict rejected
//! positions.jsonl:12  seq 7  position  rejected  2026-11-29T13:00:00.123456Z  session 19c…-4242
//!   gui:   position fen 8/8/8/8/8/8/8/8 w - - 0 1
//!   sent:  (nothing)
//!   error missing-king: ...
//! ```

pub mod expand;
pub mod follow;
pub mod gap;
mod html;
pub mod pgn;
pub mod position;
mod show;

use std::io;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use serde_json::Value;

pub use expand::{ExpandError, Expander};
pub use gap::Gap;
pub use pgn::{Game, Games};

use crate::config::{Config, default_log_dir};

/// Options of `fenguard log`.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct LogArgs {
    /// The file to read. Default: `positions.jsonl` in the log directory (`--log-dir`, else
    /// `log.dir` of the configuration, else `$XDG_STATE_HOME/fenguard` or
    /// `~/.local/state/fenguard`).
    #[arg(value_name = "FILE")]
    pub file: Option<PathBuf>,
    /// Configuration file whose `log.dir` names the log directory.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// The log directory (overrides `log.dir`).
    #[arg(long, value_name = "DIR")]
    pub log_dir: Option<PathBuf>,
    /// Only records of this session id.
    #[arg(long, value_name = "ID")]
    pub session: Option<String>,
    /// Only `position` records with this verdict: valid, repaired, rejected, forwarded-invalid,
    /// unchecked (any other value is a usage error, exit status 2).
    #[arg(long, value_name = "VERDICT", value_parser = ["valid", "repaired", "rejected", "forwarded-invalid", "unchecked"])]
    pub verdict: Option<String>,
    /// Only records with a diagnostic of this code (`illegal-move`, `illegal-bestmove`, ...).
    #[arg(long, value_name = "CODE")]
    pub code: Option<String>,
    /// Only records of this kind: position, search, engine-start, engine-exit, chess960-enabled, option,
    /// command, gap (any other value is a usage error, exit status 2).
    #[arg(long, value_name = "KIND", value_parser = ["position", "search", "engine-start", "engine-exit", "chess960-enabled", "option", "command", "gap"])]
    pub kind: Option<String>,
    /// Only the record with this `seq` (with `--session` when the file holds several).
    #[arg(long, value_name = "N")]
    pub seq: Option<u64>,
    /// `human` (default): the GUI's line, what was sent and the final FEN, one block a
    /// record; `json`: each full record as one JSON line.
    #[arg(long, value_name = "FORMAT", default_value = "human", value_parser = ["human", "json"])]
    pub format: String,
    /// Keep reading as the file grows (and across rotation), like `tail -F`.
    #[arg(short, long, conflicts_with = "pgn")]
    pub follow: bool,
    /// Write the logged games as PGN (their last record passing the filters; SAN, `SetUp` and
    /// `FEN` tags for a non-standard start, `Variant "Chess960"` in Chess960 mode, the 8x8
    /// variants by their rules with python-chess's `Variant` tag; a ponder move not played does
    /// not split a game).
    #[arg(long)]
    pub pgn: bool,
    /// `--board`, `--color`, `--unicode` (human format) and `--html` (the session report).
    #[command(flatten)]
    pub view: crate::view::ViewArgs,
}

/// How many recent `position` records `fenguard log` keeps to draw searches on.
const RECENT_POSITIONS: usize = 64;

/// Exit status for bad arguments, an unreadable file or an unwritable output.
const EXIT_USAGE: u8 = 2;

impl LogArgs {
    /// Whether a full record passes the filters. A `gap` record passes those of its session
    /// and kind, and `--verdict`, `--code` and `--seq` when a lost record may have matched
    /// them (`--seq`: within its range): a filtered view still shows where records are missing.
    pub fn matches(&self, record: &Value) -> bool {
        if let Some(gap) = Gap::of(record) {
            return self.session.as_ref().is_none_or(|s| *s == gap.session)
                && self.kind.as_ref().is_none_or(|k| k == "gap")
                && self.seq.is_none_or(|n| gap.covers(n));
        }
        let is = |key: &str, want: &Option<String>| {
            want.as_ref()
                .is_none_or(|w| record[key].as_str() == Some(w.as_str()))
        };
        let has_code = self.code.as_ref().is_none_or(|code| {
            record["diagnostics"]
                .as_array()
                .is_some_and(|ds| ds.iter().any(|d| d["code"].as_str() == Some(code)))
        });
        is("session", &self.session)
            && is("verdict", &self.verdict)
            && is("kind", &self.kind)
            && has_code
            && self.seq.is_none_or(|n| record["seq"].as_u64() == Some(n))
    }

    fn path(&self) -> Result<PathBuf, String> {
        if let Some(file) = &self.file {
            return Ok(file.clone());
        }
        let dir = match &self.log_dir {
            Some(dir) => dir.clone(),
            None => {
                let from_env = std::env::var_os("FENGUARD_CONFIG").map(PathBuf::from);
                let config =
                    Config::load(self.config.as_deref(), from_env).map_err(|e| e.to_string())?;
                if config.log.dir.is_empty() {
                    default_log_dir(|name| std::env::var(name).ok())
                        .ok_or("no log directory: give FILE, --log-dir, or set HOME")?
                } else {
                    PathBuf::from(config.log.dir)
                }
            }
        };
        Ok(dir.join("positions.jsonl"))
    }
}

/// Runs `fenguard log`: 0 when every line was read and rebuilt, 1 when some could not be
/// (each reported on stderr with its line number), 2 for a usage or I/O error.
pub fn run(args: LogArgs) -> ExitCode {
    let path = match args.path() {
        Ok(path) => path,
        Err(message) => {
            eprintln!("fenguard log: {message}");
            return ExitCode::from(EXIT_USAGE);
        }
    };
    if args.view.html {
        return html::run(&args, &path);
    }
    match view(&args, &path, &mut io::stdout().lock()) {
        Ok(0) => ExitCode::SUCCESS,
        Ok(_) => ExitCode::from(1),
        Err(err) if err.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("fenguard log: {}: {err}", path.display());
            ExitCode::from(EXIT_USAGE)
        }
    }
}

/// Whether the file at `path` ends with a line end (its last line was written whole).
fn ends_with_newline(path: &Path) -> bool {
    use std::io::{Read as _, Seek as _, SeekFrom};
    let mut last = [0u8];
    std::fs::File::open(path)
        .and_then(|mut f| {
            f.seek(SeekFrom::End(-1))?;
            f.read_exact(&mut last)
        })
        .is_ok_and(|()| last[0] == b'\n')
}

/// Reads `path` and writes what `args` asks for to `out`; returns how many lines could not be
/// rebuilt (reported on stderr).
///
/// # Errors
/// The I/O error of reading `path` or writing `out`.
pub fn view(args: &LogArgs, path: &Path, out: &mut impl io::Write) -> io::Result<usize> {
    let mut expander = Expander::default();
    let mut games = Games::default();
    let mut bad = 0;
    let mut number = 0;
    let boards = show::Boards {
        when: args.view.board,
        style: crate::check::process_style(&args.view),
    };
    // The last position records read (any session): the boards searches are drawn on.
    let mut positions: std::collections::VecDeque<Value> = std::collections::VecDeque::new();
    let keep = |record: Value, positions: &mut std::collections::VecDeque<Value>| {
        if positions.len() == RECENT_POSITIONS {
            positions.pop_front();
        }
        positions.push_back(record);
    };
    let name = path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    // The last bad line, reported once the next record shows it was not the last: a torn
    // last line (a write cut short) is only a warning, as `fenguard replay` takes it.
    let mut pending: Option<(usize, ExpandError)> = None;
    let report = |(at, err): (usize, ExpandError), bad: &mut usize| {
        *bad += 1;
        let err = crate::fen::escape_controls(&err.to_string()).into_owned();
        eprintln!("fenguard log: {name}:{at}: {err}");
    };
    follow::read_lines(path, args.follow, |line| {
        number += 1;
        if line.trim().is_empty() {
            return Ok(());
        }
        let expanded = expander.expand_line(line);
        if let Some((at, err)) = pending.take() {
            if expanded.as_ref().is_ok_and(|r| Gap::of(r).is_some()) {
                // A write cut short by the failure the gap record counts.
                eprintln!(
                    "fenguard log: warning: {name}:{at}: not a whole record, cut short where the gap below starts: left out ({err})"
                );
            } else {
                report((at, err), &mut bad);
            }
        }
        let record = match expanded {
            Ok(record) => record,
            // `--follow` passes whole lines only: a bad one is no torn write.
            Err(err) if args.follow => {
                report((number, err), &mut bad);
                return Ok(());
            }
            Err(err) => {
                pending = Some((number, err));
                return Ok(());
            }
        };
        if args.pgn {
            if let Some(game) = games.add(&record, args.matches(&record))
                && game.passes
            {
                out.write_all(game.to_pgn().as_bytes())?;
            }
            return Ok(());
        }
        if !args.matches(&record) {
            if record["kind"] == "position" {
                keep(record, &mut positions);
            }
            return Ok(());
        }
        match args.format.as_str() {
            "json" => writeln!(out, "{record}")?,
            _ => {
                let position = positions.iter().rev().find(|p| {
                    record["kind"] == "search"
                        && p["session"] == record["session"]
                        && p["seq"] == record["position_seq"]
                });
                show::human(out, (&name, number), &record, boards, position)?;
            }
        }
        if record["kind"] == "position" {
            keep(record, &mut positions);
        }
        if args.follow {
            out.flush()?;
        }
        Ok(())
    })?;
    if let Some((at, err)) = pending {
        if ends_with_newline(path) {
            // Written whole: a bad record, not a write cut short.
            report((at, err), &mut bad);
        } else {
            let err = crate::fen::escape_controls(&err.to_string()).into_owned();
            eprintln!(
                "fenguard log: warning: {name}:{at}: the last line is not a whole record (a torn write?): left out ({err})"
            );
        }
    }
    for game in games.finish() {
        if game.passes {
            out.write_all(game.to_pgn().as_bytes())?;
        }
    }
    out.flush()?;
    Ok(bad)
}
