//! The daemon's shell: start-up checks, listeners, signals (SIGHUP reloads the tokens file),
//! shutdown. Accepting and admitting connections is [`accept`](super::accept).

use std::collections::HashMap;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError, RwLock};
use std::time::{Duration, Instant};

use crate::proxy::signals::Signals;
use tokio::net::TcpListener;
use tokio_rustls::TlsAcceptor;
use tracing_appender::non_blocking::NonBlocking;

use super::ServeArgs;
use super::addr::Addr;
use super::admission::{self, Admission, SUMMARY_EVERY};
use super::caps::{Caps, Machine};
use super::conn::ConnState;
use super::refusals::Refusals;
use crate::logging::init;
use crate::metrics::{Health, Service};
use crate::proxy::spec::SessionSpec;
use crate::token::Tokens;

/// Longest a session's engine gets after its client went away or the daemon was told to stop.
pub(super) const MAX_GRACE: Duration = Duration::from_millis(500);

/// How long a TLS connection is still read (and dropped) after its session ended.
pub(super) const LINGER: Duration = Duration::from_secs(5);

/// What every connection task shares.
pub(super) struct Ctx {
    /// The configuration, the engine, the log directory: what each session is made of.
    pub(super) spec: SessionSpec,
    /// The accepted tokens, replaced at SIGHUP.
    pub(super) tokens: RwLock<Arc<Tokens>>,
    /// The tokens file, when there is one to reload.
    pub(super) tokens_path: Option<PathBuf>,
    /// Clients must send `auth <token>`: tokens were configured at start or at a reload.
    pub(super) auth_required: AtomicBool,
    /// Pre-auth places.
    pub(super) admission: Arc<Admission>,
    /// Refused connections by source.
    pub(super) refusals: Refusals,
    /// Caps on `Threads` and `Hash`.
    pub(super) caps: Caps,
    pub(super) tls: Option<TlsAcceptor>,
    pub(super) stderr: NonBlocking,
    pub(super) grace: Duration,
    pub(super) active: AtomicUsize,
    pub(super) next_id: AtomicU64,
    /// Open sessions: their state and a handle on their socket.
    pub(super) open: Mutex<HashMap<u64, Arc<ConnState>>>,
}

