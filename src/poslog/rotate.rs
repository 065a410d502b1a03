//! A log file with size-based rotation and a retention count (`log.max_bytes`, `log.keep`).
//!
//! ```no_run
//! use std::io::Write as _;
//! use fenguard::poslog::{RotatingFile, Rotation};
//!
//! let rotation = Rotation { max_bytes: 1 << 20, keep: 3 };
//! let mut log = RotatingFile::open("/tmp/fenguard.log".as_ref(), rotation).unwrap();
//! log.write_all(b"one whole line\n").unwrap(); // never split between two files
//! ```
//!
//! Before a write that would take the file past `max_bytes`, the file is renamed to `FILE.1`
//! (an older `FILE.1` to `FILE.2`, ... up to `FILE.<keep>`; the oldest is deleted) and a new
//! `FILE` is started. Each `write` call lands whole in one file, so a caller that writes one
//! line a call (tracing's formatter, the position log) never sees a line split; a file exceeds
//! the cap only by one write, when that write alone is larger than the room left in an empty
//! file, or while it cannot be rotated (a rename refused: it goes on taking lines rather than
//! losing them, and the next flush lets rotation try again). When another process sharing the directory has rotated the file (Unix: the path names
//! another inode), the next write reopens the path; processes rotate one at a time, under an
//! exclusive lock on `FILE.lock` (see [`RotatingFile::prepare`]).

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Size-based rotation settings: `log.max_bytes` (0: never rotate) and `log.keep` (rotated
/// files kept, `FILE.1` newest; 0: the old file is deleted at rotation).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rotation {
    /// Rotate before a write would take the file past this many bytes; 0: never.
    pub max_bytes: u64,
    /// How many rotated files (`FILE.1` ... `FILE.<keep>`) are kept.
    pub keep: u32,
}

impl Rotation {
    /// The rotation settings of `log.max_bytes` and `log.keep`.
    pub fn of(log: &crate::config::LogConfig) -> Rotation {
        Rotation {
            max_bytes: log.max_bytes,
            keep: log.keep,
        }
    }

    /// No rotation: the file grows without bound.
    pub const NEVER: Rotation = Rotation {
        max_bytes: 0,
        keep: 0,
    };
}

/// An append-only file that rotates by size; see the module docs.
#[derive(Debug)]
pub struct RotatingFile {
    path: PathBuf,
    rotation: Rotation,
    file: File,
    /// Bytes in the current file (its length when opened plus what was written since).
    len: u64,
    /// Times this writer started a new file (rotated or reopened).
    generation: u64,
    /// Bytes written since the last flush, not yet in the file: one `write` system call per
    /// flush (the writers flush after each batch), not one per line.
    pending: Vec<u8>,
    /// Whether the path was checked for another process's rotation since the last flush: one
    /// check a batch, not two `statx` calls a line.
    checked: bool,
    /// Bytes of the callers' writes that reached a file (the system accepted them), over every
    /// file this writer wrote: with the offsets of its own lines, a caller tells which of them
    /// a failed write lost ([`RotatingFile::committed`]).
    committed: u64,
    /// The last write that failed left the open file in the middle of a line: the next bytes
    /// written start with a line end, so that they start a line of their own.
    torn: bool,
    /// A rotation failed (a rename or the new file refused: a read-only directory) while the
    /// open file still takes writes: it goes on past the cap, and the next flush lets the next
    /// write try again. Losing lines a file could hold, to keep it under its cap, would be worse.
    unrotatable: bool,
}

/// Pending bytes past which they are written without waiting for the flush.
const PENDING_CAP: usize = 64 * 1024;

/// `OpenOptions` that create a file only its owner may read and write (0600 on Unix: logs
/// hold a user's games and a daemon's clients' lines). An existing file keeps its mode.
pub fn private(mut options: OpenOptions) -> OpenOptions {
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options
}

fn open_append(path: &Path) -> io::Result<(File, u64)> {
    let mut options = OpenOptions::new();
    options.create(true).append(true);
    let file = private(options).open(path)?;
    let len = file.metadata()?.len();
    Ok((file, len))
}

/// `FILE.<n>`.
pub fn rotated_path(path: &Path, n: u32) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(format!(".{n}"));
    PathBuf::from(name)
}

