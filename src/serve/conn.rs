//! One daemon connection's GUI side: the bytes before the session (the `auth` line), and the
//! blocking reader and writer the session's shell uses, with the idle timeout, the daemon's
//! shutdown (a `quit` for the engine) and the [heartbeat] built in.
//!
//! A heartbeat asked for on the `auth` line reaches the reader as the first line of the bytes
//! after it, [`HEARTBEAT_MARK`] and the interval in milliseconds; the reader takes that line off
//! and starts the beats before the session reads anything.

use std::io::{ErrorKind, Read, Write};
use std::net::{Shutdown, TcpStream};
use std::os::unix::net::UnixStream;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use tokio::io::{AsyncRead, AsyncReadExt as _, AsyncWrite, AsyncWriteExt as _};

use crate::net::heartbeat::{self, Gate};
use crate::net::tls_stream::TlsStream;

/// Longest first line (`auth <token>`) read before a connection is refused.
pub const MAX_AUTH_LINE: usize = 4096;

/// How long a client has to send its first line.
pub const AUTH_TIMEOUT: Duration = Duration::from_secs(10);

/// Starts the line that carries an accepted heartbeat offer from [`read_first_line`] to
/// [`ConnReader::new`] (never on the wire: a client's own NUL-led line is not taken for it
/// unless it comes first, and then it only asks for beats).
pub const HEARTBEAT_MARK: &[u8] = b"\0fenguard heartbeat ";

/// How often a blocked read wakes up to look at the idle timeout, the daemon's shutdown and a
/// revoked token.
const POLL: Duration = Duration::from_millis(250);

/// What the client of a session whose token was revoked gets, before its connection closes.
pub const REVOKED: &[u8] = b"info string fenguard: access revoked; session ending\n";

/// Longest the [`REVOKED`] notice waits for a line in progress to end.
const NOTICE_PATIENCE: Duration = Duration::from_secs(1);

/// Why the first line was not read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FirstLine {
    /// The line (without its terminator) and the bytes read after it.
    Line(Vec<u8>, Vec<u8>),
    /// More than [`MAX_AUTH_LINE`] bytes without a line end.
    TooLong,
    /// The connection ended first.
    Closed,
    /// Nothing within [`AUTH_TIMEOUT`].
    TimedOut,
}

/// Reads the first line, holding at most [`MAX_AUTH_LINE`] + 1 KiB, for at most
/// [`AUTH_TIMEOUT`]. A heartbeat offer is taken off an `auth` line and put in front of the
/// bytes after it (see [`HEARTBEAT_MARK`]).
pub async fn read_first_line<S: AsyncRead + Unpin>(stream: &mut S) -> FirstLine {
    let read = async {
        let mut buf = Vec::with_capacity(MAX_AUTH_LINE);
        let mut chunk = [0u8; 1024];
        loop {
            if let Some(end) = buf.iter().position(|&b| b == b'\n') {
                let rest = buf.split_off(end + 1);
                buf.truncate(end);
                if buf.last() == Some(&b'\r') {
                    buf.pop();
                }
                return match heartbeat::take_offer(&buf) {
                    (line, Some(every)) => {
                        let mut marked = HEARTBEAT_MARK.to_vec();
                        marked.extend_from_slice(format!("{}\n", every.as_millis()).as_bytes());
                        marked.extend_from_slice(&rest);
                        FirstLine::Line(line, marked)
                    }
                    (_, None) => FirstLine::Line(buf, rest),
                };
            }
            if buf.len() > MAX_AUTH_LINE {
                return FirstLine::TooLong;
            }
            match stream.read(&mut chunk).await {
                Ok(0) | Err(_) => return FirstLine::Closed,
                Ok(n) => buf.extend_from_slice(&chunk[..n]),
            }
        }
    };
    tokio::time::timeout(AUTH_TIMEOUT, read)
        .await
        .unwrap_or(FirstLine::TimedOut)
}

/// Writes `info string fenguard: refused: REASON`, ends the output and reads (and drops) what
/// the client still sends for up to a second, so that the refusal is not lost to a reset.
pub async fn refuse<S: AsyncRead + AsyncWrite + Unpin>(stream: &mut S, reason: &str) {
    let line = format!("info string fenguard: refused: {reason}\n");
    let _ = stream.write_all(line.as_bytes()).await;
    let _ = stream.flush().await;
    let _ = stream.shutdown().await;
    let drain = async {
        let mut chunk = [0u8; 4096];
        let mut total = 0usize;
        while total < 1 << 20 {
            match stream.read(&mut chunk).await {
                Ok(0) | Err(_) => break,
                Ok(n) => total += n,
            }
        }
    };
    let _ = tokio::time::timeout(Duration::from_secs(1), drain).await;
}

