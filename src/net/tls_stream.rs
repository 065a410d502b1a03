//! A TLS connection (rustls) over a TCP socket, used with blocking calls by several threads
//! at once: one reads while others write (the session's GUI reader and writer, the
//! heartbeat), as they do a plain socket. No socket pair and no copying task stand between
//! the network and the session.
//!
//! A read waits for the network without holding any lock, then decrypts under the connection's
//! lock; a write encrypts under the lock and sends the records in the order they were made (a
//! lock taken before the connection's). TLS records the connection produces while reading
//! (an alert, a key update) are sent the same way.

use std::io::{self, ErrorKind, Read, Write};
use std::net::{Shutdown, TcpStream};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

/// Bytes read from the network at once (a TLS record is at most 16 KiB plus overhead).
const READ_SIZE: usize = 18 * 1024;

/// Longest a shutdown waits to send `close_notify`.
pub const CLOSE_NOTIFY_WAIT: Duration = Duration::from_millis(250);

/// A handle on a TLS connection; clones share it ([`try_clone`](TlsStream::try_clone)).
#[derive(Debug)]
pub struct TlsStream {
    shared: Arc<Shared>,
    /// This handle's buffer for network bytes (allocated at its first read).
    raw: Vec<u8>,
}

impl Clone for TlsStream {
    fn clone(&self) -> TlsStream {
        TlsStream {
            shared: Arc::clone(&self.shared),
            raw: Vec::new(),
        }
    }
}

#[derive(Debug)]
struct Shared {
    /// The TLS state and the network bytes read but not yet taken by it.
    tls: Mutex<Tls>,
    /// The socket written; its lock orders the records on the wire.
    out: Mutex<TcpStream>,
    /// The socket read (another handle on it), read without any lock held.
    input: TcpStream,
}

#[derive(Debug)]
struct Tls {
    conn: rustls::Connection,
    pending: Vec<u8>,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl TlsStream {
    /// Wraps a connection whose handshake is done (or under way: it goes on as the stream is
    /// read and written) over `tcp` (blocking). Records the connection still holds are sent.
    ///
    /// # Errors
    /// When the socket cannot be duplicated or a pending record cannot be sent.
    pub fn new(tcp: TcpStream, conn: impl Into<rustls::Connection>) -> io::Result<TlsStream> {
        let input = tcp.try_clone()?;
        let stream = TlsStream {
            shared: Arc::new(Shared {
                tls: Mutex::new(Tls {
                    conn: conn.into(),
                    pending: Vec::new(),
                }),
                out: Mutex::new(tcp),
                input,
            }),
            raw: Vec::new(),
        };
        stream.send_pending()?;
        Ok(stream)
    }

    /// Connects the client side: the handshake over `tcp`, within `timeout`.
    ///
    /// # Errors
    /// The handshake failed (a certificate refused, the server gone) or took longer
    /// ([`ErrorKind::TimedOut`]).
    pub fn handshake(
        mut tcp: TcpStream,
        mut conn: rustls::ClientConnection,
        timeout: Duration,
    ) -> io::Result<TlsStream> {
        let deadline = Instant::now() + timeout;
        while conn.is_handshaking() {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(ErrorKind::TimedOut.into());
            }
            tcp.set_read_timeout(Some(left))?;
            tcp.set_write_timeout(Some(left))?;
            match conn.complete_io(&mut tcp) {
                Ok(_) => {}
                Err(err) if err.kind() == ErrorKind::WouldBlock => {
                    return Err(ErrorKind::TimedOut.into());
                }
                Err(err) => return Err(err),
            }
        }
        tcp.set_read_timeout(None)?;
        tcp.set_write_timeout(None)?;
        TlsStream::new(tcp, conn)
    }

    /// Another handle on the same connection.
    ///
    /// # Errors
    /// None today; the signature matches the sockets'.
    pub fn try_clone(&self) -> io::Result<TlsStream> {
        Ok(self.clone())
    }

