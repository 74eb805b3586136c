//! Finished tables are deleted once they are older than the server keeps them: the sweep's
//! one transaction, and the loop that runs it for as long as the server runs (which first
//! closes the tables left without a move, see [`super::abandon`]).

use super::{Abandonment, DAY, Millis, TableError, Tables};
use crate::limits::tables as limits;

impl Tables {
    /// Deletes the tables finished before `now - keep_days` days, with their seats and moves,
    /// and the outboxes' events and pushes done as long ago; returns how many tables.
    pub async fn sweep(&self, now: Millis, keep_days: u32) -> Result<u64, TableError> {
        let before = now - i64::from(keep_days) * DAY;
        let mut tx = self.write().await?;
        let outcome = async {
            let old = "SELECT id FROM moot_tables WHERE status = 'finished' AND updated_ms < $1";
            for child in ["moot_moves", "moot_seats"] {
                sqlx::query(&format!("DELETE FROM {child} WHERE table_id IN ({old})"))
                    .bind(before)
                    .execute(&mut *tx)
                    .await?;
            }
            let deleted = sqlx::query(
                "DELETE FROM moot_tables WHERE status = 'finished' AND updated_ms < $1",
            )
            .bind(before)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            for outbox in ["moot_outbox", "moot_push_outbox"] {
                sqlx::query(&format!(
                    "DELETE FROM {outbox} WHERE status <> 'pending' AND done_ms < $1"
                ))
                .bind(before)
                .execute(&mut *tx)
                .await?;
            }
            // Answers remembered for idempotent requests, once kept long enough.
            sqlx::query("DELETE FROM moot_idempotency WHERE created_ms < $1")
                .bind(now - super::idempotency::KEEP)
                .execute(&mut *tx)
                .await?;
            // Challenges no one accepted in time.
            Self::expire_challenges(&mut tx, now).await?;
            // Players' events, once kept their days.
            Self::forget_player_events(&mut tx, now - super::player_feed::FEED_KEEP).await?;
            // Replicas that stopped long ago.
            sqlx::query("DELETE FROM moot_probe WHERE at_ms < $1")
                .bind(before)
                .execute(&mut *tx)
                .await?;
            Ok(deleted)
        }
        .await;
        tx.finish(outcome).await
    }
}

/// Every [`limits::SWEEP_EVERY`], for as long as the server runs (spawned on its runtime):
/// closes the tables that waited for a move longer than `abandonment` allows, then deletes the
/// finished tables older than `keep_days`.
pub async fn sweep_forever(tables: Tables, keep_days: u32, abandonment: Abandonment) {
    let mut every = tokio::time::interval(limits::SWEEP_EVERY);
    loop {
        every.tick().await;
        match tables.abandon(super::now(), abandonment).await {
            Ok(0) => {}
            Ok(closed) => tracing::info!(closed, "tables left without a move closed as abandoned"),
            Err(error) => tracing::warn!(%error, "closing abandoned tables failed"),
        }
        match tables.sweep(super::now(), keep_days).await {
            Ok(0) => {}
            Ok(deleted) => tracing::info!(deleted, keep_days, "finished tables swept"),
            Err(error) => tracing::warn!(%error, "the sweep of finished tables failed"),
        }
    }
}
