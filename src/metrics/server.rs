//! The metrics listener: [`start`] checks `[metrics]`, binds, installs the Prometheus recorder
//! and serves [`super::http`]'s answers over HTTP/1.1 (HTTPS with `tls_cert` and `tls_key`)
//! from a thread of its own, so a busy shell never delays a scrape and the shell's runtime
//! (if any) is not needed.
//!
//! Bounds (`[metrics]`): at most `max_connections` connections at once ([`MAX_CONNECTIONS`])
//! and `max_connections_per_addr` from one IP address ([`MAX_CONNECTIONS_PER_ADDR`]); one more
//! drops the oldest connection (of that address, at its cap) that has not yet sent a whole
//! request, else the oldest, in the daemon's pre-auth pool
//! ([`Admission::capped`](crate::serve::admission::Admission::capped)), so connections that
//! never finish their headers cycle out while a probe that sends its request at once is
//! answered. A TLS handshake and each request's headers within `header_timeout_ms`
//! ([`HEADER_TIMEOUT`]), a connection at most [`CONNECTION_LIFETIME`]; drops are logged in one
//! line every [`UPKEEP`] (the serving is [`super::listener`]). The recorder's histogram samples are drained into their buckets
//! every [`UPKEEP`] (and at each scrape), so memory does not grow with the samples recorded.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use metrics_exporter_prometheus::{Matcher, PrometheusBuilder};
use tokio::sync::oneshot;

use super::config::MetricsConfig;
use super::health::Health;
use super::http::Answers;
use super::names;
use crate::serve::addr::Addr;

/// Connections served at once: the default of `metrics.max_connections`.
pub const MAX_CONNECTIONS: usize = 32;

/// Connections served at once from one IP address: the default of
/// `metrics.max_connections_per_addr`.
pub const MAX_CONNECTIONS_PER_ADDR: usize = 8;

/// Longest wait for a TLS handshake or a request's headers: the default of
/// `metrics.header_timeout_ms`.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);

/// Longest a connection is kept (a scraper's keep-alive connection is then opened anew).
pub const CONNECTION_LIFETIME: Duration = Duration::from_secs(600);

/// How often histogram samples are drained into their buckets.
pub const UPKEEP: Duration = Duration::from_secs(5);

/// Which shell serves the metrics: it decides which series exist from the start (at 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Service {
    /// `fenguard serve`: sessions, refusals and shed connections too.
    Serve,
    /// `fenguard provide`: jobs too.
    Provide,
}

/// Why the metrics listener did not start; each names the `[metrics]` key to fix.
#[derive(Debug, thiserror::Error)]
pub enum MetricsError {
    /// `listen` is not `HOST:PORT`.
    #[error("metrics.listen `{listen}`: {message}")]
    Address {
        /// The value.
        listen: String,
        /// What is wrong with it.
        message: String,
    },
    /// `listen` is outside loopback and no TLS is configured (SPEC section 13).
    #[error(
        "metrics.listen {listen} is not loopback: set metrics.tls_cert and metrics.tls_key (HTTPS), or listen on 127.0.0.1, [::1] or localhost"
    )]
    NotLoopback {
        /// The value.
        listen: String,
    },
    /// Only one of `tls_cert` and `tls_key` is set.
    #[error("metrics.tls_cert and metrics.tls_key go together: metrics.{missing} is not set")]
    HalfTls {
        /// The key that is missing.
        missing: &'static str,
    },
    /// The certificate or key could not be used.
    #[error("metrics TLS: {0}")]
    Tls(String),
    /// The address could not be bound (in use, not an address of this host ...).
    #[error("cannot listen on {listen} (metrics.listen): {source}")]
    Bind {
        /// The value.
        listen: String,
        /// The system's error.
        source: std::io::Error,
    },
    /// A limit is out of its range.
    #[error("metrics.{key}: {message}")]
    Limit {
        /// The key.
        key: &'static str,
        /// Its range.
        message: &'static str,
    },
    /// A recorder was installed before (`start` runs once a process).
    #[error("a metrics recorder is already installed in this process")]
    AlreadyInstalled,
    /// The listener's thread or runtime could not start.
    #[error("cannot start the metrics listener: {0}")]
    Thread(std::io::Error),
}

