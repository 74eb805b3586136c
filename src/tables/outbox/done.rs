//! How a delivery attempt ended, recorded: delivered, to be retried at a time, or given up. A
//! head delivered or given up hands its chain to the next pending event in the same
//! transaction ([`chain::advance`]). How the webhook fares is noted where its reader sees it:
//! on the table, or on the site's webhook for a site's copy.

use super::{Claimed, chain};
use crate::tables::write::Write;
use crate::tables::{Millis, TableError, Tables};

impl Tables {
    /// Records that `event` was delivered; its webhook (its table's, or its site's) is healthy
    /// again.
    pub async fn event_delivered(&self, event: &Claimed, now: Millis) -> Result<(), TableError> {
        let backend = self.store().backend;
        let mut tx = self.bookkeeping_write().await?;
        let outcome = async {
            sqlx::query(
                "UPDATE moot_outbox SET status = 'delivered', done_ms = $1, last_error = NULL \
                 WHERE event_id = $2",
            )
            .bind(now)
            .bind(&event.event_id)
            .execute(&mut *tx)
            .await?;
            chain::advance(&mut tx, backend, &event.table_id, &event.event_id, now).await?;
            healthy(&mut tx, event).await
        }
        .await;
        tx.finish(outcome).await
    }

    /// Records that an attempt to deliver `event` failed with `error`: it is tried again at
    /// `retry_at`, or given up with `None` (and counted on its table, or on its site's webhook
    /// for a site's copy).
    pub async fn event_failed(
        &self,
        event: &Claimed,
        error: &str,
        retry_at: Option<Millis>,
        now: Millis,
    ) -> Result<(), TableError> {
        let backend = self.store().backend;
        let mut tx = self.bookkeeping_write().await?;
        let outcome = async {
            match retry_at {
                Some(at) => {
                    sqlx::query(
                        "UPDATE moot_outbox SET next_attempt_ms = $1, last_error = $2 \
                         WHERE event_id = $3",
                    )
                    .bind(at)
                    .bind(error)
                    .bind(&event.event_id)
                    .execute(&mut *tx)
                    .await?;
                    chain::due_at(&mut tx, &event.table_id, &event.event_id, at).await?;
                }
                None => {
                    sqlx::query(
                        "UPDATE moot_outbox SET status = 'failed', done_ms = $1, last_error = $2 \
                         WHERE event_id = $3",
                    )
                    .bind(now)
                    .bind(error)
                    .bind(&event.event_id)
                    .execute(&mut *tx)
                    .await?;
                    chain::advance(&mut tx, backend, &event.table_id, &event.event_id, now).await?;
                }
            }
            let failed = if retry_at.is_some() { 0 } else { 1 };
            failing(&mut tx, event, error, failed).await
        }
        .await;
        tx.finish(outcome).await
    }
}

/// In `tx`: `event`'s webhook is healthy again (its last error forgotten).
async fn healthy(tx: &mut Write, event: &Claimed) -> Result<(), TableError> {
    let query = match &event.site {
        Some(site) => sqlx::query(
            "UPDATE moot_site_webhooks SET last_error = NULL \
             WHERE site = $1 AND last_error IS NOT NULL",
        )
        .bind(site),
        None => sqlx::query(
            "UPDATE moot_tables SET webhook_error = NULL \
             WHERE id = $1 AND webhook_error IS NOT NULL",
        )
        .bind(&event.table_id),
    };
    query.execute(&mut **tx).await?;
    Ok(())
}

/// In `tx`: `event`'s webhook failed with `error`, and gave up `failed` events (0 or 1).
async fn failing(
    tx: &mut Write,
    event: &Claimed,
    error: &str,
    failed: i64,
) -> Result<(), TableError> {
    let query = match &event.site {
        Some(site) => sqlx::query(
            "UPDATE moot_site_webhooks SET last_error = $1, failed = failed + $2 \
             WHERE site = $3",
        )
        .bind(error)
        .bind(failed)
        .bind(site),
        None => sqlx::query(
            "UPDATE moot_tables SET webhook_error = $1, webhook_failed = webhook_failed + $2 \
             WHERE id = $3",
        )
        .bind(error)
        .bind(failed)
        .bind(&event.table_id),
    };
    query.execute(&mut **tx).await?;
    Ok(())
}
