//! `fenguard check` as a process: arguments in, its whole output back.

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs `fenguard check ARGS` with `stdin` as its standard input and waits for it.
pub fn check(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_fenguard"))
        .arg("check")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("fenguard runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin.as_bytes())
        .expect("write stdin");
    child.wait_with_output().expect("fenguard exits")
}

/// The standard output, lossily decoded.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}
