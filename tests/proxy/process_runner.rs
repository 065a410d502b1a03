//! The runner of the process suite: plays one row of `process_table` against the built
//! fenguard through its pipes (`process_pipes`), as a GUI does. Each step is printed before it
//! runs, so a failure names its row (the test) and its step.
#![cfg(target_os = "linux")]

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use crate::common::{self, FAKE_ENGINE, FENGUARD, process_gone, test_dir, wait_until};
use crate::process_pipes::Pipes;
use crate::process_table::{Case, Engine, Exit, Gone, Input, Line, Log, Step, To};

/// Plays `case` (the row `name`) and asserts all it expects.
pub fn run(name: &str, case: &Case) {
    let Some(mut run) = Run::start(name, case) else {
        return;
    };
    for step in case.script {
        run.step(step);
    }
    run.end(case);
}

/// One row being played.
struct Run {
    dir: PathBuf,
    fenguard: Pipes,
    /// Every line the GUI read.
    all: Vec<String>,
    /// The last read.
    last: Vec<String>,
    /// The engines' process ids, in the order read.
    pids: Vec<i32>,
    mark: Instant,
}

impl Run {
    /// fenguard with `--log-dir DIR/logs`, the row's config and environment, in front of its
    /// engine; `None` when the row needs Stockfish and it is missing (outside CI).
    fn start(name: &str, case: &Case) -> Option<Run> {
        let dir = test_dir(name);
        let mut command = Command::new(FENGUARD);
        command.arg("--log-dir").arg(dir.join("logs"));
        if !case.config.is_empty() {
            command
                .arg("--config")
                .arg(common::write_config(&dir, case.config));
        }
        command.arg("--");
        let fake = format!("'{FAKE_ENGINE}'");
        match case.engine {
            Engine::Fake => command.arg(FAKE_ENGINE),
            Engine::Stockfish => command.arg(common::require_stockfish()?),
            Engine::Shell(script) => {
                command.args(["/bin/sh", "-c", &script.replace("{engine}", &fake)])
            }
            Engine::FirstStart(setting) => {
                let flag = dir.join("started-once");
                let flag = flag.display();
                let script = format!(
                    "if [ -e '{flag}' ]; then exec {fake}; \
                     else : > '{flag}'; {setting} exec {fake}; fi"
                );
                command.args(["/bin/sh", "-c", &script])
            }
        };
        command
            .env_remove("RUST_LOG")
            .env_remove("FENGUARD_CONFIG")
            .env("FAKE_ENGINE_RECORD", dir.join("engine-input"))
            .envs(case.env.iter().copied());
        Some(Run {
            dir,
            fenguard: Pipes::spawn(&mut command),
            all: Vec::new(),
            last: Vec::new(),
            pids: Vec::new(),
            mark: Instant::now(),
        })
    }

    fn send(&mut self, text: &str) {
        self.fenguard.send(text);
    }

    fn read(&mut self, line: Line, times: usize) {
        self.last = self.fenguard.read(line, times);
        self.all.extend(self.last.iter().cloned());
    }

    fn pid(&mut self) -> i32 {
        self.send("pid");
        self.read(Line::Starts("info string pid "), 1);
        let line = self.last.last().unwrap();
        let pid = line["info string pid ".len()..]
            .parse()
            .expect("pid number");
        self.pids.push(pid);
        pid
    }

    fn engine(&self) -> i32 {
        *self.pids.last().expect("an engine (Step::Pid)")
    }

    /// What the fake engines read so far.
    fn engine_input(&self) -> Vec<u8> {
        std::fs::read(self.dir.join("engine-input")).unwrap_or_default()
    }

