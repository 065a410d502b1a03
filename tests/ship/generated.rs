//! `fenguard generate`: man pages for every visible command and `fenguard.toml(5)`, shell
//! completions that complete, and the committed references equal to what it writes now.

use std::path::Path;
use std::process::{Command, Stdio};

use clap::CommandFactory as _;

use crate::common::{FENGUARD, test_dir};

fn generate(args: &[&str]) -> String {
    let out = Command::new(FENGUARD)
        .arg("generate")
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("fenguard runs");
    assert_eq!(
        out.status.code(),
        Some(0),
        "generate {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}

/// `fenguard`, `fenguard-check`, `fenguard-token-new` ...: every visible command but `help`.
fn page_names() -> Vec<String> {
    fn walk(cmd: &clap::Command, name: String, out: &mut Vec<String>) {
        out.push(name.clone());
        for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
            if sub.get_name() != "help" {
                walk(sub, format!("{name}-{}", sub.get_name()), out);
            }
        }
    }
    let mut out = Vec::new();
    walk(
        &fenguard::cli::Cli::command(),
        "fenguard".to_owned(),
        &mut out,
    );
    out
}

#[test]
fn man_pages_cover_every_visible_command_and_the_config_file() {
    let dir = test_dir("ship-man");
    let man = dir.join("man");
    generate(&["man", man.to_str().unwrap()]);
    let mut expected: Vec<String> = page_names().iter().map(|n| format!("{n}.1")).collect();
    expected.push("fenguard.toml.5".to_owned());
    expected.sort();
    let mut found: Vec<String> = std::fs::read_dir(&man)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    found.sort();
    assert_eq!(found, expected);
    assert!(!found.iter().any(|f| f.contains("generate")));
    let version = env!("CARGO_PKG_VERSION");
    for file in &found {
        let text = std::fs::read_to_string(man.join(file)).unwrap();
        assert!(text.contains(".TH "), "{file}");
        assert!(
            text.contains(&format!("fenguard {version}")),
            "{file}: no version"
        );
        assert!(text.contains(".SH SEE ALSO"), "{file}");
        assert!(!text.contains("SPEC"), "{file} cites the specification");
    }
    let main = std::fs::read_to_string(man.join("fenguard.1")).unwrap();
    for section in ["EXIT STATUS", "ENVIRONMENT", "FILES", "fenguard\\-check"] {
        assert!(main.contains(section), "fenguard.1 lacks {section}");
    }
    render_without_warnings(&man, &found);
}

/// `man` (when installed) renders each page without a warning, as lintian checks them.
fn render_without_warnings(dir: &Path, files: &[String]) {
    if Command::new("man").arg("--version").output().is_err() {
        eprintln!("man not installed: pages not rendered");
        return;
    }
    for file in files {
        let out = Command::new("man")
            .args(["--warnings", "-E", "UTF-8", "-l", "-Tutf8", "-Z"])
            .arg(dir.join(file))
            .env("MANWIDTH", "80")
            .output()
            .expect("man runs");
        assert!(out.status.success(), "{file}");
        let warnings = String::from_utf8_lossy(&out.stderr);
        assert!(warnings.trim().is_empty(), "{file}: {warnings}");
    }
}

#[test]
fn completions_are_written_for_each_shell_and_bash_completes_subcommands() {
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let script = generate(&["completions", shell]);
        assert!(script.contains("check"), "{shell}");
    }
    let dir = test_dir("ship-completions");
    let script = dir.join("fenguard.bash");
    std::fs::write(&script, generate(&["completions", "bash"])).unwrap();
    let complete = |words: &str| {
        let probe = format!(
            "source '{}'; COMP_WORDS=({words}); COMP_CWORD=$((${{#COMP_WORDS[@]}} - 1)); \
             COMP_LINE='{words}'; COMP_POINT=${{#COMP_LINE}}; \
             _fenguard fenguard \"${{COMP_WORDS[COMP_CWORD]}}\" \"${{COMP_WORDS[COMP_CWORD-1]}}\"; \
             printf '%s\\n' \"${{COMPREPLY[@]}}\"",
            script.display()
        );
        let out = Command::new("bash")
            .args(["-c", &probe])
            .output()
            .expect("bash runs");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    assert_eq!(complete("fenguard ch").trim(), "check");
    assert!(complete("fenguard check --va").contains("--variant"));
}

#[test]
fn docs_diagnostics_md_is_what_generate_writes() {
    let committed =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/diagnostics.md"))
            .expect("docs/diagnostics.md");
    let generated = generate(&["diagnostics"]);
    assert!(
        committed == generated,
        "docs/diagnostics.md is stale: run `cargo run -- generate diagnostics > docs/diagnostics.md`"
    );
    for code in fenguard::fen::Code::ALL {
        assert!(generated.contains(&format!("| `{}` |", code.as_str())));
    }
}

#[test]
fn the_changelog_names_this_version_first() {
    let changelog =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/CHANGELOG.md")).unwrap();
    // Changes not yet in a release stand first under `## Unreleased` (Keep a Changelog).
    let first = changelog
        .lines()
        .find(|l| l.starts_with("## ") && *l != "## Unreleased")
        .expect("a version heading");
    assert!(
        first.starts_with(&format!("## {} (", env!("CARGO_PKG_VERSION"))),
        "CHANGELOG.md starts with {first:?}, Cargo.toml says {}",
        env!("CARGO_PKG_VERSION")
    );
}
