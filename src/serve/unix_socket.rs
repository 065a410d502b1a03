//! A Unix-socket listener that is the daemon's own: refused while another daemon answers on
//! the path, a stale socket file replaced, and at exit removed only if it is still the one
//! this daemon bound (same device and inode).

use std::os::unix::fs::{FileTypeExt as _, MetadataExt as _, PermissionsExt as _};
use std::path::{Path, PathBuf};

use tokio::net::UnixListener;

/// The socket file this daemon created.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OwnSocket {
    path: PathBuf,
    dev: u64,
    ino: u64,
}

/// Binds `path` (mode 0600).
///
/// # Errors
/// A message when another process accepts on `path`, when `path` is something other than a
/// socket, or when binding fails.
pub fn bind(path: &Path) -> Result<(UnixListener, OwnSocket), String> {
    if let Ok(meta) = std::fs::symlink_metadata(path) {
        if !meta.file_type().is_socket() {
            return Err(format!(
                "cannot listen on unix:{}: it exists and is not a socket",
                path.display()
            ));
        }
        if std::os::unix::net::UnixStream::connect(path).is_ok() {
            return Err(format!(
                "cannot listen on unix:{}: another fenguard serve (or another program) is listening there",
                path.display()
            ));
        }
        tracing::info!("removing stale socket {}", path.display());
        let _ = std::fs::remove_file(path);
    }
    // Created 0600 at once (umask 0177 around the bind), never reachable with the umask's
    // mode in between; the umask is the process's, put back at once (a file another thread
    // creates meanwhile is at most more private).
    // SAFETY: umask only swaps the process's file mode creation mask; it cannot fail.
    let old = unsafe { libc::umask(0o177) };
    let bound = UnixListener::bind(path);
    // SAFETY: as above.
    unsafe { libc::umask(old) };
    let listener = bound.map_err(|e| format!("cannot listen on unix:{}: {e}", path.display()))?;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))
        .map_err(|e| format!("cannot make unix:{} private (0600): {e}", path.display()))?;
    let meta = std::fs::symlink_metadata(path)
        .map_err(|e| format!("cannot listen on unix:{}: {e}", path.display()))?;
    let own = OwnSocket {
        path: path.to_path_buf(),
        dev: meta.dev(),
        ino: meta.ino(),
    };
    Ok((listener, own))
}

impl OwnSocket {
    /// Removes the socket file if it is still this daemon's.
    pub fn remove(&self) {
        let ours = std::fs::symlink_metadata(&self.path)
            .is_ok_and(|m| m.dev() == self.dev && m.ino() == self.ino);
        if ours {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}
