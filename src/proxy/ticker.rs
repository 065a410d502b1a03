//! The session's deadlines (a hung engine), timed by a thread of their own.
//!
//! A timer in tokio's wheel makes every park of the relay's runtime pay for the wheel, and the
//! relay parks twice per `isready` round trip, while the deadlines are 10 s and more away and
//! almost never due. So the relay only tells this thread when an earlier deadline is needed
//! (rarely: a later deadline waits until the armed one has passed), and the thread reports a
//! passed deadline as [`Event::Tick`] through the watcher's channel.

use std::sync::mpsc as std_mpsc;
use std::time::Instant;

use tokio::sync::mpsc;

use super::watch::Event;

/// The relay's handle on the deadline thread.
#[derive(Debug)]
pub struct Ticker {
    /// `None` when the thread could not be started (deadlines are then not enforced).
    arm: Option<std_mpsc::Sender<Instant>>,
    /// The deadline the thread waits for.
    armed: Option<Instant>,
}

impl Ticker {
    /// Starts the thread; it sends [`Event::Tick`] to `events` when an armed deadline passes
    /// and ends when the `Ticker` is dropped.
    pub fn start(events: mpsc::UnboundedSender<Event>) -> Ticker {
        let (arm, rx) = std_mpsc::channel();
        let spawned = std::thread::Builder::new()
            .name("deadlines".to_owned())
            .spawn(move || run(&rx, &events));
        if let Err(err) = &spawned {
            tracing::error!("cannot start the deadline thread: {err}; hung engines go unnoticed");
        }
        Ticker {
            arm: spawned.ok().map(|_| arm),
            armed: None,
        }
    }

    /// Makes sure a tick comes at `at` or earlier: tells the thread only when nothing earlier
    /// is armed.
    pub fn arm(&mut self, at: Option<Instant>) {
        if let (Some(at), Some(arm)) = (at, &self.arm)
            && self.armed.is_none_or(|armed| at < armed)
        {
            self.armed = Some(at);
            let _ = arm.send(at);
        }
    }

    /// A tick arrived: the armed deadline is spent.
    pub fn fired(&mut self) {
        self.armed = None;
    }
}

fn run(rx: &std_mpsc::Receiver<Instant>, events: &mpsc::UnboundedSender<Event>) {
    let mut deadline: Option<Instant> = None;
    loop {
        let next = match deadline {
            None => match rx.recv() {
                Ok(at) => Some(at),
                Err(_) => return,
            },
            Some(at) => match rx.recv_timeout(at.saturating_duration_since(Instant::now())) {
                Ok(earlier) => Some(earlier),
                Err(std_mpsc::RecvTimeoutError::Timeout) => {
                    if events.send(Event::Tick).is_err() {
                        return;
                    }
                    None
                }
                Err(std_mpsc::RecvTimeoutError::Disconnected) => return,
            },
        };
        deadline = next;
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn armed_deadline_ticks_once() {
        let (tx, mut rx) = mpsc::unbounded_channel();
        let mut ticker = Ticker::start(tx);
        ticker.arm(Some(Instant::now() + Duration::from_millis(20)));
        assert_eq!(rx.blocking_recv(), Some(Event::Tick));
        std::thread::sleep(Duration::from_millis(50));
        assert!(rx.try_recv().is_err());
    }

    #[test]
    fn earlier_deadline_replaces_a_later_one() {
        let (tx, mut rx) = mpsc::unbounded_channel();
        let mut ticker = Ticker::start(tx);
        let start = Instant::now();
        ticker.arm(Some(start + Duration::from_secs(60)));
        ticker.arm(Some(start + Duration::from_millis(20)));
        assert_eq!(rx.blocking_recv(), Some(Event::Tick));
        assert!(start.elapsed() < Duration::from_secs(30));
    }
}
