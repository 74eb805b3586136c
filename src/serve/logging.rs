//! The server's log: `RUST_LOG` sets the level (default `info`), `--log-format` the format;
//! colour only when standard output is a terminal. Lines are written to standard output by a
//! thread of their own (`tracing-appender`'s non-blocking writer), in batches: a worker only
//! formats its line and queues it, and a busy server makes one write for many lines. Past
//! 128,000 queued lines (a disk that cannot keep up) new lines are dropped rather than making
//! the workers wait.

use std::io::IsTerminal;
use std::str::FromStr;

use tracing_appender::non_blocking::WorkerGuard;
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

/// Bytes of lines gathered before the writing thread writes them (it also writes whenever its
/// queue is empty, so a quiet server's lines are not held back).
const BATCH_BYTES: usize = 64 * 1024;

/// Installs the process's log subscriber, writing to standard output. Keep the guard until the
/// server stops: dropping it writes the lines still queued.
#[must_use = "the queued log lines are written when the guard is dropped"]
pub fn init(format: LogFormat) -> WorkerGuard {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let terminal = std::io::stdout().is_terminal();
    let (writer, guard) = tracing_appender::non_blocking(std::io::BufWriter::with_capacity(
        BATCH_BYTES,
        std::io::stdout(),
    ));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(writer);
    match format {
        LogFormat::Pretty => builder.with_ansi(terminal).init(),
        LogFormat::Json => builder
            .json()
            .flatten_event(true)
            .with_current_span(false)
            .with_span_list(false)
            .init(),
    }
    guard
}