impl Ctx {
    /// The tokens accepted now.
    pub(super) fn tokens(&self) -> Arc<Tokens> {
        Arc::clone(&self.tokens.read().unwrap_or_else(PoisonError::into_inner))
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
    let spec = SessionSpec::load(&args.shell)?;
    let config = &spec.config;
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
    let tokens_path = config.serve.tokens_path(var);
    let tokens = match &tokens_path {
        Some(path) if !config.serve.tokens_file.is_empty() => Tokens::load(path).map_err(|e| {
            format!(
                "serve.tokens_file {}: {e} (a configured tokens file must exist: `fenguard token new --tokens-file {}` creates it)",
                path.display(),
                path.display()
            )
        })?,
        Some(path) => Tokens::load_or_empty(path)
            .map_err(|e| format!("cannot read tokens file {}: {e}", path.display()))?,
        None => Tokens::default(),
    };
    let loose = tokens_path
        .as_deref()
        .and_then(crate::token::loose_permissions);
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
    let logs = init(&spec.log_settings(false));
    let health = Health::starting();
    let metrics = crate::metrics::start(&config.metrics, Service::Serve, health.clone())
        .map_err(|e| e.to_string())?;
    if let Some(warning) = &loose {
        tracing::warn!("{warning}");
    }
    let (old_limit, fd_limit) = admission::raise_fd_limit();
    let max_sessions = config.serve.max_sessions;
    let needed = Admission::reserve(max_sessions) + config.serve.max_startups.full as u64;
    let limits = format!(
        "max_startups {}, max_startups_per_addr {}, descriptors {fd_limit} (soft limit raised from {old_limit}; {} kept for {max_sessions} sessions)",
        config.serve.max_startups,
        config.serve.max_startups_per_addr,
        Admission::reserve(max_sessions),
    );
    tracing::info!("{limits}");
    if needed > fd_limit {
        let warning = format!(
            "the descriptor limit {fd_limit} is below what max_sessions {max_sessions} and max_startups need ({needed}): raise `ulimit -n` (LimitNOFILE)"
        );
        tracing::warn!("{warning}");
    }
    let machine = Machine::detect();
    let caps = Caps::resolve(
        config.serve.max_threads,
        config.serve.max_hash_mb,
        max_sessions,
        &machine,
    );
    let caps_line = if caps.derived {
        format!(
            "caps {caps} (unset ones from the machine: {} cores, {} MiB memory, max_sessions {max_sessions})",
            machine.cores,
            machine
                .memory_mib
                .map_or("unknown".to_owned(), |m| m.to_string())
        )
    } else {
        format!("caps {caps}")
    };
    eprintln!("fenguard serve: {caps_line}");
    tracing::info!("{caps_line}");
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the async runtime: {e}"))?;
    let grace = Duration::from_millis(config.engine.quit_grace_ms).min(MAX_GRACE);
    let ctx = Arc::new(Ctx {
        admission: Admission::new(
            config.serve.max_startups,
            config.serve.max_startups_per_addr,
            fd_limit,
        ),
        auth_required: AtomicBool::new(!tokens.is_empty()),
        tokens: RwLock::new(Arc::new(tokens)),
        tokens_path,
        refusals: Refusals::default(),
        caps,
        tls,
        stderr: logs.stderr.clone(),
        grace,
        spec,
        active: AtomicUsize::new(0),
        next_id: AtomicU64::new(1),
        open: Mutex::new(HashMap::new()),
    });
    let status = runtime.block_on(serve(ctx, addrs, &health));
    runtime.shutdown_timeout(Duration::from_millis(100));
    drop(metrics);
    drop(logs);
    status
}

/// Listens on `addrs` until SIGTERM or SIGINT; `health` is healthy while every listener is
/// up and the daemon is not stopping.
async fn serve(ctx: Arc<Ctx>, addrs: Vec<Addr>, health: &Health) -> Result<ExitCode, String> {
    // Before the first listener: a SIGTERM that comes as soon as a client can connect (a
    // service manager stopping the daemon at once) ends it cleanly, socket files removed,
    // instead of by the signal's default action.
    let mut signals = Signals::install();
    let mut acceptors = Vec::new();
    let mut sockets = Vec::new();
    for addr in &addrs {
        let task = match addr {
            Addr::Unix(path) => {
                let (listener, own) = super::unix_socket::bind(path)?;
                sockets.push(own);
                tokio::spawn(super::accept::accept_unix(Arc::clone(&ctx), listener))
            }
            Addr::Tcp { .. } => {
                let at = addr
                    .socket_addr()
                    .map_err(|e| format!("bad address {addr}: {e}"))?;
                let listener = TcpListener::bind(at)
                    .await
                    .map_err(|e| format!("cannot listen on {addr}: {e}"))?;
                let tls = addr.needs_tls();
                tokio::spawn(super::accept::accept_tcp(Arc::clone(&ctx), listener, tls))
            }
        };
        tracing::info!("listening on {}", addr.as_served());
        acceptors.push(task);
    }
    let auth = if ctx.auth_required.load(Ordering::SeqCst) {
        "auth line required"
    } else {
        "no tokens: no auth line"
    };
    tracing::info!("fenguard {} serving ({auth})", env!("CARGO_PKG_VERSION"));
    health.set_healthy();
    acceptors.push(tokio::spawn(summaries(Arc::clone(&ctx))));
    let name = wait_for_stop(&mut signals, &ctx).await;
    health.set_unhealthy(format!("stopping ({name})"));
    tracing::warn!("received {name}: no new connections; quitting every engine");
    for task in &acceptors {
        task.abort();
    }
    for own in &sockets {
        own.remove();
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

/// Logs what was shed and refused, every [`SUMMARY_EVERY`] (nothing when nothing was).
async fn summaries(ctx: Arc<Ctx>) {
    let mut tick = tokio::time::interval(SUMMARY_EVERY);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    tick.tick().await;
    loop {
        tick.tick().await;
        if let Some(line) = ctx.admission.summary() {
            tracing::warn!("{line}");
        }
        for line in ctx.refusals.summary(SUMMARY_EVERY, Instant::now()) {
            tracing::warn!("{line}");
        }
    }
}

/// Reloads the tokens file at each SIGHUP of `signals` until SIGTERM or SIGINT; that signal's
/// name.
async fn wait_for_stop(signals: &mut Signals, ctx: &Ctx) -> &'static str {
    loop {
        let received = signals.recv().await;
        if received.name != "SIGHUP" {
            return received.name;
        }
        reload(ctx);
    }
}

/// SIGHUP: reads the tokens file again; on an error the tokens loaded before stay.
fn reload(ctx: &Ctx) {
    let Some(path) = &ctx.tokens_path else {
        tracing::warn!("SIGHUP: no tokens file to reload (no XDG_CONFIG_HOME nor HOME)");
        return;
    };
    let required = ctx.auth_required.load(Ordering::SeqCst);
    let tokens = match Tokens::load(path) {
        Ok(tokens) => tokens,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound && !required => Tokens::default(),
        Err(err) => {
            tracing::error!(
                "SIGHUP: cannot read tokens file {}: {err}; keeping the {} tokens loaded before",
                path.display(),
                ctx.tokens().len()
            );
            return;
        }
    };
    if let Some(warning) = crate::token::loose_permissions(path) {
        tracing::warn!("{warning}");
    }
    let count = tokens.len();
    if count > 0 && !required {
        ctx.auth_required.store(true, Ordering::SeqCst);
        tracing::warn!(
            "SIGHUP: tokens configured now: every new connection must send `auth <token>`"
        );
    }
    if count == 0 && required {
        tracing::warn!(
            "SIGHUP: no tokens left in {}: every new connection is refused",
            path.display()
        );
    }
    let before = std::mem::replace(
        &mut *ctx.tokens.write().unwrap_or_else(PoisonError::into_inner),
        Arc::new(tokens),
    );
    let ended = revoke_sessions(ctx, &before);
    tracing::info!(
        "SIGHUP: reloaded {count} tokens from {} ({ended} open sessions of revoked tokens ending, the others go on)",
        path.display()
    );
}

/// Ends the open sessions whose token is no longer accepted (each gets
/// [`REVOKED`](super::conn::REVOKED) and ends as a disconnect does); `before` names the tokens
/// for the log. Sessions without a token (none configured) go on. How many were ended.
fn revoke_sessions(ctx: &Ctx, before: &Tokens) -> usize {
    let now = ctx.tokens();
    let mut ended: HashMap<[u8; 32], usize> = HashMap::new();
    for state in ctx
        .open
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .values()
    {
        if let Some(hash) = state.token()
            && !now.holds(hash)
            && !state.revoked()
        {
            state.revoke();
            *ended.entry(*hash).or_insert(0) += 1;
        }
    }
    for (hash, n) in &ended {
        let entry = before.entry(hash);
        let label = entry.and_then(|e| e.label.as_deref()).unwrap_or("-");
        let prefix = &crate::token::hex(hash)[..12];
        tracing::warn!("SIGHUP: token {label} {prefix} revoked: ending its {n} open sessions");
    }
    ended.values().sum()
}
