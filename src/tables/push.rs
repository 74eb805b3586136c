//! The push outbox: each notice for a player becomes one row per subscription of the player,
//! written in the transaction of whatever made the notice due (so a push exists exactly when
//! that change does, and survives a crash), then claimed and posted by the push worker
//! (`crate::push`). Claiming sets a push's next attempt a lease ahead, as the webhooks' outbox
//! does ([`super::outbox`]): a worker that dies mid-post leaves it to be claimed again once the
//! lease runs out, and with PostgreSQL `FOR UPDATE SKIP LOCKED` hands each push to one replica.
//!
//! A push keeps its payload (the notice, as JSON, before encryption) but not the browser's
//! keys: those are read from the subscription at each attempt, so a subscription dropped or
//! renewed meanwhile is honoured. Done pushes stay as `delivered`, `failed` or `gone` until the
//! sweep deletes them with the old webhook events.

use sqlx::Row;
use tokio::sync::{Notify, OnceCell};

use super::store::Backend;
use super::write::Write;
use super::{Millis, TableError, Tables, secret};

/// The largest payload taken, in bytes. A push's body is one record of at most 4,096 bytes
/// (RFC 8291 §4): the payload, a delimiter, a 16-byte tag and an 86-byte header must fit, and
/// some push services take less; 3 KiB leaves room.
pub const MAX_PAYLOAD_BYTES: usize = 3 * 1024;

/// What the tables of one process share for pushes: the VAPID key once read, and the bell that
/// wakes the push worker when this process commits a push.
#[derive(Debug, Default)]
pub(super) struct PushShared {
    /// The VAPID private key (see [`super::push_keys`]).
    pub(super) key: OnceCell<String>,
    bell: Notify,
}

/// A push claimed for one attempt, with the keys of its subscription.
#[derive(Clone, PartialEq, Eq)]
pub struct ClaimedPush {
    /// The push's id.
    pub id: String,
    /// The player it is for.
    pub player_id: String,
    /// The push service's URL for the browser.
    pub endpoint: String,
    /// The browser's P-256 public key (uncompressed, base64url).
    pub p256dh: String,
    /// The browser's authentication secret (base64url).
    pub auth: String,
    /// The notice, as JSON, before encryption.
    pub payload: String,
    /// Attempts so far, this one included.
    pub attempts: u32,
    /// When the push was written.
    pub created: Millis,
}

impl std::fmt::Debug for ClaimedPush {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ClaimedPush")
            .field("id", &self.id)
            .field("attempts", &self.attempts)
            .finish_non_exhaustive()
    }
}

impl Tables {
    /// In the caller's transaction: writes a push of `payload` to each of player `player_id`'s
    /// subscriptions, and answers how many (none for a player without any). A payload over
    /// [`MAX_PAYLOAD_BYTES`] is refused. Once the transaction commits, call
    /// [`Tables::ring_pushes`] so that the worker posts them at once (else within a second).
    pub(crate) async fn enqueue_push(
        &self,
        tx: &mut Write,
        player_id: &str,
        payload: &str,
        now: Millis,
    ) -> Result<u64, TableError> {
        if payload.len() > MAX_PAYLOAD_BYTES {
            return Err(TableError::PushTooLarge(payload.len()));
        }
        let endpoints =
            sqlx::query("SELECT endpoint FROM moot_push_subscriptions WHERE player_id = $1")
                .bind(player_id)
                .fetch_all(&mut **tx)
                .await?;
        for row in &endpoints {
            let endpoint: String = row.try_get("endpoint")?;
            sqlx::query(
                "INSERT INTO moot_push_outbox (id, player_id, endpoint, payload, status, attempts, \
                 next_attempt_ms, created_ms, last_error, done_ms) \
                 VALUES ($1, $2, $3, $4, 'pending', 0, $5, $5, NULL, NULL)",
            )
            .bind(secret::table_id())
            .bind(player_id)
            .bind(endpoint)
            .bind(payload)
            .bind(now)
            .execute(&mut **tx)
            .await?;
        }
        Ok(endpoints.len() as u64)
    }

    /// The same in a transaction of its own, the worker rung once it commits: for callers
    /// outside any change.
    pub async fn push_to_player(
        &self,
        player_id: &str,
        payload: &str,
        now: Millis,
    ) -> Result<u64, TableError> {
        let mut tx = self.write().await?;
        let outcome = self.enqueue_push(&mut tx, player_id, payload, now).await;
        let written = tx.finish(outcome).await?;
        if written > 0 {
            self.ring_pushes();
        }
        Ok(written)
    }

    /// Wakes this process's push worker: pushes were committed.
    pub(crate) fn ring_pushes(&self) {
        self.push.bell.notify_one();
    }

    /// Waits until this process commits a push (at once if one was since the last wait).
    pub async fn push_committed(&self) {
        self.push.bell.notified().await
    }

