//! The man pages: clap_mangen renders each command from its clap definition (name, synopsis,
//! description, options, subcommands, version); this module adds what clap does not hold
//! (exit status, environment, files, see also) and writes `fenguard.toml.5` beside them.

use std::path::Path;

use super::{config_page, roff};

/// The pages' manual name (the centre of the header line).
const MANUAL: &str = "fenguard manual";

/// `CHANGELOG.md`, as compiled into the binary: its newest entry dates the pages.
const CHANGELOG: &str = include_str!("../../CHANGELOG.md");

/// The date of the newest `CHANGELOG.md` entry (`## 0.2.0 (2026-12-02)` gives `2026-12-02`),
/// or "" when it has none.
pub fn release_date() -> &'static str {
    CHANGELOG
        .lines()
        .find_map(|l| l.strip_prefix("## "))
        .and_then(|l| l.split_once(" ("))
        .and_then(|(_, rest)| rest.strip_suffix(')'))
        .unwrap_or("")
}

/// Writes every page into `dir`: `fenguard.1`, `fenguard-NAME.1` for each visible subcommand
/// (nested ones as `fenguard-token-new.1`), `fenguard.toml.5`. Errors name the file.
pub fn write_all(cli: clap::Command, dir: &Path) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut cli = cli.disable_help_subcommand(true);
    cli.build();
    let mut pages = Vec::new();
    collect(&cli, &mut pages);
    let names: Vec<String> = pages.iter().map(page_name).collect();
    for cmd in &pages {
        let name = page_name(cmd);
        let mut text = render(cmd)?;
        text.push_str(&extra_sections(&name, &names));
        write(dir, &format!("{name}.1"), &text)?;
    }
    write(dir, "fenguard.toml.5", &config_page::render())
}

/// The command and its visible subcommands, depth first (parents before children).
fn collect(cmd: &clap::Command, out: &mut Vec<clap::Command>) {
    out.push(cmd.clone());
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        collect(sub, out);
    }
}

/// `fenguard` or `fenguard-check`: the display name clap gives a built subcommand.
fn page_name(cmd: &clap::Command) -> String {
    cmd.get_display_name()
        .unwrap_or_else(|| cmd.get_name())
        .to_owned()
}

fn render(cmd: &clap::Command) -> Result<String, String> {
    let mut buf = Vec::new();
    clap_mangen::Man::new(cmd.clone())
        .manual(MANUAL)
        .date(release_date())
        .source(format!("fenguard {}", env!("CARGO_PKG_VERSION")))
        .render(&mut buf)
        .map_err(|e| format!("rendering {}: {e}", page_name(cmd)))?;
    let text = String::from_utf8(buf).map_err(|e| format!("rendering {}: {e}", page_name(cmd)))?;
    Ok(text
        .lines()
        .map(code_in_bold)
        .collect::<Vec<_>>()
        .join("\n")
        + "\n")
}

/// A text line's `` `code` `` spans (the help texts' Markdown) in bold; request lines, and
/// lines with an odd number of backticks, as they are.
fn code_in_bold(line: &str) -> String {
    let ticks = line.matches('`').count();
    if line.starts_with(['.', '\'']) || ticks == 0 || ticks % 2 == 1 {
        return line.to_owned();
    }
    let mut out = String::with_capacity(line.len() + ticks * 2);
    for (i, part) in line.split('`').enumerate() {
        if i > 0 {
            out.push_str(if i % 2 == 1 { "\\fB" } else { "\\fR" });
        }
        out.push_str(part);
    }
    out
}

fn write(dir: &Path, file: &str, text: &str) -> Result<(), String> {
    let path = dir.join(file);
    std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))
}

/// What clap holds no place for: the proxy's exit status, environment and files on the main
/// page, and every page's SEE ALSO.
fn extra_sections(name: &str, all: &[String]) -> String {
    let mut out = String::new();
    if name == "fenguard" {
        roff::section(&mut out, "EXIT STATUS");
        for (tag, body) in EXIT_STATUS {
            roff::tagged(&mut out, tag, body);
        }
        roff::section(&mut out, "ENVIRONMENT");
        for (tag, body) in ENVIRONMENT {
            roff::tagged(&mut out, tag, body);
        }
        roff::section(&mut out, "FILES");
        for (tag, body) in FILES {
            roff::tagged(&mut out, tag, body);
        }
    }
    roff::section(&mut out, "SEE ALSO");
    let mut see: Vec<String> = all
        .iter()
        .filter(|n| n.as_str() != name)
        .map(|n| format!("\\fB{}\\fR(1)", n.replace('-', "\\-")))
        .collect();
    see.push("\\fBfenguard.toml\\fR(5)".to_owned());
    out.push_str(&see.join(", "));
    out.push('\n');
    roff::paragraph(
        &mut out,
        "The guides: /usr/share/doc/fenguard (README.md and docs/), and the examples in /usr/share/doc/fenguard/examples.",
    );
    out
}

/// The proxy's exit statuses (each subcommand's are in its own description).
const EXIT_STATUS: &[(&str, &str)] = &[
    ("0", "After `quit` or the end of the GUI's input."),
    (
        "1",
        "The engine exited on its own and fenguard gave up restarting it (more than `engine.max_restarts` restarts in a minute), or `engine.restart = false`.",
    ),
    (
        "2",
        "A usage or configuration error, or an engine that is missing or not executable (one line on stderr).",
    ),
    ("128 + n", "After signal n."),
];

const ENVIRONMENT: &[(&str, &str)] = &[
    (
        "FENGUARD_CONFIG",
        "The configuration file when `--config` is not given (see fenguard.toml(5)); for GUIs that cannot pass arguments.",
    ),
    (
        "RUST_LOG",
        "Overrides `log.level` (error, warn, info, debug, trace).",
    ),
    (
        "XDG_STATE_HOME",
        "The default log directory is $XDG_STATE_HOME/fenguard, else ~/.local/state/fenguard.",
    ),
    (
        "XDG_CONFIG_HOME",
        "Tokens, the lichess token and the provider secret default to $XDG_CONFIG_HOME/fenguard, else ~/.config/fenguard.",
    ),
    (
        "FENGUARD_TOKEN",
        "`fenguard connect`: the access token, when `--token-file` is not given.",
    ),
    (
        "LICHESS_API_TOKEN",
        "`fenguard provide`: the lichess token, when `provider.token_file` is not set.",
    ),
];

const FILES: &[(&str, &str)] = &[
    (
        "~/.local/state/fenguard/fenguard.log",
        "fenguard's log: warnings, rejections, repairs, engine starts and exits, the engine's stderr, and with -v the whole conversation.",
    ),
    (
        "~/.local/state/fenguard/positions.jsonl",
        "One JSON record per position, search and engine event; `fenguard log` reads it.",
    ),
    (
        "~/.config/fenguard/tokens",
        "The daemon's token hashes (`fenguard token`).",
    ),
    (
        "/etc/fenguard/serve.toml, /etc/fenguard/provide.toml",
        "The configuration of the packaged systemd units fenguard.service and fenguard-provide.service.",
    ),
];
