//! The positions log's writer thread: takes every record queued, renders the batch
//! (compacted, [`Compactor`]), writes it with one system call and flushes; counts what a failed
//! write lost and writes a `gap` record for it as soon as a write goes through ([`gap`]).
//!
//! A batch is every message queued while the writer slept [`GATHER`] after the first. Each
//! line's end is counted in the bytes the batch gave the file; after the flush,
//! [`RotatingFile::committed`] says how far the file got, so a write the system refused (a full
//! disk: `ENOSPC`, a dead filesystem: `EIO`) loses exactly the lines past that point, the
//! rest of the batch with them. Those records join the open run of their session label; the
//! next batch starts with that run's `gap` line, and the next `position` record after a loss is
//! written in full (it never extends a record that is not in the file).

use std::io::Write as _;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, SyncSender};

use time::OffsetDateTime;

use super::gap::{self, Gaps, Run};
use super::{Compactor, RotatingFile, write_owned_record};
use crate::session::Record;

/// How long the writer thread lets records gather after one arrives. While the GUI and the
/// engine talk fast, the relay then queues records without waking the writer for each one (on
/// one CPU a wake-up per record doubles a `position` round trip); a record still reaches the
/// file within this time.
const GATHER: std::time::Duration = std::time::Duration::from_millis(5);

/// The most messages one batch takes: one flush a batch, and what the batch remembers of its
/// lines until then (their ends, to settle a failed write) stays small.
const BATCH: usize = 4096;

/// What the relay sends the writer.
#[derive(Debug)]
pub(super) enum Msg {
    /// A record: its time, its session label (`None`: the log's own), and the bytes it holds
    /// (counted in the queue's budget until the writer takes it).
    Record(Record, OffsetDateTime, Option<String>, usize),
    /// Records the relay dropped because the queue held its whole budget.
    Lost(Run),
}

/// One line of a batch: what it stands for, and where it ends in the bytes the batch gave the
/// file (`u64::MAX`: it was never given whole).
enum Item {
    Record { label: Option<String>, seq: u64 },
    Gap(Run),
}

/// The writer thread's state.
pub(super) struct Writer {
    file: RotatingFile,
    compactor: Compactor,
    /// The label of the last record rendered: the compactor starts afresh when it changes.
    last_label: Option<String>,
    /// The log's own session id.
    session: String,
    gaps: Gaps,
    /// The last batch could not be written (warned once, until a write goes through).
    failing: bool,
    /// Records the writer is done with, back to the relay to be freed there.
    done: SyncSender<Record>,
}

impl Writer {
    pub(super) fn new(file: RotatingFile, session: String, done: SyncSender<Record>) -> Writer {
        Writer {
            file,
            compactor: Compactor::default(),
            last_label: None,
            session,
            gaps: Gaps::default(),
            failing: false,
            done,
        }
    }

    /// Writes batches until the relay hangs up; then warns of runs that never got their `gap`
    /// line.
    pub(super) fn run(mut self, queue: &Receiver<Msg>, queued: &AtomicUsize) {
        while let Ok(first) = queue.recv() {
            std::thread::sleep(GATHER);
            let mut first = Some(first);
            // While the relay queues faster than one batch drains, batches of BATCH follow one
            // another without a pause (what a batch remembers of its lines stays bounded).
            while self.batch(
                first.take().into_iter().chain(queue.try_iter()).take(BATCH),
                queued,
            ) == BATCH
            {}
        }
        for run in self.gaps.runs() {
            tracing::warn!(
                "positions.jsonl: {} records lost (seq {}-{}) of session {}: no gap record could be written",
                run.lost,
                run.first_seq,
                run.last_seq,
                self.name(run.label.as_ref()),
            );
        }
    }

    fn name<'a>(&'a self, label: Option<&'a String>) -> &'a str {
        label.map_or(self.session.as_str(), String::as_str)
    }

