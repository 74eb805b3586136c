//! The database behind the tables: SQLite (one machine, the default) or PostgreSQL (replicas
//! sharing it), both through sqlx's `Any` driver so that every query is written once. The
//! migrations in `migrations/` are embedded in the binary and run at start.
//!
//! A change is acknowledged only once it is durable: SQLite commits with `synchronous = FULL`
//! (the WAL is synced at every commit, so a commit survives a power cut, not only a crash of
//! the process), and PostgreSQL with its default `synchronous_commit = on`. Changes go through
//! [`super::write::Write`], which never hands back a connection whose transaction failed.

use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use sqlx::any::{AnyPoolOptions, install_default_drivers};
use sqlx::sqlite::SqliteConnectOptions;
use sqlx::{AnyPool, Connection, Executor};

use super::TableError;
use super::breaker::Breaker;
use super::health::StoreHealth;
use crate::limits::tables as limits;

/// The database used when none is named: a file in the working directory, created if missing.
pub const DEFAULT_DATABASE: &str = "sqlite://moot.db";

/// How long an SQLite connection waits for a lock another process holds before failing.
const SQLITE_BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// How long a PostgreSQL connection may have been idle and still be used without a ping.
const PING_AFTER_IDLE: Duration = Duration::from_secs(1);

/// On PostgreSQL, after the migrations (which both databases share): `moot_tables` without
/// the indexes that only SQLite needs, so that a move changes no indexed column and its update
/// is a heap-only one (no index written; the row's old version pruned on its own page, which
/// is kept three tenths free for them). `moot_tables_heads` spares SQLite reading a large
/// state's overflow pages to reach the later columns (PostgreSQL keeps a large state out of
/// its row); `moot_tables_by_status` held `updated_ms`, which each move changes: the count of
/// open tables and the sweep of finished ones need the status alone. Run at each start, under
/// a lock (replicas starting together); a later migration that names these indexes must allow
/// for their absence on PostgreSQL (`IF EXISTS`).
///
/// And the triggers that raise a table's `version` with every change of its row or of its
/// seats (see [`super::recent`]): every statement, today's and tomorrow's, raises it (seats are
/// deleted only with their table).
const POSTGRES_TABLES: &str = "SELECT pg_advisory_xact_lock(7291046655221);
    DROP INDEX IF EXISTS moot_tables_heads;
    DROP INDEX IF EXISTS moot_tables_by_status;
    CREATE INDEX IF NOT EXISTS moot_tables_status ON moot_tables (status);
    ALTER TABLE moot_tables SET (fillfactor = 70);
    CREATE OR REPLACE FUNCTION moot_table_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        NEW.version := OLD.version + 1;
        RETURN NEW;
    END $$;
    CREATE OR REPLACE TRIGGER moot_tables_version BEFORE UPDATE ON moot_tables
        FOR EACH ROW EXECUTE FUNCTION moot_table_changed();
    CREATE OR REPLACE FUNCTION moot_seat_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        UPDATE moot_tables SET version = version + 1 WHERE id = OLD.table_id;
        RETURN NULL;
    END $$;
    CREATE OR REPLACE TRIGGER moot_seats_version AFTER UPDATE ON moot_seats
        FOR EACH ROW EXECUTE FUNCTION moot_seat_changed();";

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
    /// The connections that read.
    pub pool: AnyPool,
    /// The connections that write. An SQLite file has one writer at a time: its changes take
    /// turns on a pool of one connection of their own (a transaction that reads before it
    /// writes would fail with `SQLITE_BUSY` beside another writer, rather than wait), and a
    /// connection discarded after a failure is opened afresh, with whatever permissions the
    /// file has by then. Elsewhere the same pool as `pool`.
    pub(crate) writer: AnyPool,
    /// Which database it is.
    pub backend: Backend,
    /// The SQLite file as it was opened, to notice it removed or replaced.
    pub(crate) file: Option<Arc<DatabaseFile>>,
    /// Whether it takes writes, and how its writes went, for `/readyz` and `/metrics`.
    pub(crate) health: Arc<StoreHealth>,
    /// Open while PostgreSQL is known to be down: requests are refused at once.
    pub(crate) breaker: Arc<Breaker>,
    /// How long a request waits for a connection.
    pub(crate) wait: Duration,
    /// The turns of the outbox's bookkeeping writes on SQLite (see
    /// [`super::write::Write::bookkeeping`]).
    pub(crate) bookkeeping: Arc<tokio::sync::Mutex<()>>,
}

