//! Clock times of a `go` line with a safety margin taken off (SPEC section 15, `[time]`): the
//! one rewrite behind the session's `[time] overhead_ms` and `fenguard connect
//! --rtt-overhead` (the measured round trip to the daemon). Pure: bytes in, bytes out.
//!
//! ```
//! use fenguard::clock::reduce;
//! let line = reduce(b"go wtime 1000 btime 30 winc 100\n", 50, 10).unwrap();
//! assert_eq!(line, b"go wtime 950 btime 10 winc 100\n");
//! assert_eq!(reduce(b"go depth 5\n", 50, 10), None);
//! ```

use crate::uci::{splice, tokens};

/// The `go` line `line` with `overhead` ms taken off its `wtime`, `btime` and `movetime`,
/// each floored at `min` ms (a time already at or below `min`, or not a number, is left as
/// given); `None` when nothing changes. Increments and other words are kept byte for byte.
pub fn reduce(line: &[u8], overhead: u64, min: u64) -> Option<Vec<u8>> {
    if overhead == 0 {
        return None;
    }
    let toks: Vec<_> = tokens(line).collect();
    let mut edits = Vec::new();
    for pair in toks.windows(2) {
        let [key, value] = pair else { continue };
        if !matches!(key.text, b"wtime" | b"btime" | b"movetime") {
            continue;
        }
        let Some(ms) = std::str::from_utf8(value.text)
            .ok()
            .and_then(|v| v.parse::<u64>().ok())
        else {
            continue;
        };
        if ms <= min {
            continue;
        }
        let reduced = ms.saturating_sub(overhead).max(min);
        edits.push((value.span.clone(), reduced.to_string().into_bytes()));
    }
    (!edits.is_empty()).then(|| splice(line, &edits).into_owned())
}

#[cfg(test)]
mod tests {
    use super::reduce;

    fn text(line: &str, overhead: u64, min: u64) -> String {
        reduce(line.as_bytes(), overhead, min)
            .map(|v| String::from_utf8(v).unwrap())
            .unwrap_or_else(|| "unchanged".to_owned())
    }

    #[test]
    fn clock_times_lose_the_overhead_and_stay_above_the_floor() {
        assert_eq!(
            text("go wtime 1000 btime 30 winc 100 binc 100\n", 50, 10),
            "go wtime 950 btime 10 winc 100 binc 100\n"
        );
        assert_eq!(text("go movetime 500\n", 100, 10), "go movetime 400\n");
        assert_eq!(text("go wtime 5 btime 8\n", 100, 10), "unchanged");
        assert_eq!(text("go wtime 1000\n", 0, 10), "unchanged");
        assert_eq!(text("go depth 5\n", 100, 10), "unchanged");
        assert_eq!(
            text("go wtime -20 btime 100\n", 50, 10),
            "go wtime -20 btime 50\n"
        );
    }
}
