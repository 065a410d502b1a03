//! Connections that have not authenticated yet: how many the daemon holds, from where, and in
//! which file descriptors.
//!
//! Every accepted connection takes a [`Ticket`] until it is admitted (its first line judged
//! good) or closed. Three limits, checked at accept:
//! - The fd reserve: a connection whose descriptor lies in the last
//!   `(max_sessions - open sessions) * FDS_PER_SESSION + FD_SLACK` descriptors under the soft
//!   `RLIMIT_NOFILE` is closed at once, so admitted sessions always find the descriptors their
//!   socket copies and engine pipes need (descriptors are allocated lowest first, so the
//!   number of the new one says how many are open below it).
//! - `max_startups_per_addr`: one more from an address already holding that many drops the
//!   oldest unauthenticated connection of that address.
//! - `max_startups = "start:rate:full"`: from `start` held, with probability `rate`% rising
//!   linearly to 100% at `full`, the *oldest* unauthenticated connection is dropped to make
//!   room (OpenSSH drops the newcomer instead; dropping the oldest means a flood of idle
//!   connections cycles through the pool while a client that sends its `auth` line at once
//!   still gets in). Connections whose client had sent bytes when accepted (a peek) are
//!   dropped only when no silent one is left, so a burst of idle connections queued behind a
//!   good client does not push it out before it is read.
//!
//! Drops are counted and logged in one line every [`SUMMARY_EVERY`] (see [`Admission::summary`]).
//!
//! The metrics listener holds its connections in an [`Admission::capped`] pool, for their
//! whole life: a total and a per-address cap, each dropping the oldest connection that has not
//! yet sent a whole request ([`Admission::mark_spoke`]), else the oldest; no descriptor reserve,
//! and its drops are not counted among the daemon's shed connections.

use std::collections::{BTreeMap, HashMap};
use std::net::IpAddr;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use tokio::task::AbortHandle;

use super::config::Startups;

/// Descriptors a session needs beyond its socket: socket copies, engine pipes (and the pipes
/// of a restart), a TLS connection's second handle, the positions log.
pub const FDS_PER_SESSION: u64 = 16;

/// Descriptors kept for the daemon itself (logs, listeners, the runtime).
pub const FD_SLACK: u64 = 32;

/// How often the shed counts are logged (when any).
pub const SUMMARY_EVERY: Duration = Duration::from_secs(10);

/// Why a connection was closed before its first line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shed {
    /// Its descriptor was in the reserve.
    FdReserve,
}

#[derive(Debug, Default)]
struct Pool {
    next: u64,
    /// By ticket number, so oldest first.
    held: BTreeMap<u64, Held>,
    per_addr: HashMap<IpAddr, usize>,
    rng: u64,
    /// Counts since the last summary: fd reserve, per address, evicted, accept errors.
    shed: [u64; 4],
    /// The address with the most per-address drops since the last summary, and its count.
    top: HashMap<IpAddr, u64>,
}

#[derive(Debug)]
struct Held {
    addr: Option<IpAddr>,
    abort: Option<AbortHandle>,
    /// Its client had sent bytes when it was accepted (dropped after the silent ones).
    spoke: bool,
}

/// The admission limits and the unauthenticated connections held now.
#[derive(Debug)]
pub struct Admission {
    startups: Startups,
    per_addr: usize,
    fd_limit: u64,
    /// Drops go to the `connections_shed` metric (the daemon's pre-auth pool).
    counted: bool,
    pool: Mutex<Pool>,
}

/// An unauthenticated connection's place; dropping it frees the place.
#[derive(Debug)]
pub struct Ticket {
    admission: Arc<Admission>,
    id: u64,
}

impl Admission {
    /// Limits: `startups`, `per_addr` (0: none) and the soft descriptor limit `fd_limit`.
    pub fn new(startups: Startups, per_addr: usize, fd_limit: u64) -> Arc<Admission> {
        Admission::build(startups, per_addr, fd_limit, true)
    }

    fn build(startups: Startups, per_addr: usize, fd_limit: u64, counted: bool) -> Arc<Admission> {
        let seed = u64::from(std::process::id()) ^ 0x9e37_79b9_7f4a_7c15;
        Arc::new(Admission {
            startups,
            per_addr,
            fd_limit,
            counted,
            pool: Mutex::new(Pool {
                rng: seed | 1,
                ..Pool::default()
            }),
        })
    }

