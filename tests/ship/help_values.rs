//! `--help` lists every value the binary accepts for `check --variant`, `log --verdict` and
//! `log --kind`, and only those: each listed value is accepted, each other one is a usage
//! error (exit status 2). The values tried beyond the listed ones are what real programs
//! produce: Fairy-Stockfish's `UCI_Variant` names, and the verdicts and kinds of the records a
//! real session through the proxy writes.

use std::collections::BTreeSet;
use std::process::{Command, Output, Stdio};

use clap::CommandFactory as _;

use crate::common::{FAKE_ENGINE, FENGUARD, Proxy, require_fairy, test_dir};

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

fn run(args: &[&str]) -> Output {
    Command::new(FENGUARD)
        .args(args)
        .env_remove("FENGUARD_CONFIG")
        .stdin(Stdio::null())
        .output()
        .expect("fenguard runs")
}

fn long_help(command: &[&str]) -> String {
    let mut args = command.to_vec();
    args.push("--help");
    let out = run(&args);
    assert_eq!(out.status.code(), Some(0), "{args:?}");
    String::from_utf8(out.stdout).expect("UTF-8 help")
}

/// The values `--help` lists for `option`: the `[possible values: ...]` list, or the
/// `- NAME: ...` lines of a "Possible values:" block, each with the names in `(also: ...)`.
fn listed(help: &str, option: &str) -> BTreeSet<String> {
    let lines: Vec<&str> = help.lines().collect();
    let start = lines
        .iter()
        .position(|l| l.trim_start().starts_with(option))
        .unwrap_or_else(|| panic!("{option} not in help:\n{help}"));
    let is_header = |l: &&str| {
        let indent = l.len() - l.trim_start().len();
        (1..=6).contains(&indent) && l.trim_start().starts_with('-')
    };
    let rest = lines[start + 1..].iter().take_while(|l| !is_header(l));
    let block = std::iter::once(&lines[start]).chain(rest);
    let mut values = BTreeSet::new();
    for line in block {
        let line = line.trim();
        if let Some(list) = line
            .split("[possible values: ")
            .nth(1)
            .and_then(|l| l.split(']').next())
        {
            values.extend(list.split(", ").map(str::to_owned));
        }
        if let Some((name, rest)) = line.strip_prefix("- ").and_then(|l| l.split_once(':')) {
            values.insert(name.to_owned());
            if let Some(also) = rest
                .split("(also: ")
                .nth(1)
                .and_then(|a| a.split(')').next())
            {
                values.extend(also.split(", ").map(str::to_owned));
            }
        }
    }
    assert!(!values.is_empty(), "no values listed for {option}:\n{help}");
    values
}

/// Fairy-Stockfish's `UCI_Variant` names (its `uci` answer).
fn fairy_variants(fairy: &std::path::Path) -> Vec<String> {
    let mut child = Command::new(fairy)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("fairy-stockfish runs");
    use std::io::Write as _;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"uci\nquit\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text
        .lines()
        .find(|l| l.starts_with("option name UCI_Variant "))
        .expect("UCI_Variant option");
    line.split(" var ").skip(1).map(str::to_owned).collect()
}

#[test]
fn check_variant_help_lists_exactly_the_accepted_names() {
    let listed = listed(&long_help(&["check"]), "--variant");
    let mut tried: BTreeSet<String> = listed.clone();
    tried.extend(["shogi", "nonsense", "Chess", "CAPABLANCA"].map(str::to_owned));
    if let Some(fairy) = require_fairy() {
        tried.extend(fairy_variants(&fairy));
    }
    for name in &tried {
        let out = run(&["check", "--variant", name, "--format", "fen", START]);
        let accepted = out.status.code() != Some(2);
        assert_eq!(
            accepted,
            listed.contains(&name.to_ascii_lowercase()),
            "--variant {name}: exit {:?}, stderr {}",
            out.status.code(),
            String::from_utf8_lossy(&out.stderr)
        );
        if !accepted {
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(stderr.contains("invalid value"), "{name}: {stderr}");
        }
    }
}