/// A connection's socket after admission, used with blocking calls.
#[derive(Debug)]
pub enum Socket {
    /// TCP.
    Tcp(TcpStream),
    /// A Unix socket.
    Unix(UnixStream),
    /// TLS over TCP, read and written straight from the session's threads.
    Tls(TlsStream),
}

impl Socket {
    /// Another handle on the same socket.
    ///
    /// # Errors
    /// When the descriptor cannot be duplicated.
    pub fn try_clone(&self) -> std::io::Result<Socket> {
        Ok(match self {
            Socket::Tcp(s) => Socket::Tcp(s.try_clone()?),
            Socket::Unix(s) => Socket::Unix(s.try_clone()?),
            Socket::Tls(s) => Socket::Tls(s.try_clone()?),
        })
    }

    /// Shuts one or both directions down (wakes a blocked read); TLS sends `close_notify`
    /// before its output ends.
    pub fn shutdown(&self, how: Shutdown) {
        let _ = match self {
            Socket::Tcp(s) => s.shutdown(how),
            Socket::Unix(s) => s.shutdown(how),
            Socket::Tls(s) => {
                s.shutdown(how);
                Ok(())
            }
        };
    }

    /// Closes the connection at the end of its session: a plain socket at once, TLS after
    /// `close_notify`, reading what the client still sends for at most `linger` (so that
    /// the end of the output is not lost to a reset).
    pub fn close(&self, linger: Duration) {
        match self {
            Socket::Tls(s) => s.close_lingering(linger),
            _ => self.shutdown(Shutdown::Both),
        }
    }

    fn set_read_timeout(&self, timeout: Duration) -> std::io::Result<()> {
        match self {
            Socket::Tcp(s) => s.set_read_timeout(Some(timeout)),
            Socket::Unix(s) => s.set_read_timeout(Some(timeout)),
            Socket::Tls(s) => s.set_read_timeout(Some(timeout)),
        }
    }
}

impl Read for Socket {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        match self {
            Socket::Tcp(s) => s.read(buf),
            Socket::Unix(s) => s.read(buf),
            Socket::Tls(s) => s.read(buf),
        }
    }
}

impl Write for Socket {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match self {
            Socket::Tcp(s) => s.write(buf),
            Socket::Unix(s) => s.write(buf),
            Socket::Tls(s) => s.write(buf),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// What the daemon and a connection's reader and writer share.
#[derive(Debug)]
pub struct ConnState {
    start: Instant,
    /// Milliseconds from `start` to the last byte either way.
    last: AtomicU64,
    /// The daemon is shutting down: the engine gets `quit`.
    closing: AtomicBool,
    /// The connection was closed for being idle.
    pub idled: AtomicBool,
    /// The SHA-256 hash of the token that opened the session; `None` without tokens.
    token: Option<[u8; 32]>,
    /// Its token was revoked (a SIGHUP reload dropped it): the session ends.
    revoked: AtomicBool,
    /// The writes to the connection, shared with its heartbeat.
    gate: Arc<Gate>,
}

impl ConnState {
    /// A new connection, active now, opened by the token of hash `token` (`None`: no tokens
    /// are configured).
    pub fn new(token: Option<[u8; 32]>) -> Arc<ConnState> {
        Arc::new(ConnState {
            start: Instant::now(),
            last: AtomicU64::new(0),
            closing: AtomicBool::new(false),
            idled: AtomicBool::new(false),
            token,
            revoked: AtomicBool::new(false),
            gate: Arc::new(Gate::default()),
        })
    }

    /// The hash of the token that opened the session, if any.
    pub fn token(&self) -> Option<&[u8; 32]> {
        self.token.as_ref()
    }

    /// Its token was revoked: within [`POLL`] the reader writes [`REVOKED`] to the client,
    /// closes the connection's output and ends the session's input, as a disconnect does.
    pub fn revoke(&self) {
        self.revoked.store(true, Ordering::SeqCst);
    }

    /// Whether [`ConnState::revoke`] was called.
    pub fn revoked(&self) -> bool {
        self.revoked.load(Ordering::SeqCst)
    }

