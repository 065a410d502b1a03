//! The daemon's shell: listeners, admission, one relay per session, shutdown.

use std::collections::HashMap;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::{TcpListener, UnixListener};
use tokio_rustls::TlsAcceptor;
use tracing_appender::non_blocking::NonBlocking;

use super::ServeArgs;
use super::addr::Addr;
use super::conn::{self, ConnState, FirstLine, Socket};
use crate::config::{Config, default_log_dir};
use crate::logging::{LogSettings, init, session_id};
use crate::proxy::respawn::EngineCommand;
use crate::proxy::signals::Signals;
use crate::token::Tokens;

/// Longest a session's engine gets after its client went away or the daemon was told to stop.
pub(super) const MAX_GRACE: Duration = Duration::from_millis(500);

/// How long the TLS bridge keeps reading a client after its session ended.
const LINGER: Duration = Duration::from_secs(5);

/// What every connection task shares.
pub(super) struct Ctx {
    pub(super) config: Config,
    pub(super) command: EngineCommand,
    pub(super) tokens: Tokens,
    pub(super) tls: Option<TlsAcceptor>,
    pub(super) log_dir: Option<PathBuf>,
    pub(super) stderr: NonBlocking,
    pub(super) transcript: bool,
    pub(super) grace: Duration,
    pub(super) active: AtomicUsize,
    pub(super) next_id: AtomicU64,
    /// Open sessions: their state and a handle on their socket.
    pub(super) open: Mutex<HashMap<u64, Arc<ConnState>>>,
}

/// A reserved place among `max_sessions`; freed when dropped.
struct Slot(Arc<Ctx>);

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.active.fetch_sub(1, Ordering::SeqCst);
    }
}

pub(super) fn run(args: ServeArgs) -> ExitCode {
    match setup(args) {
        Ok(status) => status,
        Err(message) => {
            eprintln!("fenguard: {message}");
            ExitCode::from(crate::proxy::EXIT_USAGE)
        }
    }
}

fn setup(args: ServeArgs) -> Result<ExitCode, String> {
    let (config, program, engine_args) =
        crate::proxy::config_and_engine(args.config.as_deref(), &args.engine)?;
    let listen = if args.listen.is_empty() {
        config.serve.listen.clone()
    } else {
        args.listen.clone()
    };
    let addrs: Vec<Addr> = listen
        .iter()
        .map(|a| a.parse::<Addr>().map_err(|e| e.to_string()))
        .collect::<Result<_, _>>()?;
    if addrs.is_empty() {
        return Err("nothing to listen on: set serve.listen or pass --listen ADDR".to_owned());
    }
    let var = |name: &str| std::env::var(name).ok();
    let tokens = match config.serve.tokens_path(var) {
        Some(path) => Tokens::load(&path)
            .map_err(|e| format!("cannot read tokens file {}: {e}", path.display()))?,
        None => Tokens::default(),
    };
    for addr in &addrs {
        if tokens.is_empty() && !addr.is_local() {
            return Err(format!(
                "listen address {addr} is not loopback and no tokens are configured: run `fenguard token new` (see serve.tokens_file)"
            ));
        }
    }
    let tls = if addrs.iter().any(Addr::needs_tls) {
        let (cert, key) = (&config.serve.tls_cert, &config.serve.tls_key);
        if cert.is_empty() || key.is_empty() {
            return Err("a TLS listener (tls:// or an address outside loopback) needs serve.tls_cert and serve.tls_key".to_owned());
        }
        let server =
            super::tls::server_config(cert.as_ref(), key.as_ref()).map_err(|e| e.to_string())?;
        Some(TlsAcceptor::from(server))
    } else {
        None
    };
    let log_dir = args.log_dir.clone().or_else(|| {
        if config.log.dir.is_empty() {
            default_log_dir(|name| std::env::var(name).ok())
        } else {
            Some(PathBuf::from(&config.log.dir))
        }
    });
    let transcript = config.log.transcript || args.verbose >= 1;
    let logs = init(&LogSettings {
        dir: log_dir.clone(),
        level: config.log.level,
        verbose: args.verbose,
        positions: false,
        transcript,
        session_id: session_id(),
        rotation: config.log.rotation(),
    });
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the async runtime: {e}"))?;
    let grace = Duration::from_millis(config.engine.quit_grace_ms).min(MAX_GRACE);
    let ctx = Arc::new(Ctx {
        command: EngineCommand {
            program,
            args: engine_args,
            config: config.engine.clone(),
        },
        config,
        tokens,
        tls,
        log_dir,
        stderr: logs.stderr.clone(),
        transcript,
        grace,
        active: AtomicUsize::new(0),
        next_id: AtomicU64::new(1),
        open: Mutex::new(HashMap::new()),
    });
    let status = runtime.block_on(serve(ctx, addrs));
    runtime.shutdown_timeout(Duration::from_millis(100));
    drop(logs);
    status
}

