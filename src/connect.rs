//! `fenguard connect ADDR`: the stdio client of a daemon, what a GUI registers as its engine
//! (SPEC section 11).
//!
//! It connects (`HOST:PORT` plain TCP, `tls://HOST:PORT` TLS with the server's certificate
//! checked against `--ca FILE` or the system's roots, `unix:/PATH`), sends `auth <token>` when
//! it has a token (`--token-file F`, else `$FENGUARD_TOKEN`), then relays bytes both ways,
//! line by line, unchanged. When the connection is lost while the GUI still talks to it, the
//! GUI gets `info string fenguard: connection lost: ...` and what it still waits for
//! (`owed.rs`: `uciok` for a `uci`, `readyok` for an `isready`, `bestmove 0000` for each search
//! it started and has no `bestmove` for), and `connect` exits with status 1: to a GUI that is
//! an engine that ended, which it reports and lets the user restart (a silent reconnect would
//! give it a new engine with none of its options, hash or position). After the GUI's `quit` or
//! end of input, the server's end is the normal end: exit 0.
//!
//! A dead server is noticed within `--peer-timeout-s` (+ `--keepalive-s`): TCP keepalive and
//! `TCP_USER_TIMEOUT` ([`crate::net::keepalive`]) on the TCP socket, and a
//! [heartbeat](crate::net::heartbeat) asked for on the `auth` line, watched by `link.rs`.

#[cfg(unix)]
mod link;
#[cfg(unix)]
mod owed;
#[cfg(unix)]
pub mod rtt;

#[cfg(unix)]
mod text_gate;

use std::path::PathBuf;
use std::process::ExitCode;
#[cfg(unix)]
use std::sync::Arc;
#[cfg(unix)]
use std::sync::atomic::{AtomicBool, Ordering};

/// `fenguard connect ADDR [--token-file F] [--ca FILE]`.
#[derive(Debug, Clone, clap::Args)]
pub struct ConnectArgs {
    /// The daemon: HOST:PORT (plain TCP), tls://HOST:PORT, or unix:/PATH.
    pub addr: String,
    /// File holding the token (its first line); default `$FENGUARD_TOKEN`; none: no `auth`.
    #[arg(long, value_name = "F")]
    pub token_file: Option<PathBuf>,
    /// CA certificate (PEM) that signed the server's certificate, or the self-signed
    /// certificate itself; default: the system's roots.
    #[arg(long, value_name = "FILE")]
    pub ca: Option<PathBuf>,
    /// Seconds of quiet before TCP keepalive probes, and the heartbeat asked of the server
    /// (0: neither).
    #[arg(long, value_name = "S", default_value_t = 5)]
    pub keepalive_s: u64,
    /// The server is lost when it leaves this many seconds without a word (no heartbeat, no
    /// TCP acknowledgement); 0: the system's TCP defaults and no heartbeat.
    #[arg(long, value_name = "S", default_value_t = 20)]
    pub peer_timeout_s: u64,
    /// Take the measured round trip to the daemon (the median of the last isready/readyok
    /// exchanges) off the wtime, btime and movetime of every go, on top of the server's
    /// `[time] overhead_ms` (a time is never taken below 10 ms).
    #[arg(long)]
    pub rtt_overhead: bool,
}

/// The least clock time `--rtt-overhead` leaves (the `[time] min_ms` default).
#[cfg(unix)]
const RTT_MIN_MS: u64 = 10;

/// Runs the client; exit 0 after the GUI's `quit` or end of input, 1 when the connection was
/// lost or refused, 2 for a usage, token, TLS or connection error before any relaying.
pub fn run(args: &ConnectArgs) -> ExitCode {
    #[cfg(unix)]
    {
        match unix::connect(args) {
            Ok(status) => status,
            Err(message) => {
                eprintln!("fenguard connect: {message}");
                let line = format!("info string fenguard: cannot connect: {message}\n");
                let _ = std::io::Write::write_all(&mut std::io::stdout(), line.as_bytes());
                ExitCode::from(2)
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = args;
        eprintln!("fenguard: connect is not supported on this platform yet (Unix only)");
        ExitCode::from(2)
    }
}

#[cfg(unix)]
fn token(args: &ConnectArgs) -> Result<Option<String>, String> {
    let token = match &args.token_file {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("cannot read token file {}: {e}", path.display()))?;
            let token = text.lines().next().unwrap_or("").trim().to_owned();
            if token.is_empty() {
                return Err(format!("token file {} is empty", path.display()));
            }
            token
        }
        None => std::env::var("FENGUARD_TOKEN")
            .unwrap_or_default()
            .trim()
            .to_owned(),
    };
    if token.contains(char::is_whitespace) {
        return Err("the token holds whitespace".to_owned());
    }
    Ok(Some(token).filter(|t| !t.is_empty()))
}

