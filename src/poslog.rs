//! `positions.jsonl` (SPEC section 8): one JSON object per line, written through a
//! non-blocking writer so that the relay never waits for the disk.
//!
//! Each line is a session [`Record`] with `ts` (UTC, microseconds) and `session` in front:
//! `{"ts":"2026-11-29T13:00:00.123456Z","session":"…","seq":1,"kind":"engine-start",…}`.
//! A `position` record that extends the previous one of its session carries only the new moves
//! ([`compact`]: its size does not grow with the game); the file rotates by size
//! ([`rotate`]: `log.max_bytes`, `log.keep`), and the first record of each file is full.
//! The records of the GUI's other lines that matter for the engine (`option`, `command`: just
//! the line, for `fenguard replay`) have no compact form: their size never depends on the game.

pub mod compact;
mod json;
pub mod rotate;

use std::io::Write as _;
use std::path::Path;
use std::sync::mpsc::{Receiver, SyncSender, TrySendError, sync_channel};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;

use serde::Serialize;
use time::OffsetDateTime;
use time::macros::format_description;

use crate::session::{Event, Record};
pub use compact::Compactor;
pub use rotate::{RotatingFile, Rotation, rotated_path};

/// Records queued for writing before new ones are dropped.
const QUEUE: usize = 4096;

/// The open `positions.jsonl`: records go over a bounded queue to a writer thread, which
/// renders each as JSON and writes and flushes it, so the relay pays neither the rendering nor
/// the disk. Dropping it writes what is queued, then closes the file.
#[derive(Debug)]
pub struct PositionLog {
    queue: Option<SyncSender<Queued>>,
    /// Records the writer is done with, freed here, by the thread that queued them: memory
    /// freed by another thread than the one that took it goes through glibc's slow path on
    /// both sides (the writer's frees and the relay's next allocations).
    done: Receiver<Record>,
    writer: Option<JoinHandle<()>>,
    label: Option<Label>,
}

/// A record on its way to the writer: its time and, when a [`Label`] named it, its session.
type Queued = (Record, OffsetDateTime, Option<String>);

/// A session id that the shell changes while the session runs: `fenguard provide` names each
/// job's records by the job id (SPEC 13), the records between jobs by the worker's session id.
/// `None` inside: the log's own session id.
pub type Label = Arc<Mutex<Option<String>>>;

#[derive(Serialize)]
struct Line<'a> {
    ts: String,
    session: &'a str,
    #[serde(flatten)]
    record: &'a Record,
}

impl PositionLog {
    /// Opens `path` for appending (creating it), never rotated; records carry `session` as
    /// their session id.
    ///
    /// # Errors
    /// The I/O error when the file cannot be opened or the writer thread cannot start.
    pub fn open(path: &Path, session: String) -> std::io::Result<PositionLog> {
        PositionLog::open_rotating(path, session, Rotation::NEVER)
    }

    /// [`PositionLog::open`] with size-based rotation ([`rotate`]).
    ///
    /// # Errors
    /// The I/O error when the file cannot be opened or the writer thread cannot start.
    pub fn open_rotating(
        path: &Path,
        session: String,
        rotation: Rotation,
    ) -> std::io::Result<PositionLog> {
        let file = RotatingFile::open(path, rotation)?;
        let (queue, records) = sync_channel(QUEUE);
        let (done_tx, done) = sync_channel(QUEUE);
        let writer = std::thread::Builder::new()
            .name("positions.jsonl".to_owned())
            .spawn(move || write_records(&records, &done_tx, &session, file))?;
        Ok(PositionLog {
            queue: Some(queue),
            done,
            writer: Some(writer),
            label: None,
        })
    }

    /// Each record's `session` is what `label` holds when the record is queued (the log's own
    /// session id while it holds `None`). A record is never compacted against one of another
    /// session.
    #[must_use]
    pub fn with_label(mut self, label: Label) -> PositionLog {
        self.label = Some(label);
        self
    }

    /// Queues one record stamped with the current time; when the queue is full (the disk is
    /// stalled) the record is dropped: logging never stops the relay.
    pub fn write(&mut self, record: Record) {
        // Two for one: the memory freed is mostly taken again by the next record, so the
        // allocator keeps it in its per-thread cache, and what the writer hands back (never
        // more than what was queued) does not pile up.
        for _ in 0..2 {
            if self.done.try_recv().is_err() {
                break;
            }
        }
        let session = self
            .label
            .as_ref()
            .and_then(|l| l.lock().unwrap_or_else(PoisonError::into_inner).clone());
        if let Some(queue) = &self.queue
            && let Err(TrySendError::Disconnected(_)) =
                queue.try_send((record, OffsetDateTime::now_utc(), session))
        {
            self.queue = None;
        }
    }
}

impl Drop for PositionLog {
    fn drop(&mut self) {
        self.queue = None;
        if let Some(writer) = self.writer.take() {
            let _ = writer.join();
        }
    }
}

/// How long the writer thread lets records gather after one arrives. While the GUI and the
/// engine talk fast, the relay then queues records without waking the writer for each one (on
/// one CPU a wake-up per record doubles a `position` round trip); a record still reaches the
/// file within this time.
const GATHER: std::time::Duration = std::time::Duration::from_millis(5);

