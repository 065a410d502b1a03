//! The board options of `fenguard check` and `fenguard log` (SPEC section 14): `--board
//! never|auto|always`, `--color never|auto|always` (`NO_COLOR` respected), `--unicode`,
//! `--html`.

use super::term::Style;

/// `--board` values.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum BoardWhen {
    /// No boards.
    Never,
    /// A board under a position with a diagnostic, a repair or a normalization (two boards).
    #[default]
    Auto,
    /// A board under every position.
    Always,
}

/// `--color` values.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorWhen {
    /// Letters only.
    Never,
    /// Colour when standard output is a terminal and `NO_COLOR` is unset or empty.
    #[default]
    Auto,
    /// Colour always (even with `NO_COLOR`).
    Always,
}

/// The board options, flattened into a command's arguments.
#[derive(Debug, Clone, Copy, Default, clap::Args)]
pub struct ViewArgs {
    /// Draw the board under a position (human format): `never`, `auto` (under a diagnostic,
    /// a repair or a normalization) or `always`.
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = BoardWhen::Auto)]
    pub board: BoardWhen,
    /// ANSI colour in boards and carets: `never`, `auto` (a terminal, and `NO_COLOR` unset)
    /// or `always`.
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = ColorWhen::Auto)]
    pub color: ColorWhen,
    /// Unicode chess pieces in boards (the default on a terminal).
    #[arg(long)]
    pub unicode: bool,
    /// Write one self-contained HTML page (inline SVG boards, CSS, a little JavaScript for
    /// the filters; no network) on standard output instead.
    #[arg(long)]
    pub html: bool,
}

impl ViewArgs {
    /// The style, given whether standard output is a terminal and the value of `NO_COLOR`.
    pub fn style(&self, terminal: bool, no_color: Option<&std::ffi::OsStr>) -> Style {
        let no_color = no_color.is_some_and(|v| !v.is_empty());
        Style {
            color: match self.color {
                ColorWhen::Never => false,
                ColorWhen::Always => true,
                ColorWhen::Auto => terminal && !no_color,
            },
            unicode: self.unicode || terminal,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::OsStr;

    fn args(color: ColorWhen, unicode: bool) -> ViewArgs {
        ViewArgs {
            color,
            unicode,
            ..ViewArgs::default()
        }
    }

    #[test]
    fn auto_colour_needs_a_terminal_and_no_no_color() {
        let auto = args(ColorWhen::Auto, false);
        assert!(auto.style(true, None).color);
        assert!(!auto.style(false, None).color);
        assert!(!auto.style(true, Some(OsStr::new("1"))).color);
        // An empty NO_COLOR is as if unset (no-color.org).
        assert!(auto.style(true, Some(OsStr::new(""))).color);
    }

    #[test]
    fn always_and_never_override_the_terminal_and_no_color() {
        let always = args(ColorWhen::Always, false);
        assert!(always.style(false, Some(OsStr::new("1"))).color);
        assert!(!args(ColorWhen::Never, false).style(true, None).color);
    }

    #[test]
    fn unicode_on_a_terminal_or_when_asked() {
        assert!(args(ColorWhen::Never, false).style(true, None).unicode);
        assert!(!args(ColorWhen::Never, false).style(false, None).unicode);
        assert!(args(ColorWhen::Never, true).style(false, None).unicode);
    }
}