async fn serve(ctx: Arc<Ctx>, addrs: Vec<Addr>) -> Result<ExitCode, String> {
    let mut acceptors = Vec::new();
    let mut sockets = Vec::new();
    for addr in &addrs {
        let task = match addr {
            Addr::Unix(path) => {
                if std::fs::symlink_metadata(path)
                    .is_ok_and(|m| std::os::unix::fs::FileTypeExt::is_socket(&m.file_type()))
                {
                    let _ = std::fs::remove_file(path);
                }
                let listener = UnixListener::bind(path)
                    .map_err(|e| format!("cannot listen on {addr}: {e}"))?;
                let mode = std::os::unix::fs::PermissionsExt::from_mode(0o600);
                let _ = std::fs::set_permissions(path, mode);
                sockets.push(path.clone());
                tokio::spawn(accept_unix(Arc::clone(&ctx), listener))
            }
            Addr::Tcp { .. } => {
                let at = addr
                    .socket_addr()
                    .map_err(|e| format!("bad address {addr}: {e}"))?;
                let listener = TcpListener::bind(at)
                    .await
                    .map_err(|e| format!("cannot listen on {addr}: {e}"))?;
                tokio::spawn(accept_tcp(Arc::clone(&ctx), listener, addr.needs_tls()))
            }
        };
        tracing::info!("listening on {addr}");
        acceptors.push(task);
    }
    let auth = if ctx.tokens.is_empty() {
        "no tokens: no auth line"
    } else {
        "auth line required"
    };
    tracing::info!("fenguard {} serving ({auth})", env!("CARGO_PKG_VERSION"));
    let mut signals = Signals::install();
    let signal = signals.recv().await;
    tracing::warn!(
        "received {}: no new connections; quitting every engine",
        signal.name
    );
    for task in &acceptors {
        task.abort();
    }
    for path in &sockets {
        let _ = std::fs::remove_file(path);
    }
    for state in ctx
        .open
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .values()
    {
        state.close();
    }
    let deadline = Instant::now() + ctx.grace + Duration::from_secs(3);
    while ctx.active.load(Ordering::SeqCst) > 0 && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let left = ctx.active.load(Ordering::SeqCst);
    if left > 0 {
        tracing::warn!("{left} sessions still open: exiting (their engines die with fenguard)");
    }
    tracing::info!("fenguard serve exiting");
    Ok(ExitCode::SUCCESS)
}