    fn step(&mut self, step: &Step) {
        eprintln!("step {step:?}");
        let last = &self.last;
        match *step {
            Step::Send(text) => self.send(text),
            Step::Close => self.fenguard.close(),
            Step::Writer(parts) => self.fenguard.write_from_thread(parts),
            Step::WriterStuck => assert!(
                !self.fenguard.writer_wrote_all(),
                "fenguard took all of the GUI's input: no stall"
            ),
            Step::Written => assert!(self.fenguard.join_writer(), "the writer's pipe broke"),
            Step::Until(line) => self.read(line, 1),
            Step::UntilNth(times, line) => self.read(line, times),
            Step::Handshake => {
                self.send("uci");
                self.read(Line::Is("uciok"), 1);
                self.step(&Step::Sync);
            }
            Step::Sync => {
                self.send("isready");
                self.read(Line::Is("readyok"), 1);
            }
            Step::Go(go, lines) => {
                self.send(go);
                self.read(Line::Starts("bestmove "), 1);
                self.step(&Step::Exactly(lines));
            }
            Step::Pid => {
                self.pid();
            }
            Step::NewPid => {
                let before = self.engine();
                assert_ne!(self.pid(), before, "the same engine");
            }
            Step::Exactly(lines) => assert_eq!(last, lines),
            Step::First(lines) => assert!(
                last.len() >= lines.len() && last[..lines.len()] == *lines,
                "not first {lines:#?}: {last:#?}"
            ),
            Step::Last(line) => {
                assert_eq!(last.last().map(String::as_str), Some(line), "{last:#?}")
            }
            Step::Seen(line) => {
                assert!(last.iter().any(|l| line.matches(l)), "{line:?}: {last:#?}")
            }
            Step::Count(line, n) => {
                let count = last.iter().filter(|l| line.matches(l)).count();
                assert_eq!(count, n, "{line:?}: {last:#?}");
            }
            Step::Length(n) => assert_eq!(last.len(), n, "{last:#?}"),
            Step::Without(line) => self.last.retain(|l| !line.matches(l)),
            Step::Distinct => {
                for line in last {
                    let times = last.iter().filter(|l| *l == line).count();
                    assert_eq!(times, 1, "{line:?} in {last:#?}");
                }
            }
            Step::LegalBestmove(fen, moves) => {
                common::assert_legal_bestmove(last, fen, moves, false);
            }
            Step::NeverSent(line) => {
                let sent: Vec<&String> = self.all.iter().filter(|l| line.matches(l)).collect();
                assert!(sent.is_empty(), "{line:?}: {sent:#?}");
            }
            Step::EngineRead(text) => {
                let read = wait_until(|| {
                    let input = self.engine_input();
                    input.ends_with(text.as_bytes()).then_some(())
                });
                assert!(read.is_some(), "the engine never read {text:?}");
            }
            Step::OwnGroup => {
                let (engine, fenguard) = (self.engine(), self.fenguard.pid());
                // SAFETY: getpgid only reads process attributes.
                let (engine_group, fenguard_group) =
                    unsafe { (libc::getpgid(engine), libc::getpgid(fenguard)) };
                assert_eq!(engine_group, engine);
                assert_ne!(engine_group, fenguard_group);
            }
            Step::Signal(to, signal) => {
                let pid = match to {
                    To::Fenguard => self.fenguard.pid(),
                    To::Engine => self.engine(),
                };
                // SAFETY: sending a signal to a process this test started (or fenguard did).
                assert_eq!(unsafe { libc::kill(pid, signal) }, 0);
            }
            Step::Sleep(ms) => std::thread::sleep(Duration::from_millis(ms)),
            Step::Mark => self.mark = Instant::now(),
            Step::Within(ms) => {
                let elapsed = self.mark.elapsed();
                eprintln!("{elapsed:?} since the mark");
                assert!(elapsed < Duration::from_millis(ms), "{elapsed:?}");
            }
            Step::Steps(steps) => steps.iter().for_each(|s| self.step(s)),
        }
    }

    /// The checks after the script, in the order of [`Case`]'s fields.
    fn end(mut self, case: &Case) {
        eprintln!("end {:?}, {:?}", case.exit, case.gone);
        self.exit(case.exit);
        if let Gone::Yes | Gone::Within(_) = case.gone {
            for &engine in &self.pids {
                let gone = wait_until(|| process_gone(engine).then_some(())).is_some();
                if !gone {
                    // SAFETY: ending the leftover test engine, whose pid this row read.
                    unsafe { libc::kill(engine, libc::SIGKILL) };
                }
                assert!(gone, "engine {engine} outlived fenguard");
            }
        }
        if let Gone::Within(ms) = case.gone {
            self.step(&Step::Within(ms));
        }
        let logs = self.dir.join("logs");
        let log = || std::fs::read_to_string(logs.join("fenguard.log")).unwrap_or_default();
        for check in case.log {
            match *check {
                Log::Has(text) => {
                    let found = wait_until(|| log().contains(text).then_some(()));
                    assert!(found.is_some(), "fenguard.log lacks {text:?}: {}", log());
                }
                Log::Lacks(text) => assert!(!log().contains(text), "{}", log()),
            }
        }
        for record in case.records {
            let found = wait_until(|| {
                let picked = |r: &serde_json::Value| {
                    r["kind"] == record.kind && record.with.iter().all(|(k, v)| v.holds(&r[k]))
                };
                common::records(&logs).into_iter().find(picked)
            });
            let found = found.unwrap_or_else(|| {
                let all = std::fs::read_to_string(logs.join("positions.jsonl"));
                panic!("no {record:?}: {all:?}")
            });
            for (key, value) in record.has {
                assert!(value.holds(&found[key]), "{key}: {value:?}: {found}");
            }
        }
        let input = self.engine_input();
        for check in case.engine_input {
            match *check {
                Input::EndsWith(text) => assert!(
                    input.ends_with(text.as_bytes()),
                    "the engine read on after {text:?}: {:?}",
                    String::from_utf8_lossy(&input[input.len().saturating_sub(200)..])
                ),
                Input::Replay(text) => {
                    let input = String::from_utf8_lossy(&input);
                    let replay = input.rsplit_once("uci\n").expect("a second uci").1;
                    assert!(replay.starts_with(text), "{input}");
                }
            }
        }
    }

    fn exit(&mut self, exit: Exit) {
        let expected = match exit {
            Exit::Left => return,
            Exit::Waited => {
                let _ = self.fenguard.wait_exit();
                return;
            }
            Exit::Code(code) => Some(code),
            Exit::Killed => None,
        };
        let status = self
            .fenguard
            .wait_exit()
            .unwrap_or_else(|| panic!("fenguard did not exit; stderr: {}", self.fenguard.stderr()));
        assert_eq!(status.code(), expected, "{status}");
    }
}
