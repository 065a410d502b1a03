//! The boards under `fenguard check`'s human output (SPEC section 14): one under a FEN with a
//! diagnostic, two (as given, repaired or normalized) when the output FEN draws differently.

use std::io::{self, Write};

use super::Settings;
use crate::fen::Diagnostic;
use crate::view::{BoardWhen, Finding, Shape, terminal_block};

/// Writes the board block of one checked line, indented by two spaces: `after` is the FEN
/// printed (repaired with `--repair`, else normalized), `repaired` says which.
pub(crate) fn write_boards(
    out: &mut impl Write,
    settings: &Settings,
    shape: Shape,
    input: &[u8],
    diagnostics: &[Diagnostic],
    after: Option<&str>,
    repaired: bool,
) -> io::Result<()> {
    if settings.board == BoardWhen::Never {
        return Ok(());
    }
    let findings: Vec<Finding> = diagnostics.iter().map(Finding::from).collect();
    let title = if repaired { "repaired" } else { "normalized" };
    let lines = terminal_block(
        input,
        shape,
        &findings,
        after.map(|fen| (fen, title)),
        settings.board == BoardWhen::Always,
        settings.style,
    );
    for line in lines {
        writeln!(out, "  {line}")?;
    }
    Ok(())
}