    fn touch(&self) {
        let ms = u64::try_from(self.start.elapsed().as_millis()).unwrap_or(u64::MAX);
        self.last.store(ms, Ordering::Relaxed);
    }

    fn idle_for(&self) -> Duration {
        let since = Duration::from_millis(self.last.load(Ordering::Relaxed));
        self.start.elapsed().saturating_sub(since)
    }

    /// The daemon is shutting down: the reader gives the session `quit`, then the end.
    pub fn close(&self) {
        self.closing.store(true, Ordering::SeqCst);
    }
}

/// The session's GUI input: first the bytes read after the `auth` line, then the socket; a
/// `quit` line when the daemon shuts down; the end of input after the idle timeout.
#[derive(Debug)]
pub struct ConnReader {
    prefix: Vec<u8>,
    at: usize,
    socket: Socket,
    state: Arc<ConnState>,
    idle: Option<Duration>,
    quit_given: bool,
    revoke_told: bool,
}

impl ConnReader {
    /// Reads `socket` after `prefix`; `idle` is the idle timeout. A `prefix` that starts with
    /// [`HEARTBEAT_MARK`] loses that line and starts the heartbeat (its first beat written now).
    ///
    /// # Errors
    /// When the socket's read timeout cannot be set, or the heartbeat cannot start.
    pub fn new(
        prefix: Vec<u8>,
        socket: Socket,
        state: Arc<ConnState>,
        idle: Option<Duration>,
    ) -> std::io::Result<ConnReader> {
        socket.set_read_timeout(POLL)?;
        let mut at = 0;
        if let Some(marked) = prefix.strip_prefix(HEARTBEAT_MARK)
            && let Some(end) = marked.iter().position(|&b| b == b'\n')
        {
            at = HEARTBEAT_MARK.len() + end + 1;
            let ms = std::str::from_utf8(&marked[..end])
                .ok()
                .and_then(|ms| ms.parse().ok());
            let every = Duration::from_millis(ms.unwrap_or(0)).max(heartbeat::MIN_EVERY);
            heartbeat::start(&state.gate, socket.try_clone()?, every)?;
        }
        Ok(ConnReader {
            prefix,
            at,
            socket,
            state,
            idle,
            quit_given: false,
            revoke_told: false,
        })
    }
}

impl Read for ConnReader {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        loop {
            if self.state.revoked() {
                if !self.revoke_told {
                    self.revoke_told = true;
                    let _ = self
                        .state
                        .gate
                        .write_line(&mut self.socket, REVOKED, NOTICE_PATIENCE);
                    // Nothing more reaches the client; the session ends as after a disconnect.
                    self.socket.shutdown(Shutdown::Write);
                }
                return Ok(0);
            }
            if self.state.closing.load(Ordering::SeqCst) {
                if self.quit_given || buf.len() < 5 {
                    return Ok(0);
                }
                self.quit_given = true;
                buf[..5].copy_from_slice(b"quit\n");
                return Ok(5);
            }
            if self.at < self.prefix.len() {
                let n = buf.len().min(self.prefix.len() - self.at);
                buf[..n].copy_from_slice(&self.prefix[self.at..self.at + n]);
                self.at += n;
                return Ok(n);
            }
            match self.socket.read(buf) {
                Ok(0) => return Ok(0),
                Ok(n) => {
                    self.state.touch();
                    return Ok(n);
                }
                // The read timeout (`EAGAIN`); `ETIMEDOUT` is a dead peer, an error below.
                Err(err) if err.kind() == ErrorKind::WouldBlock => {
                    if self.idle.is_some_and(|idle| self.state.idle_for() >= idle) {
                        tracing::warn!("connection idle too long: closing it");
                        self.state.idled.store(true, Ordering::SeqCst);
                        self.socket.shutdown(Shutdown::Both);
                        return Ok(0);
                    }
                }
                Err(err) if err.kind() == ErrorKind::Interrupted => {}
                Err(err) => return Err(err),
            }
        }
    }
}

/// The session's GUI output: the socket, noting activity for the idle timeout.
#[derive(Debug)]
pub struct ConnWriter {
    socket: Socket,
    state: Arc<ConnState>,
}

impl ConnWriter {
    /// Writes to `socket`.
    pub fn new(socket: Socket, state: Arc<ConnState>) -> ConnWriter {
        ConnWriter { socket, state }
    }
}

impl Write for ConnWriter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.state.gate.write(&mut self.socket, buf)?;
        self.state.touch();
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
#[path = "conn_tests.rs"]
mod tests;
