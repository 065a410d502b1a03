//! The commands of the README and of the docs pages are run, so they cannot go stale:
//! - every line of every ```` ```sh ```` block (continuation lines joined) runs in a scratch
//!   directory with the built `fenguard` first on `PATH` and fresh `HOME` / `XDG_*`
//!   directories, and must exit 0, or the status its `# exit status N` comment names;
//! - every command line of the README's GUI table, with `/usr/bin/fenguard` standing for the
//!   built binary, answers `uci` with `uciok` in front of Stockfish.
//!
//! ```` ```text ```` blocks (installs, daemons, the network) are shown only; `scripts/check-deb`
//! runs the install commands on a fresh Debian.

use std::io::{BufRead as _, BufReader, Write as _};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::{FENGUARD, require_stockfish, test_dir};

/// The pages whose ```` ```sh ```` blocks are run: the README and the docs it is made of.
const PAGES: &[&str] = &[
    "README.md",
    "docs/proxy.md",
    "docs/positions.md",
    "docs/chess960.md",
    "docs/variants.md",
    "docs/check.md",
    "docs/log.md",
    "docs/crashes.md",
    "docs/gui.md",
    "docs/serve.md",
    "docs/lichess.md",
    "docs/metrics.md",
    "docs/configuration.md",
    "docs/architecture.md",
    "docs/testing.md",
    "docs/benchmarks.md",
    "docs/debugging.md",
    "docs/adapter.md",
    "docs/replay.md",
    "docs/doctor.md",
];

/// A command of a page: where it is, the line to run, the exit status it should give.
#[derive(Debug)]
struct DocCommand {
    place: String,
    line: String,
    status: i32,
}

fn read(page: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(page);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The lines of `text`'s ```` ```sh ```` blocks, continuation lines joined.
fn sh_commands(page: &str, text: &str) -> Vec<DocCommand> {
    let mut out = Vec::new();
    let mut in_sh = false;
    let mut pending: Option<(usize, String)> = None;
    for (n, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") {
            in_sh = !in_sh && trimmed == "```sh";
            continue;
        }
        if !in_sh {
            continue;
        }
        let (start, mut joined) = pending.take().unwrap_or((n + 1, String::new()));
        joined.push_str(trimmed);
        if let Some(head) = joined.strip_suffix('\\') {
            pending = Some((start, format!("{} ", head.trim_end())));
            continue;
        }
        if joined.is_empty() || joined.starts_with('#') {
            continue;
        }
        let status = joined
            .rsplit_once("# exit status ")
            .and_then(|(_, n)| {
                n.split_whitespace()
                    .next()?
                    .trim_end_matches(':')
                    .parse()
                    .ok()
            })
            .unwrap_or(0);
        out.push(DocCommand {
            place: format!("{page}:{start}"),
            line: joined,
            status,
        });
    }
    out
}

