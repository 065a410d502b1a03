//! fenguard's own logging: `fenguard.log` (and the transcript) in the log directory, warnings
//! also on stderr, never anything on stdout.
//!
//! Both files rotate by size (`log.max_bytes`, `log.keep`: [`RotatingFile`]). On Unix the log
//! directory is created 0700 and every log file 0600 (an existing one keeps its mode).
//!
//! Every writer is a `tracing_appender` non-blocking writer: a background thread does the file
//! and stderr writes, so a slow disk or a GUI that never reads fenguard's stderr cannot stall
//! the relay (records are dropped instead when its queue is full).
//!
//! Level: `RUST_LOG` when set (tracing-subscriber `EnvFilter` syntax), else `log.level`, raised
//! to `debug` by `-vv` and `trace` by `-vvv`. The transcript (`log.transcript` or `-v`) is
//! logged at `info` under the target [`TRANSCRIPT`].

use std::io::Write as _;
use std::path::{Path, PathBuf};

use tracing::Level;
use tracing_appender::non_blocking::{NonBlocking, WorkerGuard};
use tracing_subscriber::filter::{EnvFilter, filter_fn};
use tracing_subscriber::fmt::format::Writer;
use tracing_subscriber::fmt::{FmtContext, FormatEvent, FormatFields};
use tracing_subscriber::layer::SubscriberExt as _;
use tracing_subscriber::registry::LookupSpan;
use tracing_subscriber::util::SubscriberInitExt as _;
use tracing_subscriber::{Layer as _, fmt};

use crate::config::LogLevel;
use crate::poslog::{PositionLog, RotatingFile, Rotation};

/// Target of transcript events (`gui>`, `>engine`, `engine>`, `>gui` lines).
pub const TRANSCRIPT: &str = "fenguard::transcript";
/// Target of the engine's stderr lines (`stderr>`); these are not repeated on stderr.
pub const ENGINE_STDERR: &str = "fenguard::engine_stderr";

/// Lines the stderr writer queues before it drops new ones.
const STDERR_QUEUE: usize = 1024;
/// Lines the `fenguard.log` writer queues before it drops new ones (the transcript is bursty).
pub const LOG_QUEUE: usize = 16 * 1024;

/// A lossy non-blocking writer with a queue of `lines` lines. The queue is allocated up front
/// (tracing-appender's default of 128,000 lines costs about 5 MiB per writer).
pub fn non_blocking<W: std::io::Write + Send + 'static>(
    lines: usize,
    writer: W,
) -> (NonBlocking, WorkerGuard) {
    tracing_appender::non_blocking::NonBlockingBuilder::default()
        .buffered_lines_limit(lines)
        .lossy(true)
        .finish(writer)
}

/// What to set up.
#[derive(Debug, Clone)]
pub struct LogSettings {
    /// The log directory; `None`: no file logs (none could be determined).
    pub dir: Option<PathBuf>,
    /// `log.level`.
    pub level: LogLevel,
    /// Count of `-v` flags.
    pub verbose: u8,
    /// Write `positions.jsonl`.
    pub positions: bool,
    /// Log the transcript.
    pub transcript: bool,
    /// This run's id, written in `positions.jsonl`.
    pub session_id: String,
    /// Size-based rotation of `fenguard.log` and `positions.jsonl` (`log.max_bytes`,
    /// `log.keep`), each file on its own.
    pub rotation: Rotation,
}

/// The installed logging; keep it alive until exit (dropping it flushes the writers).
pub struct Logs {
    /// `positions.jsonl`, when enabled and writable.
    pub positions: Option<PositionLog>,
    /// fenguard's stderr, non-blocking, for relaying the engine's stderr bytes.
    pub stderr: NonBlocking,
    /// Where `fenguard.log` is, when it could be opened.
    pub log_file: Option<PathBuf>,
    _guards: Vec<WorkerGuard>,
}

impl std::fmt::Debug for Logs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Logs")
            .field("log_file", &self.log_file)
            .finish_non_exhaustive()
    }
}