/// The running listener. Dropping it stops the listener (the recorder stays installed: what
/// the shells record then goes nowhere).
#[derive(Debug)]
pub struct MetricsServer {
    addr: SocketAddr,
    https: bool,
    stop: Option<oneshot::Sender<()>>,
}

impl MetricsServer {
    /// The address bound (the port chosen when `listen` gave port 0).
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// `http://ADDR` or `https://ADDR`.
    pub fn url(&self) -> String {
        let scheme = if self.https { "https" } else { "http" };
        format!("{scheme}://{}", self.addr)
    }
}

impl Drop for MetricsServer {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}

/// Starts the metrics listener `config` asks for (SPEC section 13), for `service`, answering
/// `/health` from `health`; `Ok(None)` when `config.listen` is empty (then no recorder is
/// installed and every metric costs one atomic load).
///
/// `listen` is `HOST:PORT`: a loopback address (`127.0.0.1`, `[::1]`, `localhost`) for plain
/// HTTP; any other needs `tls_cert` and `tls_key` (PEM), and then HTTPS is served (also on
/// loopback). The address is bound before this returns; the line
/// `fenguard: metrics listening on URL` goes to stderr (and fenguard.log, when logging is set
/// up), URL naming the port chosen for a port 0. The recorder is installed, every metric
/// described and the shell's series registered at 0; then a thread named `metrics` serves
/// (see the module's bounds) until the returned server is dropped.
///
/// # Errors
/// [`MetricsError`]: a bad or non-loopback address without TLS, half a TLS setup, an unusable
/// certificate or key, an address that cannot be bound, a second call, no thread.
pub fn start(
    config: &MetricsConfig,
    service: Service,
    health: Health,
) -> Result<Option<MetricsServer>, MetricsError> {
    if config.listen.is_empty() {
        return Ok(None);
    }
    let limits = super::listener::Limits::of(config)?;
    let listen = config.listen.clone();
    let at = address(&listen)?;
    let tls = tls_acceptor(config)?;
    if tls.is_none() && !at.is_local() {
        return Err(MetricsError::NotLoopback { listen });
    }
    let socket = at.socket_addr().map_err(|e| MetricsError::Address {
        listen: listen.clone(),
        message: e.to_string(),
    })?;
    let bind = |source| MetricsError::Bind {
        listen: listen.clone(),
        source,
    };
    let listener = std::net::TcpListener::bind(socket).map_err(bind)?;
    listener.set_nonblocking(true).map_err(bind)?;
    let addr = listener.local_addr().map_err(bind)?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(MetricsError::Thread)?;

    let recorder = buckets(PrometheusBuilder::new()).build_recorder();
    let handle = recorder.handle();
    metrics::set_global_recorder(recorder).map_err(|_| MetricsError::AlreadyInstalled)?;
    names::describe();
    super::record::register(service);
    metrics::gauge!(names::BUILD_INFO, "version" => env!("CARGO_PKG_VERSION")).set(1.0);
    let epoch = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    metrics::gauge!(names::PROCESS_START_TIME_SECONDS).set(epoch.as_secs_f64());
    let answers = Arc::new(Answers {
        handle,
        health,
        scrapes: metrics::counter!(names::SCRAPES_TOTAL),
    });

    let (stop, stopped) = oneshot::channel();
    let https = tls.is_some();
    std::thread::Builder::new()
        .name("metrics".to_owned())
        .spawn(move || {
            runtime.block_on(super::listener::serve(
                listener, tls, answers, limits, stopped,
            ))
        })
        .map_err(MetricsError::Thread)?;
    let server = MetricsServer {
        addr,
        https,
        stop: Some(stop),
    };
    eprintln!("fenguard: metrics listening on {}", server.url());
    tracing::info!("metrics listening on {} (/metrics, /health)", server.url());
    Ok(Some(server))
}