/// The writer thread: waits for a record, lets more gather for [`GATHER`], then writes them
/// all, each whole on its line (compacted, [`Compactor`]), and flushes; stops at the first
/// write error (a full disk: the relay goes on without the log). The records it is done with
/// go back over `done` (dropped here when that queue is full).
fn write_records(
    records: &Receiver<Queued>,
    done: &SyncSender<Record>,
    session: &str,
    mut file: RotatingFile,
) {
    let mut compactor = Compactor::default();
    let mut last_label: Option<String> = None;
    while let Ok(first) = records.recv() {
        std::thread::sleep(GATHER);
        for (record, ts, label) in std::iter::once(first).chain(records.try_iter()) {
            if label != last_label {
                compactor.reset();
                last_label.clone_from(&label);
            }
            let session = label.as_deref().unwrap_or(session);
            match write_owned_record(&mut file, &mut compactor, session, record, ts) {
                Ok(Some(old)) => {
                    let _ = done.try_send(old);
                }
                Ok(None) => {}
                Err(_) => return,
            }
        }
        if file.flush().is_err() {
            return;
        }
    }
}

/// Writes one record, compacted unless it starts a new file (then rendered again in full).
pub fn write_record(
    file: &mut RotatingFile,
    compactor: &mut Compactor,
    session: &str,
    record: &Record,
    ts: OffsetDateTime,
) -> std::io::Result<()> {
    write_owned_record(file, compactor, session, record.clone(), ts).map(drop)
}

/// [`write_record`] for a record the caller gives up (the writer thread's): kept by the
/// compactor without a copy; the record the compactor lets go is returned ([`Compactor::keep`]).
fn write_owned_record(
    file: &mut RotatingFile,
    compactor: &mut Compactor,
    session: &str,
    record: Record,
    ts: OffsetDateTime,
) -> std::io::Result<Option<Record>> {
    let mut line = compactor.line(session, &record, ts);
    if file.prepare(line.len() as u64)? {
        compactor.reset();
        line = compactor.line(session, &record, ts);
    }
    let old = compactor.keep(record);
    file.write_all(line.as_bytes())?;
    Ok(old)
}

/// `ts` of a record: UTC, microseconds (`2026-11-29T13:00:00.123456Z`). Written digit by
/// digit (the writer renders a record per `position`); years outside 0..=9999 go through
/// `time`'s formatter.
fn timestamp(now: OffsetDateTime) -> String {
    match timestamp_digits(now) {
        Some(text) => text.iter().map(|&b| char::from(b)).collect(),
        None => timestamp_formatted(now),
    }
}

/// [`timestamp`] appended to `out`.
fn push_timestamp(out: &mut Vec<u8>, now: OffsetDateTime) {
    match timestamp_digits(now) {
        Some(text) => out.extend_from_slice(&text),
        None => out.extend_from_slice(timestamp_formatted(now).as_bytes()),
    }
}

/// The ASCII of [`timestamp`] for years 0..=9999.
fn timestamp_digits(now: OffsetDateTime) -> Option<[u8; 27]> {
    let year = u32::try_from(now.year()).ok().filter(|&y| y <= 9999)?;
    let mut text = *b"0000-00-00T00:00:00.000000Z";
    let fields = [
        (0, 4, year),
        (5, 2, u32::from(u8::from(now.month()))),
        (8, 2, u32::from(now.day())),
        (11, 2, u32::from(now.hour())),
        (14, 2, u32::from(now.minute())),
        (17, 2, u32::from(now.second())),
        (20, 6, now.microsecond()),
    ];
    for (at, width, mut value) in fields {
        for i in (at..at + width).rev() {
            text[i] = b'0' + (value % 10) as u8;
            value /= 10;
        }
    }
    Some(text)
}

fn timestamp_formatted(now: OffsetDateTime) -> String {
    let format =
        format_description!("[year]-[month]-[day]T[hour]:[minute]:[second].[subsecond digits:6]Z");
    now.format(&format).unwrap_or_default()
}

/// One full JSON line (with `\n`) for `record` at time `now`: every field, as the writer wrote
/// it before compaction (and as `fenguard log` rebuilds it). A `position` record is written by
/// hand (`json`, the same bytes as serde_json), every other through serde_json.
pub fn render(session: &str, record: &Record, now: OffsetDateTime) -> String {
    match &record.event {
        Event::Position(p) => json::full(session, record.seq, p, now),
        _ => render_serde(session, record, now),
    }
}

/// [`render`] through serde_json for every kind of record (the reference the hand-written
/// `position` lines are tested against).
fn render_serde(session: &str, record: &Record, now: OffsetDateTime) -> String {
    let ts = timestamp(now);
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

    #[test]
    fn timestamp_writes_what_times_formatter_writes() {
        for now in [
            datetime!(2026-11-29 13:00:00.123456 UTC),
            datetime!(2026-01-02 03:04:05.000007 UTC),
            datetime!(0999-12-31 23:59:59.999999 UTC),
            datetime!(2026-11-29 13:00:00 UTC),
        ] {
            assert_eq!(timestamp(now), timestamp_formatted(now));
        }
    }
}
