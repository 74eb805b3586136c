//! The outbox of webhook events. Each change of a table that names a webhook is written here
//! in the change's own transaction (so an event exists exactly when its change does, and
//! survives a crash), with its body and signing secret. A delivery worker (`crate::webhooks`)
//! claims the due events, posts them, and records how each attempt went: delivered, to be
//! retried at a time, or given up (counted on the table).
//!
//! A table's events go out in order: only its first event not yet delivered (nor given up) can
//! be claimed. Claiming sets an event's next attempt a lease ahead, so that a worker that dies
//! mid-delivery leaves it to be claimed again once the lease runs out. With PostgreSQL, several
//! replicas claim from one outbox: `FOR UPDATE SKIP LOCKED` hands each event to one of them.

use std::sync::Arc;

use sqlx::Row;
use tokio::sync::Notify;

use super::store::Backend;
use super::write::Write;
use super::{Committed, Millis, TableError, Tables, Webhook};

/// How a committed change becomes a webhook's body (the API's event JSON): given by whoever
/// builds the server, since the tables know nothing of the API's shapes.
pub type EventBody = fn(&Committed) -> String;

/// The tables' side of webhooks: how bodies are written, and the bell that wakes the delivery
/// worker when an event is committed in this process.
#[derive(Clone)]
pub struct Outbox {
    body: EventBody,
    bell: Arc<Notify>,
}

impl std::fmt::Debug for Outbox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Outbox")
    }
}

impl Outbox {
    /// An outbox whose events' bodies `body` writes.
    pub fn new(body: EventBody) -> Outbox {
        Outbox {
            body,
            bell: Arc::default(),
        }
    }
}

/// An event claimed for one delivery attempt.
#[derive(Clone, PartialEq, Eq)]
pub struct Claimed {
    /// `<table id>-<seq>`: unique, for the receiver to deduplicate.
    pub event_id: String,
    /// The table's id.
    pub table_id: String,
    /// The table's change number.
    pub seq: u64,
    /// The event's name (`move`, `resign`, `claim`).
    pub kind: String,
    /// Where it goes.
    pub url: String,
    /// The secret that signs it.
    pub secret: String,
    /// The body, as written at the commit.
    pub body: String,
    /// Attempts so far, this one included.
    pub attempts: u32,
    /// When the change was committed.
    pub created: Millis,
}

impl std::fmt::Debug for Claimed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Claimed")
            .field("event_id", &self.event_id)
            .field("attempts", &self.attempts)
            .finish_non_exhaustive()
    }
}

/// The outbox's backlog: events not yet delivered nor given up.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Backlog {
    /// How many.
    pub pending: u64,
    /// When the oldest of them was committed.
    pub oldest: Option<Millis>,
}

const CLAIMED_COLUMNS: &str =
    "event_id, table_id, seq, kind, url, secret, body, attempts, created_ms";

impl Tables {
    /// The same tables, writing an event to the outbox for each change of a table with a
    /// webhook, its body written by `body`. Without this, a table with a webhook is refused.
    pub fn with_webhooks(mut self, body: EventBody) -> Tables {
        self.outbox = Some(Outbox::new(body));
        self
    }

    /// Whether these tables take webhooks.
    pub fn takes_webhooks(&self) -> bool {
        self.outbox.is_some()
    }

    /// Waits until an event is committed in this process (at once if one was since the last
    /// wait); never, without webhooks.
    pub async fn event_committed(&self) {
        match &self.outbox {
            Some(outbox) => outbox.bell.notified().await,
            None => std::future::pending().await,
        }
    }

    /// In a change's transaction: writes its event to the outbox if the table has a webhook.
    pub(super) async fn enqueue(
        &self,
        tx: &mut Write,
        webhook: Option<&Webhook>,
        committed: &Committed,
        now: Millis,
    ) -> Result<(), TableError> {
        let (Some(outbox), Some(webhook)) = (&self.outbox, webhook) else {
            return Ok(());
        };
        let id = &committed.table.id;
        let seq = committed.seq();
        sqlx::query(
            "INSERT INTO moot_outbox (event_id, table_id, seq, kind, url, secret, body, status, \
             attempts, next_attempt_ms, last_error, created_ms, done_ms) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, 'pending', 0, $8, NULL, $8, NULL)",
        )
        .bind(format!("{id}-{seq}"))
        .bind(id)
        .bind(seq as i64)
        .bind(committed.event.name())
        .bind(&webhook.url)
        .bind(&webhook.secret)
        .bind((outbox.body)(committed))
        .bind(now)
        .execute(&mut **tx)
        .await?;
        Ok(())
    }

