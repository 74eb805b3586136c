//! Finished tables are deleted once they are older than the server keeps them: the sweep's
//! one transaction, and the loop that runs it for as long as the server runs (which first
//! closes the tables left without a move, see [`super::abandon`]).

use super::{Abandonment, DAY, Millis, TableError, Tables};
use crate::limits::tables as limits;

impl Tables {
    /// Deletes the tables finished before `now - keep_days` days, with their seats and moves;
    /// returns how many tables. The outboxes' deliveries are forgotten apart
    /// ([`Tables::forget_deliveries`]).
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

/// How long the sweep keeps what is done.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Keeping {
    /// Days a finished table is kept.
    pub finished_days: u32,
    /// Days a webhook event or push is kept once delivered or given up.
    pub delivered_days: u32,
}

/// Every [`limits::SWEEP_EVERY`], for as long as the server runs (spawned on its runtime):
/// closes the tables that waited for a move longer than `abandonment` allows, then deletes the
/// finished tables and the deliveries older than `keeping` keeps them.
pub async fn sweep_forever(tables: Tables, keeping: Keeping, abandonment: Abandonment) {
    let keep_days = keeping.finished_days;
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
        let before = super::now() - i64::from(keeping.delivered_days) * DAY;
        match tables.forget_deliveries(before).await {
            Ok(0) => {}
            Ok(forgotten) => tracing::info!(forgotten, "deliveries done long ago forgotten"),
            Err(error) => tracing::warn!(%error, "forgetting old deliveries failed"),
        }
    }
}

/// How many done deliveries one transaction of [`Tables::forget_deliveries`] deletes: the
/// writer is held a moment at a time, not for the whole backlog of a busy day.
const FORGET_BATCH: i64 = 1000;

impl Tables {
    /// Deletes the webhook events and pushes delivered or given up before `before`, and the
    /// webhook chains idle since then, a batch at a time; answers how many events and pushes.
    pub async fn forget_deliveries(&self, before: Millis) -> Result<u64, TableError> {
        // Each statement, and whether what it deletes is counted (idle chains are not).
        let statements = [
            (
                "DELETE FROM moot_outbox WHERE event_id IN (SELECT event_id FROM moot_outbox \
                 WHERE status <> 'pending' AND done_ms < $1 LIMIT $2)",
                true,
            ),
            (
                "DELETE FROM moot_push_outbox WHERE id IN (SELECT id FROM moot_push_outbox \
                 WHERE status <> 'pending' AND done_ms < $1 LIMIT $2)",
                true,
            ),
            (
                "DELETE FROM moot_outbox_chains WHERE chain IN (SELECT chain \
                 FROM moot_outbox_chains WHERE head IS NULL AND due_ms < $1 LIMIT $2)",
                false,
            ),
        ];
        let mut forgotten = 0;
        for (sql, counted) in statements {
            loop {
                let mut tx = self.write().await?;
                let outcome = sqlx::query(sql)
                    .bind(before)
                    .bind(FORGET_BATCH)
                    .execute(&mut *tx)
                    .await
                    .map(|done| done.rows_affected())
                    .map_err(TableError::from);
                let deleted = tx.finish(outcome).await?;
                if counted {
                    forgotten += deleted;
                }
                if deleted < FORGET_BATCH as u64 {
                    break;
                }
            }
        }
        Ok(forgotten)
    }
}
