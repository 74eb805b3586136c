//! A player's push subscriptions: each browser where the player turned notices on, as its
//! `PushSubscription` names it (the push service's endpoint and the browser's keys). Checked by
//! the API before they reach here (see `crate::push::subscription`). A player keeps at most
//! [`MOST_PER_PLAYER`]: a new one past that replaces the oldest, so that a player who
//! subscribes anew on each visit (a browser that lost its subscription) never piles them up.

use sqlx::Row;

use super::{Millis, TableError, Tables};

/// The most subscriptions one player keeps.
pub const MOST_PER_PLAYER: usize = 10;

/// A browser's push subscription, as kept.
#[derive(Clone, PartialEq, Eq)]
pub struct Subscription {
    /// The push service's URL for this browser (a capability: whoever has it may push).
    pub endpoint: String,
    /// The browser's P-256 public key, uncompressed, as base64url.
    pub p256dh: String,
    /// The browser's 16-byte authentication secret, as base64url.
    pub auth: String,
}

impl std::fmt::Debug for Subscription {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Subscription").finish_non_exhaustive()
    }
}

/// Whether a subscription was new or sent again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Subscribed {
    /// Kept anew (the oldest dropped if the player had [`MOST_PER_PLAYER`]).
    New,
    /// The player had this endpoint already; its keys are the ones just sent.
    Again,
}

impl Tables {
    /// Keeps `subscription` for player `player_id`: new, or the same endpoint sent again (its
    /// keys replaced, as a browser may renew them).
    pub async fn subscribe(
        &self,
        player_id: &str,
        subscription: &Subscription,
        now: Millis,
    ) -> Result<Subscribed, TableError> {
        let mut tx = self.write().await?;
        let outcome = async {
            let renewed = sqlx::query(
                "UPDATE moot_push_subscriptions SET p256dh = $1, auth = $2 \
                 WHERE player_id = $3 AND endpoint = $4",
            )
            .bind(&subscription.p256dh)
            .bind(&subscription.auth)
            .bind(player_id)
            .bind(&subscription.endpoint)
            .execute(&mut *tx)
            .await?;
            if renewed.rows_affected() > 0 {
                return Ok(Subscribed::Again);
            }
            sqlx::query(
                "INSERT INTO moot_push_subscriptions (player_id, endpoint, p256dh, auth, created_ms) \
                 VALUES ($1, $2, $3, $4, $5)",
            )
            .bind(player_id)
            .bind(&subscription.endpoint)
            .bind(&subscription.p256dh)
            .bind(&subscription.auth)
            .bind(now)
            .execute(&mut *tx)
            .await?;
            // The player's newest MOST_PER_PLAYER are kept (ties by endpoint, the same
            // everywhere).
            sqlx::query(&format!(
                "DELETE FROM moot_push_subscriptions WHERE player_id = $1 AND endpoint NOT IN \
                 (SELECT endpoint FROM moot_push_subscriptions WHERE player_id = $1 \
                 ORDER BY created_ms DESC, endpoint DESC LIMIT {MOST_PER_PLAYER})"
            ))
            .bind(player_id)
            .execute(&mut *tx)
            .await?;
            Ok(Subscribed::New)
        }
        .await;
        match tx.finish(outcome).await {
            // The same endpoint sent twice at once (PostgreSQL): the other request kept it.
            Err(TableError::Database(e)) if TableError::is_unique_violation(&e) => {
                Ok(Subscribed::Again)
            }
            done => done,
        }
    }

    /// Forgets player `player_id`'s subscription at `endpoint`, with the pushes still waiting
    /// for it; answers whether there was one.
    pub async fn unsubscribe(
        &self,
        player_id: &str,
        endpoint: &str,
        now: Millis,
    ) -> Result<bool, TableError> {
        let mut tx = self.write().await?;
        let outcome = Self::drop_subscription(&mut tx, player_id, endpoint, now).await;
        tx.finish(outcome).await
    }

    /// Player `player_id`'s subscriptions, the newest first.
    pub async fn subscriptions(&self, player_id: &str) -> Result<Vec<Subscription>, TableError> {
        let rows = sqlx::query(
            "SELECT endpoint, p256dh, auth FROM moot_push_subscriptions WHERE player_id = $1 \
             ORDER BY created_ms DESC, endpoint DESC",
        )
        .bind(player_id)
        .fetch_all(self.store.reads()?)
        .await?;
        rows.iter()
            .map(|row| {
                Ok(Subscription {
                    endpoint: row.try_get("endpoint")?,
                    p256dh: row.try_get("p256dh")?,
                    auth: row.try_get("auth")?,
                })
            })
            .collect()
    }

    /// In a transaction: deletes a subscription and marks its waiting pushes `gone`; answers
    /// whether there was one.
    pub(super) async fn drop_subscription(
        tx: &mut super::write::Write,
        player_id: &str,
        endpoint: &str,
        now: Millis,
    ) -> Result<bool, TableError> {
        let deleted = sqlx::query(
            "DELETE FROM moot_push_subscriptions WHERE player_id = $1 AND endpoint = $2",
        )
        .bind(player_id)
        .bind(endpoint)
        .execute(&mut **tx)
        .await?;
        sqlx::query(
            "UPDATE moot_push_outbox SET status = 'gone', done_ms = $1 \
             WHERE player_id = $2 AND endpoint = $3 AND status = 'pending'",
        )
        .bind(now)
        .bind(player_id)
        .bind(endpoint)
        .execute(&mut **tx)
        .await?;
        Ok(deleted.rows_affected() > 0)
    }
}
