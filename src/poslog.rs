//! `positions.jsonl` (SPEC section 8): one JSON object per line, written through a
//! non-blocking writer so that the relay never waits for the disk.
//!
//! Each line is a session [`Record`] with `ts` (UTC, microseconds) and `session` in front:
//! `{"ts":"2026-11-29T13:00:00.123456Z","session":"…","seq":1,"kind":"engine-start",…}`.

use std::io::Write as _;
use std::path::Path;

use serde::Serialize;
use time::OffsetDateTime;
use time::macros::format_description;
use tracing_appender::non_blocking::{NonBlocking, WorkerGuard};

use crate::session::Record;

/// Records queued for writing before new ones are dropped.
const QUEUE: usize = 4096;

/// The open `positions.jsonl`.
#[derive(Debug, Clone)]
pub struct PositionLog {
    writer: NonBlocking,
    session: String,
}

#[derive(Serialize)]
struct Line<'a> {
    ts: String,
    session: &'a str,
    #[serde(flatten)]
    record: &'a Record,
}

impl PositionLog {
    /// Opens `path` for appending (creating it); records carry `session` as their session id.
    ///
    /// # Errors
    /// The I/O error when the file cannot be opened.
    pub fn open(path: &Path, session: String) -> std::io::Result<(PositionLog, WorkerGuard)> {
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)?;
        let (writer, guard) = crate::logging::non_blocking(QUEUE, file);
        Ok((PositionLog { writer, session }, guard))
    }

    /// Appends one record stamped with the current time; a failed write is dropped (logging
    /// never stops the relay).
    pub fn write(&mut self, record: &Record) {
        let line = render(&self.session, record, OffsetDateTime::now_utc());
        let _ = self.writer.write_all(line.as_bytes());
    }
}

/// One JSON line (with `\n`) for `record` at time `now`.
pub fn render(session: &str, record: &Record, now: OffsetDateTime) -> String {
    let format =
        format_description!("[year]-[month]-[day]T[hour]:[minute]:[second].[subsecond digits:6]Z");
    let ts = now.format(&format).unwrap_or_default();
    let mut text = serde_json::to_string(&Line {
        ts,
        session,
        record,
    })
    .unwrap_or_default();
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::Event;
    use time::macros::datetime;

    #[test]
    fn renders_ts_session_then_record_fields() {
        let record = Record {
            seq: 1,
            event: Event::EngineStart {
                command: "/usr/games/stockfish".into(),
                args: vec![],
                pid: Some(42),
                restart: 0,
            },
        };
        let now = datetime!(2026-11-29 13:00:00.123456 UTC);
        assert_eq!(
            render("s1", &record, now),
            "{\"ts\":\"2026-11-29T13:00:00.123456Z\",\"session\":\"s1\",\"seq\":1,\"kind\":\"engine-start\",\
             \"command\":\"/usr/games/stockfish\",\"args\":[],\"pid\":42,\"restart\":0}\n"
        );
    }
}