/// How a [`Store`] waits for its database.
#[derive(Clone, Copy, Debug)]
pub struct StoreLimits {
    /// How long a request waits for a connection (PostgreSQL down, or every connection busy)
    /// before it is refused with 503 `storage_unavailable`.
    pub wait: Duration,
}

impl Default for StoreLimits {
    fn default() -> StoreLimits {
        StoreLimits {
            wait: limits::DATABASE_WAIT,
        }
    }
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
    /// PostgreSQL's own indexes and storage of the tables could not be set.
    #[error("cannot set up the tables' indexes: {0}")]
    Tune(#[source] sqlx::Error),
}

impl Store {
    /// Connects to `url` (`sqlite://moot.db`, `sqlite:///abs/path.db`, `postgres://…`) and runs
    /// the migrations. An SQLite file is created if missing and put in WAL mode.
    pub async fn connect(url: &str) -> Result<Store, StoreError> {
        Store::connect_with(url, StoreLimits::default()).await
    }

    /// [`Store::connect`], waiting for connections as `limits` say.
    pub async fn connect_with(url: &str, limits: StoreLimits) -> Result<Store, StoreError> {
        install_default_drivers();
        let backend = if url.starts_with("sqlite:") {
            Backend::Sqlite
        } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            Backend::Postgres
        } else {
            return Err(StoreError::Scheme(url.to_owned()));
        };
        let (pool, writer, file) = match backend {
            Backend::Sqlite => {
                let url = with_create_mode(url);
                if is_in_memory(&url) {
                    // An in-memory database is its connection's own: one connection, kept for
                    // as long as the server runs, else each would see an empty database. It
                    // reads and writes.
                    let pool = sqlite_options(limits, 1)
                        .min_connections(1)
                        .idle_timeout(None)
                        .max_lifetime(None)
                        .connect(&url)
                        .await
                        .map_err(StoreError::Connect)?;
                    (pool.clone(), pool, None)
                } else {
                    let writer = sqlite_options(limits, 1)
                        .connect(&url)
                        .await
                        .map_err(StoreError::Connect)?;
                    let pool = sqlite_options(limits, 8)
                        .connect(&url)
                        .await
                        .map_err(StoreError::Connect)?;
                    let path = sqlite_file(&url).map_err(StoreError::Connect)?;
                    (pool, writer, Some(path))
                }
            }
            Backend::Postgres => {
                let pool = AnyPoolOptions::new()
                    .max_connections(16)
                    .acquire_timeout(limits.wait)
                    // A connection back from a request a moment ago is alive: a ping (a round
                    // trip) before each use would cost a move a third of its round trips. One
                    // idle longer is pinged, so that a database restarted meanwhile is
                    // noticed before a request's statement fails on it.
                    .test_before_acquire(false)
                    .before_acquire(|connection, meta| {
                        Box::pin(async move {
                            if meta.idle_for >= PING_AFTER_IDLE {
                                connection.ping().await?;
                            }
                            Ok(true)
                        })
                    })
                    .connect(url)
                    .await
                    .map_err(StoreError::Connect)?;
                (pool.clone(), pool, None)
            }
        };
        sqlx::migrate!("./migrations")
            .run(&writer)
            .await
            .map_err(StoreError::Migrate)?;
        if backend == Backend::Postgres {
            sqlx::raw_sql(POSTGRES_TABLES)
                .execute(&writer)
                .await
                .map_err(StoreError::Tune)?;
        }
        let file = match file {
            Some(path) => Some(Arc::new(DatabaseFile::opened(path)?)),
            None => None,
        };
        let store = Store {
            pool,
            writer,
            backend,
            file,
            health: Arc::default(),
            breaker: Arc::default(),
            wait: limits.wait,
            bookkeeping: Arc::default(),
        };
        Ok(store)
    }

