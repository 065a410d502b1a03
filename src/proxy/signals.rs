//! The signals that end fenguard (and with it the engine): SIGTERM, SIGINT and SIGHUP on Unix,
//! Ctrl-C, Ctrl-Break and console close on Windows.

/// A received signal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Received {
    /// Its name, for the log.
    pub name: &'static str,
    /// fenguard's exit status for it: 128 + the signal number, as shells report.
    pub exit_status: u8,
}

/// The installed signal handlers; [`Signals::recv`] never completes when installing failed.
#[derive(Debug)]
pub struct Signals {
    #[cfg(unix)]
    streams: Vec<(tokio::signal::unix::Signal, Received)>,
    #[cfg(windows)]
    ctrl_c: Option<tokio::signal::windows::CtrlC>,
    #[cfg(windows)]
    ctrl_break: Option<tokio::signal::windows::CtrlBreak>,
    #[cfg(windows)]
    ctrl_close: Option<tokio::signal::windows::CtrlClose>,
}

#[cfg(unix)]
impl Signals {
    /// Installs the handlers (inside a tokio runtime).
    pub fn install() -> Signals {
        use tokio::signal::unix::{SignalKind, signal};
        let wanted = [
            (SignalKind::terminate(), "SIGTERM", 128 + 15),
            (SignalKind::interrupt(), "SIGINT", 128 + 2),
            (SignalKind::hangup(), "SIGHUP", 128 + 1),
        ];
        let streams = wanted
            .into_iter()
            .filter_map(|(kind, name, exit_status)| match signal(kind) {
                Ok(stream) => Some((stream, Received { name, exit_status })),
                Err(err) => {
                    tracing::warn!("cannot handle {name}: {err}");
                    None
                }
            })
            .collect();
        Signals { streams }
    }

    /// Waits for the next signal.
    pub async fn recv(&mut self) -> Received {
        let waits = self.streams.iter_mut().map(|(stream, received)| {
            let received = *received;
            Box::pin(async move {
                stream.recv().await;
                received
            })
        });
        let waits: Vec<_> = waits.collect();
        if waits.is_empty() {
            return std::future::pending().await;
        }
        futures_util::future::select_all(waits).await.0
    }
}

#[cfg(windows)]
impl Signals {
    /// Installs the handlers (inside a tokio runtime).
    pub fn install() -> Signals {
        use tokio::signal::windows;
        Signals {
            ctrl_c: windows::ctrl_c().ok(),
            ctrl_break: windows::ctrl_break().ok(),
            ctrl_close: windows::ctrl_close().ok(),
        }
    }

    /// Waits for the next console event.
    pub async fn recv(&mut self) -> Received {
        async fn wait_on<F: Future<Output = Option<()>>>(event: Option<F>) {
            if let Some(event) = event
                && event.await.is_some()
            {
                return;
            }
            std::future::pending::<()>().await;
        }
        let Signals {
            ctrl_c,
            ctrl_break,
            ctrl_close,
        } = self;
        tokio::select! {
            () = wait_on(ctrl_c.as_mut().map(|s| s.recv())) => Received { name: "Ctrl-C", exit_status: 130 },
            () = wait_on(ctrl_break.as_mut().map(|s| s.recv())) => Received { name: "Ctrl-Break", exit_status: 131 },
            () = wait_on(ctrl_close.as_mut().map(|s| s.recv())) => Received { name: "console close", exit_status: 129 },
        }
    }
}
