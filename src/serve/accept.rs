//! Accepting and admitting connections: the listeners' loops, the pre-auth place of each
//! connection ([`Admission`](super::admission)), the TLS handshake, the first line, the
//! refusal (delayed and aggregated by [`Refusals`](super::refusals)), `max_sessions`, then
//! the session.

use std::net::IpAddr;
use std::os::fd::AsRawFd as _;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::{TcpListener, UnixListener};

use super::admission::Ticket;
use super::conn::{self, FirstLine, Socket};
use super::daemon::Ctx;
use super::first_line;
use crate::net::tls_stream::TlsStream;

/// Refusal reasons of clients that said nothing wrong (no delay grows from them).
const CLOSED: &str = "closed before its first line";
const TIMED_OUT: &str = "no first line in time";
const TLS_TIMED_OUT: &str = "no TLS handshake in time";
const TLS_FAILED: &str = "TLS handshake failed";
/// Refusal reason of a first line over `conn::MAX_AUTH_LINE`.
const TOO_LONG: &str = "first line too long";

/// A reserved place among `max_sessions`; freed when dropped.
struct Slot(Arc<Ctx>);

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.active.fetch_sub(1, Ordering::SeqCst);
    }
}

/// What the admitted stream is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Tcp,
    Unix,
    Tls,
}

impl std::fmt::Display for Kind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Kind::Tcp => "tcp",
            Kind::Unix => "unix",
            Kind::Tls => "tls",
        })
    }
}

/// Where a connection comes from, for the per-address cap and the refusal records.
#[derive(Debug, Clone)]
struct Peer {
    /// `IP:PORT`, or `unix`.
    name: String,
    ip: Option<IpAddr>,
}

impl Peer {
    fn source(&self) -> String {
        self.ip
            .map_or_else(|| "unix".to_owned(), |ip| ip.to_string())
    }
}

/// Whether the client on `fd` has sent bytes already (a peek that never blocks).
fn spoke(fd: i32) -> bool {
    let mut byte = 0u8;
    // SAFETY: recv writes at most one byte into `byte`; MSG_PEEK leaves the data queued.
    let n = unsafe {
        libc::recv(
            fd,
            (&raw mut byte).cast(),
            1,
            libc::MSG_PEEK | libc::MSG_DONTWAIT,
        )
    };
    n > 0
}

/// Takes a pre-auth place for a connection in descriptor `fd`, or says to close it.
fn enter(ctx: &Arc<Ctx>, ip: Option<IpAddr>, fd: i32) -> Option<Ticket> {
    let left = ctx
        .spec
        .config
        .serve
        .max_sessions
        .saturating_sub(ctx.active.load(Ordering::SeqCst));
    let spoke = spoke(fd);
    let fd = u64::try_from(fd).unwrap_or(u64::MAX);
    ctx.admission.enter(ip, fd, left, spoke).ok()
}

/// Waits after a failed `accept` (out of descriptors, most likely), counted for the summary.
async fn accept_failed(ctx: &Ctx, err: &std::io::Error) {
    tracing::debug!("accept failed: {err}");
    ctx.admission.accept_failed();
    tokio::time::sleep(Duration::from_millis(50)).await;
}

pub(super) async fn accept_tcp(ctx: Arc<Ctx>, listener: TcpListener, tls: bool) {
    loop {
        let (stream, addr) = match listener.accept().await {
            Ok(accepted) => accepted,
            Err(err) => {
                accept_failed(&ctx, &err).await;
                continue;
            }
        };
        let Some(ticket) = enter(&ctx, Some(addr.ip()), stream.as_raw_fd()) else {
            continue;
        };
        let _ = stream.set_nodelay(true);
        if let Err(err) = ctx.spec.config.serve.dead_peer().apply(&stream) {
            tracing::warn!("connection {addr}: cannot set keepalive: {err}");
        }
        let peer = Peer {
            name: addr.to_string(),
            ip: Some(addr.ip()),
        };
        let id = ticket.id();
        let task_ctx = Arc::clone(&ctx);
        let task = tokio::spawn(async move {
            match (tls, &task_ctx.tls) {
                (true, Some(acceptor)) => {
                    let handshake = acceptor.accept(stream);
                    match tokio::time::timeout(conn::AUTH_TIMEOUT, handshake).await {
                        Ok(Ok(stream)) => admit(task_ctx, stream, peer, Kind::Tls, ticket).await,
                        Ok(Err(err)) => {
                            let why = format!("TLS handshake failed: {err}");
                            note(&task_ctx, &peer, Kind::Tls, TLS_FAILED, &why);
                        }
                        Err(_) => {
                            note(&task_ctx, &peer, Kind::Tls, TLS_TIMED_OUT, TLS_TIMED_OUT);
                        }
                    }
                }
                _ => admit(task_ctx, stream, peer, Kind::Tcp, ticket).await,
            }
        });
        ctx.admission.set_abort(id, task.abort_handle());
        // Let the new connection read its first line before the next accept may drop it.
        tokio::task::yield_now().await;
    }
}

