//! The metrics listener's connections: accepting them into a capped pool
//! ([`Admission::capped`]: `max_connections`, `max_connections_per_addr`, the oldest without a
//! whole request dropped first), the TLS handshake, and HTTP/1.1 with hyper under
//! `header_timeout_ms`; the recorder's upkeep and the drop summary every [`UPKEEP`].

use std::sync::Arc;
use std::time::Duration;

use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::sync::oneshot;

use super::config::MetricsConfig;
use super::http::Answers;
use super::server::{Acceptor, CONNECTION_LIFETIME, MetricsError, UPKEEP};
use crate::serve::admission::Admission;

/// The connection limits of `[metrics]`.
#[derive(Debug, Clone, Copy)]
pub(super) struct Limits {
    total: usize,
    per_addr: usize,
    header: Duration,
}

impl Limits {
    /// The limits of `config`.
    ///
    /// # Errors
    /// [`MetricsError::Limit`] for a 0 where at least 1 is needed.
    pub(super) fn of(config: &MetricsConfig) -> Result<Limits, MetricsError> {
        if config.max_connections == 0 {
            return Err(MetricsError::Limit {
                key: "max_connections",
                message: "expected at least 1",
            });
        }
        if config.header_timeout_ms == 0 {
            return Err(MetricsError::Limit {
                key: "header_timeout_ms",
                message: "expected at least 1 (milliseconds)",
            });
        }
        Ok(Limits {
            total: config.max_connections,
            per_addr: config.max_connections_per_addr,
            header: Duration::from_millis(config.header_timeout_ms),
        })
    }
}

/// Accepts and serves until `stopped`; drains the histograms and logs the dropped connections
/// every [`UPKEEP`].
pub(super) async fn serve(
    listener: std::net::TcpListener,
    tls: Option<Acceptor>,
    answers: Arc<Answers>,
    limits: Limits,
    mut stopped: oneshot::Receiver<()>,
) {
    let listener = match tokio::net::TcpListener::from_std(listener) {
        Ok(listener) => listener,
        Err(err) => {
            tracing::error!("metrics listener: {err}");
            return;
        }
    };
    let places = Admission::capped(limits.total, limits.per_addr);
    let mut upkeep = tokio::time::interval(UPKEEP);
    upkeep.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = &mut stopped => return,
            _ = upkeep.tick() => {
                answers.handle.run_upkeep();
                let dropped = places.take_dropped();
                if dropped > 0 {
                    tracing::warn!(
                        "metrics listener: {dropped} connections dropped in the last {} s at max_connections {} or max_connections_per_addr {} (oldest without a whole request first)",
                        UPKEEP.as_secs(), limits.total, limits.per_addr
                    );
                }
            }
            accepted = listener.accept() => match accepted {
                Ok((stream, addr)) => {
                    let Ok(place) = places.enter(Some(addr.ip()), 0, 0, false) else {
                        continue;
                    };
                    let _ = stream.set_nodelay(true);
                    let (tls, answers) = (tls.clone(), Arc::clone(&answers));
                    let (id, pool) = (place.id(), Arc::clone(&places));
                    let task = tokio::spawn(async move {
                        let spoke = move || pool.mark_spoke(id);
                        let connection = connection(stream, tls, answers, limits.header, spoke);
                        let _ = tokio::time::timeout(CONNECTION_LIFETIME, connection).await;
                        drop(place);
                    });
                    places.set_abort(id, task.abort_handle());
                }
                Err(err) => {
                    tracing::debug!("metrics listener: accept failed: {err}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
            },
        }
    }
}

/// One connection: the TLS handshake (HTTPS) within `header`, then HTTP/1.1 requests; `spoke`
/// is called at each request. hyper's header timer runs from the moment a request is awaited
/// (the connection's start, the end of the previous answer) to the end of its headers, never
/// reset by a byte: a connection that sends nothing, or a byte now and then, is closed after
/// `header`, and so is an idle keep-alive one.
async fn connection(
    stream: tokio::net::TcpStream,
    tls: Option<Acceptor>,
    answers: Arc<Answers>,
    header: Duration,
    spoke: impl Fn() + Send + Sync + 'static,
) {
    match tls {
        #[cfg(unix)]
        Some(acceptor) => {
            if let Ok(Ok(stream)) = tokio::time::timeout(header, acceptor.accept(stream)).await {
                http(stream, answers, header, spoke).await;
            }
        }
        #[cfg(not(unix))]
        Some(never) => match never {},
        None => http(stream, answers, header, spoke).await,
    }
}

async fn http<S>(
    stream: S,
    answers: Arc<Answers>,
    header: Duration,
    spoke: impl Fn() + Send + Sync + 'static,
) where
    S: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let service = service_fn(move |request: hyper::Request<hyper::body::Incoming>| {
        spoke();
        let response = answers.respond(request.method(), request.uri().path());
        async move { Ok::<_, std::convert::Infallible>(response) }
    });
    let served = http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(header)
        .serve_connection(TokioIo::new(stream), service)
        .await;
    if let Err(err) = served {
        tracing::debug!("metrics connection: {err}");
    }
}
