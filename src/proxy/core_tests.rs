//! The threads' writing rules, with real pipes and no processes.

use std::sync::mpsc;
use std::time::Duration;

use super::*;

/// More than a pipe holds (64 KiB on Linux).
const MORE_THAN_A_PIPE: usize = 256 * 1024;

/// A fresh session around an engine whose stdin is the pipe returned (nobody reads it unless
/// the test does), the GUI's output discarded, and the relay loop's end of the notices.
fn shared() -> (
    Arc<Shared>,
    std::io::PipeReader,
    tokio::sync::mpsc::UnboundedReceiver<Notice>,
) {
    let (engine_reads, engine_in) = std::io::pipe().unwrap();
    let (notices, notified) = tokio::sync::mpsc::unbounded_channel();
    let gui = GuiOut(Box::new(std::io::sink()));
    let shared = Shared::new(Session::new(false), None, notices, engine_in, gui);
    (shared, engine_reads, notified)
}

/// The engine's reader, after a batch that queued bytes for an engine that reads nothing
/// (it is blocked writing its output): it returns at once and leaves the bytes to the relay
/// loop. Were it to write them itself, it would wait for the engine to read, and the engine
/// for it to read: the deadlock behind a flaky "engine hung" under load.
#[test]
fn the_engine_reader_never_writes_to_the_engine() {
    let (shared, engine_reads, mut notified) = shared();
    shared.engine_in.push(&vec![b'x'; MORE_THAN_A_PIPE]);

    let (done, returned) = mpsc::channel();
    let reader = Arc::clone(&shared);
    std::thread::spawn(move || {
        reader.flush_from_engine_reader(reader.lock());
        let _ = done.send(());
    });
    let outcome = returned.recv_timeout(Duration::from_secs(10));
    // Unblock a writer, if there is one, before asserting.
    drop(engine_reads);
    assert!(outcome.is_ok(), "the engine's reader waited for the engine");
    assert_eq!(notified.try_recv(), Ok(Notice::EngineInputQueued));
    assert!(shared.engine_in.needs_flush(), "the bytes are still queued");
}

/// Nothing queued for the engine: no notice.
#[test]
fn the_engine_reader_asks_for_no_write_when_nothing_is_queued() {
    let (shared, _engine_reads, mut notified) = shared();
    shared.flush_from_engine_reader(shared.lock());
    assert!(notified.try_recv().is_err());
}