/// A session through the proxy and the fake engine that writes a record of every verdict and
/// kind; returns its positions log.
fn log_of_every_verdict() -> std::path::PathBuf {
    let dir = test_dir("ship-every-verdict");
    let extra = "option name UCI_Variant type combo default chess var chess var shogi";
    let mut proxy = Proxy::start(
        &dir,
        &["--", FAKE_ENGINE],
        &[("FAKE_ENGINE_EXTRA_OPTION", extra)],
    );
    let mut ready = 0;
    let mut sync = |proxy: &mut Proxy, lines: &str| {
        proxy.send(lines.as_bytes());
        proxy.send(b"isready\n");
        ready += 1;
        proxy.wait_stdout(|out| String::from_utf8_lossy(out).matches("readyok").count() >= ready);
    };
    sync(&mut proxy, "uci\n");
    sync(&mut proxy, "position startpos\ngo depth 1\n");
    sync(&mut proxy, "position fen 4k3/8/8/8/8/8/8/4K3 w KQ - 0 1\n");
    sync(
        &mut proxy,
        "setoption name fenguard OnBadPosition value reject\nposition fen 8/8/8/8/8/8/8/8 w - - 0 1\n",
    );
    sync(
        &mut proxy,
        "setoption name fenguard OnBadPosition value forward\nposition fen 8/8/8/8/8/8/8/8 w - - 0 1\n",
    );
    sync(
        &mut proxy,
        "setoption name fenguard Chess960 value detect\nposition fen bqnnrkrb/pppppppp/8/8/8/8/PPPPPPPP/BQNNRKRB w KQkq - 0 1\n",
    );
    sync(
        &mut proxy,
        "setoption name UCI_Variant value shogi\nposition startpos\n",
    );
    proxy.send(b"quit\n");
    assert!(proxy.wait_exit().success(), "{}", proxy.stderr());
    proxy.log_dir.join("positions.jsonl")
}

#[test]
fn log_verdict_and_kind_help_list_every_value_a_session_writes_and_only_accepted_ones() {
    let log = log_of_every_verdict();
    let log = log.to_str().expect("UTF-8 path");
    let out = run(&["log", "--format", "json", log]);
    assert_eq!(out.status.code(), Some(0));
    let records: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON record"))
        .collect();
    let written = |field: &str| -> BTreeSet<String> {
        records
            .iter()
            .filter_map(|r| r[field].as_str().map(str::to_owned))
            .collect()
    };
    let help = long_help(&["log"]);
    for (option, field, expected) in [("--verdict", "verdict", 5), ("--kind", "kind", 5)] {
        let listed = listed(&help, option);
        let written = written(field);
        assert!(written.len() >= expected, "{field}: {written:?}");
        assert!(
            written.is_subset(&listed),
            "{option}: wrote {written:?}, help lists {listed:?}"
        );
        for value in &listed {
            let out = run(&["log", option, value, log]);
            assert_eq!(out.status.code(), Some(0), "{option} {value}");
        }
        let out = run(&["log", option, "nonsense", log]);
        assert_eq!(out.status.code(), Some(2), "{option} nonsense");
        assert!(String::from_utf8_lossy(&out.stderr).contains("invalid value"));
    }
}

/// Every command path: `[]`, `["check"]`, `["token", "new"]` ...
fn command_paths() -> Vec<Vec<String>> {
    fn walk(cmd: &clap::Command, path: Vec<String>, out: &mut Vec<Vec<String>>) {
        out.push(path.clone());
        for sub in cmd.get_subcommands() {
            let mut path = path.clone();
            path.push(sub.get_name().to_owned());
            walk(sub, path, out);
        }
    }
    let mut out = Vec::new();
    walk(&fenguard::cli::Cli::command(), Vec::new(), &mut out);
    out
}

#[test]
fn no_help_text_cites_the_specification() {
    let paths = command_paths();
    assert!(paths.len() >= 10, "{paths:?}");
    for path in paths {
        let args: Vec<&str> = path.iter().map(String::as_str).collect();
        let help = long_help(&args);
        for word in ["SPEC ", "SPEC)"] {
            assert!(
                !help.contains(word),
                "`fenguard {} --help` cites {word}:\n{help}",
                path.join(" ")
            );
        }
    }
}
