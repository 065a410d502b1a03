//! The threads' writing rules, with real pipes and no processes.

use std::sync::mpsc;
use std::time::Duration;

use super::*;

/// More than a pipe holds (64 KiB on Linux).
const MORE_THAN_A_PIPE: usize = 256 * 1024;

/// A fresh session around an engine whose stdin is the first pipe returned and a GUI whose
/// output is the second (nobody reads them unless the test does), and the relay loop's end
/// of the notices.
fn shared() -> (
    Arc<Shared>,
    std::io::PipeReader,
    std::io::PipeReader,
    tokio::sync::mpsc::UnboundedReceiver<Notice>,
) {
    let (engine_reads, engine_in) = std::io::pipe().unwrap();
    let (gui_reads, gui_out) = std::io::pipe().unwrap();
    let (notices, notified) = tokio::sync::mpsc::unbounded_channel();
    let gui = GuiOut(Box::new(gui_out));
    let shared = Shared::new(Session::new(false), None, notices, engine_in, gui);
    (shared, engine_reads, gui_reads, notified)
}

/// Runs `flush` on a thread of its own: whether it returned within 10 s.
fn returns(flush: impl FnOnce() + Send + 'static) -> bool {
    let (done, returned) = mpsc::channel();
    std::thread::spawn(move || {
        flush();
        let _ = done.send(());
    });
    returned.recv_timeout(Duration::from_secs(10)).is_ok()
}

/// The engine's reader, after a batch that queued bytes for an engine that reads nothing
/// (it is blocked writing its output): it returns at once and leaves the bytes to the relay
/// loop. Were it to write them itself, it would wait for the engine to read, and the engine
/// for it to read: the deadlock behind a flaky "engine hung" under load.
#[test]
fn the_engine_reader_never_writes_to_the_engine() {
    let (shared, engine_reads, _gui_reads, mut notified) = shared();
    shared.engine_in.push(&vec![b'x'; MORE_THAN_A_PIPE]);
    let reader = Arc::clone(&shared);
    let returned = returns(move || reader.flush_from_engine_reader(reader.lock()));
    // Unblock a writer, if there is one, before asserting.
    drop(engine_reads);
    assert!(returned, "the engine's reader waited for the engine");
    assert_eq!(notified.try_recv(), Ok(Notice::EngineInputQueued));
    assert!(shared.engine_in.needs_flush(), "the bytes are still queued");
}

/// Nothing queued for the engine: no notice.
#[test]
fn the_engine_reader_asks_for_no_write_when_nothing_is_queued() {
    let (shared, _engine_reads, _gui_reads, mut notified) = shared();
    shared.flush_from_engine_reader(shared.lock());
    assert!(notified.try_recv().is_err());
}

/// The mirror: the GUI's reader, after a line that queued more for a GUI that reads nothing
/// than its pipe holds, returns at once (to read the GUI's next line, a `stop` say) and leaves
/// the bytes to the relay loop; what it queued for the engine it writes itself.
#[test]
fn the_gui_reader_never_writes_to_the_gui() {
    let (shared, mut engine_reads, gui_reads, mut notified) = shared();
    shared.gui.push(&vec![b'x'; MORE_THAN_A_PIPE]);
    shared.engine_in.push(b"stop\n");
    let reader = Arc::clone(&shared);
    let returned = returns(move || reader.flush_from_gui_reader(reader.lock(), true));
    drop(gui_reads);
    assert!(returned, "the GUI's reader waited for the GUI");
    assert_eq!(notified.try_recv(), Ok(Notice::GuiOutputQueued));
    let mut stop = [0; 5];
    std::io::Read::read_exact(&mut engine_reads, &mut stop).unwrap();
    assert_eq!(&stop, b"stop\n");
}

/// fenguard's own answers piling up for a GUI that writes and does not read: past
/// `GUI_READER_BACKLOG` the GUI's reader waits (reads no more) until a writer takes them.
#[test]
fn the_gui_reader_waits_while_its_answers_pile_up() {
    let (shared, _engine_reads, mut gui_reads, _notified) = shared();
    shared.gui.push(&vec![b'x'; GUI_READER_BACKLOG + 1]);
    let (done, returned) = mpsc::channel();
    let reader = Arc::clone(&shared);
    std::thread::spawn(move || {
        reader.flush_from_gui_reader(reader.lock(), true);
        let _ = done.send(());
    });
    assert!(
        returned.recv_timeout(Duration::from_millis(300)).is_err(),
        "it read on"
    );
    // The relay loop's writer, and a GUI that reads again.
    let writer = Arc::clone(&shared);
    std::thread::spawn(move || writer.flush_gui());
    std::thread::spawn(move || std::io::copy(&mut gui_reads, &mut std::io::sink()));
    assert!(returned.recv_timeout(Duration::from_secs(10)).is_ok());
}
