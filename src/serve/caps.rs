//! The daemon's caps on the engine's `Threads` and `Hash`: `serve.max_threads` /
//! `serve.max_hash_mb` as set, else derived from the machine.
//!
//! ```
//! use fenguard::serve::caps::{Caps, Machine};
//!
//! let machine = Machine { cores: 8, memory_mib: Some(32768) };
//! let caps = Caps::resolve(None, None, 16, &machine);
//! assert_eq!((caps.threads, caps.hash_mb), (Some(8), Some(1024)));
//! assert_eq!(Caps::resolve(Some(0), Some(0), 16, &machine), Caps { threads: None, hash_mb: None, derived: false });
//! ```
//!
//! Unset `max_threads`: the machine's cores (each session may use them all; sessions share the
//! machine as any processes do). Unset `max_hash_mb`: half the memory (the smaller of
//! `MemTotal` and the cgroup's `memory.max`) divided by `max_sessions`, so that every session
//! at its cap together fit in half the machine; at least 1 MiB. An explicit `0` is no cap.

/// What the machine offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Machine {
    /// Cores available to this process.
    pub cores: u64,
    /// Memory in MiB, when known.
    pub memory_mib: Option<u64>,
}

impl Machine {
    /// This machine: `available_parallelism`, `/proc/meminfo` and the cgroup v2 limit.
    pub fn detect() -> Machine {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get() as u64);
        let total = std::fs::read_to_string("/proc/meminfo")
            .ok()
            .and_then(|text| {
                let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
                line.split_whitespace().nth(1)?.parse::<u64>().ok()
            });
        let cgroup = std::fs::read_to_string("/sys/fs/cgroup/memory.max")
            .ok()
            .and_then(|t| t.trim().parse::<u64>().ok())
            .map(|bytes| bytes >> 20);
        let memory_mib = match (total.map(|kib| kib >> 10), cgroup) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        Machine { cores, memory_mib }
    }
}

/// The caps a session's guard gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Caps {
    /// Cap on `Threads`; `None`: no cap.
    pub threads: Option<u64>,
    /// Cap on `Hash` in MiB; `None`: no cap.
    pub hash_mb: Option<u64>,
    /// At least one cap came from the machine rather than the configuration.
    pub derived: bool,
}

impl Caps {
    /// The caps for `max_threads` / `max_hash_mb` as configured (`None`: unset).
    pub fn resolve(
        max_threads: Option<u64>,
        max_hash_mb: Option<u64>,
        max_sessions: usize,
        machine: &Machine,
    ) -> Caps {
        let sessions = u64::try_from(max_sessions.max(1)).unwrap_or(u64::MAX);
        let threads = max_threads.unwrap_or(machine.cores.max(1));
        let hash = match max_hash_mb {
            Some(set) => Some(set),
            None => machine.memory_mib.map(|mib| (mib / 2 / sessions).max(1)),
        };
        Caps {
            threads: Some(threads).filter(|&t| t > 0),
            hash_mb: hash.filter(|&h| h > 0),
            derived: max_threads.is_none() || max_hash_mb.is_none(),
        }
    }
}

impl std::fmt::Display for Caps {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let show = |v: Option<u64>| v.map_or("no cap".to_owned(), |v| v.to_string());
        write!(
            f,
            "max_threads {}, max_hash_mb {}",
            show(self.threads),
            show(self.hash_mb)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_memory_leaves_hash_uncapped_but_threads_capped() {
        let machine = Machine {
            cores: 2,
            memory_mib: None,
        };
        let caps = Caps::resolve(None, None, 4, &machine);
        assert_eq!(
            (caps.threads, caps.hash_mb, caps.derived),
            (Some(2), None, true)
        );
    }

    #[test]
    fn set_caps_are_kept() {
        let machine = Machine {
            cores: 64,
            memory_mib: Some(1 << 20),
        };
        let caps = Caps::resolve(Some(8), Some(4096), 8, &machine);
        assert_eq!(
            caps,
            Caps {
                threads: Some(8),
                hash_mb: Some(4096),
                derived: false
            }
        );
    }
}
