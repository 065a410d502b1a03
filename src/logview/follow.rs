//! Read a log file line by line, once or following it as it is written (`tail -F` style: a
//! file that does not exist yet is waited for; when the file is rotated away, the rest of the
//! old file is read, then every file rotated after it (`FILE.k-1` to `FILE.1`, when several
//! rotations happened between two polls), then the new file from its start).

use std::fs::File;
use std::io::{self, BufRead, BufReader, Seek as _};
use std::path::Path;
use std::time::Duration;

/// How often a followed file is polled for new lines and rotation.
const POLL: Duration = Duration::from_millis(100);

/// Whether `path` now names another file than `file`, or a shorter one (truncated).
fn replaced(path: &Path, file: &File, read: u64) -> bool {
    let Ok(at_path) = std::fs::metadata(path) else {
        return false; // between the rename and the new file: wait
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt as _;
        if let Ok(open) = file.metadata()
            && (open.ino() != at_path.ino() || open.dev() != at_path.dev())
        {
            return true;
        }
    }
    #[cfg(not(unix))]
    let _ = file;
    at_path.len() < read
}

/// Opens `path`; when following, waits for it to appear (`tail -F`).
fn open(path: &Path, follow: bool) -> io::Result<File> {
    loop {
        match File::open(path) {
            Err(err) if follow && err.kind() == io::ErrorKind::NotFound => {
                std::thread::sleep(POLL);
            }
            other => return other,
        }
    }
}

/// The files rotated after `old` (the file followed until now), oldest first: `FILE.k-1`
/// down to `FILE.1` when `old` is now `FILE.k`. Empty when `old` is not among the rotated
/// files (deleted, or not Unix).
fn rotated_since(path: &Path, old: &File) -> Vec<File> {
    #[cfg(unix)]
    {
        use crate::poslog::rotated_path;
        use std::os::unix::fs::MetadataExt as _;
        let Ok(old) = old.metadata() else {
            return Vec::new();
        };
        // `log.keep` is at most 1000; the first gap ends the rotated files.
        let found = (1..=1000u32)
            .map_while(|k| {
                std::fs::metadata(rotated_path(path, k))
                    .ok()
                    .map(|m| (k, m))
            })
            .find(|(_, m)| m.ino() == old.ino() && m.dev() == old.dev());
        let Some((k, _)) = found else {
            return Vec::new();
        };
        (1..k)
            .rev()
            .filter_map(|j| File::open(rotated_path(path, j)).ok())
            .collect()
    }
    #[cfg(not(unix))]
    {
        let _ = (path, old);
        Vec::new()
    }
}

/// Calls `each` with every line of the complete file `reader` (without its `\n`).
fn read_all(reader: impl BufRead, each: &mut impl FnMut(&str) -> io::Result<()>) -> io::Result<()> {
    for line in reader.split(b'\n') {
        let mut line = line?;
        if line.ends_with(b"\r") {
            line.pop();
        }
        each(&String::from_utf8_lossy(&line))?;
    }
    Ok(())
}

/// Calls `each` with every whole line of `path` (without its `\n`), in order; with `follow`,
/// then waits for more lines forever, across rotations. A last line without `\n` is passed
/// at the end when not following, and held back while following (it is still being written).
///
/// # Errors
/// The I/O error of opening or reading the file, or the first error `each` returns.
pub fn read_lines(
    path: &Path,
    follow: bool,
    mut each: impl FnMut(&str) -> io::Result<()>,
) -> io::Result<()> {
    let mut reader = BufReader::new(open(path, follow)?);
    let mut read: u64 = 0;
    let mut line = Vec::new();
    loop {
        let n = reader.read_until(b'\n', &mut line)?;
        read += n as u64;
        if line.ends_with(b"\n") {
            line.pop();
            if line.ends_with(b"\r") {
                line.pop();
            }
            each(&String::from_utf8_lossy(&line))?;
            line.clear();
            continue;
        }
        if !follow {
            if !line.is_empty() {
                each(&String::from_utf8_lossy(&line))?;
            }
            return Ok(());
        }
        // At the end for now: wait, then look for more or for a rotation.
        std::thread::sleep(POLL);
        if replaced(path, reader.get_ref(), read) {
            // Drain what the old file got after our last read, then switch.
            let old_len = reader.get_ref().metadata().map_or(0, |m| m.len());
            if old_len > read {
                continue;
            }
            // Several rotations since the last poll: the files in between, whole.
            for file in rotated_since(path, reader.get_ref()) {
                read_all(BufReader::new(file), &mut each)?;
            }
            if let Ok(file) = File::open(path) {
                reader = BufReader::new(file);
                reader.get_mut().rewind()?;
                read = 0;
                line.clear();
            }
        }
    }
}