    /// Claims at most `limit` pushes due at `now`, each for one attempt: no one else claims it
    /// before `now + lease` (unless its attempt is recorded first). A push whose subscription
    /// is gone is marked so, not claimed.
    pub async fn claim_pushes(
        &self,
        now: Millis,
        lease: Millis,
        limit: usize,
    ) -> Result<Vec<ClaimedPush>, TableError> {
        // Most polls find nothing: a read, not a write transaction (on SQLite, the one
        // writer's lock) every second of every replica.
        let due = sqlx::query(
            "SELECT id FROM moot_push_outbox WHERE status = 'pending' AND next_attempt_ms <= $1 \
             LIMIT 1",
        )
        .bind(now)
        .fetch_optional(self.store().reads()?)
        .await?;
        if due.is_none() {
            return Ok(Vec::new());
        }
        let skip_locked = match self.store().backend {
            Backend::Postgres => " FOR UPDATE SKIP LOCKED",
            // One process writes at a time, under the writer's lock.
            Backend::Sqlite => "",
        };
        let sql = format!(
            "UPDATE moot_push_outbox SET attempts = attempts + 1, next_attempt_ms = $1 \
             WHERE id IN (SELECT id FROM moot_push_outbox \
             WHERE status = 'pending' AND next_attempt_ms <= $2 \
             ORDER BY next_attempt_ms LIMIT $3{skip_locked}) \
             RETURNING id, player_id, endpoint, payload, attempts, created_ms"
        );
        let mut tx = self.write().await?;
        let outcome = async {
            let rows = sqlx::query(&sql)
                .bind(now + lease)
                .bind(now)
                .bind(i64::try_from(limit).unwrap_or(i64::MAX))
                .fetch_all(&mut *tx)
                .await?;
            let mut claimed = Vec::with_capacity(rows.len());
            for row in &rows {
                let id: String = row.try_get("id")?;
                let player_id: String = row.try_get("player_id")?;
                let endpoint: String = row.try_get("endpoint")?;
                let keys = sqlx::query(
                    "SELECT p256dh, auth FROM moot_push_subscriptions \
                     WHERE player_id = $1 AND endpoint = $2",
                )
                .bind(&player_id)
                .bind(&endpoint)
                .fetch_optional(&mut *tx)
                .await?;
                let Some(keys) = keys else {
                    sqlx::query(
                        "UPDATE moot_push_outbox SET status = 'gone', done_ms = $1 WHERE id = $2",
                    )
                    .bind(now)
                    .bind(&id)
                    .execute(&mut *tx)
                    .await?;
                    continue;
                };
                claimed.push(ClaimedPush {
                    id,
                    player_id,
                    endpoint,
                    p256dh: keys.try_get("p256dh")?,
                    auth: keys.try_get("auth")?,
                    payload: row.try_get("payload")?,
                    attempts: row.try_get::<i64, _>("attempts")? as u32,
                    created: row.try_get("created_ms")?,
                });
            }
            Ok(claimed)
        }
        .await;
        tx.finish(outcome).await
    }

    /// Records that the push service took `push`.
    pub async fn push_delivered(&self, push: &ClaimedPush, now: Millis) -> Result<(), TableError> {
        self.push_done(push, "delivered", None, now).await
    }

    /// Records that an attempt to post `push` failed with `error`: it is tried again at
    /// `retry_at`, or given up with `None`.
    pub async fn push_failed(
        &self,
        push: &ClaimedPush,
        error: &str,
        retry_at: Option<Millis>,
        now: Millis,
    ) -> Result<(), TableError> {
        let Some(at) = retry_at else {
            return self.push_done(push, "failed", Some(error), now).await;
        };
        let mut tx = self.write().await?;
        let outcome = sqlx::query(
            "UPDATE moot_push_outbox SET next_attempt_ms = $1, last_error = $2 \
             WHERE id = $3 AND status = 'pending'",
        )
        .bind(at)
        .bind(error)
        .bind(&push.id)
        .execute(&mut *tx)
        .await
        .map(drop)
        .map_err(TableError::from);
        tx.finish(outcome).await
    }

    /// Records that the push service no longer knows `push`'s subscription (404 or 410: the
    /// browser dropped it): the subscription is deleted, and its waiting pushes with it.
    pub async fn push_gone(&self, push: &ClaimedPush, now: Millis) -> Result<(), TableError> {
        let mut tx = self.write().await?;
        let outcome = Self::drop_subscription(&mut tx, &push.player_id, &push.endpoint, now)
            .await
            .map(drop);
        tx.finish(outcome).await
    }

    /// Ends `push` as `status`, with `error` if it failed.
    async fn push_done(
        &self,
        push: &ClaimedPush,
        status: &str,
        error: Option<&str>,
        now: Millis,
    ) -> Result<(), TableError> {
        let mut tx = self.write().await?;
        let outcome = sqlx::query(
            "UPDATE moot_push_outbox SET status = $1, last_error = $2, done_ms = $3 \
             WHERE id = $4 AND status = 'pending'",
        )
        .bind(status)
        .bind(error.map(str::to_owned))
        .bind(now)
        .bind(&push.id)
        .execute(&mut *tx)
        .await
        .map(drop)
        .map_err(TableError::from);
        tx.finish(outcome).await
    }

    /// The pushes not yet delivered nor given up.
    pub async fn pending_pushes(&self) -> Result<u64, TableError> {
        let row = sqlx::query(
            "SELECT COUNT(*) AS pending FROM moot_push_outbox WHERE status = 'pending'",
        )
        .fetch_one(self.store().reads()?)
        .await?;
        Ok(row.try_get::<i64, _>("pending")? as u64)
    }
}
