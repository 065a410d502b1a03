//! `--guarded`: the steps go through fenguard (this executable as the proxy, its position log
//! in a directory of its own), and that log tells what the engine behind it did: a verdict
//! other than the logged one, an engine that crashed or hung (fenguard restarted it), an
//! illegal `bestmove` fenguard caught.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::engine::Exit;
use super::plan::{Step, StepKind};
use super::run::{At, Failure};
use crate::logview::Expander;

/// A directory for the guarded proxy's logs, removed when dropped.
#[derive(Debug)]
pub struct LogDir(pub PathBuf);

impl LogDir {
    /// A new empty directory under the system's temporary directory.
    ///
    /// # Errors
    /// The I/O error of creating it.
    pub fn new() -> std::io::Result<LogDir> {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let dir =
            std::env::temp_dir().join(format!("fenguard-replay-{}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&dir)?;
        Ok(LogDir(dir))
    }
}

impl Drop for LogDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The arguments of the guarded proxy: `[--config FILE] --log-dir DIR -- ENGINE ARGS`.
pub fn proxy_args(
    config: Option<&Path>,
    log_dir: &Path,
    engine: &Path,
    args: &[OsString],
) -> Vec<OsString> {
    let mut out = Vec::new();
    if let Some(config) = config {
        out.push("--config".into());
        out.push(config.as_os_str().to_owned());
    }
    out.push("--log-dir".into());
    out.push(log_dir.as_os_str().to_owned());
    out.push("--".into());
    out.push(engine.as_os_str().to_owned());
    out.extend(args.iter().cloned());
    out
}

/// The failures the guarded proxy's log `path` shows for `steps`: its records of the GUI's
/// lines match the steps one for one, in order.
pub fn failures(path: &Path, steps: &[Step]) -> Vec<Failure> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let mut expander = Expander::default();
    let mut out = Vec::new();
    // Index of the step the last GUI record stands for.
    let mut sent: Option<usize> = None;
    let goes: Vec<usize> = (0..steps.len())
        .filter(|&i| steps[i].kind == StepKind::Go)
        .collect();
    let mut searches = 0;
    for line in text.lines() {
        let Ok(record) = expander.expand_line(line) else {
            continue;
        };
        let at = sent.map_or(At::Handshake, At::Step);
        match record["kind"].as_str().unwrap_or_default() {
            "option" | "command" | "position" => {
                let i = sent.map_or(0, |i| i + 1);
                sent = Some(i);
                if let (Some(step), Some(now)) = (steps.get(i), record["verdict"].as_str())
                    && let Some(logged) = &step.position
                    && logged.verdict != now
                {
                    out.push(Failure::Verdict {
                        at: i,
                        logged: logged.verdict.clone(),
                        now: now.to_owned(),
                    });
                }
            }
            "engine-exit" => match record["reason"].as_str() {
                Some("unexpected") => out.push(Failure::Crash {
                    at,
                    exit: Some(exit_of(&record)),
                }),
                Some("hung") => out.push(Failure::Hang {
                    at,
                    awaited: "answer (fenguard killed the engine as hung)",
                    bound: std::time::Duration::ZERO,
                }),
                _ => {}
            },
            "search" => {
                let step = goes.get(searches).copied().unwrap_or(0);
                searches += 1;
                for d in record["diagnostics"].as_array().into_iter().flatten() {
                    if d["code"] == "illegal-bestmove" {
                        out.push(Failure::IllegalBestmove {
                            at: step,
                            line: format!("bestmove {}", record["bestmove"].as_str().unwrap_or("")),
                            message: d["message"].as_str().unwrap_or_default().to_owned(),
                        });
                    }
                }
            }
            _ => {}
        }
    }
    out
}

fn exit_of(record: &Value) -> Exit {
    let num = |key: &str| record[key].as_i64().and_then(|n| i32::try_from(n).ok());
    Exit {
        code: num("code"),
        signal: num("signal"),
    }
}