pub(super) async fn accept_unix(ctx: Arc<Ctx>, listener: UnixListener) {
    loop {
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            Err(err) => {
                accept_failed(&ctx, &err).await;
                continue;
            }
        };
        let Some(ticket) = enter(&ctx, None, stream.as_raw_fd()) else {
            continue;
        };
        let peer = Peer {
            name: "unix".to_owned(),
            ip: None,
        };
        let id = ticket.id();
        let task = tokio::spawn(admit(Arc::clone(&ctx), stream, peer, Kind::Unix, ticket));
        ctx.admission.set_abort(id, task.abort_handle());
        tokio::task::yield_now().await;
    }
}

/// A stream the daemon accepted, as the session will use it.
trait Accepted: AsyncRead + AsyncWrite + Unpin + Send + 'static {
    /// The blocking socket for the session.
    fn into_socket(self) -> std::io::Result<Socket>;
}

impl Accepted for tokio::net::TcpStream {
    fn into_socket(self) -> std::io::Result<Socket> {
        let std = self.into_std()?;
        std.set_nonblocking(false)?;
        Ok(Socket::Tcp(std))
    }
}

impl Accepted for tokio::net::UnixStream {
    fn into_socket(self) -> std::io::Result<Socket> {
        let std = self.into_std()?;
        std.set_nonblocking(false)?;
        Ok(Socket::Unix(std))
    }
}

impl Accepted for tokio_rustls::server::TlsStream<tokio::net::TcpStream> {
    fn into_socket(self) -> std::io::Result<Socket> {
        let (tcp, conn) = self.into_inner();
        let tcp = tcp.into_std()?;
        tcp.set_nonblocking(false)?;
        Ok(Socket::Tls(TlsStream::new(tcp, conn)?))
    }
}

/// The `reason` label of [`crate::metrics::names::AUTH_REFUSED_TOTAL`] for a refusal reason.
fn refusal_label(reason: &str) -> &'static str {
    match reason {
        first_line::MISSING_TOKEN => "missing-token",
        first_line::WRONG_TOKEN => "wrong-token",
        first_line::NOT_UCI => "not-uci",
        TOO_LONG => "line-too-long",
        TIMED_OUT => "auth-timeout",
        CLOSED => "closed",
        TLS_TIMED_OUT => "tls-timeout",
        TLS_FAILED => "tls-failed",
        // No other reason reaches `note`.
        _ => "not-uci",
    }
}

/// Records a refusal; logs it when it is its source's first in this window. Returns the delay
/// before answering.
fn note(ctx: &Ctx, peer: &Peer, kind: Kind, reason: &'static str, detail: &str) -> Duration {
    crate::metrics::record::auth_refused(refusal_label(reason));
    let source = peer.source();
    let penalize = !matches!(reason, CLOSED | TIMED_OUT | TLS_TIMED_OUT);
    let verdict = ctx
        .refusals
        .failed(&source, reason, penalize, Instant::now());
    if verdict.log_it {
        tracing::warn!(
            "connection {} ({kind}) refused: {detail} (more refusals from {source} are summed up every {} s)",
            peer.name,
            super::admission::SUMMARY_EVERY.as_secs()
        );
    }
    verdict.delay
}

/// Reads the first line and decides; starts the session or refuses.
async fn admit<S: Accepted>(ctx: Arc<Ctx>, mut stream: S, peer: Peer, kind: Kind, ticket: Ticket) {
    let started = Instant::now();
    let verdict = match conn::read_first_line(&mut stream).await {
        FirstLine::Line(line, rest) => {
            let tokens = ctx.tokens();
            let required = ctx.auth_required.load(Ordering::SeqCst);
            first_line::admit(&line, rest, required, &tokens).map_err(|r| (r, r.to_owned()))
        }
        FirstLine::TooLong => Err((
            TOO_LONG,
            format!("first line over {} bytes", conn::MAX_AUTH_LINE),
        )),
        FirstLine::Closed => {
            note(&ctx, &peer, kind, CLOSED, CLOSED);
            return;
        }
        FirstLine::TimedOut => Err((TIMED_OUT, TIMED_OUT.to_owned())),
    };
    let admitted = match verdict {
        Ok(admitted) => admitted,
        Err((reason, detail)) => {
            let delay = note(&ctx, &peer, kind, reason, &detail);
            tokio::time::sleep(delay).await;
            conn::refuse(&mut stream, &detail).await;
            drop(ticket);
            return;
        }
    };
    let max = ctx.spec.config.serve.max_sessions;
    if ctx.active.fetch_add(1, Ordering::SeqCst) >= max {
        ctx.active.fetch_sub(1, Ordering::SeqCst);
        crate::metrics::record::auth_refused("too-many");
        let reason = format!("server busy (max_sessions {max} reached)");
        tracing::warn!("connection {} refused: {reason}", peer.name);
        conn::refuse(&mut stream, &reason).await;
        return;
    }
    drop(ticket);
    let slot = Slot(Arc::clone(&ctx));
    match stream.into_socket() {
        Ok(socket) => super::session::run(&ctx, socket, admitted, &peer.name, started).await,
        Err(err) => tracing::warn!("connection {}: {err}", peer.name),
    }
    drop(slot);
}
