//! The heartbeat between `fenguard connect` and `fenguard serve`: asked for on the `auth` line,
//! then one line from the daemon whenever the connection has been quiet for the interval the
//! client asked for. The session, the engine and the GUI never see it.
//!
//! ```
//! use std::time::Duration;
//! use fenguard::net::heartbeat::{is_beat, offer, take_offer};
//!
//! let line = format!("auth abc {}", offer(Duration::from_secs(5)));
//! assert_eq!(line, "auth abc heartbeat=5000");
//! let (rest, every) = take_offer(line.as_bytes());
//! assert_eq!(rest, b"auth abc");
//! assert_eq!(every, Some(Duration::from_secs(5)));
//! assert!(is_beat(b"info string fenguard: heartbeat\r\n"));
//! ```
//!
//! The client ends its first line, always an `auth` line (`auth TOKEN`, or a bare `auth`
//! when it has no token, which a daemon without tokens drops), with `heartbeat=MS`. The daemon
//! takes the word off before it judges the token, writes [`BEAT`] as the session's very first
//! line, and from then on writes [`BEAT`] whenever it has written nothing for MS milliseconds
//! (clamped to [`MIN_EVERY`]..=[`MAX_EVERY`]), always between two lines. A client whose first
//! line from the daemon is anything else (a refusal, an engine that did not start) expects no
//! heartbeat. A plain client never asks, so never gets one.

use std::io::Write;
use std::sync::{Arc, Mutex, PoisonError, Weak};
use std::time::{Duration, Instant};

/// The heartbeat line. An `info string`, so that a client that asked for it and does not take
/// it off shows a harmless line.
pub const BEAT: &[u8] = b"info string fenguard: heartbeat\n";

/// The `auth` line's word that asks for a heartbeat: `heartbeat=MS`.
const OFFER: &str = "heartbeat=";

/// Shortest interval the daemon grants.
pub const MIN_EVERY: Duration = Duration::from_millis(200);

/// Longest interval the daemon grants.
pub const MAX_EVERY: Duration = Duration::from_secs(60);

/// How soon the daemon looks again when a beat is due in the middle of a line.
const RETRY: Duration = Duration::from_millis(20);

/// The word that asks for a beat every `every` (milliseconds on the wire).
pub fn offer(every: Duration) -> String {
    format!("{OFFER}{}", every.as_millis())
}

/// An `auth` line without its last word when that is `heartbeat=MS`, and the interval asked
/// for (clamped); any other line unchanged and `None`.
pub fn take_offer(line: &[u8]) -> (Vec<u8>, Option<Duration>) {
    let text = String::from_utf8_lossy(line);
    let mut words = text.split_ascii_whitespace();
    let last = words.next_back();
    let every = last
        .filter(|_| text.split_ascii_whitespace().next() == Some("auth"))
        .and_then(|word| word.strip_prefix(OFFER))
        .and_then(|ms| ms.parse::<u64>().ok())
        .map(|ms| Duration::from_millis(ms).clamp(MIN_EVERY, MAX_EVERY));
    match every {
        Some(every) => {
            let kept: Vec<&str> = words.collect();
            (kept.join(" ").into_bytes(), Some(every))
        }
        None => (line.to_vec(), None),
    }
}

/// Whether `line` (terminator included or not) is [`BEAT`].
pub fn is_beat(line: &[u8]) -> bool {
    line.trim_ascii_end() == BEAT.trim_ascii_end()
}

/// The daemon's writes to one connection, one at a time, so that a beat goes only between two
/// lines and only after a quiet spell.
#[derive(Debug)]
pub struct Gate {
    mark: Mutex<Mark>,
}

#[derive(Debug)]
struct Mark {
    /// The last byte written ended a line (or nothing was written yet).
    line_start: bool,
    /// When the last byte was written.
    last: Instant,
}

impl Default for Gate {
    fn default() -> Self {
        Gate {
            mark: Mutex::new(Mark {
                line_start: true,
                last: Instant::now(),
            }),
        }
    }
}

impl Gate {
    /// Writes `buf` with one `write` call on `out`, noting where the output stands.
    ///
    /// # Errors
    /// `out`'s.
    pub fn write<W: Write>(&self, out: &mut W, buf: &[u8]) -> std::io::Result<usize> {
        let mut mark = self.mark.lock().unwrap_or_else(PoisonError::into_inner);
        let n = out.write(buf)?;
        if let Some(&end) = buf[..n].last() {
            mark.line_start = end == b'\n';
            mark.last = Instant::now();
        }
        Ok(n)
    }

