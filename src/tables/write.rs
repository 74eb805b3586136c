//! A change's transaction, on a writing connection of its own ([`Write`]). It ends one of
//! three ways, and none hands back to the pool a connection still inside a transaction:
//! committed; rolled back (a refusal: the rules, a stale ply); or, after a failure of the
//! database (full disk, I/O error, read-only file, lost connection, a refused `COMMIT`),
//! the connection is discarded, closing it undoes whatever it held, and the next change opens
//! a fresh one. A failed `COMMIT` can leave SQLite inside the transaction: a connection kept
//! after it would take later changes into a transaction that never commits, acknowledged
//! and then lost.

use std::ops::{Deref, DerefMut};
use std::time::Instant;

use sqlx::pool::PoolConnection;
use sqlx::{Any, AnyConnection, Executor};

use super::TableError;
use super::store::{Backend, Store};

/// A change's open transaction. Its queries run on `&mut *write`; [`Write::finish`] commits
/// it or undoes it. Dropped unfinished (a request cancelled), its connection is discarded.
pub(crate) struct Write {
    connection: Option<PoolConnection<Any>>,
    store: Store,
    started: Instant,
    /// Whether a transaction is open (see [`Write::deferred`]).
    open: bool,
    /// Whether its commit need not be synced to disk ([`Write::bookkeeping`]).
    relaxed: bool,
    /// On SQLite, a bookkeeping write's turn among the bookkeeping writes (see
    /// [`Write::bookkeeping`]), held until it ends.
    _turn: Option<tokio::sync::OwnedMutexGuard<()>>,
}

impl Write {
    /// Opens a transaction on `store`'s writing connection.
    pub(super) async fn begin(store: &Store) -> Result<Write, TableError> {
        let mut write = Self::connect(store).await?;
        if let Err(error) = write.transaction().await {
            // Dropped now, the write discards its connection.
            return Err(store.failed(error));
        }
        Ok(write)
    }

    /// The same where the change may be one statement: on PostgreSQL the transaction opens
    /// only when [`Write::transaction`] asks for it, and a change written in one statement
    /// commits by itself, two round trips fewer. (SQLite opens it at once: its write lock
    /// is taken before the change reads.)
    pub(super) async fn deferred(store: &Store) -> Result<Write, TableError> {
        match store.backend {
            Backend::Sqlite => Self::begin(store).await,
            Backend::Postgres => Self::connect(store).await,
        }
    }

    /// A transaction of the outbox's bookkeeping (a claim, a delivery recorded), whose commit
    /// is not waited on to reach the disk: what a crash may undo is a claim (claimed again when
    /// its lease runs out) or a delivery's record (posted again: deliveries are at least once,
    /// and receivers deduplicate). Changes of the tables never go this way; the next change's
    /// synced commit (SQLite's WAL) carries the bookkeeping before it to the disk too. On
    /// SQLite the connection's `synchronous` is set back to `FULL` when it ends (or the
    /// connection is discarded); on PostgreSQL it is the transaction's own setting.
    ///
    /// On SQLite, where every write takes turns on one connection, bookkeeping writes first
    /// take turns among themselves: at most one of them waits for the connection at a time, so
    /// a move waits behind one claim or record at most, not behind every delivery that ended.
    pub(super) async fn bookkeeping(store: &Store) -> Result<Write, TableError> {
        let turn = match store.backend {
            Backend::Sqlite => Some(store.bookkeeping.clone().lock_owned().await),
            Backend::Postgres => None,
        };
        let mut write = Self::connect(store).await?;
        write._turn = turn;
        write.relaxed = true;
        let relaxed = match store.backend {
            Backend::Sqlite => (*write)
                .execute("PRAGMA synchronous = NORMAL")
                .await
                .map(drop),
            Backend::Postgres => Ok(()),
        };
        if let Err(error) = relaxed {
            return Err(store.failed(error.into()));
        }
        if let Err(error) = write.transaction().await {
            return Err(store.failed(error));
        }
        if store.backend == Backend::Postgres
            && let Err(error) = (*write).execute("SET LOCAL synchronous_commit = off").await
        {
            return Err(store.failed(error.into()));
        }
        Ok(write)
    }