    /// Ends one or both directions: the end of output is sent as a TLS `close_notify` first,
    /// unless a write is blocked (a peer that does not read: the shutdown must not wait for
    /// it) or the `close_notify` does not go out within [`CLOSE_NOTIFY_WAIT`].
    pub fn shutdown(&self, how: Shutdown) {
        if how != Shutdown::Read
            && let Ok(mut out) = self.shared.out.try_lock()
        {
            let records = {
                let mut tls = lock(&self.shared.tls);
                tls.conn.send_close_notify();
                drain(&mut tls.conn)
            };
            if let Ok(records) = records
                && out.set_write_timeout(Some(CLOSE_NOTIFY_WAIT)).is_ok()
            {
                let _ = out.write_all(&records);
                let _ = out.set_write_timeout(None);
            }
        }
        let _ = self.shared.input.shutdown(how);
    }

    /// A blocked read returns [`ErrorKind::WouldBlock`] after `timeout` without a byte.
    ///
    /// # Errors
    /// From the socket.
    pub fn set_read_timeout(&self, timeout: Option<Duration>) -> io::Result<()> {
        self.shared.input.set_read_timeout(timeout)
    }

    /// Ends the output (`close_notify`), then reads and drops what the peer still sends for at
    /// most `linger` before closing, so that what it has not read yet is not lost to a reset.
    /// The reading is done by a thread of its own.
    pub fn close_lingering(&self, linger: Duration) {
        self.shutdown(Shutdown::Write);
        let Ok(mut input) = self.shared.input.try_clone() else {
            let _ = self.shared.input.shutdown(Shutdown::Both);
            return;
        };
        let spawned = std::thread::Builder::new()
            .name("tls-linger".to_owned())
            .spawn(move || {
                let until = Instant::now() + linger;
                let mut buf = vec![0u8; READ_SIZE];
                loop {
                    let left = until.saturating_duration_since(Instant::now());
                    if left.is_zero() || input.set_read_timeout(Some(left)).is_err() {
                        break;
                    }
                    match input.read(&mut buf) {
                        Ok(0) => break,
                        Ok(_) => {}
                        Err(err) if err.kind() == ErrorKind::Interrupted => {}
                        Err(_) => break,
                    }
                }
                let _ = input.shutdown(Shutdown::Both);
            });
        if spawned.is_err() {
            let _ = self.shared.input.shutdown(Shutdown::Both);
        }
    }

    /// Sends the records the connection holds.
    fn send_pending(&self) -> io::Result<()> {
        let mut out = lock(&self.shared.out);
        let records = drain(&mut lock(&self.shared.tls).conn)?;
        out.write_all(&records)
    }
}

/// The records `conn` wants sent.
fn drain(conn: &mut rustls::Connection) -> io::Result<Vec<u8>> {
    let mut records = Vec::new();
    while conn.wants_write() {
        conn.write_tls(&mut records)?;
    }
    Ok(records)
}

impl Read for TlsStream {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        let mut fresh = 0;
        loop {
            let mut send = false;
            {
                let mut tls = lock(&self.shared.tls);
                tls.pending.extend_from_slice(&self.raw[..fresh]);
                fresh = 0;
                loop {
                    match tls.conn.reader().read(buf) {
                        Ok(n) => return Ok(n),
                        Err(err) if err.kind() == ErrorKind::WouldBlock => {}
                        // The peer closed without `close_notify`: an end all the same.
                        Err(err) if err.kind() == ErrorKind::UnexpectedEof => return Ok(0),
                        Err(err) => return Err(err),
                    }
                    if tls.pending.is_empty() {
                        break;
                    }
                    let Tls { conn, pending } = &mut *tls;
                    let mut unread = &pending[..];
                    let taken = conn.read_tls(&mut unread)?;
                    if taken == 0 {
                        return Err(io::Error::other("the TLS connection takes no more input"));
                    }
                    pending.drain(..taken);
                    let processed = conn.process_new_packets();
                    send |= conn.wants_write();
                    if let Err(err) = processed {
                        drop(tls);
                        let _ = self.send_pending();
                        return Err(io::Error::new(ErrorKind::InvalidData, err));
                    }
                    if send {
                        break;
                    }
                }
            }
            if send {
                self.send_pending()?;
                continue;
            }
            self.raw.resize(READ_SIZE, 0);
            fresh = loop {
                match (&self.shared.input).read(&mut self.raw) {
                    Err(err) if err.kind() == ErrorKind::Interrupted => {}
                    other => break other?,
                }
            };
            if fresh == 0 {
                let mut tls = lock(&self.shared.tls);
                // The end of the network's bytes: the reader answers Ok(0) or UnexpectedEof.
                let _ = tls.conn.read_tls(&mut &[][..]);
                let _ = tls.conn.process_new_packets();
                return match tls.conn.reader().read(buf) {
                    Ok(n) => Ok(n),
                    Err(err) if err.kind() == ErrorKind::WouldBlock => Ok(0),
                    Err(err) if err.kind() == ErrorKind::UnexpectedEof => Ok(0),
                    Err(err) => Err(err),
                };
            }
        }
    }
}