/// `listen` as a TCP address (`HOST:PORT`; no scheme, no Unix socket).
fn address(listen: &str) -> Result<Addr, MetricsError> {
    let bad = |message: &str| MetricsError::Address {
        listen: listen.to_owned(),
        message: message.to_owned(),
    };
    match listen.parse::<Addr>() {
        Ok(at @ Addr::Tcp { tls: false, .. }) if !listen.starts_with("tcp://") => Ok(at),
        Ok(_) => Err(bad(
            "expected HOST:PORT (HTTPS is chosen by metrics.tls_cert and metrics.tls_key)",
        )),
        Err(_) => Err(bad("expected HOST:PORT, e.g. 127.0.0.1:9355")),
    }
}

/// Histograms rendered as Prometheus histograms with fenguard's buckets (the exporter's
/// default would be summaries).
fn buckets(mut builder: PrometheusBuilder) -> PrometheusBuilder {
    for (name, bounds) in [
        (names::RELAY_SECONDS, &names::RELAY_BUCKETS[..]),
        (names::JOB_FIRST_INFO_SECONDS, &names::JOB_BUCKETS),
        (names::JOB_SECONDS, &names::JOB_BUCKETS),
    ] {
        builder = builder
            .set_buckets_for_metric(Matcher::Full(name.to_owned()), bounds)
            .expect("the bucket lists are not empty");
    }
    builder
}

#[cfg(unix)]
pub(super) type Acceptor = tokio_rustls::TlsAcceptor;
/// No TLS off Unix yet: an acceptor that cannot exist (not `Copy`, so it is cloned like the
/// Unix one).
#[cfg(not(unix))]
#[derive(Clone)]
pub(super) enum Acceptor {}

/// The TLS acceptor `tls_cert` and `tls_key` ask for (HTTP/1.1 by ALPN), or `None`.
fn tls_acceptor(config: &MetricsConfig) -> Result<Option<Acceptor>, MetricsError> {
    match (config.tls_cert.is_empty(), config.tls_key.is_empty()) {
        (true, true) => Ok(None),
        (false, true) => Err(MetricsError::HalfTls { missing: "tls_key" }),
        (true, false) => Err(MetricsError::HalfTls {
            missing: "tls_cert",
        }),
        (false, false) => {
            #[cfg(unix)]
            {
                let server = crate::serve::tls::server_config(
                    config.tls_cert.as_ref(),
                    config.tls_key.as_ref(),
                )
                .map_err(|e| MetricsError::Tls(e.to_string()))?;
                let mut server = (*server).clone();
                server.alpn_protocols = vec![b"http/1.1".to_vec()];
                Ok(Some(tokio_rustls::TlsAcceptor::from(Arc::new(server))))
            }
            #[cfg(not(unix))]
            {
                Err(MetricsError::Tls(
                    "HTTPS is not supported on this platform yet (Unix only)".to_owned(),
                ))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(listen: &str, cert: &str, key: &str) -> MetricsConfig {
        MetricsConfig {
            listen: listen.to_owned(),
            tls_cert: cert.to_owned(),
            tls_key: key.to_owned(),
            ..MetricsConfig::default()
        }
    }

    #[test]
    fn no_listen_no_listener_and_no_recorder() {
        let started = start(&config("", "", ""), Service::Serve, Health::new()).unwrap();
        assert!(started.is_none());
        assert!(!super::super::record::enabled());
    }

    #[test]
    fn outside_loopback_without_tls_is_refused() {
        let err = start(
            &config("0.0.0.0:9355", "", ""),
            Service::Serve,
            Health::new(),
        )
        .unwrap_err();
        assert!(matches!(err, MetricsError::NotLoopback { .. }), "{err}");
        assert!(err.to_string().contains("metrics.tls_cert"), "{err}");
    }

    #[test]
    fn half_a_tls_setup_is_refused() {
        let err = start(
            &config("127.0.0.1:0", "cert.pem", ""),
            Service::Serve,
            Health::new(),
        )
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "metrics.tls_cert and metrics.tls_key go together: metrics.tls_key is not set"
        );
    }

    #[test]
    fn only_host_port_is_an_address() {
        for listen in [
            "9355",
            "unix:/run/m.sock",
            "tls://127.0.0.1:9355",
            "tcp://127.0.0.1:1",
        ] {
            let err = start(&config(listen, "", ""), Service::Serve, Health::new()).unwrap_err();
            assert!(
                matches!(err, MetricsError::Address { .. }),
                "{listen}: {err}"
            );
        }
    }
}