    /// A writing connection, outside any transaction.
    async fn connect(store: &Store) -> Result<Write, TableError> {
        store.check_file()?;
        store.breaker.check()?;
        let connection = store
            .writer
            .acquire()
            .await
            .map_err(|error| store.failed(error.into()))?;
        Ok(Write {
            connection: Some(connection),
            store: store.clone(),
            started: Instant::now(),
            open: false,
            relaxed: false,
            _turn: None,
        })
    }

    /// Opens the transaction, if it is not yet open. On SQLite, `BEGIN IMMEDIATE` takes the
    /// file's write lock at once, so that a transaction that reads first cannot fail for
    /// another process's write between its reads and its writes. A failure is the change's
    /// outcome: [`Write::finish`] counts it and discards the connection.
    pub(super) async fn transaction(&mut self) -> Result<(), TableError> {
        if self.open {
            return Ok(());
        }
        let begin = match self.store.backend {
            Backend::Sqlite => "BEGIN IMMEDIATE",
            Backend::Postgres => "BEGIN",
        };
        (**self).execute(begin).await?;
        self.open = true;
        Ok(())
    }

    /// Ends the transaction with `outcome`, the change's work: commits it if `Ok` (and the
    /// database's file is still the one opened), rolls it back if refused. `Ok` only once the
    /// change is durably committed.
    pub(super) async fn finish<T>(
        mut self,
        outcome: Result<T, TableError>,
    ) -> Result<T, TableError> {
        let mut connection = self
            .connection
            .take()
            .expect("a write holds its connection until it ends");
        match outcome {
            Ok(value) => {
                let committed = match self.store.check_file() {
                    Ok(()) if !self.open => Ok(()),
                    Ok(()) => connection
                        .execute("COMMIT")
                        .await
                        .map(drop)
                        .map_err(Into::into),
                    Err(lost) => Err(lost),
                };
                match committed {
                    Ok(()) => {
                        self.store.health.committed(self.started.elapsed());
                        synced_again(self.relaxed.then_some(self.store.backend), connection).await;
                        Ok(value)
                    }
                    Err(error) => {
                        discard(connection);
                        Err(self.store.failed(error))
                    }
                }
            }
            Err(error) if error.is_storage() => {
                discard(connection);
                Err(self.store.failed(error))
            }
            Err(refusal) => {
                if self.open && connection.execute("ROLLBACK").await.is_err() {
                    discard(connection);
                } else {
                    synced_again(self.relaxed.then_some(self.store.backend), connection).await;
                }
                self.store.health.refused();
                Err(refusal)
            }
        }
    }
}

/// Hands `connection` back to the pool, its commits synced again after a bookkeeping
/// transaction on `relaxed` (SQLite's: the setting is the connection's); discarded if that
/// fails, so that no change is ever committed unsynced.
async fn synced_again(relaxed: Option<Backend>, mut connection: PoolConnection<Any>) {
    if relaxed == Some(Backend::Sqlite)
        && connection
            .execute("PRAGMA synchronous = FULL")
            .await
            .is_err()
    {
        discard(connection);
    }
}

impl Deref for Write {
    type Target = AnyConnection;

    fn deref(&self) -> &AnyConnection {
        self.connection
            .as_deref()
            .expect("a write holds its connection until it ends")
    }
}

impl DerefMut for Write {
    fn deref_mut(&mut self) -> &mut AnyConnection {
        self.connection
            .as_deref_mut()
            .expect("a write holds its connection until it ends")
    }
}

impl Drop for Write {
    fn drop(&mut self) {
        if let Some(connection) = self.connection.take() {
            discard(connection);
        }
    }
}

/// Closes `connection` rather than return it to the pool: whatever transaction it held is
/// undone by the database as it closes.
fn discard(mut connection: PoolConnection<Any>) {
    connection.close_on_drop();
}
