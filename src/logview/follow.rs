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

/// The longest line kept, in bytes: no record fenguard writes comes near it (a `position`
/// record of a GUI line at the proxy's 1 MiB cap is a few MiB). A longer line is passed on cut
/// to this length (so it reads as a bad line, with its place) and the rest of it is skipped:
/// a file with no line end (a device, a corrupted log) never grows memory past the cap.
pub const MAX_RECORD_LINE: usize = 16 << 20;

/// Whether `meta` is a device (`/dev/zero`, `/dev/full`): endless bytes, never a log.
fn is_device(meta: &std::fs::Metadata) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt as _;
        meta.file_type().is_char_device() || meta.file_type().is_block_device()
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        false
    }
}

/// Appends the rest of the current line of `reader` to `line`, keeping at most
/// [`MAX_RECORD_LINE`] bytes of it (`overlong` is set once more was skipped). Returns the bytes
/// consumed; the line is whole when `line` ends with `\n` (kept, also after a cut) or 0 bytes
/// were consumed (the end of the file for now).
fn read_capped(
    reader: &mut impl BufRead,
    line: &mut Vec<u8>,
    overlong: &mut bool,
) -> io::Result<u64> {
    let mut consumed = 0u64;
    loop {
        let buf = match reader.fill_buf() {
            Ok(buf) => buf,
            Err(err) if err.kind() == io::ErrorKind::Interrupted => continue,
            Err(err) => return Err(err),
        };
        if buf.is_empty() {
            return Ok(consumed);
        }
        let (chunk, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..=i], true),
            None => (buf, false),
        };
        let room = MAX_RECORD_LINE.saturating_sub(line.len());
        let body = chunk.strip_suffix(b"\n").unwrap_or(chunk);
        if body.len() > room {
            *overlong = true;
        }
        line.extend_from_slice(&body[..body.len().min(room)]);
        if done {
            line.push(b'\n');
        }
        let n = chunk.len();
        reader.consume(n);
        consumed += n as u64;
        if done {
            return Ok(consumed);
        }
    }
}

/// Whether `path` now names another file than `file`, or a shorter one (truncated).
fn replaced(path: &Path, file: &File, read: u64) -> bool {
    let Ok(at_path) = std::fs::metadata(path) else {
        return false; // between the rename and the new file: wait
    };
    if is_device(&at_path) {
        return false; // a device put in its place (a full disk simulated): not a log, wait
    }
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
///
/// # Errors
/// The error of opening it; `InvalidInput` for a device (`/dev/zero` is no log).
fn open(path: &Path, follow: bool) -> io::Result<File> {
    loop {
        match File::open(path) {
            Err(err) if follow && err.kind() == io::ErrorKind::NotFound => {
                std::thread::sleep(POLL);
            }
            Ok(file) if file.metadata().is_ok_and(|m| is_device(&m)) => {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidInput,
                    "a device, not a log file",
                ));
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
fn read_all(
    mut reader: impl BufRead,
    each: &mut impl FnMut(&str) -> io::Result<()>,
) -> io::Result<()> {
    let mut line = Vec::new();
    let mut overlong = false;
    while read_capped(&mut reader, &mut line, &mut overlong)? > 0 {
        pass_line(&mut line, &mut overlong, each)?;
    }
    Ok(())
}

/// Hands `line` (its `\n` and `\r` taken off) to `each` and clears it for the next.
fn pass_line(
    line: &mut Vec<u8>,
    overlong: &mut bool,
    each: &mut impl FnMut(&str) -> io::Result<()>,
) -> io::Result<()> {
    if line.ends_with(b"\n") {
        line.pop();
    }
    if line.ends_with(b"\r") && !*overlong {
        line.pop();
    }
    let result = each(&String::from_utf8_lossy(line));
    line.clear();
    *overlong = false;
    result
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
    let mut overlong = false;
    loop {
        read += read_capped(&mut reader, &mut line, &mut overlong)?;
        if line.ends_with(b"\n") {
            pass_line(&mut line, &mut overlong, &mut each)?;
            continue;
        }
        if !follow {
            if !line.is_empty() {
                pass_line(&mut line, &mut overlong, &mut each)?;
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
                overlong = false;
            }
        }
    }
}