/// Runs `line` with bash in `dir` (the built fenguard first on PATH); its status and output.
fn run_line(dir: &Path, line: &str) -> (Option<i32>, String) {
    let bin = Path::new(FENGUARD).parent().unwrap();
    let path = format!(
        "{}:{}:/usr/games",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut child = Command::new("bash")
        .args(["-o", "pipefail", "-c", line])
        .current_dir(dir)
        .env("PATH", path)
        .env("HOME", dir.join("home"))
        .env("XDG_STATE_HOME", dir.join("state"))
        .env("XDG_CONFIG_HOME", dir.join("config"))
        .env_remove("FENGUARD_CONFIG")
        .env_remove("RUST_LOG")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("bash runs");
    let start = Instant::now();
    // Generous: only so that a hanging command fails instead of hanging the suite.
    while child.try_wait().expect("try_wait").is_none() {
        if start.elapsed() > Duration::from_secs(120) {
            let _ = child.kill();
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().expect("bash output");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.code(), text)
}

#[test]
fn every_sh_block_line_of_the_readme_and_docs_runs() {
    let Some(_stockfish) = require_stockfish() else {
        return;
    };
    let dir = test_dir("ship-docs-commands");
    for sub in ["home", "state", "config"] {
        std::fs::create_dir_all(dir.join(sub)).unwrap();
    }
    let mut ran = 0;
    let mut failures = Vec::new();
    for page in PAGES {
        for cmd in sh_commands(page, &read(page)) {
            let (status, output) = run_line(&dir, &cmd.line);
            ran += 1;
            if status != Some(cmd.status) {
                failures.push(format!(
                    "{}: `{}` exited {status:?}, expected {}:\n{output}",
                    cmd.place, cmd.line, cmd.status
                ));
            }
        }
    }
    assert!(ran >= 5, "only {ran} commands found");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The README's quick start: its first command, and the lines the README says it prints.
fn quick_start(readme: &str) -> (String, Vec<String>) {
    let section = readme
        .split("## Quick start")
        .nth(1)
        .expect("the quick start section");
    let command = section
        .split("```sh\n")
        .nth(1)
        .and_then(|block| block.lines().next())
        .expect("the quick start's sh block")
        .to_owned();
    let printed = section
        .split("The first prints")
        .nth(1)
        .and_then(|rest| rest.split("```text\n").nth(1))
        .and_then(|block| block.split("```").next())
        .expect("what the first command prints");
    (command, printed.lines().map(str::to_owned).collect())
}

#[test]
fn the_quick_starts_first_command_prints_exactly_what_the_readme_shows() {
    let Some(_stockfish) = require_stockfish() else {
        return;
    };
    let dir = test_dir("ship-quick-start");
    for sub in ["home", "state", "config"] {
        std::fs::create_dir_all(dir.join(sub)).unwrap();
    }
    let (command, printed) = quick_start(&read("README.md"));
    assert_eq!(printed.len(), 2, "{printed:?}");
    let (status, output) = run_line(&dir, &command);
    assert_eq!(status, Some(0), "{command}\n{output}");
    // stdout and stderr both: what a terminal shows.
    assert_eq!(output.lines().collect::<Vec<_>>(), printed, "{command}");
}

/// The command lines of the README's GUI table, as argument vectors (the program first), with
/// the GUI's name; a row without a Unix command line (Arena) gives none.
fn gui_table_commands(readme: &str) -> Vec<(String, Vec<String>, Option<String>)> {
    let table = readme
        .split("## Register fenguard in a GUI")
        .nth(1)
        .expect("the GUI section");
    let mut out = Vec::new();
    let rows = table
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| GUI") && !l.starts_with("| ---"));
    for row in rows {
        let cells: Vec<&str> = row.split(" | ").collect();
        let gui = cells[0].trim_start_matches("| ").to_owned();
        let spans: Vec<&str> = row.split('`').skip(1).step_by(2).collect();
        let words = |s: &str| s.split_whitespace().map(str::to_owned).collect::<Vec<_>>();
        let command: Option<(Vec<String>, Option<String>)> = if let Some(q) = spans
            .iter()
            .find_map(|s| s.split('"').find(|p| p.starts_with("/usr/bin/fenguard ")))
        {
            Some((words(q), None)) // xboard's -fcp "..."
        } else if let Some(s) = spans
            .iter()
            .find(|s| s.starts_with("/usr/bin/fenguard -- "))
        {
            Some((words(s), None))
        } else if spans.contains(&"/usr/bin/fenguard") {
            let args = spans
                .iter()
                .find(|s| s.starts_with("-- "))
                .expect("arguments");
            let mut v = vec!["/usr/bin/fenguard".to_owned()];
            v.extend(words(args));
            Some((v, None))
        } else if spans.contains(&"binary=/usr/bin/fenguard") {
            let mut v = vec!["/usr/bin/fenguard".to_owned()];
            v.extend(spans.iter().filter_map(|s| {
                s.split_once("arg-normal-")
                    .map(|(_, a)| a.split_once('=').unwrap().1.to_owned())
            }));
            Some((v, None))
        } else if let Some(s) = spans.iter().find(|s| s.contains("cmd=/usr/bin/fenguard")) {
            let mut v = vec!["/usr/bin/fenguard".to_owned()];
            for part in s.split(" arg=").skip(1) {
                v.push(part.split_whitespace().next().unwrap().to_owned());
            }
            if let Some(args) = s.split("args=\"").nth(1) {
                v.extend(words(args.split('"').next().unwrap()));
            }
            Some((v, None))
        } else if let Some(s) = spans.iter().find(|s| s.starts_with("[engine] command = ")) {
            let toml = s.replace("[engine] ", "[engine]\n");
            Some((vec!["/usr/bin/fenguard".to_owned()], Some(toml)))
        } else {
            None
        };
        if let Some((argv, config)) = command {
            out.push((gui, argv, config));
        } else {
            assert!(
                gui.contains("Windows"),
                "no command line found in the row of {gui}"
            );
        }
    }
    out
}

#[test]
fn every_gui_table_command_answers_uciok() {
    let Some(_stockfish) = require_stockfish() else {
        return;
    };
    let dir = test_dir("ship-gui-table");
    let commands = gui_table_commands(&read("README.md"));
    assert_eq!(commands.len(), 9, "{commands:#?}");
    for (gui, argv, config) in commands {
        assert_eq!(argv[0], "/usr/bin/fenguard", "{gui}");
        let mut cmd = Command::new(FENGUARD);
        cmd.args(&argv[1..])
            .env("XDG_STATE_HOME", dir.join("state"))
            .env_remove("FENGUARD_CONFIG")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some(toml) = config {
            let file: PathBuf = dir.join("encroissant.toml");
            std::fs::write(&file, toml).unwrap();
            cmd.env("FENGUARD_CONFIG", &file);
        }
        let mut child = cmd.spawn().expect("fenguard runs");
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(b"uci\nisready\n").unwrap();
        // `quit` only after `readyok`: an engine still starting when `quit` arrives gets
        // `engine.quit_grace_ms` and no more (fenguard's startup timeout bounds the wait).
        let mut seen = String::new();
        for line in BufReader::new(child.stdout.take().unwrap()).lines() {
            let line = line.unwrap_or_default();
            seen.push_str(&line);
            seen.push('\n');
            if line == "readyok" {
                break;
            }
        }
        let _ = stdin.write_all(b"quit\n");
        drop(stdin);
        let out = child.wait_with_output().unwrap();
        assert!(
            seen.contains("uciok") && seen.contains("readyok"),
            "{gui}: {argv:?}: {seen} {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn sh_blocks_are_read_line_by_line_with_their_expected_status() {
    let text = "```sh\nfenguard check 'x'   # exit status 1\nprintf 'a' \\\n  | wc -c\n# a comment\n```\n```text\nnot run\n```\n";
    let cmds = sh_commands("t.md", text);
    assert_eq!(cmds.len(), 2, "{cmds:?}");
    assert_eq!((cmds[0].status, cmds[0].place.as_str()), (1, "t.md:2"));
    assert_eq!(cmds[1].line, "printf 'a' | wc -c");
}

#[test]
fn every_relative_link_of_the_readme_and_docs_resolves() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut pages = vec![root.join("README.md")];
    for entry in std::fs::read_dir(root.join("docs")).expect("docs/") {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "md") {
            pages.push(path);
        }
    }
    let mut broken = Vec::new();
    for page in &pages {
        let text = std::fs::read_to_string(page).unwrap();
        for target in text
            .split("](")
            .skip(1)
            .filter_map(|rest| rest.split(')').next())
        {
            let file = target.split('#').next().unwrap_or_default();
            if file.is_empty() || file.contains("://") || file.starts_with("mailto:") {
                continue;
            }
            if !page.parent().unwrap().join(file).exists() {
                broken.push(format!("{}: {target}", page.display()));
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}