impl RotatingFile {
    /// Opens `path` for appending (creating it).
    ///
    /// # Errors
    /// The I/O error when it cannot be opened.
    pub fn open(path: &Path, rotation: Rotation) -> io::Result<RotatingFile> {
        let (file, len) = open_append(path)?;
        Ok(RotatingFile {
            path: path.to_path_buf(),
            rotation,
            file,
            len,
            generation: 0,
            pending: Vec::new(),
            checked: false,
            committed: 0,
            torn: false,
            unrotatable: false,
        })
    }

    /// Writes the pending bytes to the open file. When the system refuses them (a full disk, a
    /// dead filesystem), the bytes not written are dropped (they are not retried into the middle
    /// of later lines) and the error returned; [`RotatingFile::committed`] counts the bytes
    /// that went through.
    fn write_pending(&mut self) -> io::Result<()> {
        if self.pending.is_empty() {
            return Ok(());
        }
        if self.torn {
            if let Err(err) = self.file.write_all(b"\n") {
                self.drop_pending(0);
                return Err(err);
            }
            self.torn = false;
            self.len += 1;
        }
        let mut done = 0;
        while done < self.pending.len() {
            match self.file.write(&self.pending[done..]) {
                Ok(0) => {
                    self.drop_pending(done);
                    return Err(io::ErrorKind::WriteZero.into());
                }
                Ok(n) => {
                    done += n;
                    self.committed += n as u64;
                }
                Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
                Err(err) => {
                    self.drop_pending(done);
                    return Err(err);
                }
            }
        }
        self.pending.clear();
        Ok(())
    }

    /// Forgets the pending bytes after the first `written` (which reached the file), after a
    /// failed write; remembers a line cut in two.
    fn drop_pending(&mut self, written: usize) {
        let lost = self.pending.len() - written;
        self.len = self.len.saturating_sub(lost as u64);
        if written > 0 {
            self.torn = self.pending[written - 1] != b'\n';
        }
        self.pending.clear();
    }

    /// Bytes of the callers' writes that reached a file so far (the system accepted them), over
    /// every file this writer wrote, the line ends it adds after a torn line not counted. A
    /// caller that counts the bytes it wrote knows from it which of its lines are in the file
    /// after a failed write: those that end at or before this count.
    pub fn committed(&self) -> u64 {
        self.committed
    }

    /// Bytes in the current file.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether the current file is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Counts the new files this writer started (by rotating or reopening); a caller whose
    /// records refer to earlier records in the same file starts afresh when it changes.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// Prepares for a write of `size` bytes: reopens the path when another process rotated
    /// it, and rotates when the write would take a non-empty file past the cap. Returns whether
    /// the write will start a new file (so the caller can write that record in full).
    ///
    /// A rotation that fails (a rename or the new file refused) does not fail the write: the
    /// file goes on past the cap, and rotation is tried again after the next flush.
    ///
    /// # Errors
    /// The I/O error of writing what is pending before a rotation, or of reopening a path
    /// another process rotated.
    pub fn prepare(&mut self, size: u64) -> io::Result<bool> {
        let before = self.generation;
        if self.rotation.max_bytes > 0
            && !std::mem::replace(&mut self.checked, true)
            && self.replaced()
        {
            self.reopen()?;
        }
        if self.over_cap(size) && !self.unrotatable {
            self.write_pending()?;
            self.file.flush()?;
            if self.rotate(size).is_err() {
                self.unrotatable = true;
            }
        }
        Ok(self.generation != before)
    }

    /// Whether a write of `size` bytes would take the non-empty current file past the cap.
    fn over_cap(&self, size: u64) -> bool {
        self.rotation.max_bytes > 0
            && self.len > 0
            && self.len.saturating_add(size) > self.rotation.max_bytes
    }

    /// Writes what is pending to the file open now, then opens the path afresh (also when
    /// that write failed: a writer whose file was made unwritable goes on in a new one; the
    /// failed write's error is returned after).
    fn reopen(&mut self) -> io::Result<()> {
        let written = self.write_pending();
        let (file, len) = open_append(&self.path)?;
        self.file = file;
        self.len = len;
        self.torn = false;
        self.generation += 1;
        written
    }