    /// Writes all of `line` (a whole line, `\n` ended) between two lines of the output:
    /// when the output is in the middle of a line, waits up to `patience` for it to end, then
    /// writes it anyway. For the daemon's own notices (a revoked token).
    ///
    /// # Errors
    /// `out`'s.
    pub fn write_line<W: Write>(
        &self,
        out: &mut W,
        line: &[u8],
        patience: Duration,
    ) -> std::io::Result<()> {
        let until = Instant::now() + patience;
        loop {
            let mut mark = self.mark.lock().unwrap_or_else(PoisonError::into_inner);
            if mark.line_start || Instant::now() >= until {
                out.write_all(line)?;
                mark.line_start = line.last() == Some(&b'\n');
                mark.last = Instant::now();
                return Ok(());
            }
            drop(mark);
            std::thread::sleep(RETRY);
        }
    }

    /// Writes [`BEAT`] when the output is between lines and nothing was written for `every`;
    /// how long until the next beat may be due.
    ///
    /// # Errors
    /// `out`'s: the connection is gone.
    pub fn beat<W: Write>(&self, out: &mut W, every: Duration) -> std::io::Result<Duration> {
        let mut mark = self.mark.lock().unwrap_or_else(PoisonError::into_inner);
        if !mark.line_start {
            return Ok(RETRY);
        }
        let quiet = mark.last.elapsed();
        if quiet < every {
            return Ok(every - quiet);
        }
        out.write_all(BEAT)?;
        mark.last = Instant::now();
        Ok(every)
    }
}

/// Writes the first beat now, then keeps beating on a thread of its own every `every` of
/// quiet, until the gate is dropped (the connection's session ended) or a write fails.
///
/// # Errors
/// When the first beat cannot be written or the thread cannot start.
pub fn start<W: Write + Send + 'static>(
    gate: &Arc<Gate>,
    mut out: W,
    every: Duration,
) -> std::io::Result<()> {
    gate.beat(&mut out, Duration::ZERO)?;
    let gate: Weak<Gate> = Arc::downgrade(gate);
    std::thread::Builder::new()
        .name("heartbeat".to_owned())
        .spawn(move || {
            let mut wait = every;
            loop {
                std::thread::sleep(wait);
                let Some(gate) = gate.upgrade() else { return };
                match gate.beat(&mut out, every) {
                    Ok(next) => wait = next,
                    Err(_) => return,
                }
            }
        })?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offer_on_a_bare_auth_line_leaves_a_bare_auth() {
        assert_eq!(
            take_offer(b"auth heartbeat=1000"),
            (b"auth".to_vec(), Some(Duration::from_secs(1)))
        );
    }

    #[test]
    fn offer_is_clamped() {
        assert_eq!(take_offer(b"auth heartbeat=1").1, Some(MIN_EVERY));
        assert_eq!(take_offer(b"auth t heartbeat=99999999").1, Some(MAX_EVERY));
    }

    #[test]
    fn a_uci_line_or_a_bad_offer_is_left_alone() {
        assert_eq!(
            take_offer(b"uci heartbeat=5"),
            (b"uci heartbeat=5".to_vec(), None)
        );
        assert_eq!(
            take_offer(b"auth t heartbeat=x"),
            (b"auth t heartbeat=x".to_vec(), None)
        );
        assert_eq!(take_offer(b"auth t"), (b"auth t".to_vec(), None));
    }

    #[test]
    fn a_notice_waits_for_the_line_in_progress_but_not_forever() {
        let gate = Gate::default();
        let mut out = Vec::new();
        gate.write_line(&mut out, b"one\n", Duration::ZERO).unwrap();
        gate.write(&mut out, b"info dep").unwrap();
        gate.write_line(&mut out, b"two\n", Duration::ZERO).unwrap();
        assert_eq!(out, b"one\ninfo deptwo\n");
    }

    #[test]
    fn no_beat_in_the_middle_of_a_line_nor_before_a_quiet_spell() {
        let gate = Gate::default();
        let mut out = Vec::new();
        gate.write(&mut out, b"info dep").unwrap();
        assert_eq!(gate.beat(&mut out, Duration::ZERO).unwrap(), RETRY);
        gate.write(&mut out, b"th 1\n").unwrap();
        let every = Duration::from_secs(60);
        assert!(gate.beat(&mut out, every).unwrap() > Duration::from_secs(59));
        assert_eq!(out, b"info depth 1\n");
        gate.beat(&mut out, Duration::ZERO).unwrap();
        assert_eq!(out, b"info depth 1\ninfo string fenguard: heartbeat\n");
    }
}