/// Installs the global tracing subscriber. A log directory that cannot be created or written
/// is reported once on stderr; fenguard then runs without file logs.
pub fn init(settings: &LogSettings) -> Logs {
    let (stderr, stderr_guard) = non_blocking(STDERR_QUEUE, std::io::stderr());
    let mut guards = vec![stderr_guard];
    let stderr_layer = fmt::layer()
        .with_writer(stderr.clone())
        .event_format(StderrFormat)
        .with_filter(filter_fn(|meta| {
            *meta.level() <= Level::WARN && meta.target() != ENGINE_STDERR
        }));

    let mut positions = None;
    let mut file_layer = None;
    let mut log_file = None;
    match settings.dir.as_deref().map(open_dir) {
        Some(Ok(dir)) => {
            if let Ok(appender) = RotatingFile::open(&dir.join("fenguard.log"), settings.rotation) {
                let (writer, guard) = non_blocking(LOG_QUEUE, appender);
                guards.push(guard);
                log_file = Some(dir.join("fenguard.log"));
                file_layer = Some(
                    fmt::layer()
                        .with_writer(writer)
                        .with_ansi(false)
                        .with_filter(filter(settings)),
                );
            } else {
                warn_once(&dir, "cannot open fenguard.log");
            }
            if settings.positions {
                let path = dir.join("positions.jsonl");
                let session = settings.session_id.clone();
                match PositionLog::open_rotating(&path, session, settings.rotation) {
                    Ok(log) => positions = Some(log),
                    Err(err) => warn_once(&dir, &format!("cannot open positions.jsonl: {err}")),
                }
            }
        }
        Some(Err((dir, err))) => warn_once(&dir, &err.to_string()),
        None => warn_once(
            Path::new("(none)"),
            "no log directory: set log.dir, --log-dir, XDG_STATE_HOME or HOME",
        ),
    }
    // Another subscriber may already be installed (tests): keep it.
    let _ = tracing_subscriber::registry()
        .with(stderr_layer)
        .with(file_layer)
        .try_init();
    Logs {
        positions,
        stderr,
        log_file,
        _guards: guards,
    }
}

/// The file log's filter: `RUST_LOG` when set, else the configured level; the transcript
/// target is always let through when the transcript is on.
fn filter(settings: &LogSettings) -> EnvFilter {
    if let Ok(filter) = EnvFilter::try_from_default_env() {
        return filter;
    }
    let level = match settings.verbose {
        0 | 1 => settings.level,
        2 => settings.level.max(LogLevel::Debug),
        _ => LogLevel::Trace,
    };
    let mut directives = format!("{},{ENGINE_STDERR}=info", level.as_str());
    if settings.transcript {
        directives.push_str(&format!(",{TRANSCRIPT}=info"));
    }
    EnvFilter::new(directives)
}

/// Creates the log directory (and its missing parents) 0700 on Unix; an existing one keeps its
/// mode.
fn open_dir(dir: &Path) -> Result<PathBuf, (PathBuf, std::io::Error)> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder
        .create(dir)
        .map_err(|err| (dir.to_path_buf(), err))?;
    Ok(dir.to_path_buf())
}

fn warn_once(dir: &Path, why: &str) {
    let _ = writeln!(
        std::io::stderr(),
        "fenguard: warning: log directory {}: {why}; relaying without file logs",
        dir.display()
    );
}

/// fenguard's lines on stderr: `fenguard: warning: <message>` (GUIs show them in their engine
/// log, next to the engine's own stderr).
struct StderrFormat;

impl<S, N> FormatEvent<S, N> for StderrFormat
where
    S: tracing::Subscriber + for<'a> LookupSpan<'a>,
    N: for<'a> FormatFields<'a> + 'static,
{
    fn format_event(
        &self,
        ctx: &FmtContext<'_, S, N>,
        mut writer: Writer<'_>,
        event: &tracing::Event<'_>,
    ) -> std::fmt::Result {
        let level = match *event.metadata().level() {
            Level::ERROR => "error",
            Level::WARN => "warning",
            _ => "note",
        };
        write!(writer, "fenguard: {level}: ")?;
        ctx.field_format().format_fields(writer.by_ref(), event)?;
        writeln!(writer)
    }
}

/// A session id unique enough for one machine: start time in milliseconds (hex) and the pid.
pub fn session_id() -> String {
    let millis = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis());
    format!("{millis:x}-{}", std::process::id())
}
