//! SQLite's write-ahead log copied back into the database file beside the writer, not inside
//! a change. Left to itself SQLite checkpoints in the commit that grows the log past 1,000
//! pages: that change waits for the copy and the file's sync, and every change queued behind
//! it on the one writing connection waits too. A webhook drain fills the log every second or
//! so. So this task checkpoints every [`CHECKPOINT_EVERY`], on a reading connection, long
//! before a commit would (at 10,000 pages, see [`super::store`]): a passive checkpoint takes
//! no write lock, so changes go on meanwhile. The last connection closed at the server's stop
//! checkpoints what is left.

use std::time::Duration;

use tokio_util::sync::CancellationToken;

use super::Tables;
use super::store::Backend;

/// How often the log is copied back: often enough that it stays a few megabytes under a
/// drain's writes, rarely enough that an idle server does nothing to speak of (a checkpoint of
/// an empty log reads its header).
const CHECKPOINT_EVERY: Duration = Duration::from_millis(250);

impl Tables {
    /// Until `stop`: checkpoints the SQLite file's log every [`CHECKPOINT_EVERY`] (spawned on
    /// the server's runtime); returns at once on PostgreSQL. A failure (a full disk, a
    /// read-only file) is logged once, and its end once: the log is copied again when it can.
    pub async fn checkpoint_forever(self, stop: CancellationToken) {
        if self.store.backend != Backend::Sqlite {
            return;
        }
        let mut every = tokio::time::interval(CHECKPOINT_EVERY);
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut failing = false;
        loop {
            tokio::select! {
                () = stop.cancelled() => break,
                _ = every.tick() => {}
            }
            match self.checkpoint().await {
                Ok(()) if failing => {
                    failing = false;
                    tracing::warn!("the write-ahead log is copied into the database file again");
                }
                Ok(()) => {}
                Err(error) if !failing => {
                    failing = true;
                    tracing::warn!(%error, "copying the write-ahead log into the database file failed; the log grows until it can be");
                }
                Err(_) => {}
            }
        }
    }

    /// One passive checkpoint: as much of the log as no reader still needs is copied into the
    /// database file, and the file synced.
    async fn checkpoint(&self) -> Result<(), sqlx::Error> {
        sqlx::query("PRAGMA wal_checkpoint(PASSIVE)")
            .execute(&self.store.pool)
            .await
            .map(drop)
    }
}
