//! The database behind the tables: SQLite (one machine, the default) or PostgreSQL (replicas
//! sharing it), both through sqlx's `Any` driver so that every query is written once. The
//! migrations in `migrations/` are embedded in the binary and run at start.

use std::sync::Arc;
use std::time::Duration;

use sqlx::any::{AnyPoolOptions, install_default_drivers};
use sqlx::{AnyPool, Executor};

/// The database used when none is named: a file in the working directory, created if missing.
pub const DEFAULT_DATABASE: &str = "sqlite://moot.db";

/// How long an SQLite connection waits for a lock another process holds before failing.
const SQLITE_BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// Which database a URL names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// An SQLite file: one writer at a time, on one machine.
    Sqlite,
    /// A PostgreSQL server, which several replicas may share.
    Postgres,
}

/// A connected, migrated database.
#[derive(Clone, Debug)]
pub struct Store {
    /// The connections.
    pub pool: AnyPool,
    /// Which database it is.
    pub backend: Backend,
    /// SQLite takes one writer at a time, and a transaction that reads before it writes fails
    /// with `SQLITE_BUSY` (no waiting) when another wrote meanwhile: this process's writing
    /// transactions take turns here instead. `None` on PostgreSQL, where the key of a ply
    /// settles races between transactions and replicas.
    pub(crate) sqlite_writer: Option<Arc<tokio::sync::Mutex<()>>>,
}

/// The database could not be opened or migrated.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The URL names no database Moot can use.
    #[error("the database URL must start with sqlite: or postgres:// (got {0:?})")]
    Scheme(String),
    /// Connecting failed.
    #[error("cannot connect to the database: {0}")]
    Connect(#[source] sqlx::Error),
    /// The schema could not be brought up to date.
    #[error("cannot migrate the database: {0}")]
    Migrate(#[source] sqlx::migrate::MigrateError),
}

impl Store {
    /// Connects to `url` (`sqlite://moot.db`, `sqlite:///abs/path.db`, `postgres://…`) and runs
    /// the migrations. An SQLite file is created if missing and put in WAL mode.
    pub async fn connect(url: &str) -> Result<Store, StoreError> {
        install_default_drivers();
        let backend = if url.starts_with("sqlite:") {
            Backend::Sqlite
        } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            Backend::Postgres
        } else {
            return Err(StoreError::Scheme(url.to_owned()));
        };
        let pool = match backend {
            Backend::Sqlite => {
                let url = with_create_mode(url);
                let mut options = AnyPoolOptions::new().max_connections(8);
                if is_in_memory(&url) {
                    // An in-memory database is its connection's own: one connection, kept for
                    // as long as the server runs, else each would see an empty database.
                    options = options
                        .max_connections(1)
                        .min_connections(1)
                        .idle_timeout(None)
                        .max_lifetime(None);
                }
                options
                    // A file's connection cannot drop: no ping (a round trip to the
                    // connection's thread) before each use.
                    .test_before_acquire(false)
                    .after_connect(|connection, _| {
                        Box::pin(async move {
                            let busy = SQLITE_BUSY_TIMEOUT.as_millis();
                            // WAL: readers do not wait for the writer; NORMAL sync is durable
                            // across a crash of the process (not of the machine's power).
                            connection
                                .execute(&*format!(
                                    "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; \
                                     PRAGMA busy_timeout = {busy}; PRAGMA foreign_keys = ON;"
                                ))
                                .await?;
                            Ok(())
                        })
                    })
                    .connect(&url)
                    .await
            }
            Backend::Postgres => AnyPoolOptions::new().max_connections(16).connect(url).await,
        }
        .map_err(StoreError::Connect)?;
        sqlx::migrate!("./migrations")
            .run(&pool)
            .await
            .map_err(StoreError::Migrate)?;
        let sqlite_writer =
            (backend == Backend::Sqlite).then(|| Arc::new(tokio::sync::Mutex::new(())));
        Ok(Store {
            pool,
            backend,
            sqlite_writer,
        })
    }
}

/// Whether an SQLite URL names a database in memory (`sqlite::memory:`, `mode=memory`).
fn is_in_memory(url: &str) -> bool {
    url.contains(":memory:") || url.contains("mode=memory")
}

/// An SQLite URL that creates its file when missing (`mode=rwc`), unless it says otherwise.
fn with_create_mode(url: &str) -> String {
    if url.contains("mode=") || url.contains(":memory:") {
        url.to_owned()
    } else if url.contains('?') {
        format!("{url}&mode=rwc")
    } else {
        format!("{url}?mode=rwc")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_sqlite_url_creates_its_file_unless_told_otherwise() {
        assert_eq!(
            with_create_mode("sqlite://moot.db"),
            "sqlite://moot.db?mode=rwc"
        );
        assert_eq!(
            with_create_mode("sqlite://a.db?x=1"),
            "sqlite://a.db?x=1&mode=rwc"
        );
        assert_eq!(
            with_create_mode("sqlite://a.db?mode=ro"),
            "sqlite://a.db?mode=ro"
        );
    }
}
