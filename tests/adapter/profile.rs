//! Profiles by executable name and `fenguard wrap` (SPEC section 15): the linked name started
//! with no arguments, as pychess's engine probe starts it (`uci`, read until `uciok`, `quit`).

use std::io::{BufRead as _, BufReader, Write as _};
use std::path::Path;
use std::process::{Command, Stdio};

use crate::common::{FAKE_ENGINE, FENGUARD, test_dir, wait_until};

/// pychess's probe: runs `exe` with no arguments, sends `uci`, reads until `uciok`, sends
/// `quit`; the lines read, the exit status. The probe refuses an engine whose handshake holds
/// `error`, `illegal` or `invalid`.
fn probe(exe: &Path, home: &Path) -> (Vec<String>, std::process::ExitStatus) {
    let mut child = Command::new(exe)
        .env_remove("FENGUARD_CONFIG")
        .env("HOME", home)
        .env("XDG_CONFIG_HOME", home.join("config"))
        .env("XDG_STATE_HOME", home.join("state"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("start the wrapped fenguard");
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"uci\n").unwrap();
    let mut lines = Vec::new();
    for line in BufReader::new(child.stdout.take().unwrap()).lines() {
        let line = line.unwrap();
        let done = line == "uciok";
        lines.push(line);
        if done {
            break;
        }
    }
    stdin.write_all(b"quit\n").unwrap();
    drop(stdin);
    let status = child.wait().unwrap();
    for word in ["error", "illegal", "invalid"] {
        assert!(
            !lines.iter().any(|l| l.to_lowercase().contains(word)),
            "{word} in {lines:#?}"
        );
    }
    (lines, status)
}

#[test]
fn wrapped_name_started_without_arguments_gets_its_engine() {
    let dir = test_dir("profile_wrap");
    let out = Command::new(FENGUARD)
        .args(["wrap", FAKE_ENGINE, "--name", "fake", "--dir"])
        .arg(dir.join("bin"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text} {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let exe = dir
        .join("bin")
        .join(format!("fenguard-fake{}", std::env::consts::EXE_SUFFIX));
    assert!(text.contains(&exe.display().to_string()), "{text}");
    let profile = std::fs::read_to_string(dir.join("bin/fenguard-fake.toml")).unwrap();
    assert!(profile.contains(FAKE_ENGINE), "{profile}");
    let (lines, status) = probe(&exe, &dir);
    assert!(
        lines.contains(&"id name FakeEngine".to_owned()),
        "{lines:#?}"
    );
    assert!(status.success(), "{status:?}");
    // A second wrap under the same name is refused, unless --force.
    let again = Command::new(FENGUARD)
        .args(["wrap", FAKE_ENGINE, "--name", "fake", "--dir"])
        .arg(dir.join("bin"))
        .output()
        .unwrap();
    assert_eq!(again.status.code(), Some(2));
}

/// Two wrapped names are two different files (GUIs that tell engines apart by the file's
/// checksum, as pychess does by md5, see two engines), each started with no arguments as its
/// own profile, and a GUI's signal reaches fenguard itself (the script `exec`s it).
#[cfg(target_os = "linux")]
#[test]
fn two_wrapped_names_are_two_different_files_each_running_its_profile() {
    let dir = test_dir("profile_wrap_two");
    let bin = dir.join("bin");
    for name in ["one", "two"] {
        let out = Command::new(FENGUARD)
            .args(["wrap", FAKE_ENGINE, "--name", name, "--dir"])
            .arg(&bin)
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
    }
    let one = std::fs::read(bin.join("fenguard-one")).unwrap();
    let two = std::fs::read(bin.join("fenguard-two")).unwrap();
    assert_ne!(one, two);
    for name in ["one", "two"] {
        let (lines, status) = probe(&bin.join(format!("fenguard-{name}")), &dir);
        assert!(
            lines.contains(&"id name FakeEngine".to_owned()),
            "{lines:#?}"
        );
        assert!(status.success(), "{status:?}");
    }
    // The process the GUI started is fenguard (the script `exec`s it): its `pid` is fenguard's.
    let mut child = Command::new(bin.join("fenguard-one"))
        .current_dir(&dir)
        .env("XDG_STATE_HOME", dir.join("state"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let exe = wait_until(|| {
        std::fs::read_link(format!("/proc/{}/exe", child.id()))
            .ok()
            // `env`, then bash, then (the script `exec`s it) fenguard.
            .filter(|p| p.file_name() == Path::new(FENGUARD).file_name())
    });
    let _ = child.kill();
    let _ = child.wait();
    assert_eq!(
        exe.map(|p| p.file_name().map(|n| n.to_owned())),
        Some(Path::new(FENGUARD).file_name().map(|n| n.to_owned())),
    );
}

/// `fenguard wrap ARGS` with `HOME` = `home` and `XDG_CONFIG_HOME` = `xdg` (unset: `None`).
fn wrap_in(home: &Path, xdg: Option<&Path>, args: &[&str]) -> std::process::Output {
    let mut command = Command::new(FENGUARD);
    command.arg("wrap").args(args).env("HOME", home);
    match xdg {
        Some(xdg) => command.env("XDG_CONFIG_HOME", xdg),
        None => command.env_remove("XDG_CONFIG_HOME"),
    };
    command.output().unwrap()
}

#[test]
fn wrap_without_dir_writes_into_the_users_config_directory_not_beside_fenguard() {
    let dir = test_dir("profile_wrap_default");
    let name = format!("cfg{}", std::process::id());
    let out = wrap_in(&dir, None, &[FAKE_ENGINE, "--name", &name]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text} {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let conf = dir.join(".config/fenguard");
    let exe = conf.join(format!("fenguard-{name}{}", std::env::consts::EXE_SUFFIX));
    assert!(text.contains(&exe.display().to_string()), "{text}");
    assert!(conf.join(format!("fenguard-{name}.toml")).is_file());
    let beside = Path::new(FENGUARD).with_file_name(format!("fenguard-{name}"));
    assert!(beside.symlink_metadata().is_err(), "{}", beside.display());
    // Started with no arguments, from the config directory, it finds its profile there.
    let (lines, status) = probe(&exe, &dir);
    assert!(
        lines.contains(&"id name FakeEngine".to_owned()),
        "{lines:#?}"
    );
    assert!(status.success(), "{status:?}");
    // $XDG_CONFIG_HOME, when set, is the config directory.
    let xdg = dir.join("xdg");
    let out = wrap_in(&dir, Some(&xdg), &[FAKE_ENGINE, "--name", &name]);
    assert!(out.status.success(), "{out:?}");
    assert!(xdg.join(format!("fenguard/fenguard-{name}.toml")).is_file());
    // --dir still wins.
    let out = wrap_in(
        &dir,
        Some(&xdg),
        &[
            FAKE_ENGINE,
            "--name",
            &name,
            "--dir",
            dir.join("bin").to_str().unwrap(),
        ],
    );
    assert!(out.status.success(), "{out:?}");
    assert!(dir.join(format!("bin/fenguard-{name}.toml")).is_file());
}

#[cfg(unix)]
#[test]
fn profile_section_of_the_config_directory_is_read_by_the_linked_name() {
    let dir = test_dir("profile_section");
    let conf = dir.join("config/fenguard");
    std::fs::create_dir_all(&conf).unwrap();
    let toml = format!(
        "[engine]\ncommand = \"/nonexistent\"\n[profiles.sect.engine]\ncommand = \"{FAKE_ENGINE}\"\nid_name = \"Via Section\"\n"
    );
    std::fs::write(conf.join("fenguard.toml"), toml).unwrap();
    let exe = dir.join("fenguard-sect");
    std::os::unix::fs::symlink(FENGUARD, &exe).unwrap();
    let (lines, status) = probe(&exe, &dir);
    assert!(
        lines.contains(&"id name Via Section".to_owned()),
        "{lines:#?}"
    );
    assert!(status.success());
}

#[cfg(unix)]
#[test]
fn a_linked_name_without_a_profile_says_where_it_looked() {
    let dir = test_dir("profile_missing");
    let exe = dir.join("fenguard-nothing");
    std::os::unix::fs::symlink(FENGUARD, &exe).unwrap();
    let out = Command::new(&exe)
        .env_remove("FENGUARD_CONFIG")
        .env("HOME", &dir)
        .env_remove("XDG_CONFIG_HOME")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("no profile `nothing`") && err.contains("fenguard-nothing.toml"),
        "{err}"
    );
    assert!(out.stdout.is_empty());
}