    /// Rings the delivery worker's bell after a commit that wrote an event.
    pub(super) fn ring(&self, webhook: Option<&Webhook>) {
        if let (Some(outbox), Some(_)) = (&self.outbox, webhook) {
            outbox.bell.notify_one();
        }
    }

    /// Claims at most `limit` events due at `now`, the oldest due first, each for one attempt:
    /// no one else claims it before `now + lease` (unless its attempt is recorded first). Each
    /// is its table's first event not yet delivered nor given up, so a table's events are
    /// delivered in order.
    pub async fn claim_events(
        &self,
        now: Millis,
        lease: Millis,
        limit: usize,
    ) -> Result<Vec<Claimed>, TableError> {
        let skip_locked = match self.store().backend {
            Backend::Postgres => " FOR UPDATE SKIP LOCKED",
            // One process writes at a time, under the writer's lock.
            Backend::Sqlite => "",
        };
        let mut tx = self.write().await?;
        let rows = sqlx::query(&format!(
            "UPDATE moot_outbox SET attempts = attempts + 1, next_attempt_ms = $1 \
             WHERE event_id IN (SELECT event_id FROM moot_outbox o \
             WHERE status = 'pending' AND next_attempt_ms <= $2 \
             AND NOT EXISTS (SELECT 1 FROM moot_outbox e WHERE e.table_id = o.table_id \
             AND e.status = 'pending' AND e.seq < o.seq) \
             ORDER BY next_attempt_ms LIMIT $3{skip_locked}) \
             RETURNING {CLAIMED_COLUMNS}"
        ))
        .bind(now + lease)
        .bind(now)
        .bind(limit as i64)
        .fetch_all(&mut *tx)
        .await
        .map_err(TableError::from);
        let rows = tx.finish(rows).await?;
        rows.iter()
            .map(|row| {
                Ok(Claimed {
                    event_id: row.try_get("event_id")?,
                    table_id: row.try_get("table_id")?,
                    seq: row.try_get::<i64, _>("seq")? as u64,
                    kind: row.try_get("kind")?,
                    url: row.try_get("url")?,
                    secret: row.try_get("secret")?,
                    body: row.try_get("body")?,
                    attempts: row.try_get::<i64, _>("attempts")? as u32,
                    created: row.try_get("created_ms")?,
                })
            })
            .collect()
    }

    /// Records that `event` was delivered; its table's webhook is healthy again.
    pub async fn event_delivered(&self, event: &Claimed, now: Millis) -> Result<(), TableError> {
        let mut tx = self.write().await?;
        let outcome = async {
            sqlx::query(
                "UPDATE moot_outbox SET status = 'delivered', done_ms = $1, last_error = NULL \
                 WHERE event_id = $2",
            )
            .bind(now)
            .bind(&event.event_id)
            .execute(&mut *tx)
            .await?;
            sqlx::query(
                "UPDATE moot_tables SET webhook_error = NULL \
                 WHERE id = $1 AND webhook_error IS NOT NULL",
            )
            .bind(&event.table_id)
            .execute(&mut *tx)
            .await?;
            Ok(())
        }
        .await;
        tx.finish(outcome).await
    }

    /// Records that an attempt to deliver `event` failed with `error`: it is tried again at
    /// `retry_at`, or given up with `None` (and counted on its table).
    pub async fn event_failed(
        &self,
        event: &Claimed,
        error: &str,
        retry_at: Option<Millis>,
        now: Millis,
    ) -> Result<(), TableError> {
        let mut tx = self.write().await?;
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
                }
            }
            let failed = if retry_at.is_some() { 0 } else { 1 };
            sqlx::query(
                "UPDATE moot_tables SET webhook_error = $1, webhook_failed = webhook_failed + $2 \
             WHERE id = $3",
            )
            .bind(error)
            .bind(failed as i64)
            .bind(&event.table_id)
            .execute(&mut *tx)
            .await?;
            Ok(())
        }
        .await;
        tx.finish(outcome).await
    }

    /// The events not yet delivered nor given up.
    pub async fn backlog(&self) -> Result<Backlog, TableError> {
        let row = sqlx::query(
            "SELECT COUNT(*) AS pending, MIN(created_ms) AS oldest FROM moot_outbox \
             WHERE status = 'pending'",
        )
        .fetch_one(&self.store().pool)
        .await?;
        Ok(Backlog {
            pending: row.try_get::<i64, _>("pending")? as u64,
            oldest: row.try_get("oldest")?,
        })
    }
}