    /// Whether the path now names another file than the one open (another process rotated
    /// it): by inode on Unix, by volume serial number and file index on Windows; elsewhere
    /// `false`.
    fn replaced(&self) -> bool {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt as _;
            match (std::fs::metadata(&self.path), self.file.metadata()) {
                (Ok(at_path), Ok(open)) => {
                    at_path.ino() != open.ino() || at_path.dev() != open.dev()
                }
                (Err(_), _) => true,
                _ => false,
            }
        }
        #[cfg(windows)]
        {
            // Without this, a second fenguard sharing the log directory (a GUI's engine match)
            // kept appending to the file the first one renamed, and both rotated in step.
            match File::open(&self.path) {
                Ok(at_path) => windows_file_id(&at_path) != windows_file_id(&self.file),
                Err(_) => true,
            }
        }
        #[cfg(not(any(unix, windows)))]
        {
            false
        }
    }

    /// Renames the chain and starts a new file, holding the rotation lock ([`RotationLock`]):
    /// processes sharing the directory rotate one at a time. One that waited finds the path
    /// rotated by another and goes on in the new file, unless a write of `size` bytes would
    /// take that one past the cap too.
    fn rotate(&mut self, size: u64) -> io::Result<()> {
        let _lock = RotationLock::acquire(&self.path)?;
        if self.replaced() {
            self.reopen()?;
            if !self.over_cap(size) {
                return Ok(());
            }
        }
        let keep = self.rotation.keep;
        if keep == 0 {
            let _ = std::fs::remove_file(&self.path);
        } else {
            let _ = std::fs::remove_file(rotated_path(&self.path, keep));
            for n in (1..keep).rev() {
                let from = rotated_path(&self.path, n);
                if from.exists() {
                    std::fs::rename(&from, rotated_path(&self.path, n + 1))?;
                }
            }
            std::fs::rename(&self.path, rotated_path(&self.path, 1))?;
        }
        self.reopen()
    }
}

/// An exclusive lock on `FILE.lock` (created beside the log, never written), held while one
/// writer renames the rotation chain: two processes renaming it at once overwrote each other's
/// rotated files, and one renamed a file the other had just moved (`NotFound`, which stopped
/// its log). Released when dropped. Where the platform has no file locks, rotation goes on
/// unlocked.
struct RotationLock(Option<File>);

impl RotationLock {
    fn acquire(path: &Path) -> io::Result<RotationLock> {
        let mut name = path.as_os_str().to_owned();
        name.push(".lock");
        let mut options = OpenOptions::new();
        options.create(true).truncate(false).write(true);
        let file = private(options).open(PathBuf::from(name))?;
        match file.lock() {
            Ok(()) => Ok(RotationLock(Some(file))),
            Err(e) if e.kind() == io::ErrorKind::Unsupported => Ok(RotationLock(None)),
            Err(e) => Err(e),
        }
    }
}

impl Drop for RotationLock {
    fn drop(&mut self) {
        if let Some(file) = &self.0 {
            let _ = file.unlock();
        }
    }
}

/// The identity of an open file on Windows: (volume serial number, file index), `None` when
/// the system cannot tell.
#[cfg(windows)]
fn windows_file_id(file: &File) -> Option<(u32, u32, u32)> {
    use std::os::windows::io::AsRawHandle as _;
    use windows_sys::Win32::Storage::FileSystem::{
        BY_HANDLE_FILE_INFORMATION, GetFileInformationByHandle,
    };
    let mut info = BY_HANDLE_FILE_INFORMATION::default();
    // SAFETY: a handle owned by `file`, and a plain-data struct that outlives the call.
    let ok = unsafe { GetFileInformationByHandle(file.as_raw_handle(), &raw mut info) };
    (ok != 0).then_some((
        info.dwVolumeSerialNumber,
        info.nFileIndexHigh,
        info.nFileIndexLow,
    ))
}

impl Write for RotatingFile {
    /// Writes all of `buf` into one file (rotating first when needed).
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.prepare(buf.len() as u64)?;
        self.pending.extend_from_slice(buf);
        self.len += buf.len() as u64;
        if self.pending.len() >= PENDING_CAP {
            self.write_pending()?;
        }
        Ok(buf.len())
    }

    /// Writes what is pending; the next write checks the path for another process's rotation.
    fn flush(&mut self) -> io::Result<()> {
        self.checked = false;
        self.unrotatable = false;
        self.write_pending()?;
        self.file.flush()
    }
}

impl Drop for RotatingFile {
    fn drop(&mut self) {
        let _ = self.write_pending();
    }
}

#[cfg(test)]
#[path = "rotate_tests.rs"]
mod tests;