/// What the GUI still waits for; whether the GUI is done.
#[cfg(unix)]
#[derive(Debug, Default)]
struct Conversation {
    owed: std::sync::Mutex<owed::Owed>,
    gui_done: AtomicBool,
    rtt: rtt::RoundTrip,
}

#[cfg(unix)]
impl Conversation {
    fn owed(&self) -> std::sync::MutexGuard<'_, owed::Owed> {
        self.owed
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// The heartbeat interval to ask for and the peer timeout, when both are set.
#[cfg(unix)]
fn heartbeat(
    args: &ConnectArgs,
) -> Result<Option<(std::time::Duration, std::time::Duration)>, String> {
    use std::time::Duration;
    if args.keepalive_s == 0 || args.peer_timeout_s == 0 {
        return Ok(None);
    }
    if args.keepalive_s >= args.peer_timeout_s {
        return Err(format!(
            "--keepalive-s {} must be less than --peer-timeout-s {}",
            args.keepalive_s, args.peer_timeout_s
        ));
    }
    Ok(Some((
        Duration::from_secs(args.keepalive_s),
        Duration::from_secs(args.peer_timeout_s),
    )))
}

#[cfg(unix)]
mod unix {
    use std::io::Write as _;
    use std::net::{Shutdown, TcpStream};
    use std::os::unix::net::UnixStream;
    use std::time::Duration;

    use super::link::{Heard, Link};
    use super::text_gate::{Blocked, TextGate};
    use super::*;
    use crate::framing::{Frame, MAX_LINE};
    use crate::net::heartbeat::offer;
    use crate::net::keepalive::DeadPeer;
    use crate::net::tls_stream::TlsStream;
    use crate::proxy::reader::read_frames;
    use crate::proxy::stdio::gui_stdio;
    use crate::serve::addr::Addr;
    use crate::serve::conn::Socket;
    use crate::session::first_token;

    pub(super) fn connect(args: &ConnectArgs) -> Result<ExitCode, String> {
        let addr: Addr = args
            .addr
            .parse()
            .map_err(|e: crate::serve::addr::AddrError| e.to_string())?;
        let token = token(args)?;
        let heartbeat = heartbeat(args)?;
        if token.is_some() {
            refuse_clear_text(&addr)?;
        }
        let socket = open(&addr, args)?;
        let (gui_in, mut gui_out) =
            gui_stdio().map_err(|e| format!("cannot use stdin and stdout: {e}"))?;
        let mut to_server = socket.try_clone().map_err(|e| e.to_string())?;
        let auth = match (token, heartbeat) {
            (Some(token), Some((every, _))) => Some(format!("auth {token} {}", offer(every))),
            (None, Some((every, _))) => Some(format!("auth {}", offer(every))),
            (Some(token), None) => Some(format!("auth {token}")),
            (None, None) => None,
        };
        if let Some(auth) = auth {
            to_server
                .write_all(format!("{auth}\n").as_bytes())
                .map_err(|e| format!("{addr}: {e}"))?;
        }
        let link = Link::new(heartbeat.is_some());
        if let Some((_, timeout)) = heartbeat {
            let watched = socket.try_clone().map_err(|e| e.to_string())?;
            link.watch(watched, timeout).map_err(|e| e.to_string())?;
        }
        let talk = Arc::new(Conversation::default());
        let gui_side = Arc::clone(&talk);
        let closer = socket.try_clone().map_err(|e| e.to_string())?;
        let rtt_overhead = args.rtt_overhead;
        std::thread::Builder::new()
            .name("gui-stdin".to_owned())
            .spawn(move || {
                read_frames(gui_in, MAX_LINE, "GUI's input", |batch| {
                    for frame in batch.drain(..) {
                        let (Frame::Line(line) | Frame::Overlong { chunk: line, .. }) = &frame;
                        gui_side.owed().on_gui_line(line);
                        if first_token(line) == b"quit" {
                            gui_side.gui_done.store(true, Ordering::SeqCst);
                        }
                        let reduced = match &frame {
                            Frame::Line(line) if rtt_overhead && first_token(line) == b"go" => {
                                crate::clock::reduce(line, gui_side.rtt.ms(), RTT_MIN_MS)
                            }
                            _ => None,
                        };
                        let line: &[u8] = reduced.as_deref().unwrap_or(line);
                        gui_side.rtt.on_gui_line(line, std::time::Instant::now());
                        if to_server.write_all(line).is_err() {
                            return false;
                        }
                    }
                    true
                });
                gui_side.gui_done.store(true, Ordering::SeqCst);
                closer.shutdown(Shutdown::Write);
            })
            .map_err(|e| e.to_string())?;
        let mut why = "the server closed the connection".to_owned();
        let heard = Heard {
            inner: socket,
            link: Arc::clone(&link),
        };
        let mut refused = None;
        let mut gate = TextGate::new(heard);
        read_frames(&mut gate, MAX_LINE, "server's output", |batch| {
            for frame in batch.drain(..) {
                let (Frame::Line(line) | Frame::Overlong { chunk: line, .. }) = &frame;
                if link.is_beat(line) {
                    continue;
                }
                talk.owed().on_server_line(line);
                talk.rtt.on_server_line(line, std::time::Instant::now());
                if let Some(reason) = line.strip_prefix(b"info string fenguard: refused: ") {
                    why = "refused by the server".to_owned();
                    refused = Some(String::from_utf8_lossy(reason).trim_end().to_owned());
                }
                if gui_out.write_all(line).is_err() {
                    return false;
                }
            }
            true
        });
        if let Some(blocked) = gate.blocked {
            let what = match blocked {
                Blocked::Tls => "answered with TLS records",
                Blocked::Binary => "sent bytes that are not text",
            };
            let message = format!(
                "{addr} {what} before any line: is it a TLS port? connect with tls://HOST:PORT"
            );
            eprintln!("fenguard connect: {message}");
            let _ = gui_out.write_all(format!("info string fenguard: {message}\n").as_bytes());
            return Ok(ExitCode::from(1));
        }
        if let Some(reason) = &refused {
            eprintln!("fenguard connect: refused by {addr}: {reason}");
        }
        if talk.gui_done.load(Ordering::SeqCst) {
            if refused.is_some() {
                return Ok(ExitCode::from(1));
            }
            return Ok(ExitCode::SUCCESS);
        }
        let why = link.why().unwrap_or(why);
        eprintln!("fenguard connect: connection to {addr} lost: {why}");
        let mut lost = format!("info string fenguard: connection lost: {addr}: {why}\n");
        lost.push_str(&talk.owed().answers());
        let _ = gui_out.write_all(lost.as_bytes());
        Ok(ExitCode::from(1))
    }

