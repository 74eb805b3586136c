//! Sites' webhooks: a site (a name of the server's `--site-keys` file) may name one URL that
//! every event of the tables and players its key made is posted to, beside their own webhooks,
//! rather than one webhook per table or player. Kept by the site's name, so the two keys of a
//! site being rotated share it. The outbox writes each event's copy for it in the event's own
//! transaction (`outbox/site.rs`), and the delivery worker counts its failures here.

use sqlx::Row;

use super::{Millis, TableError, Tables, Webhook, WebhookHealth};

/// A site's webhook as the site reads it back (never its secret).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SiteWebhook {
    /// Where the site's events are posted.
    pub url: String,
    /// How it fares: events given up, and the last failure until a delivery succeeds.
    pub health: WebhookHealth,
}

impl Tables {
    /// Site `site`'s events are posted to `webhook` (its URL already checked) from the next
    /// change on, replacing the webhook it named. Events already written still go where they
    /// were written for. The events it gave up stay counted; the last failure, the old
    /// receiver's, is forgotten.
    pub async fn set_site_webhook(
        &self,
        site: &str,
        webhook: Webhook,
        now: Millis,
    ) -> Result<SiteWebhook, TableError> {
        if !self.takes_player_webhooks() {
            return Err(TableError::WebhooksOff);
        }
        let mut tx = self.write().await?;
        let outcome = sqlx::query(
            "INSERT INTO moot_site_webhooks (site, url, secret, failed, last_error, updated_ms) \
             VALUES ($1, $2, $3, 0, NULL, $4) ON CONFLICT (site) DO UPDATE SET \
             url = excluded.url, secret = excluded.secret, last_error = NULL, \
             updated_ms = excluded.updated_ms RETURNING url, failed, last_error",
        )
        .bind(site)
        .bind(&webhook.url)
        .bind(&webhook.secret)
        .bind(now)
        .fetch_one(&mut *tx)
        .await
        .map_err(TableError::from)
        .and_then(|row| read(&row));
        tx.finish(outcome).await
    }

    /// Site `site`'s webhook, if it names one.
    pub async fn site_webhook(&self, site: &str) -> Result<Option<SiteWebhook>, TableError> {
        let row =
            sqlx::query("SELECT url, failed, last_error FROM moot_site_webhooks WHERE site = $1")
                .bind(site)
                .fetch_optional(&self.store().pool)
                .await?;
        row.as_ref().map(read).transpose()
    }

    /// Site `site` names no webhook from the next change on; whether it named one. Events
    /// already written for it still go (to the URL they were written for), as a player's do
    /// when its webhook is removed: a change committed before has its events.
    pub async fn remove_site_webhook(&self, site: &str) -> Result<bool, TableError> {
        let mut tx = self.write().await?;
        let outcome = sqlx::query("DELETE FROM moot_site_webhooks WHERE site = $1")
            .bind(site)
            .execute(&mut *tx)
            .await
            .map(|done| done.rows_affected() > 0)
            .map_err(TableError::from);
        tx.finish(outcome).await
    }
}

/// A site's webhook as its row (`url`, `failed`, `last_error`) reads.
fn read(row: &sqlx::any::AnyRow) -> Result<SiteWebhook, TableError> {
    Ok(SiteWebhook {
        url: row.try_get("url")?,
        health: WebhookHealth {
            failed: row.try_get::<i64, _>("failed")? as u64,
            last_error: row.try_get("last_error")?,
        },
    })
}
