//! Read a log file line by line, once or following it as it is written (`tail -F` style: when
//! the file is rotated away, the rest of the old file is read, then the new file from its
//! start).

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
    let mut reader = BufReader::new(File::open(path)?);
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
            if let Ok(file) = File::open(path) {
                reader = BufReader::new(file);
                reader.get_mut().rewind()?;
                read = 0;
                line.clear();
            }
        }
    }
}
