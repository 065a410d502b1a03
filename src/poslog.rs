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
//! No record is dropped silently: the queue to the writer is bounded only in bytes
//! ([`QUEUE_BYTES`]), the writer takes every record queued at once (`writer`), and the
//! records a writer truly could not write (a full disk, a stuck one) are counted and named by a
//! `gap` record ([`gap`]) as soon as one can be written.

pub mod compact;
pub mod gap;
mod json;
pub mod rotate;
mod writer;

use std::io::Write as _;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel, sync_channel};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;

use serde::Serialize;
use time::OffsetDateTime;
use time::macros::format_description;

use crate::session::{Event, Record};
pub use compact::Compactor;
use gap::Run;
pub use rotate::{RotatingFile, Rotation, rotated_path};
use writer::{Msg, Writer};

/// Bytes of records (as `record_bytes` counts them) the queue holds before new records are
/// dropped (and counted in a `gap` record, [`gap`]): far more than a writer that merely lags
/// ever holds (a writer that cannot keep up with the relay for a while), so that only a writer
/// stuck in a write (a hung disk) reaches it; the memory a stuck writer can cost.
pub const QUEUE_BYTES: usize = 16 << 20;

/// Records the writer hands back to the relay to be freed there before it frees them itself.
const DONE_QUEUE: usize = 4096;

/// The open `positions.jsonl`: records go over a queue to a writer thread, which renders each
/// as JSON and writes and flushes them a batch at a time (`writer`), so the relay pays
/// neither the rendering nor the disk. The queue holds up to [`QUEUE_BYTES`] of records; a
/// record that does not fit is lost, and so is one the system refuses to write (a full disk),
/// and each run of lost records gets a `gap` record ([`gap`]) as soon as one can be written.
/// Dropping it writes what is queued, then closes the file.
#[derive(Debug)]
pub struct PositionLog {
    queue: Option<Sender<Msg>>,
    /// Bytes of records queued and not yet taken by the writer.
    queued: Arc<AtomicUsize>,
    /// Records dropped because the queue was full, not yet reported to the writer.
    dropped: Option<Run>,
    /// The most bytes of records queued at once.
    peak: usize,
    /// Bytes of records the queue holds at most ([`QUEUE_BYTES`]).
    budget: usize,
    /// Records the writer is done with, freed here, by the thread that queued them: memory
    /// freed by another thread than the one that took it goes through glibc's slow path on
    /// both sides (the writer's frees and the relay's next allocations).
    done: Receiver<Record>,
    writer: Option<JoinHandle<()>>,
    label: Option<Label>,
}

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

