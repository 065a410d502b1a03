//! The engine's exit and fenguard's signals, watched by a task of their own.
//!
//! The watcher task owns the child process (and the next one after a restart) and the signal
//! handlers, kills the engine when asked to or on a signal, and reports what happened over a
//! channel.

use tokio::process::Child;
use tokio::sync::mpsc;

use super::signals::{Received, Signals};
use crate::session::EngineExit;

/// What the watcher reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    /// The engine exited; `killed` is set when the watcher had killed it.
    Exited(EngineExit),
    /// fenguard received a signal; the engine, if still running, is being killed.
    Signal(Received),
}

/// The relay's handle on the watcher task.
#[derive(Debug)]
pub struct Watch {
    events: mpsc::UnboundedReceiver<Event>,
    commands: mpsc::UnboundedSender<Command>,
}

/// What the relay asks of the watcher.
#[derive(Debug)]
enum Command {
    /// Kill the engine if it runs.
    Kill,
    /// Watch this new engine (the previous one has exited).
    Adopt(Box<Child>),
}

impl Watch {
    /// Starts the watcher task on the current tokio runtime; it owns `child` from now on.
    pub fn start(child: Child, signals: Signals) -> Watch {
        let (event_tx, events) = mpsc::unbounded_channel();
        let (commands, command_rx) = mpsc::unbounded_channel();
        tokio::spawn(watch(child, signals, event_tx, command_rx));
        Watch { events, commands }
    }

    /// The next event; never completes once the watcher is gone.
    pub async fn next(&mut self) -> Event {
        match self.events.recv().await {
            Some(event) => event,
            None => std::future::pending().await,
        }
    }

    /// Kills the engine if it is still running (its exit is reported as killed).
    pub fn kill(&self) {
        let _ = self.commands.send(Command::Kill);
    }

    /// Watches a restarted engine from now on (after the previous one's exit was reported).
    pub fn adopt(&self, child: Child) {
        let _ = self.commands.send(Command::Adopt(Box::new(child)));
    }
}

async fn watch(
    mut child: Child,
    mut signals: Signals,
    events: mpsc::UnboundedSender<Event>,
    mut commands: mpsc::UnboundedReceiver<Command>,
) {
    let mut exited = false;
    let mut killed = false;
    loop {
        let event = tokio::select! {
            biased;
            signal = signals.recv() => {
                kill_unless_exited(&mut child, exited, &mut killed);
                Event::Signal(signal)
            }
            request = commands.recv() => match request {
                Some(Command::Kill) => {
                    kill_unless_exited(&mut child, exited, &mut killed);
                    continue;
                }
                Some(Command::Adopt(next)) => {
                    (child, exited, killed) = (*next, false, false);
                    continue;
                }
                // The relay is gone.
                None => return,
            },
            status = child.wait(), if !exited => {
                exited = true;
                let mut exit = engine_exit(status);
                exit.killed = killed;
                Event::Exited(exit)
            }
        };
        if events.send(event).is_err() {
            return;
        }
    }
}

fn kill_unless_exited(child: &mut Child, exited: bool, killed: &mut bool) {
    if !exited {
        *killed = true;
        // The engine leads its own process group: kill the whole group, so that an engine
        // started through a wrapper script (`sh` running the real engine as its child) does
        // not leave the real engine running, hung, without fenguard.
        #[cfg(unix)]
        if let Some(pid) = child.id().and_then(|pid| libc::pid_t::try_from(pid).ok()) {
            // SAFETY: plain kill(2) on the group the engine was started in (not yet reaped,
            // so the id still names it).
            unsafe {
                libc::kill(-pid, libc::SIGKILL);
            }
        }
        let _ = child.start_kill();
    }
}

fn engine_exit(status: std::io::Result<std::process::ExitStatus>) -> EngineExit {
    let Ok(status) = status else {
        return EngineExit::default();
    };
    #[cfg(unix)]
    let signal = std::os::unix::process::ExitStatusExt::signal(&status);
    #[cfg(not(unix))]
    let signal = None;
    EngineExit {
        code: status.code(),
        signal,
        killed: false,
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    fn child(script: &str) -> Child {
        tokio::process::Command::new("sh")
            .args(["-c", script])
            .kill_on_drop(true)
            .spawn()
            .unwrap()
    }

    fn runtime() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap()
    }

    #[test]
    fn engine_exit_is_reported_with_its_code() {
        let event = runtime().block_on(async {
            let mut watch = Watch::start(child("exit 3"), Signals::install());
            watch.next().await
        });
        let exit = EngineExit {
            code: Some(3),
            signal: None,
            killed: false,
        };
        assert_eq!(event, Event::Exited(exit));
    }

    #[test]
    fn killed_engine_is_reported_as_killed() {
        let event = runtime().block_on(async {
            let mut watch = Watch::start(child("sleep 30"), Signals::install());
            watch.kill();
            watch.next().await
        });
        let exit = EngineExit {
            code: None,
            signal: Some(libc::SIGKILL),
            killed: true,
        };
        assert_eq!(event, Event::Exited(exit));
    }
}
