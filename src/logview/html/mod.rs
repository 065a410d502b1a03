//! `fenguard log --html`: the session report (SPEC section 14), one self-contained HTML page
//! on standard output. A timeline of the records that pass the filters, in the file's order:
//! engine starts and exits, options, positions, searches, lost records (`gap`) and any other
//! kind (its fields listed); each position with its verdict, its diagnostics (the span marked
//! in the GUI's line), the GUI's board and the engine's beside it when they differ, the moves
//! as a list (only the new ones when the record extends the previous position of its session),
//! and the engine's bestmove drawn on the searched position as an arrow.
//!
//! Built to stay small whatever the log holds (issue 30):
//! - the file is read twice, a line at a time: first for the bestmove of each position (the
//!   arrows), then for the page, written as it is read; only the last position of each
//!   session is kept in full ([`super::Expander`]), so memory grows with the sessions, not
//!   with the records or the length of a game;
//! - the page holds the records as JSON data ([`data`]), one item a record, with the GUI's
//!   line of a record that extends an earlier one as that record's item, a prefix length and
//!   the new tail (as the file does), so a game resent move by move stays linear in size;
//! - the page's script ([`script`]) draws only the records near the window (a virtual list of
//!   chunks), rebuilds the GUI's lines it shows from the data, and draws the boards of valid
//!   positions itself; boards with marks (a diagnostic, a repair) are SVG made here.

mod body;
mod data;
mod fields;
mod page;
mod script;
mod shape;

use std::collections::{HashMap, HashSet};
use std::io::{self, BufWriter, Write as _};
use std::path::Path;
use std::process::ExitCode;

use serde_json::Value;

use super::{Expander, LogArgs, follow};

/// The bestmove of each searched position and the sessions' numbers, from the first reading.
#[derive(Debug, Default)]
struct Index {
    /// Session id -> its number (0-based, in the order the records passing the filters name
    /// them first).
    sessions: HashMap<String, usize>,
    /// (session number, position seq) -> the first bestmove of a search from it.
    bestmoves: HashMap<(usize, u64), String>,
    /// (session number, position seq) of the positions a search with diagnostics searched
    /// (drawn under it).
    drawn: HashSet<(usize, u64)>,
}

impl Index {
    /// The number of `session`, given on first sight.
    fn session(&mut self, session: &str) -> usize {
        let next = self.sessions.len();
        *self.sessions.entry(session.to_owned()).or_insert(next)
    }

    /// The first reading: every line that passes the filters (compact records pass or fail
    /// them as their full records would: only `raw`, `sent` and the moves are compact).
    fn read(args: &LogArgs, path: &Path) -> io::Result<Index> {
        let mut index = Index::default();
        follow::read_lines(path, false, |line| {
            let Ok(record) = serde_json::from_str::<Value>(line) else {
                return Ok(()); // reported by the second reading
            };
            if !record.is_object() || !args.matches(&record) {
                return Ok(());
            }
            let session = index.session(record["session"].as_str().unwrap_or_default());
            if record["kind"] == "search"
                && let Some(p) = record["position_seq"].as_u64()
            {
                if let Some(b) = record["bestmove"].as_str() {
                    index
                        .bestmoves
                        .entry((session, p))
                        .or_insert_with(|| b.to_owned());
                }
                if record["diagnostics"]
                    .as_array()
                    .is_some_and(|d| !d.is_empty())
                {
                    index.drawn.insert((session, p));
                }
            }
            Ok(())
        })?;
        Ok(index)
    }
}

/// Runs `fenguard log --html`: 0 when every line was rebuilt, 1 when some could not be (each
/// reported on stderr), 2 when the file cannot be read or the page not written.
pub(super) fn run(args: &LogArgs, path: &Path) -> ExitCode {
    let index = match Index::read(args, path) {
        Ok(index) => index,
        Err(err) => {
            eprintln!("fenguard log: {}: {err}", path.display());
            return ExitCode::from(2);
        }
    };
    let mut out = BufWriter::with_capacity(1 << 16, io::stdout().lock());
    match write_report(args, path, index, &mut out).and_then(|bad| out.flush().map(|()| bad)) {
        Ok(0) => ExitCode::SUCCESS,
        Ok(_) => ExitCode::from(1),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("fenguard log: {}: {err}", path.display());
            ExitCode::from(2)
        }
    }
}

/// The second reading: the page, written to `out` as the file is read. Returns how many
/// lines could not be rebuilt (each reported on stderr).
fn write_report(
    args: &LogArgs,
    path: &Path,
    index: Index,
    out: &mut impl io::Write,
) -> io::Result<usize> {
    let name = path.display().to_string();
    page::start(out)?;
    let mut items = data::Items::new(index.bestmoves, index.drawn);
    let mut sessions = index.sessions;
    let mut bad = 0usize;
    let mut number = 0usize;
    let mut expander = Expander::default();
    follow::read_lines(path, false, |line| {
        number += 1;
        if line.trim().is_empty() {
            return Ok(());
        }
        let compact = match serde_json::from_str::<Value>(line) {
            Ok(v) => v,
            Err(err) => {
                bad += 1;
                eprintln!("fenguard log: {name}:{number}: not a JSON object: {err}");
                return Ok(());
            }
        };
        let shape = shape::Shape::of(&compact, &expander);
        match expander.expand(compact) {
            Ok(record) => {
                let shown = args.matches(&record);
                let session = match shown {
                    true => {
                        let s = record["session"].as_str().unwrap_or_default();
                        let next = sessions.len();
                        Some(*sessions.entry(s.to_owned()).or_insert(next))
                    }
                    false => None,
                };
                items.write(out, &record, &shape, session)?;
            }
            Err(err) => {
                bad += 1;
                let err = crate::fen::escape_controls(&err.to_string()).into_owned();
                eprintln!("fenguard log: {name}:{number}: {err}");
            }
        }
        Ok(())
    })?;
    let mut names: Vec<(&String, &usize)> = sessions.iter().collect();
    names.sort_unstable_by_key(|(_, n)| **n);
    let names: Vec<&str> = names.into_iter().map(|(s, _)| s.as_str()).collect();
    page::finish(out, &name, &names, &items.kinds(), &items)?;
    Ok(bad)
}
