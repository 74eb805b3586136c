//! Each committed change told to whoever follows its table: this process's followers at the
//! commit, and, with PostgreSQL, the other replicas' through a `NOTIFY` sent in the change's
//! own transaction, which each replica hears on a `LISTEN` and passes to its own followers.

use sqlx::{Any, Transaction};

use super::store::Backend;
use super::{Committed, TableError, Tables};

/// The PostgreSQL channel of committed changes: `<replica> <table id> <seq>`.
const CHANGES_CHANNEL: &str = "moot_table_changes";

impl Tables {
    /// In a change's transaction: on PostgreSQL, tells the other replicas (at the commit)
    /// that table `id` reached change `seq`.
    pub(super) async fn notify(
        &self,
        tx: &mut Transaction<'static, Any>,
        id: &str,
        seq: u64,
    ) -> Result<(), TableError> {
        if self.store.backend == Backend::Postgres {
            sqlx::query("SELECT pg_notify($1, $2)")
                .bind(CHANGES_CHANNEL)
                .bind(format!("{} {id} {seq}", self.replica))
                .execute(&mut **tx)
                .await?;
        }
        Ok(())
    }

    /// Tells this process's followers of the table of a committed change.
    pub(super) fn told(&self, committed: Committed) -> Committed {
        if self.feed.is_followed(&committed.table.id) {
            self.feed.publish(committed.clone());
        }
        committed
    }

    /// With PostgreSQL (`url`), for as long as the server runs: hears the other replicas'
    /// changes and tells this process's followers of them. A notification lost while the
    /// connection was down is made good by the followers, who check the database now and
    /// then. Spawned on the server's runtime; returns at once on SQLite (one process).
    pub async fn listen(self, url: String) {
        if self.store.backend != Backend::Postgres {
            return;
        }
        let mut listener = loop {
            match sqlx::postgres::PgListener::connect(&url).await {
                Ok(mut listener) => match listener.listen(CHANGES_CHANNEL).await {
                    Ok(()) => break listener,
                    Err(error) => {
                        tracing::warn!(%error, "cannot listen for other replicas' changes")
                    }
                },
                Err(error) => tracing::warn!(%error, "cannot listen for other replicas' changes"),
            }
            tokio::time::sleep(std::time::Duration::from_secs(1)).await;
        };
        loop {
            let notification = match listener.recv().await {
                Ok(notification) => notification,
                Err(error) => {
                    tracing::warn!(%error, "listening for other replicas' changes failed; retrying");
                    tokio::time::sleep(std::time::Duration::from_secs(1)).await;
                    continue;
                }
            };
            let mut words = notification.payload().split(' ');
            let (Some(replica), Some(id), Some(seq)) = (words.next(), words.next(), words.next())
            else {
                continue;
            };
            let Ok(seq) = seq.parse::<u64>() else {
                continue;
            };
            if replica == self.replica || !self.feed.is_followed(id) {
                continue;
            }
            match self.changes_since(id, seq.saturating_sub(1), 1).await {
                Ok(changes) => changes.into_iter().for_each(|c| self.feed.publish(c)),
                Err(error) => tracing::warn!(%error, "cannot read another replica's change"),
            }
        }
    }
}
