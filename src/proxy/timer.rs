//! One-shot timers for a runtime without tokio's time driver.
//!
//! The relay's timers are rare (the quit grace, the drain after the engine's exit, the last
//! flush), while tokio's time driver costs a clock read and two lock round trips every time
//! the runtime parks, that is twice per `isready` round trip. So the runtime is built without
//! it, and a timer is a thread that sleeps and then completes a channel.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use futures_util::FutureExt as _;
use tokio::sync::oneshot;

/// Completes once `duration` has passed since [`Timer::after`] (or at once if no thread could
/// be started for it). Dropping it cancels nothing but the wake-up: the thread ends on its own.
#[derive(Debug)]
pub struct Timer {
    fired: oneshot::Receiver<()>,
}

impl Timer {
    /// A timer that fires after `duration`.
    pub fn after(duration: Duration) -> Timer {
        let (fire, fired) = oneshot::channel();
        let spawned = std::thread::Builder::new()
            .name("fenguard-timer".to_owned())
            .spawn(move || {
                std::thread::sleep(duration);
                let _ = fire.send(());
            });
        if let Err(err) = spawned {
            // The sender was dropped with the closure: the timer fires at once.
            tracing::warn!("cannot start a timer thread: {err}; not waiting");
        }
        Timer { fired }
    }
}

impl Future for Timer {
    type Output = ();

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        // Fired, or the thread is gone: either way the time is up.
        Pin::new(&mut self.fired).poll(cx).map(|_| ())
    }
}

/// Runs `future` for at most `limit`; `None` when the time ran out first.
pub async fn timeout<F: Future>(limit: Duration, future: F) -> Option<F::Output> {
    let mut future = std::pin::pin!(future);
    // No thread for a future that is done at once.
    if let Some(output) = future.as_mut().now_or_never() {
        return Some(output);
    }
    tokio::select! {
        biased;
        output = future => Some(output),
        () = Timer::after(limit) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Instant;

    fn runtime() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_current_thread()
            .enable_io()
            .build()
            .unwrap()
    }

    #[test]
    fn fires_after_its_duration() {
        let start = Instant::now();
        runtime().block_on(Timer::after(Duration::from_millis(30)));
        assert!(start.elapsed() >= Duration::from_millis(30));
    }

    #[test]
    fn timeout_returns_the_output_of_a_ready_future() {
        let output = runtime().block_on(timeout(Duration::from_secs(10), async { 5 }));
        assert_eq!(output, Some(5));
    }

    #[test]
    fn timeout_gives_up_on_a_pending_future() {
        let output = runtime().block_on(timeout(
            Duration::from_millis(10),
            std::future::pending::<()>(),
        ));
        assert_eq!(output, None);
    }
}