    /// How its writes go: for `/metrics`.
    pub fn health(&self) -> Arc<StoreHealth> {
        self.health.clone()
    }

    /// Closes every connection, waiting for those in use to come back: the last thing a
    /// server does before it exits.
    pub async fn close(&self) {
        self.writer.close().await;
        self.pool.close().await;
    }
}

impl Store {
    /// `Err` when the SQLite file opened is no longer at its path (removed, replaced).
    pub(super) fn check_file(&self) -> Result<(), TableError> {
        match &self.file {
            Some(file) => file.check().map_err(TableError::FileLost),
            None => Ok(()),
        }
    }

    /// The connections that read, unless the database is known to be down (refused at
    /// once, not after the wait for a connection).
    pub(super) fn reads(&self) -> Result<&AnyPool, TableError> {
        self.breaker.check()?;
        Ok(&self.pool)
    }

    /// Whether requests are refused at once because the database is known to be down.
    pub fn is_down(&self) -> bool {
        self.breaker.is_open()
    }

    /// `error`, noted first if it is the database's failure.
    pub(super) fn failed(&self, error: TableError) -> TableError {
        if error.is_storage() {
            self.health.failed(error.to_string());
        }
        error
    }
}

/// The pool options of an SQLite file: `connections` at most, each set up for Moot.
fn sqlite_options(limits: StoreLimits, connections: u32) -> AnyPoolOptions {
    AnyPoolOptions::new()
        .max_connections(connections)
        .acquire_timeout(limits.wait)
        // A file's connection cannot drop: no ping (a round trip to the connection's thread)
        // before each use.
        .test_before_acquire(false)
        .after_connect(|connection, _| {
            Box::pin(async move {
                let busy = SQLITE_BUSY_TIMEOUT.as_millis();
                // WAL: readers do not wait for the writer. FULL: the WAL is synced at each
                // commit, so an acknowledged change survives a power cut too. A commit
                // checkpoints only a log grown past 40 MB: a task checkpoints long before,
                // beside the writer (see `super::checkpoint`); the commits' own checkpoint
                // bounds the log where no task runs (a library's own use of the tables).
                connection
                    .execute(&*format!(
                        "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; \
                         PRAGMA wal_autocheckpoint = 10000; \
                         PRAGMA busy_timeout = {busy}; PRAGMA foreign_keys = ON;"
                    ))
                    .await?;
                Ok(())
            })
        })
}

/// An SQLite file as it was opened: its path and which file it was. A file removed (with its
/// directory, say) or replaced while the server runs keeps its open connections writing to
/// the old file, which nothing will read again: such writes are refused, not acknowledged.
#[derive(Debug)]
pub struct DatabaseFile {
    path: PathBuf,
    identity: (u64, u64),
}

impl DatabaseFile {
    /// The file at `path`, as it is now.
    fn opened(path: PathBuf) -> Result<DatabaseFile, StoreError> {
        let identity = identity(&path).map_err(|error| {
            StoreError::Connect(sqlx::Error::Io(std::io::Error::other(format!(
                "the database file {} is not there after opening it: {error}",
                path.display()
            ))))
        })?;
        Ok(DatabaseFile { path, identity })
    }

    /// `Err` saying what happened when the path no longer names the file opened.
    pub fn check(&self) -> Result<(), String> {
        match identity(&self.path) {
            Ok(identity) if identity == self.identity => Ok(()),
            Ok(_) => Err(format!(
                "the database file {} was replaced while the server ran; restart the server to open the new one",
                self.path.display()
            )),
            Err(error) => Err(format!(
                "the database file {} is gone ({error}); restore it and restart the server",
                self.path.display()
            )),
        }
    }
}

/// Which file `path` names: its device and inode.
fn identity(path: &Path) -> std::io::Result<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    let meta = std::fs::metadata(path)?;
    Ok((meta.dev(), meta.ino()))
}

/// The file an SQLite URL names.
pub fn sqlite_file(url: &str) -> Result<PathBuf, sqlx::Error> {
    Ok(SqliteConnectOptions::from_str(url)?
        .get_filename()
        .to_owned())
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