/// About the bytes of memory a queued record holds: its slot in the queue (the channel keeps
/// its messages in blocks of slots), its strings and boxes, each with the allocator's share of
/// an allocation (its header and rounding), and its session label.
pub(crate) fn record_bytes(record: &Record, label: Option<&String>) -> usize {
    /// The allocator's share of one allocation.
    const ALLOC: usize = 32;
    let text = |s: &str| if s.is_empty() { 0 } else { s.len() + ALLOC };
    let opt = |s: &Option<String>| s.as_deref().map_or(0, text);
    let diagnostics = |ds: &[crate::fen::Diagnostic]| {
        let each = ds
            .iter()
            .map(|d| size_of_val(d) + text(&d.message) + opt(&d.fix))
            .sum::<usize>();
        if ds.is_empty() { 0 } else { each + ALLOC }
    };
    size_of::<Msg>()
        + label.map_or(0, |l| text(l))
        + match &record.event {
            Event::Position(p) => {
                size_of_val(&**p)
                    + ALLOC
                    + text(&p.raw)
                    + opt(&p.fen_in)
                    + opt(&p.fen_out)
                    + text(&p.moves_in.0)
                    + text(&p.moves_out.0)
                    + opt(&p.final_fen)
                    + opt(&p.sent)
                    + opt(&p.variant)
                    + diagnostics(&p.diagnostics)
            }
            Event::Search(s) => {
                text(&s.go)
                    + opt(&s.bestmove)
                    + opt(&s.ponder)
                    + opt(&s.variant)
                    + diagnostics(&s.diagnostics)
            }
            Event::Option(c) | Event::Command(c) => text(&c.raw),
            Event::EngineStart { command, args, .. } => {
                text(command) + args.iter().map(|a| size_of_val(a) + text(a)).sum::<usize>()
            }
            Event::Chess960Enabled { sent, fen } => text(sent) + text(fen),
            Event::EngineExit { .. } => 0,
        }
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
        let (queue, records) = channel();
        let (done_tx, done) = sync_channel(DONE_QUEUE);
        let queued = Arc::new(AtomicUsize::new(0));
        let taken = Arc::clone(&queued);
        let writer = std::thread::Builder::new()
            .name("positions.jsonl".to_owned())
            .spawn(move || Writer::new(file, session, done_tx).run(&records, &taken))?;
        Ok(PositionLog {
            queue: Some(queue),
            queued,
            dropped: None,
            peak: 0,
            budget: QUEUE_BYTES,
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

    /// A queue of `bytes` instead of [`QUEUE_BYTES`] (tests of a stuck writer).
    #[cfg(test)]
    pub(crate) fn with_queue_bytes(mut self, bytes: usize) -> PositionLog {
        self.budget = bytes;
        self
    }

    /// Queues one record stamped with the current time; never waits for the writer. When the
    /// queue holds [`QUEUE_BYTES`] already (the writer is stuck in a write), the record is
    /// dropped and counted: the writer writes a `gap` record for it.
    pub fn write(&mut self, record: Record) {
        // Two for one: the memory freed is mostly taken again by the next record, so the
        // allocator keeps it in its per-thread cache, and what the writer hands back (never
        // more than what was queued) does not pile up.
        for _ in 0..2 {
            if self.done.try_recv().is_err() {
                break;
            }
        }
        if self.queue.is_none() {
            return;
        }
        let session = self
            .label
            .as_ref()
            .and_then(|l| l.lock().unwrap_or_else(PoisonError::into_inner).clone());
        let bytes = record_bytes(&record, session.as_ref());
        let queued = self.queued.load(Ordering::Relaxed);
        // Once dropping, until the writer has taken half the queue: one long run of lost
        // records (one gap record, one warning), not a run per record at the brim.
        let limit = if self.dropped.is_some() {
            self.budget / 2
        } else {
            self.budget
        };
        if queued.saturating_add(bytes) > limit {
            match &mut self.dropped {
                Some(run) if run.label == session => {
                    run.lost += 1;
                    run.last_seq = record.seq;
                }
                _ => {
                    let run = self.dropped.replace(Run::one(session, record.seq));
                    self.send_lost(run);
                }
            }
            return;
        }
        if let Some(run) = self.dropped.take() {
            self.send_lost(Some(run));
        }
        self.peak = self.peak.max(queued + bytes);
        self.queued.fetch_add(bytes, Ordering::Relaxed);
        if let Some(queue) = &self.queue
            && queue
                .send(Msg::Record(
                    record,
                    OffsetDateTime::now_utc(),
                    session,
                    bytes,
                ))
                .is_err()
        {
            self.queue = None;
        }
    }

    /// Tells the writer of records dropped at the queue.
    fn send_lost(&mut self, run: Option<Run>) {
        if let (Some(run), Some(queue)) = (run, &self.queue)
            && queue.send(Msg::Lost(run)).is_err()
        {
            self.queue = None;
        }
    }
}

impl Drop for PositionLog {
    fn drop(&mut self) {
        let dropped = self.dropped.take();
        self.send_lost(dropped);
        tracing::debug!(
            "positions.jsonl: at most {} bytes of records were queued at once",
            self.peak
        );
        self.queue = None;
        if let Some(writer) = self.writer.take() {
            let _ = writer.join();
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
/// compactor without a copy; the record the compactor lets go is returned ([`Compactor::keep`]),
/// and the bytes of the line written.
fn write_owned_record(
    file: &mut RotatingFile,
    compactor: &mut Compactor,
    session: &str,
    record: Record,
    ts: OffsetDateTime,
) -> std::io::Result<(Option<Record>, u64)> {
    let mut line = compactor.line(session, &record, ts);
    if file.prepare(line.len() as u64)? {
        compactor.reset();
        line = compactor.line(session, &record, ts);
    }
    let old = compactor.keep(record);
    file.write_all(line.as_bytes())?;
    Ok((old, line.len() as u64))
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
/// hand (`json`, the same bytes as serde_json), and so are `option` and `command` records;
/// every other through serde_json.
pub fn render(session: &str, record: &Record, now: OffsetDateTime) -> String {
    match &record.event {
        Event::Position(p) => json::full(session, record.seq, p, now),
        Event::Option(c) => json::command(session, record.seq, "option", &c.raw, now),
        Event::Command(c) => json::command(session, record.seq, "command", &c.raw, now),
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
