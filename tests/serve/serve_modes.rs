//! File modes: `fenguard token new` tightens a tokens file group or others may read to 0600
//! (or refuses, naming the file and its mode, where it cannot), `token list` warns about it,
//! `token revoke` rewrites it 0600; the daemon's log directory is created 0700 and its log
//! files (`fenguard.log`, `positions-<id>.jsonl` and their rotated files) 0600.
#![cfg(unix)]

use std::os::unix::fs::PermissionsExt as _;
use std::path::Path;
use std::process::{Command, Output};

use crate::serve_support;

use fenguard::token::hash_hex;
use serve_support::*;

fn mode(path: &Path) -> u32 {
    std::fs::metadata(path).unwrap().permissions().mode() & 0o777
}

fn set_mode(path: &Path, mode: u32) {
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

fn token(args: &[&str], file: &Path) -> Output {
    Command::new(FENGUARD)
        .arg("token")
        .args(args)
        .arg("--tokens-file")
        .arg(file)
        .output()
        .unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn token_new_tightens_a_tokens_file_others_may_read_to_0600() {
    let dir = test_dir("modes-new");
    let file = dir.join("tokens");
    let old = hash_hex("old");
    std::fs::write(&file, format!("{old} old\n")).unwrap();
    set_mode(&file, 0o644);
    let out = token(&["new", "--label", "new"], &file);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(mode(&file), 0o600);
    assert!(stderr(&out).contains("(mode 644): made 0600"), "{out:?}");
    let text = std::fs::read_to_string(&file).unwrap();
    let secret = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with(&format!("{old} old\n")), "{text}");
    assert!(text.contains(&hash_hex(secret.trim())), "{text}");
}

#[test]
fn token_list_warns_about_a_loose_file_and_revoke_rewrites_it_0600() {
    let dir = test_dir("modes-list");
    let file = dir.join("tokens");
    std::fs::write(&file, format!("{} a\n{} b\n", hash_hex("a"), hash_hex("b"))).unwrap();
    set_mode(&file, 0o664);
    let list = token(&["list"], &file);
    assert!(list.status.success(), "{list:?}");
    assert_eq!(
        String::from_utf8(list.stdout.clone())
            .unwrap()
            .lines()
            .count(),
        2
    );
    assert!(
        stderr(&list).contains("readable by group or others (mode 664)"),
        "{list:?}"
    );
    assert_eq!(mode(&file), 0o664, "list only reads");
    let revoke = token(&["revoke", "a"], &file);
    assert!(revoke.status.success(), "{revoke:?}");
    assert!(stderr(&revoke).contains("rewritten 0600"), "{revoke:?}");
    assert_eq!(mode(&file), 0o600);
}

#[test]
fn token_revoke_keeps_the_owner_the_daemon_reads_the_file_as() {
    use std::os::unix::fs::MetadataExt as _;
    let dir = test_dir("modes-owner");
    let file = dir.join("tokens");
    std::fs::write(&file, format!("{} a\n{} b\n", hash_hex("a"), hash_hex("b"))).unwrap();
    set_mode(&file, 0o600);
    // As root (the tests' usual user), the file of a daemon's user; as another user, a no-op.
    let (uid, gid) = (4242, 4343);
    if std::os::unix::fs::chown(&file, Some(uid), Some(gid)).is_err() {
        let meta = std::fs::metadata(&file).unwrap();
        assert!(token(&["revoke", "a"], &file).status.success());
        assert_eq!(std::fs::metadata(&file).unwrap().uid(), meta.uid());
        return;
    }
    let revoke = token(&["revoke", "a"], &file);
    assert!(revoke.status.success(), "{revoke:?}");
    let meta = std::fs::metadata(&file).unwrap();
    assert_eq!((meta.uid(), meta.gid(), mode(&file)), (uid, gid, 0o600));
}

#[test]
fn token_new_refuses_a_loose_file_it_cannot_tighten_naming_file_and_mode() {
    let dir = test_dir("modes-readonly");
    let mount = dir.join("ro");
    std::fs::create_dir_all(&mount).unwrap();
    let file = mount.join("tokens");
    // A mount namespace of its own: a tmpfs holding a 0644 tokens file, then made read-only.
    let script = format!(
        "mount -t tmpfs none {m} && echo {h} > {f} && chmod 644 {f} && mount -o remount,ro {m} && exec {fg} token new --tokens-file {f}",
        m = mount.display(),
        f = file.display(),
        h = hash_hex("x"),
        fg = FENGUARD,
    );
    let out = Command::new("unshare")
        .args(["-rm", "sh", "-c", &script])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(out.stdout.is_empty(), "no token printed: {out:?}");
    let message = stderr(&out);
    assert!(
        message.contains(&file.display().to_string())
            && message.contains("mode 644")
            && message.contains("cannot be made 0600"),
        "{message}"
    );
}

#[test]
fn the_daemon_creates_its_log_directory_0700_and_its_log_files_0600() {
    let dir = test_dir("modes-logs");
    let config = format!(
        "[serve]\ntokens_file = \"{}\"\n[log]\nmax_bytes = 4096\nkeep = 2\ntranscript = true\n",
        dir.join("no-tokens").display()
    );
    std::fs::write(dir.join("no-tokens"), "").unwrap();
    let daemon = Daemon::start(&dir, &config, "127.0.0.1:{port}", &[]);
    let mut client = daemon.client();
    client.handshake();
    let logs = dir.join("logs");
    let rotated = |prefix: &str| {
        std::fs::read_dir(&logs).unwrap().flatten().any(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            name.starts_with(prefix) && name.ends_with(".1")
        })
    };
    let mut moves = String::new();
    for _ in 0..200 {
        if rotated("positions-") && rotated("fenguard.log") {
            break;
        }
        for _ in 0..20 {
            moves.push_str(" g1f3 g8f6 f3g1 f6g8");
            client.send(&format!("position startpos moves{moves}\n"));
        }
        client.send("isready\n");
        client.until(|l| l == "readyok");
    }
    assert!(
        rotated("positions-") && rotated("fenguard.log"),
        "no rotation"
    );
    assert_eq!(mode(&logs), 0o700);
    let mut files = 0;
    for entry in std::fs::read_dir(&logs).unwrap().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        assert_eq!(mode(&entry.path()), 0o600, "{name}");
        files += 1;
    }
    assert!(files >= 4, "{files} files");
}
