//! A site's copies of its tables' and players' events. The site's webhook is read in the
//! event's own transaction, so a webhook set, replaced or removed takes effect from the next
//! change on, in every replica at once. A copy is keyed and chained apart from the event it
//! copies (`site:<site>:…`): its chain goes out in order like the event's own, and neither
//! waits for the other.

use sqlx::Row;

use super::Hooks;
use crate::tables::write::Write;
use crate::tables::{TableError, Webhook};

/// Where one event is written: the table's or player's own webhook, and its site's.
pub(super) struct Targets {
    /// The own webhook.
    pub(super) own: Option<Webhook>,
    /// The site's name and webhook, if it names one.
    pub(super) site: Option<(String, Webhook)>,
}

impl Targets {
    /// `hooks`' webhooks now, in `tx`: the site's read by its name (its key), only where the
    /// table or player has a site.
    pub(super) async fn of(tx: &mut Write, hooks: &Hooks) -> Result<Targets, TableError> {
        let site = match &hooks.site {
            Some(site) => webhook_of(tx, site)
                .await?
                .map(|webhook| (site.clone(), webhook)),
            None => None,
        };
        Ok(Targets {
            own: hooks.webhook.clone(),
            site,
        })
    }

    /// Whether the event goes nowhere.
    pub(super) fn is_empty(&self) -> bool {
        self.own.is_none() && self.site.is_none()
    }
}

/// Site `site`'s webhook as `tx` reads it, if it names one.
async fn webhook_of(tx: &mut Write, site: &str) -> Result<Option<Webhook>, TableError> {
    let row = sqlx::query("SELECT url, secret FROM moot_site_webhooks WHERE site = $1")
        .bind(site)
        .fetch_optional(&mut **tx)
        .await?;
    row.map(|row| -> Result<Webhook, TableError> {
        Ok(Webhook {
            url: row.try_get("url")?,
            secret: row.try_get("secret")?,
        })
    })
    .transpose()
}

/// The outbox's key of site `site`'s copy of `key` (an event's id, or a chain's key):
/// `site:<site>:<key>`. A site's name holds no `:` (see `crate::site_keys`), so the key is
/// what follows the second.
pub(super) fn copy_key(site: &str, key: &str) -> String {
    format!("site:{site}:{key}")
}

/// The id the receiver deduplicates by of the event kept under `event_id`, a copy for `site`
/// or the event itself: a copy's is the id of the event it copies.
pub fn sent_id<'a>(event_id: &'a str, site: Option<&str>) -> &'a str {
    site.and_then(|site| {
        event_id
            .strip_prefix("site:")?
            .strip_prefix(site)?
            .strip_prefix(':')
    })
    .unwrap_or(event_id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_copy_is_sent_with_the_id_of_the_event_it_copies() {
        for id in ["5f0c-7", "5f0c-7-deadline_near", "player:ab12-3"] {
            let copy = copy_key("chess-club", id);
            assert_ne!(copy, id, "a row key of its own");
            assert_eq!(sent_id(&copy, Some("chess-club")), id);
            assert_eq!(sent_id(id, None), id, "the event itself is sent as kept");
        }
        // Another site's key is not stripped as this one's.
        assert_eq!(
            sent_id("site:club:5f0c-7", Some("club.b")),
            "site:club:5f0c-7"
        );
    }
}
