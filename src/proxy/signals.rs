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

/// The installed signal handlers; a handler that could not be installed never fires.
#[derive(Debug)]
pub struct Signals {
    #[cfg(unix)]
    terminate: Option<tokio::signal::unix::Signal>,
    #[cfg(unix)]
    interrupt: Option<tokio::signal::unix::Signal>,
    #[cfg(unix)]
    hangup: Option<tokio::signal::unix::Signal>,
    #[cfg(windows)]
    ctrl_c: Option<tokio::signal::windows::CtrlC>,
    #[cfg(windows)]
    ctrl_break: Option<tokio::signal::windows::CtrlBreak>,
    #[cfg(windows)]
    ctrl_close: Option<tokio::signal::windows::CtrlClose>,
}

/// Completes when `event` (a handler's next delivery) completes with `Some`; never otherwise.
async fn wait_on<F: Future<Output = Option<()>>>(event: Option<F>) {
    if let Some(event) = event
        && event.await.is_some()
    {
        return;
    }
    std::future::pending::<()>().await;
}

#[cfg(unix)]
impl Signals {
    /// Installs the handlers (inside a tokio runtime).
    pub fn install() -> Signals {
        use tokio::signal::unix::{SignalKind, signal};
        let install = |kind: SignalKind, name: &str| {
            signal(kind)
                .inspect_err(|err| tracing::warn!("cannot handle {name}: {err}"))
                .ok()
        };
        Signals {
            terminate: install(SignalKind::terminate(), "SIGTERM"),
            interrupt: install(SignalKind::interrupt(), "SIGINT"),
            hangup: install(SignalKind::hangup(), "SIGHUP"),
        }
    }

    /// No handlers: never fires (a daemon's session, whose signals the daemon handles).
    pub fn none() -> Signals {
        Signals {
            terminate: None,
            interrupt: None,
            hangup: None,
        }
    }

    /// Waits for the next signal.
    pub async fn recv(&mut self) -> Received {
        let Signals {
            terminate,
            interrupt,
            hangup,
        } = self;
        tokio::select! {
            () = wait_on(terminate.as_mut().map(|s| s.recv())) => Received { name: "SIGTERM", exit_status: 128 + 15 },
            () = wait_on(interrupt.as_mut().map(|s| s.recv())) => Received { name: "SIGINT", exit_status: 128 + 2 },
            () = wait_on(hangup.as_mut().map(|s| s.recv())) => Received { name: "SIGHUP", exit_status: 128 + 1 },
        }
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

    /// No handlers: never fires (a daemon's session, whose signals the daemon handles).
    pub fn none() -> Signals {
        Signals {
            ctrl_c: None,
            ctrl_break: None,
            ctrl_close: None,
        }
    }

    /// Waits for the next console event.
    pub async fn recv(&mut self) -> Received {
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