async fn accept_tcp(ctx: Arc<Ctx>, listener: TcpListener, tls: bool) {
    loop {
        match listener.accept().await {
            Ok((stream, peer)) => {
                let _ = stream.set_nodelay(true);
                if let Err(err) = ctx.config.serve.dead_peer().apply(&stream) {
                    tracing::warn!("connection {peer}: cannot set keepalive: {err}");
                }
                let ctx = Arc::clone(&ctx);
                tokio::spawn(async move {
                    let peer = peer.to_string();
                    match (tls, &ctx.tls) {
                        (true, Some(acceptor)) => {
                            let handshake = acceptor.accept(stream);
                            match tokio::time::timeout(conn::AUTH_TIMEOUT, handshake).await {
                                Ok(Ok(stream)) => admit(ctx, stream, peer, Kind::Tls).await,
                                Ok(Err(err)) => {
                                    tracing::info!("connection {peer}: TLS handshake failed: {err}")
                                }
                                Err(_) => {
                                    tracing::info!("connection {peer}: TLS handshake timed out")
                                }
                            }
                        }
                        _ => admit(ctx, stream, peer, Kind::Tcp).await,
                    }
                });
            }
            Err(err) => {
                tracing::warn!("accept failed: {err}");
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
    }
}

async fn accept_unix(ctx: Arc<Ctx>, listener: UnixListener) {
    loop {
        match listener.accept().await {
            Ok((stream, _)) => {
                tokio::spawn(admit(
                    Arc::clone(&ctx),
                    stream,
                    "unix".to_owned(),
                    Kind::Unix,
                ));
            }
            Err(err) => {
                tracing::warn!("accept failed: {err}");
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
    }
}

/// What the admitted stream is, to turn it into a blocking [`Socket`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Tcp,
    Unix,
    Tls,
}

/// A stream the daemon accepted, as the session will use it.
trait Accepted: AsyncRead + AsyncWrite + Unpin + Send + 'static {
    /// The blocking socket for the session (a TLS stream is bridged).
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
        let (net_end, session_end) = std::os::unix::net::UnixStream::pair()?;
        net_end.set_nonblocking(true)?;
        let net_end = tokio::net::UnixStream::from_std(net_end)?;
        tokio::spawn(super::tls::bridge(self, net_end, LINGER));
        Ok(Socket::Unix(session_end))
    }
}

/// Reads the first line and decides; starts the session or refuses.
async fn admit<S: Accepted>(ctx: Arc<Ctx>, mut stream: S, peer: String, kind: Kind) {
    let started = Instant::now();
    let verdict = match conn::read_first_line(&mut stream).await {
        FirstLine::Line(line, rest) => judge(&ctx, line, rest),
        FirstLine::TooLong => Err(format!("first line over {} bytes", conn::MAX_AUTH_LINE)),
        FirstLine::Closed => Err("closed before its first line".to_owned()),
        FirstLine::TimedOut => Err("no first line in time".to_owned()),
    };
    let prefix = match verdict {
        Ok(prefix) => prefix,
        Err(reason) => {
            tracing::warn!("connection {peer} ({kind:?}) refused: {reason}");
            conn::refuse(&mut stream, &reason).await;
            return;
        }
    };
    let max = ctx.config.serve.max_sessions;
    if ctx.active.fetch_add(1, Ordering::SeqCst) >= max {
        ctx.active.fetch_sub(1, Ordering::SeqCst);
        let reason = format!("server busy (max_sessions {max} reached)");
        tracing::warn!("connection {peer} refused: {reason}");
        conn::refuse(&mut stream, &reason).await;
        return;
    }
    let slot = Slot(Arc::clone(&ctx));
    match stream.into_socket() {
        Ok(socket) => super::session::run(&ctx, socket, prefix, &peer, started).await,
        Err(err) => tracing::warn!("connection {peer}: {err}"),
    }
    drop(slot);
}

/// The bytes the session starts with, or why the connection is refused.
fn judge(ctx: &Ctx, line: Vec<u8>, rest: Vec<u8>) -> Result<Vec<u8>, String> {
    let text = String::from_utf8_lossy(&line);
    let mut words = text.split_ascii_whitespace();
    let is_auth = words.next() == Some("auth");
    if ctx.tokens.is_empty() {
        if is_auth {
            return Ok(rest);
        }
        let mut prefix = line;
        prefix.push(b'\n');
        prefix.extend_from_slice(&rest);
        return Ok(prefix);
    }
    let token = words.next().filter(|_| is_auth);
    match token {
        Some(token) if words.next().is_none() && ctx.tokens.accepts(token) => Ok(rest),
        Some(_) => Err("wrong token".to_owned()),
        None => Err("missing token: the first line must be `auth <token>`".to_owned()),
    }
}
