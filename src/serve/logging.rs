//! The server's log: `RUST_LOG` sets the level (default `info`), `--log-format` the format;
//! colour only when standard output is a terminal. Lines are gathered in memory and written to
//! standard output in batches by a thread of their own, every [`FLUSH_EVERY`] (or when
//! [`BATCH_BYTES`] fill up): a worker's line costs a copy, not a system call nor a thread's
//! wake-up (measured: `tracing-appender`'s non-blocking writer, which wakes its thread for each
//! line, cost more CPU per request than writing directly), and a line waits at most
//! [`FLUSH_EVERY`]. A standard output that blocks (a stalled pipe) holds the worker that fills
//! the buffer, as a direct write would.

use std::io::{BufWriter, IsTerminal, Stdout, Write};
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use tracing_subscriber::EnvFilter;

/// How log lines are written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LogFormat {
    /// For people: one readable line per event.
    #[default]
    Pretty,
    /// For log collectors: one JSON object per line.
    Json,
}

impl FromStr for LogFormat {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        match text {
            "pretty" => Ok(LogFormat::Pretty),
            "json" => Ok(LogFormat::Json),
            other => Err(format!("{other:?} is not a log format: use pretty or json")),
        }
    }
}

/// Bytes of lines gathered before they are written at once, whatever the time.
pub const BATCH_BYTES: usize = 64 * 1024;

/// The longest a line waits in memory.
pub const FLUSH_EVERY: Duration = Duration::from_millis(100);

/// Standard output behind one buffer shared by every thread; clones share it.
#[derive(Clone)]
struct Batched(Arc<Mutex<BufWriter<Stdout>>>);

impl Batched {
    fn lock(&self) -> MutexGuard<'_, BufWriter<Stdout>> {
        // A thread that panicked while writing leaves at worst a cut line: keep logging.
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl Write for Batched {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.lock().write(bytes)
    }

    fn write_all(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.lock().write_all(bytes)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.lock().flush()
    }
}

/// Writes the lines still in memory when dropped (keep it until the server stops), and stops
/// the thread that writes them.
#[must_use = "the log's last lines are written when the guard is dropped"]
pub struct LogGuard {
    out: Batched,
    stop: Arc<AtomicBool>,
}

impl Drop for LogGuard {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        let _ = self.out.flush();
    }
}

/// Installs the process's log subscriber, writing to standard output.
pub fn init(format: LogFormat) -> LogGuard {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let terminal = std::io::stdout().is_terminal();
    let out = Batched(Arc::new(Mutex::new(BufWriter::with_capacity(
        BATCH_BYTES,
        std::io::stdout(),
    ))));
    let stop = Arc::new(AtomicBool::new(false));
    let (mut flusher, stopped) = (out.clone(), stop.clone());
    std::thread::Builder::new()
        .name("moot-log".into())
        .spawn(move || {
            while !stopped.load(Ordering::Relaxed) {
                std::thread::sleep(FLUSH_EVERY);
                let _ = flusher.flush();
            }
        })
        .expect("a thread for the log");
    let writer = out.clone();
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(move || writer.clone());
    match format {
        LogFormat::Pretty => builder.with_ansi(terminal).init(),
        LogFormat::Json => builder
            .json()
            .flatten_event(true)
            .with_current_span(false)
            .with_span_list(false)
            .init(),
    }
    LogGuard { out, stop }
}