    /// A pool of at most `total` connections (at least 1), at most `per_addr` from one address
    /// (0: no per-address cap): one more drops the oldest (of its address, at the per-address
    /// cap), the oldest silent one first. No descriptor reserve, no random early drop, and its
    /// drops are only counted for [`Admission::take_dropped`]. Enter with `fd` 0 and
    /// `sessions_left` 0.
    pub fn capped(total: usize, per_addr: usize) -> Arc<Admission> {
        let total = total.max(1);
        let startups = Startups {
            start: total,
            rate: 100,
            full: total,
        };
        Admission::build(startups, per_addr, u64::MAX, false)
    }

    /// The connection of ticket `id` has sent bytes (a whole request): from now on it is
    /// dropped only when no silent connection is left to drop.
    pub fn mark_spoke(&self, id: u64) {
        if let Some(held) = self.pool().held.get_mut(&id) {
            held.spoke = true;
        }
    }

    /// Connections dropped at the per-address and the total cap since the last call.
    pub fn take_dropped(&self) -> u64 {
        let mut pool = self.pool();
        let dropped = pool.shed[1] + pool.shed[2];
        pool.shed[1] = 0;
        pool.shed[2] = 0;
        pool.top.clear();
        dropped
    }

    /// Counts a drop for the `connections_shed` metric (the daemon's pool only).
    fn record(&self, reason: &'static str) {
        if self.counted {
            crate::metrics::record::connection_shed(reason);
        }
    }

    fn pool(&self) -> std::sync::MutexGuard<'_, Pool> {
        self.pool.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Unauthenticated connections held now.
    pub fn held(&self) -> usize {
        self.pool().held.len()
    }

    /// Descriptors kept free for `sessions_left` more sessions.
    pub fn reserve(sessions_left: usize) -> u64 {
        u64::try_from(sessions_left)
            .unwrap_or(u64::MAX)
            .saturating_mul(FDS_PER_SESSION)
            + FD_SLACK
    }

    /// Takes a place for a connection from `addr` (`None`: a Unix socket, under no
    /// per-address cap) in descriptor `fd`, with `sessions_left` sessions still to be admitted;
    /// `spoke`: its client has sent bytes already. May drop the oldest unauthenticated
    /// connection to make room: the oldest silent one, else the oldest.
    ///
    /// # Errors
    /// Why the new connection is to be closed at once.
    pub fn enter(
        self: &Arc<Self>,
        addr: Option<IpAddr>,
        fd: u64,
        sessions_left: usize,
        spoke: bool,
    ) -> Result<Ticket, Shed> {
        let mut pool = self.pool();
        if fd.saturating_add(Admission::reserve(sessions_left)) >= self.fd_limit {
            pool.shed[0] += 1;
            self.record("fd-reserve");
            return Err(Shed::FdReserve);
        }
        if let Some(ip) = addr
            && self.per_addr > 0
            && pool.per_addr.get(&ip).copied().unwrap_or(0) >= self.per_addr
        {
            if let Some(id) = victim(&pool, |h| h.addr == Some(ip)) {
                evict(&mut pool, id);
            }
            pool.shed[1] += 1;
            self.record("per-addr");
            *pool.top.entry(ip).or_insert(0) += 1;
        }
        let held = pool.held.len();
        if held >= self.startups.start
            && self.drop_now(&mut pool, held)
            && let Some(id) = victim(&pool, |_| true)
        {
            evict(&mut pool, id);
            pool.shed[2] += 1;
            self.record("max-startups");
        }
        pool.next += 1;
        let id = pool.next;
        pool.held.insert(
            id,
            Held {
                addr,
                abort: None,
                spoke,
            },
        );
        if let Some(ip) = addr {
            *pool.per_addr.entry(ip).or_insert(0) += 1;
        }
        Ok(Ticket {
            admission: Arc::clone(self),
            id,
        })
    }

