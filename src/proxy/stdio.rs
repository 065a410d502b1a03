//! fenguard's own stdin and stdout for the relay's blocking reads and writes.
//!
//! They are duplicates of descriptors 0 and 1 (handles on Windows) as files: unbuffered, so each
//! write is one system call. A GUI may hand fenguard a pipe in non-blocking mode (the flag
//! belongs to the pipe's open file, not to fenguard); on Unix, [`Patient`] then waits with
//! `poll(2)` where a read or write would block, instead of taking `EAGAIN` for an error.

use std::fs::File;
use std::io::{Read, Write};

/// A file that waits where a non-blocking descriptor would say "try again".
#[derive(Debug)]
pub struct Patient(File);

impl Patient {
    #[cfg(unix)]
    fn wait(&self, events: libc::c_short) {
        use std::os::fd::AsRawFd as _;
        let mut fd = libc::pollfd {
            fd: self.0.as_raw_fd(),
            events,
            revents: 0,
        };
        // SAFETY: poll on one valid descriptor owned by self; the result is only a wake-up.
        unsafe {
            libc::poll(&raw mut fd, 1, -1);
        }
    }

    #[cfg(not(unix))]
    fn wait(&self, _events: i16) {
        std::thread::yield_now();
    }
}

#[cfg(unix)]
const READABLE: libc::c_short = libc::POLLIN;
#[cfg(unix)]
const WRITABLE: libc::c_short = libc::POLLOUT;
#[cfg(not(unix))]
const READABLE: i16 = 0;
#[cfg(not(unix))]
const WRITABLE: i16 = 0;

impl Read for Patient {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        loop {
            match self.0.read(buf) {
                Err(err) if err.kind() == std::io::ErrorKind::WouldBlock => self.wait(READABLE),
                other => return other,
            }
        }
    }
}

impl Write for Patient {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        loop {
            match self.0.write(buf) {
                Err(err) if err.kind() == std::io::ErrorKind::WouldBlock => self.wait(WRITABLE),
                other => return other,
            }
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush()
    }
}

/// Duplicates of fenguard's stdin and stdout.
///
/// # Errors
/// The I/O error when a descriptor (handle) cannot be duplicated, e.g. it is closed.
pub fn gui_stdio() -> std::io::Result<(Patient, Patient)> {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd as _;
        let stdin = std::io::stdin().as_fd().try_clone_to_owned()?;
        let stdout = std::io::stdout().as_fd().try_clone_to_owned()?;
        Ok((Patient(stdin.into()), Patient(stdout.into())))
    }
    #[cfg(windows)]
    {
        use std::os::windows::io::AsHandle as _;
        let stdin = std::io::stdin().as_handle().try_clone_to_owned()?;
        let stdout = std::io::stdout().as_handle().try_clone_to_owned()?;
        Ok((Patient(stdin.into()), Patient(stdout.into())))
    }
}

#[cfg(all(test, unix))]
mod tests {
    use std::os::fd::{AsRawFd as _, OwnedFd};

    use super::*;

    fn non_blocking_pipe() -> (File, File) {
        let (reader, writer) = std::io::pipe().unwrap();
        for fd in [reader.as_raw_fd(), writer.as_raw_fd()] {
            // SAFETY: fcntl on descriptors this test owns.
            unsafe {
                let flags = libc::fcntl(fd, libc::F_GETFL);
                libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK);
            }
        }
        (
            File::from(OwnedFd::from(reader)),
            File::from(OwnedFd::from(writer)),
        )
    }

    #[test]
    fn write_to_a_full_non_blocking_pipe_waits_for_the_reader() {
        let (mut reader, writer) = non_blocking_pipe();
        let bytes = vec![b'x'; 1 << 20];
        let expected = bytes.len();
        let writer = std::thread::spawn(move || Patient(writer).write_all(&bytes));
        let mut got = 0;
        let mut buf = vec![0; 1 << 16];
        while got < expected {
            match reader.read(&mut buf) {
                Ok(n) => got += n,
                Err(err) if err.kind() == std::io::ErrorKind::WouldBlock => {
                    std::thread::yield_now();
                }
                Err(err) => panic!("{err}"),
            }
        }
        writer.join().unwrap().unwrap();
        assert_eq!(got, expected);
    }

    #[test]
    fn read_from_an_empty_non_blocking_pipe_waits_for_the_writer() {
        let (reader, mut writer) = non_blocking_pipe();
        let reading = std::thread::spawn(move || {
            let mut buf = [0; 16];
            let n = Patient(reader).read(&mut buf).unwrap();
            buf[..n].to_vec()
        });
        std::thread::sleep(std::time::Duration::from_millis(50));
        writer.write_all(b"isready\n").unwrap();
        assert_eq!(reading.join().unwrap(), b"isready\n");
    }
}
