//! One admitted connection's session: its engine, session state machine (with the option
//! guard), positions log `positions-<session id>.jsonl`, the proxy's relay, and the one log
//! line at its end (peer, session id, duration, positions judged, rejections, how the engine
//! ended).

use std::net::Shutdown;
use std::sync::atomic::Ordering;
use std::sync::{Arc, PoisonError};
use std::time::{Duration, Instant};

use tracing::Instrument as _;

use super::conn::{ConnReader, ConnState, ConnWriter, Socket};
use super::daemon::{Ctx, LINGER};
use super::first_line::Admitted;
use crate::logging::session_id;
use crate::poslog::PositionLog;
use crate::proxy::relay::Relay;
use crate::proxy::spec::SessionSpec;
use crate::session::{EngineExit, Guard};

/// Runs one session on an admitted connection; it ends early when a reload revokes its
/// token ([`ConnState::revoke`]).
pub(super) async fn run(
    ctx: &Arc<Ctx>,
    socket: Socket,
    admitted: Admitted,
    peer: &str,
    started: Instant,
) {
    let Admitted { prefix, token } = admitted;
    let id = ctx.next_id.fetch_add(1, Ordering::SeqCst);
    let sid = format!("{}-{id}", session_id());
    let handles = socket
        .try_clone()
        .and_then(|w| Ok((w, socket.try_clone()?)));
    let Ok((writer, closer)) = handles else {
        tracing::warn!("connection {peer}: cannot duplicate its socket");
        return;
    };
    let spec = &ctx.spec;
    let config = &spec.config;
    let guard = Guard::new(
        &config.serve.allow_options,
        ctx.caps.threads,
        ctx.caps.hash_mb,
    )
    .with_client_options(&config.serve.client_options);
    // A closed connection is a client gone: no `uciok` is waited for after it.
    let session = spec.session(Some(guard)).with_gone_at_eof();
    let relay = match Relay::start(&spec.command, session, ctx.stderr.clone(), ctx.grace) {
        Ok(relay) => relay,
        Err(err) => {
            crate::metrics::record::engine_start_failed();
            let mut writer = writer;
            let line = format!("info string fenguard: engine did not start: {err}\n");
            let _ = std::io::Write::write_all(&mut writer, line.as_bytes());
            closer.shutdown(Shutdown::Both);
            tracing::error!("connection {peer} session {sid}: {err}");
            return;
        }
    };
    let _active = crate::metrics::record::session_started();
    let state = ConnState::new(token);
    let idle = Some(config.serve.idle_timeout_ms)
        .filter(|&ms| ms > 0)
        .map(Duration::from_millis);
    let Ok(reader) = ConnReader::new(prefix, socket, Arc::clone(&state), idle) else {
        tracing::warn!("connection {peer}: cannot set its read timeout");
        return;
    };
    let writer = ConnWriter::new(writer, Arc::clone(&state));
    ctx.open
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .insert(id, Arc::clone(&state));
    // A reload between the first line and here did not see this session: look again.
    if token.is_some_and(|hash| !ctx.tokens().holds(&hash)) {
        state.revoke();
    }
    tracing::info!(
        "connection {peer}: session {sid} started (engine pid {:?})",
        relay.engine_pid()
    );
    let positions = open_positions(spec, &sid);
    let ended = relay
        .with_positions(positions)
        .run(reader, writer)
        .instrument(tracing::info_span!("session", id = %sid))
        .await;
    closer.close(LINGER);
    ctx.open
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .remove(&id);
    let idled = if state.revoked() {
        ", token revoked"
    } else if state.idled.load(Ordering::SeqCst) {
        ", closed idle"
    } else {
        ""
    };
    tracing::info!(
        "connection {peer} session {sid}: {} ms, {} positions judged, {} rejected, engine {}{idled}",
        started.elapsed().as_millis(),
        ended.judged,
        ended.rejected,
        describe(ended.engine_exit),
    );
}

/// The session's positions log `positions-<sid>.jsonl`, after pruning old sessions' logs
/// (`serve.keep_session_logs`); `None` without a log directory or with `log.positions` off.
fn open_positions(spec: &SessionSpec, sid: &str) -> Option<PositionLog> {
    match (&spec.log_dir, spec.config.log.positions) {
        (Some(dir), true) => {
            let pruned = super::session_logs::prune(dir, spec.config.serve.keep_session_logs);
            if pruned > 0 {
                tracing::info!(
                    "removed the positions logs of {pruned} old sessions (serve.keep_session_logs {})",
                    spec.config.serve.keep_session_logs
                );
            }
            let path = dir.join(format!("positions-{sid}.jsonl"));
            PositionLog::open_rotating(&path, sid.to_owned(), spec.rotation())
                .inspect_err(|e| tracing::warn!("cannot open {}: {e}", path.display()))
                .ok()
        }
        _ => None,
    }
}

fn describe(exit: Option<EngineExit>) -> String {
    match exit {
        None => "end not seen".to_owned(),
        Some(EngineExit { killed: true, .. }) => "killed by fenguard".to_owned(),
        Some(EngineExit {
            code: Some(code), ..
        }) => format!("exited with status {code}"),
        Some(EngineExit {
            signal: Some(sig), ..
        }) => format!("killed by signal {sig}"),
        Some(_) => "ended (status unknown)".to_owned(),
    }
}