impl Write for TlsStream {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut out = lock(&self.shared.out);
        let (n, records) = {
            let mut tls = lock(&self.shared.tls);
            let n = tls.conn.writer().write(buf)?;
            (n, drain(&mut tls.conn)?)
        };
        out.write_all(&records)?;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use std::net::TcpListener;
    use std::path::Path;

    use super::*;

    /// A server and a client `TlsStream` over loopback, with a fresh self-signed certificate.
    fn pair() -> (TlsStream, TlsStream) {
        static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let dir = std::env::temp_dir().join(format!("fenguard-tls-{}-{n}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let key = rcgen::generate_simple_self_signed(vec!["localhost".to_owned()]).unwrap();
        let (cert, pem) = (dir.join("cert.pem"), dir.join("key.pem"));
        std::fs::write(&cert, key.cert.pem()).unwrap();
        std::fs::write(&pem, key.signing_key.serialize_pem()).unwrap();
        let server_config = crate::serve::tls::server_config(&cert, &pem).unwrap();
        let client_config = crate::serve::tls::client_config(Some(Path::new(&cert))).unwrap();
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let at = listener.local_addr().unwrap();
        let server = std::thread::spawn(move || {
            let (mut tcp, _) = listener.accept().unwrap();
            let mut conn = rustls::ServerConnection::new(server_config).unwrap();
            while conn.is_handshaking() {
                conn.complete_io(&mut tcp).unwrap();
            }
            TlsStream::new(tcp, conn).unwrap()
        });
        let name = rustls::pki_types::ServerName::try_from("localhost").unwrap();
        let conn = rustls::ClientConnection::new(client_config, name).unwrap();
        let tcp = TcpStream::connect(at).unwrap();
        let client = TlsStream::handshake(tcp, conn, Duration::from_secs(10)).unwrap();
        let server = server.join().unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        (server, client)
    }

    fn read_line(stream: &mut TlsStream) -> Vec<u8> {
        let mut line = Vec::new();
        let mut byte = [0u8; 1];
        while line.last() != Some(&b'\n') {
            assert_eq!(stream.read(&mut byte).unwrap(), 1, "end before a line end");
            line.push(byte[0]);
        }
        line
    }

    #[test]
    fn lines_go_both_ways_while_another_thread_reads() {
        let (server, mut client) = pair();
        let (mut server_in, mut server_out) = (server.try_clone().unwrap(), server);
        // The server echoes each line from a reader thread, writing with another handle.
        let echo = std::thread::spawn(move || {
            for _ in 0..100 {
                let line = read_line(&mut server_in);
                server_out.write_all(&line).unwrap();
            }
        });
        for i in 0..100 {
            let line = format!("isready {i}\n");
            client.write_all(line.as_bytes()).unwrap();
            assert_eq!(read_line(&mut client), line.as_bytes());
        }
        echo.join().unwrap();
    }

    #[test]
    fn shutdown_of_the_output_is_the_peers_end_of_input() {
        let (mut server, client) = pair();
        let mut writer = client.try_clone().unwrap();
        writer.write_all(b"quit\n").unwrap();
        client.shutdown(Shutdown::Write);
        assert_eq!(read_line(&mut server), b"quit\n");
        let mut rest = [0u8; 16];
        assert_eq!(server.read(&mut rest).unwrap(), 0);
    }

    #[test]
    fn read_timeout_leaves_the_stream_usable() {
        let (mut server, mut client) = pair();
        server
            .set_read_timeout(Some(Duration::from_millis(50)))
            .unwrap();
        let mut buf = [0u8; 16];
        let err = server.read(&mut buf).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::WouldBlock);
        client.write_all(b"uci\n").unwrap();
        assert_eq!(read_line(&mut server), b"uci\n");
    }
}
