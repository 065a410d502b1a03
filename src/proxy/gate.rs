//! A stream that is polled only after its own waker fired, so a `select!` over several
//! sources costs one atomic swap for each source that has nothing new.
//!
//! Without it, every pass of the relay loop polls every source again, and each idle tokio
//! pipe takes its readiness lock to re-register the waker. With it, a pipe is polled when its
//! readiness changed, or while it still yields items (a decoder may hold buffered lines).

use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll, Waker};

use futures_util::task::{ArcWake, waker_ref};
use futures_util::{FutureExt as _, Stream, StreamExt as _};

/// The waker handed to the inner stream: marks it woken and wakes whoever polled the gate.
///
/// The outer waker is kept (not taken) on wake, so re-registering the same one clones nothing.
#[derive(Debug)]
struct Flag {
    woken: AtomicBool,
    outer: Mutex<Option<Waker>>,
}

impl Flag {
    fn register(&self, waker: &Waker) {
        let mut outer = self.outer.lock().unwrap_or_else(PoisonError::into_inner);
        match &*outer {
            Some(known) if known.will_wake(waker) => {}
            _ => *outer = Some(waker.clone()),
        }
    }
}

impl ArcWake for Flag {
    fn wake_by_ref(arc_self: &Arc<Self>) {
        arc_self.woken.store(true, Ordering::Release);
        // Woken outside the lock, so a waker that polls at once cannot deadlock on it.
        let outer = arc_self
            .outer
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone();
        if let Some(waker) = outer {
            waker.wake();
        }
    }
}

/// `inner`, polled only when it may have something: at first, after its waker fired, and
/// after it yielded an item.
#[derive(Debug)]
pub struct Gated<S> {
    inner: S,
    flag: Arc<Flag>,
}

impl<S> Gated<S> {
    /// Wraps a stream; the first poll reaches it.
    pub fn new(inner: S) -> Gated<S> {
        Gated {
            inner,
            flag: Arc::new(Flag {
                woken: AtomicBool::new(true),
                outer: Mutex::new(None),
            }),
        }
    }
}

impl<S: Stream + Unpin> Gated<S> {
    /// The next item if the inner stream has one right now, polled straight (no waker is
    /// kept); the gate stays open, so the next poll through it registers its waker again.
    /// For draining what is buffered after the gate yielded, without a waker per item.
    pub fn next_now(&mut self) -> Option<Option<S::Item>> {
        let item = self.inner.next().now_or_never();
        self.flag.woken.store(true, Ordering::Release);
        item
    }
}

impl<S: Stream + Unpin> Stream for Gated<S> {
    type Item = S::Item;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<S::Item>> {
        let this = self.get_mut();
        // Register before looking at the flag: a wake between the two is not lost.
        this.flag.register(cx.waker());
        if !this.flag.woken.swap(false, Ordering::AcqRel) {
            return Poll::Pending;
        }
        let waker = waker_ref(&this.flag);
        let mut inner_cx = Context::from_waker(&waker);
        let polled = Pin::new(&mut this.inner).poll_next(&mut inner_cx);
        if polled.is_ready() {
            // More may be buffered without a new wake.
            this.flag.woken.store(true, Ordering::Release);
        }
        polled
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::sync::mpsc;

    /// A stream over a channel that counts how often it is polled.
    struct Receiver {
        rx: mpsc::UnboundedReceiver<u8>,
        polls: usize,
    }

    impl Stream for Receiver {
        type Item = u8;
        fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<u8>> {
            self.polls += 1;
            self.rx.poll_recv(cx)
        }
    }

    fn gated() -> (mpsc::UnboundedSender<u8>, Gated<Receiver>) {
        let (tx, rx) = mpsc::unbounded_channel();
        (tx, Gated::new(Receiver { rx, polls: 0 }))
    }

    #[test]
    fn idle_stream_is_not_polled_again_until_woken() {
        let (_tx, mut gate) = gated();
        assert_eq!(gate.next().now_or_never(), None);
        assert_eq!(gate.next().now_or_never(), None);
        assert_eq!(gate.inner.polls, 1);
    }

    #[test]
    fn item_sent_after_an_idle_poll_is_delivered() {
        let (tx, mut gate) = gated();
        assert_eq!(gate.next().now_or_never(), None);
        tx.send(7).unwrap();
        assert_eq!(gate.next().now_or_never(), Some(Some(7)));
    }

    #[test]
    fn buffered_items_come_without_a_new_wake() {
        let (tx, mut gate) = gated();
        tx.send(1).unwrap();
        tx.send(2).unwrap();
        assert_eq!(gate.next().now_or_never(), Some(Some(1)));
        assert_eq!(gate.next().now_or_never(), Some(Some(2)));
        assert_eq!(gate.next().now_or_never(), None);
    }

    #[test]
    fn item_after_a_straight_poll_found_nothing_is_delivered() {
        let (tx, mut gate) = gated();
        assert_eq!(gate.next_now(), None);
        tx.send(3).unwrap();
        assert_eq!(gate.next().now_or_never(), Some(Some(3)));
    }

    #[test]
    fn end_of_stream_is_delivered() {
        let (tx, mut gate) = gated();
        assert_eq!(gate.next().now_or_never(), None);
        drop(tx);
        assert_eq!(gate.next().now_or_never(), Some(None));
    }
}