    fn dead_peer(args: &ConnectArgs) -> DeadPeer {
        DeadPeer::from_secs(args.keepalive_s, args.peer_timeout_s)
    }

    /// Refuses a token in clear text: plain TCP to a host that is not (only) loopback.
    fn refuse_clear_text(addr: &Addr) -> Result<(), String> {
        let Addr::Tcp {
            host,
            port,
            tls: false,
        } = addr
        else {
            return Ok(());
        };
        let loopback = addr
            .resolves_to_loopback()
            .map_err(|e| format!("cannot resolve {addr}: {e}"))?;
        if loopback {
            return Ok(());
        }
        let tls = Addr::Tcp {
            host: host.clone(),
            port: *port,
            tls: true,
        };
        Err(format!(
            "refusing to send a token over plain TCP to {addr}, which is not loopback: use {tls}"
        ))
    }

    fn open(addr: &Addr, args: &ConnectArgs) -> Result<Socket, String> {
        let fail = |e: std::io::Error| format!("cannot connect to {addr}: {e}");
        match addr {
            Addr::Unix(path) => UnixStream::connect(path).map(Socket::Unix).map_err(fail),
            Addr::Tcp { tls: false, .. } => {
                let at = addr.socket_addr().map_err(fail)?;
                let stream =
                    TcpStream::connect_timeout(&at, Duration::from_secs(10)).map_err(fail)?;
                let _ = stream.set_nodelay(true);
                dead_peer(args).apply(&stream).map_err(fail)?;
                Ok(Socket::Tcp(stream))
            }
            Addr::Tcp { host, .. } => tls(addr, host, args),
        }
    }

    /// Connects with TLS: the TCP connection and the handshake within 10 s, then the
    /// connection used straight from the relaying threads.
    fn tls(addr: &Addr, host: &str, args: &ConnectArgs) -> Result<Socket, String> {
        let config =
            crate::serve::tls::client_config(args.ca.as_deref()).map_err(|e| e.to_string())?;
        let name = rustls::pki_types::ServerName::try_from(host.to_owned())
            .map_err(|e| format!("bad server name `{host}`: {e}"))?;
        let at = addr
            .socket_addr()
            .map_err(|e| format!("cannot resolve {addr}: {e}"))?;
        let fail = |err: std::io::Error| match err.kind() {
            std::io::ErrorKind::TimedOut | std::io::ErrorKind::WouldBlock => {
                format!("cannot connect to {addr}: timed out")
            }
            _ => format!("cannot connect to {addr}: {err}"),
        };
        let started = std::time::Instant::now();
        let timeout = Duration::from_secs(10);
        let tcp = TcpStream::connect_timeout(&at, timeout).map_err(fail)?;
        let _ = tcp.set_nodelay(true);
        dead_peer(args).apply(&tcp).map_err(fail)?;
        let conn = rustls::ClientConnection::new(config, name)
            .map_err(|e| format!("cannot connect to {addr}: {e}"))?;
        let left = timeout.saturating_sub(started.elapsed());
        TlsStream::handshake(tcp, conn, left)
            .map(Socket::Tls)
            .map_err(fail)
    }
}
