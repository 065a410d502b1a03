//! The connection as `fenguard connect` watches it: the heartbeat it asked for, how long its
//! reader has waited for the server, and why the connection ended.
//!
//! The reader reads the socket through [`Heard`], which notes when a read starts waiting and
//! how one failed. A watchdog thread ends the connection (shuts the socket down, which the
//! reader sees as its end) when a read has waited the peer timeout while a heartbeat is asked
//! for or on: the daemon beats at least every `--keepalive-s` of quiet, so that much silence
//! means a dead link or a daemon that does not run. Time spent writing to the GUI is not
//! waiting: a GUI that reads slowly never makes the server look dead.

use std::io::Read;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use crate::net::heartbeat::is_beat;
use crate::serve::conn::Socket;

/// No heartbeat: not asked for, or the daemon's first line was something else.
const OFF: u8 = 0;
/// Asked for; the daemon's first line decides.
const ASKED: u8 = 1;
/// The daemon beats.
const ON: u8 = 2;

/// Not waiting in a read.
const NOT_WAITING: u64 = u64::MAX;

/// What the reader, the watchdog and the end of `connect` share.
#[derive(Debug)]
pub(super) struct Link {
    start: Instant,
    /// Milliseconds from `start` to when the current read began waiting, or [`NOT_WAITING`].
    waiting_since: AtomicU64,
    /// [`OFF`], [`ASKED`] or [`ON`].
    heartbeat: AtomicU8,
    /// Why the connection ended, when it is known better than "the server closed it".
    why: Mutex<Option<String>>,
}

impl Link {
    /// A new connection; `asked`: a heartbeat was asked for.
    pub(super) fn new(asked: bool) -> Arc<Link> {
        Arc::new(Link {
            start: Instant::now(),
            waiting_since: AtomicU64::new(NOT_WAITING),
            heartbeat: AtomicU8::new(if asked { ASKED } else { OFF }),
            why: Mutex::new(None),
        })
    }

    /// Whether the server's `line` is a beat (for `connect` alone, not the GUI).
    pub(super) fn is_beat(&self, line: &[u8]) -> bool {
        match self.heartbeat.load(Ordering::SeqCst) {
            OFF => false,
            ON => is_beat(line),
            _ => {
                let beat = is_beat(line);
                self.heartbeat
                    .store(if beat { ON } else { OFF }, Ordering::SeqCst);
                beat
            }
        }
    }

    /// Why the connection ended, when something other than the server's close ended it.
    pub(super) fn why(&self) -> Option<String> {
        self.why
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    fn ended(&self, why: String) {
        self.why
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get_or_insert(why);
    }

    fn now_ms(&self) -> u64 {
        u64::try_from(self.start.elapsed().as_millis()).unwrap_or(NOT_WAITING - 1)
    }

    /// How long the current read has waited; `None` when the reader is not in a read.
    fn waited(&self) -> Option<Duration> {
        let since = self.waiting_since.load(Ordering::SeqCst);
        (since != NOT_WAITING).then(|| Duration::from_millis(self.now_ms().saturating_sub(since)))
    }

    /// Ends the connection through `socket` once a read has waited `timeout` while a heartbeat
    /// is asked for or on; runs on a thread of its own until then, or until the daemon's first
    /// line turned the heartbeat off.
    ///
    /// # Errors
    /// When the thread cannot start.
    pub(super) fn watch(
        self: &Arc<Link>,
        socket: Socket,
        timeout: Duration,
    ) -> std::io::Result<()> {
        let link = Arc::clone(self);
        let tick = (timeout / 20).max(Duration::from_millis(20));
        std::thread::Builder::new()
            .name("watchdog".to_owned())
            .spawn(move || {
                loop {
                    std::thread::sleep(tick);
                    if link.heartbeat.load(Ordering::SeqCst) == OFF {
                        // For good: the daemon does not beat.
                        return;
                    }
                    if link.waited().is_some_and(|w| w >= timeout) {
                        link.ended(format!(
                            "no word from the server for {} s",
                            timeout.as_secs()
                        ));
                        socket.shutdown(std::net::Shutdown::Both);
                        return;
                    }
                }
            })?;
        Ok(())
    }
}

/// The socket, read through the [`Link`]: notes when a read waits and why one failed.
#[derive(Debug)]
pub(super) struct Heard<R> {
    /// The socket.
    pub(super) inner: R,
    /// Its watcher.
    pub(super) link: Arc<Link>,
}

impl<R: Read> Read for Heard<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.link
            .waiting_since
            .store(self.link.now_ms(), Ordering::SeqCst);
        let got = self.inner.read(buf);
        self.link.waiting_since.store(NOT_WAITING, Ordering::SeqCst);
        if let Err(err) = &got
            && err.kind() != std::io::ErrorKind::Interrupted
        {
            self.link.ended(err.to_string());
        }
        got
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_first_line_that_is_not_a_beat_turns_the_heartbeat_off() {
        let link = Link::new(true);
        assert!(!link.is_beat(b"id name Old\n"));
        assert!(!link.is_beat(b"info string fenguard: heartbeat\n"));
    }

    #[test]
    fn beats_are_taken_off_once_the_first_line_was_one() {
        let link = Link::new(true);
        assert!(link.is_beat(b"info string fenguard: heartbeat\n"));
        assert!(!link.is_beat(b"uciok\n"));
        assert!(link.is_beat(b"info string fenguard: heartbeat\r\n"));
    }

    #[test]
    fn without_a_heartbeat_asked_for_nothing_is_a_beat() {
        assert!(!Link::new(false).is_beat(b"info string fenguard: heartbeat\n"));
    }

    #[test]
    fn a_failed_read_names_the_error() {
        struct TimedOut;
        impl Read for TimedOut {
            fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
                Err(std::io::ErrorKind::TimedOut.into())
            }
        }
        let link = Link::new(false);
        let mut heard = Heard {
            inner: TimedOut,
            link: Arc::clone(&link),
        };
        assert!(heard.read(&mut [0; 4]).is_err());
        assert_eq!(link.why(), Some("timed out".to_owned()));
        assert_eq!(link.waited(), None);
    }
}