    /// Whether to drop the oldest now, with `held` held (at least `start`).
    fn drop_now(&self, pool: &mut Pool, held: usize) -> bool {
        let Startups { start, rate, full } = self.startups;
        if held >= full {
            return true;
        }
        let span = (full - start).max(1) as u64;
        let over = (held - start) as u64;
        let percent = u64::from(rate) + (100 - u64::from(rate)) * over / span;
        // xorshift64: cheap, and good enough to spread drops.
        pool.rng ^= pool.rng << 13;
        pool.rng ^= pool.rng >> 7;
        pool.rng ^= pool.rng << 17;
        pool.rng % 100 < percent
    }

    /// Lets the admission abort the task serving ticket `id` when it drops that connection (a
    /// no-op once the ticket is gone).
    pub fn set_abort(&self, id: u64, abort: AbortHandle) {
        if let Some(held) = self.pool().held.get_mut(&id) {
            held.abort = Some(abort);
        }
    }

    /// Counts a failed `accept` (e.g. out of descriptors), for the summary.
    pub fn accept_failed(&self) {
        self.pool().shed[3] += 1;
        self.record("accept-failed");
    }

    /// The line summing up what was shed since the last call, or `None` when nothing was.
    pub fn summary(&self) -> Option<String> {
        let mut pool = self.pool();
        let shed = std::mem::take(&mut pool.shed);
        let top = std::mem::take(&mut pool.top);
        if shed.iter().all(|&n| n == 0) {
            return None;
        }
        let total: u64 = shed.iter().sum();
        let mut line = format!(
            "shedding load: {total} connections closed before auth in the last {} s: {} at max_startups {} (oldest dropped), {} at max_startups_per_addr {} (oldest of the address dropped), {} for the fd reserve (limit {}), {} failed accepts; {} unauthenticated held now",
            SUMMARY_EVERY.as_secs(),
            shed[2],
            self.startups,
            shed[1],
            self.per_addr,
            shed[0],
            self.fd_limit,
            shed[3],
            pool.held.len(),
        );
        if let Some((ip, n)) = top.iter().max_by_key(|(_, n)| **n) {
            line.push_str(&format!("; busiest address {ip} ({n} at its cap)"));
        }
        Some(line)
    }
}

/// The connection to drop among those `among` selects: the oldest silent one, else the oldest.
fn victim(pool: &Pool, among: impl Fn(&Held) -> bool) -> Option<u64> {
    let mut oldest = None;
    for (&id, held) in pool.held.iter().filter(|(_, h)| among(h)) {
        if !held.spoke {
            return Some(id);
        }
        oldest.get_or_insert(id);
    }
    oldest
}

/// Drops held connection `id`: its place, and its task (which closes it).
fn evict(pool: &mut Pool, id: u64) {
    if let Some(held) = pool.held.remove(&id) {
        if let Some(ip) = held.addr {
            forget_addr(&mut pool.per_addr, ip);
        }
        if let Some(abort) = held.abort {
            abort.abort();
        }
    }
}

fn forget_addr(per_addr: &mut HashMap<IpAddr, usize>, ip: IpAddr) {
    if let Some(n) = per_addr.get_mut(&ip) {
        *n -= 1;
        if *n == 0 {
            per_addr.remove(&ip);
        }
    }
}

impl Ticket {
    /// Its number, for [`Admission::set_abort`].
    pub fn id(&self) -> u64 {
        self.id
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        let mut pool = self.admission.pool();
        if let Some(held) = pool.held.remove(&self.id)
            && let Some(ip) = held.addr
        {
            forget_addr(&mut pool.per_addr, ip);
        }
    }
}

/// Raises the soft `RLIMIT_NOFILE` to the hard limit; the (old, new) soft limits.
#[cfg(unix)]
pub fn raise_fd_limit() -> (u64, u64) {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes the struct it is given.
    if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &raw mut limit) } != 0 {
        return (1024, 1024);
    }
    let old = limit.rlim_cur;
    if limit.rlim_cur < limit.rlim_max {
        let raised = libc::rlimit {
            rlim_cur: limit.rlim_max,
            rlim_max: limit.rlim_max,
        };
        // SAFETY: setrlimit reads the struct it is given.
        if unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &raw const raised) } == 0 {
            limit.rlim_cur = limit.rlim_max;
        }
    }
    (old, limit.rlim_cur)
}

#[cfg(test)]
#[path = "admission_tests.rs"]
mod tests;
