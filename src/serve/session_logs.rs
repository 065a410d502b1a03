//! Retention of the sessions' positions logs (`serve.keep_session_logs`): before a session
//! opens `positions-<id>.jsonl`, the oldest sessions' logs beyond the count are removed, each
//! with its rotated files (`positions-<id>.jsonl.1` ...).

use std::path::Path;
use std::time::SystemTime;

/// Removes the positions logs of the oldest sessions in `dir` so that `keep - 1` are left
/// (room for the one about to start); `keep` 0 keeps every one. Returns how many sessions'
/// logs were removed.
pub fn prune(dir: &Path, keep: usize) -> usize {
    if keep == 0 {
        return 0;
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    // Session id -> its newest modification time.
    let mut sessions: std::collections::HashMap<String, SystemTime> = Default::default();
    let mut files: Vec<(String, std::path::PathBuf)> = Vec::new();
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(id) = session_of(&name) else {
            continue;
        };
        let modified = entry
            .metadata()
            .and_then(|m| m.modified())
            .unwrap_or(SystemTime::UNIX_EPOCH);
        let newest = sessions.entry(id.to_owned()).or_insert(modified);
        *newest = (*newest).max(modified);
        files.push((id.to_owned(), entry.path()));
    }
    let excess = (sessions.len() + 1).saturating_sub(keep);
    if excess == 0 {
        return 0;
    }
    let mut by_age: Vec<(SystemTime, String)> =
        sessions.into_iter().map(|(id, t)| (t, id)).collect();
    by_age.sort();
    let doomed: std::collections::HashSet<String> =
        by_age.into_iter().take(excess).map(|(_, id)| id).collect();
    for (id, path) in &files {
        if doomed.contains(id) {
            let _ = std::fs::remove_file(path);
        }
    }
    doomed.len()
}

/// The session id of a positions log file name: `positions-<id>.jsonl` or its rotated
/// `positions-<id>.jsonl.<n>`.
fn session_of(name: &str) -> Option<&str> {
    let rest = name.strip_prefix("positions-")?;
    let (id, tail) = rest.split_once(".jsonl")?;
    let rotated = tail.is_empty()
        || tail
            .strip_prefix('.')
            .is_some_and(|n| n.bytes().all(|b| b.is_ascii_digit()));
    (rotated && !id.is_empty()).then_some(id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn session_ids_come_from_positions_logs_and_their_rotations_only() {
        assert_eq!(session_of("positions-abc-1.jsonl"), Some("abc-1"));
        assert_eq!(session_of("positions-abc-1.jsonl.3"), Some("abc-1"));
        assert_eq!(session_of("positions.jsonl"), None);
        assert_eq!(session_of("positions-abc.jsonl.tmp"), None);
        assert_eq!(session_of("fenguard.log"), None);
    }

    #[test]
    fn the_oldest_sessions_go_with_their_rotated_files() {
        let dir = std::env::temp_dir().join(format!("fenguard-prune-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        for (i, name) in [
            "positions-a-1.jsonl",
            "positions-a-1.jsonl.1",
            "positions-a-2.jsonl",
            "positions-a-3.jsonl",
            "fenguard.log",
        ]
        .iter()
        .enumerate()
        {
            let path = dir.join(name);
            std::fs::write(&path, "x").unwrap();
            let t = SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_000_000 + i as u64);
            std::fs::File::options()
                .write(true)
                .open(&path)
                .unwrap()
                .set_modified(t)
                .unwrap();
        }
        assert_eq!(prune(&dir, 3), 1);
        let mut left: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        assert_eq!(
            left,
            vec!["fenguard.log", "positions-a-2.jsonl", "positions-a-3.jsonl"]
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
