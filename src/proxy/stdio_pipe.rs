//! Unix: fenguard's own stdin or stdout as a tokio pipe, when it is a pipe or a socket.
//!
//! tokio can poll a pipe but not a terminal or a regular file, and it makes the descriptor
//! non-blocking, which would leak into the shell of a terminal; so only pipes and sockets are
//! converted, and [`RestoreFlags`] puts the original flags back when fenguard is done.

use std::os::fd::{AsFd, AsRawFd as _, OwnedFd, RawFd};

/// Puts a descriptor's file status flags back when dropped (tokio sets `O_NONBLOCK`).
#[derive(Debug)]
pub struct RestoreFlags {
    fd: RawFd,
    flags: libc::c_int,
}

impl Drop for RestoreFlags {
    fn drop(&mut self) {
        // SAFETY: fcntl on one of fenguard's standard descriptors, with flags read from it.
        unsafe {
            libc::fcntl(self.fd, libc::F_SETFL, self.flags);
        }
    }
}

/// A duplicate of `stdio`'s descriptor and the guard that restores its flags, when it is a
/// pipe or a socket; `None` otherwise (terminal, file, `/dev/null`) or on any error.
pub fn nonblocking_pipe(stdio: &impl AsFd) -> Option<(OwnedFd, RestoreFlags)> {
    let fd = stdio.as_fd();
    let raw = fd.as_raw_fd();
    // SAFETY: fstat and fcntl(F_GETFL) only read the attributes of a valid descriptor.
    let (mode, flags) = unsafe {
        let mut stat: libc::stat = std::mem::zeroed();
        if libc::fstat(raw, &raw mut stat) != 0 {
            return None;
        }
        (stat.st_mode & libc::S_IFMT, libc::fcntl(raw, libc::F_GETFL))
    };
    if (mode != libc::S_IFIFO && mode != libc::S_IFSOCK) || flags < 0 {
        return None;
    }
    let owned = fd.try_clone_to_owned().ok()?;
    Some((owned, RestoreFlags { fd: raw, flags }))
}