    /// Renders and writes one batch, then settles which of its lines the file holds; takes
    /// each record's bytes off `queued` (the bytes of records in the queue). Returns how many
    /// messages it took.
    pub(super) fn batch(&mut self, msgs: impl Iterator<Item = Msg>, queued: &AtomicUsize) -> usize {
        let mut taken = 0;
        let mut items: Vec<(Item, u64)> = Vec::new();
        let mut given = 0u64;
        let base = self.file.committed();
        let mut error: Option<std::io::Error> = None;
        for msg in msgs {
            taken += 1;
            let (record, ts, label, bytes) = match msg {
                Msg::Lost(run) => {
                    tracing::warn!(
                        "positions.jsonl: the writer fell behind: {} records lost (seq {}-{}) of session {}",
                        run.lost,
                        run.first_seq,
                        run.last_seq,
                        self.name(run.label.as_ref()),
                    );
                    self.gaps.lose(run);
                    self.compactor.reset();
                    continue;
                }
                Msg::Record(record, ts, label, bytes) => (record, ts, label, bytes),
            };
            queued.fetch_sub(bytes, Ordering::Relaxed);
            if error.is_none() && !self.gaps.is_empty() {
                self.give_gaps(&mut items, &mut given, &mut error);
            }
            let seq = record.seq;
            if error.is_some() {
                items.push((Item::Record { label, seq }, u64::MAX));
                continue;
            }
            if label != self.last_label {
                self.compactor.reset();
                self.last_label.clone_from(&label);
            }
            let session = label.as_deref().unwrap_or(&self.session);
            let end = match write_owned_record(
                &mut self.file,
                &mut self.compactor,
                session,
                record,
                ts,
            ) {
                Ok((old, len)) => {
                    if let Some(old) = old {
                        let _ = self.done.try_send(old);
                    }
                    given += len;
                    given
                }
                Err(err) => {
                    error = Some(err);
                    u64::MAX
                }
            };
            items.push((Item::Record { label, seq }, end));
        }
        if error.is_none() && !self.gaps.is_empty() {
            self.give_gaps(&mut items, &mut given, &mut error);
        }
        if let Err(err) = self.file.flush() {
            error.get_or_insert(err);
        }
        self.settle(items, self.file.committed() - base, error);
        taken
    }

    /// Gives the file the `gap` line of every open run.
    fn give_gaps(
        &mut self,
        items: &mut Vec<(Item, u64)>,
        given: &mut u64,
        error: &mut Option<std::io::Error>,
    ) {
        let now = OffsetDateTime::now_utc();
        for run in self.gaps.take() {
            let end = if error.is_some() {
                u64::MAX
            } else {
                let line = gap::line(self.name(run.label.as_ref()), &run, now);
                match self.file.write_all(line.as_bytes()) {
                    Ok(()) => {
                        *given += line.len() as u64;
                        *given
                    }
                    Err(err) => {
                        *error = Some(err);
                        u64::MAX
                    }
                }
            };
            items.push((Item::Gap(run), end));
        }
    }

    /// Settles a batch: the lines that end within the `written` bytes are in the file; the
    /// records of the others are lost (and the `gap` lines among them wait for the next batch).
    fn settle(&mut self, items: Vec<(Item, u64)>, written: u64, error: Option<std::io::Error>) {
        let mut lost_any = false;
        for (item, end) in items {
            match item {
                Item::Gap(run) if end <= written => {
                    tracing::warn!(
                        "positions.jsonl: {} records lost (seq {}-{}) of session {}: a gap record marks them",
                        run.lost,
                        run.first_seq,
                        run.last_seq,
                        self.name(run.label.as_ref()),
                    );
                }
                Item::Gap(run) => self.gaps.lose(run),
                Item::Record { .. } if end <= written => {}
                Item::Record { label, seq } => {
                    lost_any = true;
                    self.gaps.lose(Run::one(label, seq));
                }
            }
        }
        if lost_any {
            // The compactor may remember a record that is not in the file.
            self.compactor.reset();
        }
        match error {
            Some(err) => {
                if !std::mem::replace(&mut self.failing, true) {
                    tracing::warn!(
                        "positions.jsonl: cannot write ({err}): records are lost until it can write again"
                    );
                }
                for run in self.gaps.runs() {
                    tracing::debug!(
                        "positions.jsonl: cannot write ({err}): {} records lost so far (seq {}-{}) of session {}",
                        run.lost,
                        run.first_seq,
                        run.last_seq,
                        self.name(run.label.as_ref()),
                    );
                }
            }
            None => self.failing = false,
        }
    }
}

#[cfg(test)]
#[path = "writer_tests.rs"]
mod tests;
