//! The outbox of webhook events. Each change of a table that names a webhook is written here
//! in the change's own transaction (so an event exists exactly when its change does, and
//! survives a crash), with its body and signing secret. A delivery worker (`crate::webhooks`)
//! claims the due events, posts them, and records how each attempt went: delivered, to be
//! retried at a time, or given up (counted on the table).
//!
//! A table or player made with a site's key belongs to that site, and while the site names a
//! webhook of its own each event is also written as a copy for it, in the same transaction
//! ([`site`]): its own row and chain (`site:<site>:<chain>`), its own URL and secret, and the
//! event's own id for the receiver to deduplicate by ([`Claimed::sent_id`]).
//!
//! A table's events go out in order, and a player's: each such chain keeps its head, its first
//! event not yet delivered (nor given up), and only heads are claimed ([`chain`]). A claim
//! reads heads, never a chain, so its cost does not grow with what waits behind them or with
//! the delivered events kept beside them. Claiming sets a head's next attempt a lease ahead, so
//! that a worker that dies mid-delivery leaves it to be claimed again once the lease runs out.
//! With PostgreSQL, several replicas claim from one outbox: `FOR UPDATE SKIP LOCKED` hands each
//! head to one of them.
//!
//! Each event keeps its receiver ([`receiver_of`] its URL: host and port), and a claim takes at
//! most a share of each receiver's due events ([`HostShares`]), the receivers' first events
//! before their second ones: a receiver with thousands of due events does not fill the claim
//! and starve the others. An event claimed but not posted (its receiver's breaker opened) is
//! put back without counting the attempt ([`Tables::event_released`]), and a receiver whose
//! breaker opens has its due events held back until its trial ([`Tables::hold_receiver`]).

use std::sync::Arc;

use tokio::sync::Notify;

use super::deadlines::DeadlineNotice;
use super::player_feed::PlayerEvent;
use super::seat_notice::SeatNotice;
use super::write::Write;
use super::{Committed, Millis, TableError, Tables, Webhook};
use site::Targets;

mod backlog;
mod chain;
mod claim;
mod done;
mod notices;
mod site;
#[cfg(test)]
mod tests;

pub use backlog::{Backlog, ReceiverBacklog};
pub use claim::CLAIM_WINDOW;
pub use site::sent_id;

/// How a committed change becomes a webhook's body (the API's event JSON): given by whoever
/// builds the server, since the tables know nothing of the API's shapes.
pub type EventBody = fn(&Committed) -> String;

/// How an event of a player's feed becomes a webhook's body, likewise.
pub type PlayerEventBody = fn(&PlayerEvent) -> String;

/// How a table's deadline notice becomes a webhook's body, likewise.
pub type DeadlineBody = fn(&DeadlineNotice) -> String;

/// How a seat's notice (a takeback asked or declined, a vacation) becomes a webhook's body,
/// likewise.
pub type SeatNoticeBody = fn(&SeatNotice) -> String;

/// The tables' side of webhooks: how bodies are written, and the bell that wakes the delivery
/// worker when an event is committed in this process.
#[derive(Clone)]
pub struct Outbox {
    body: EventBody,
    player_body: Option<PlayerEventBody>,
    deadline_body: Option<DeadlineBody>,
    seat_notice_body: Option<SeatNoticeBody>,
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
            player_body: None,
            deadline_body: None,
            seat_notice_body: None,
            bell: Arc::default(),
        }
    }
}

/// An event claimed for one delivery attempt.
#[derive(Clone, PartialEq, Eq)]
pub struct Claimed {
    /// Its key in the outbox: `<table id>-<seq>`, or a site's copy of it
    /// (`site:<site>:<table id>-<seq>`). The receiver is sent [`Claimed::sent_id`].
    pub event_id: String,
    /// Its chain: the table's id, `player:<id>`, or a site's copy of either.
    pub table_id: String,
    /// The site whose webhook this copy is for; `None`: the table's or the player's own.
    pub site: Option<String>,
    /// The table's change number.
    pub seq: u64,
    /// The event's name (`move`, `resign`, `claim`).
    pub kind: String,
    /// Where it goes.
    pub url: String,
    /// Its receiver: the URL's host and port ([`receiver_of`]).
    pub host: String,
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

impl Claimed {
    /// The id the receiver deduplicates by (`Moot-Event-Id`): the event's own, for a site's
    /// copy too, so that a receiver that is sent both deduplicates them as one event.
    pub fn sent_id(&self) -> &str {
        sent_id(&self.event_id, self.site.as_deref())
    }
}

/// Where a table's or a player's events go: its own webhook, and the site that made it, whose
/// webhook (if it names one when an event is written) gets a copy.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Hooks {
    /// The table's or the player's own webhook.
    pub webhook: Option<Webhook>,
    /// The site whose key made it.
    pub site: Option<String>,
}

impl Hooks {
    /// Whether an event may have somewhere to go (a site's webhook is looked up as it is
    /// written).
    pub fn any(&self) -> bool {
        self.webhook.is_some() || self.site.is_some()
    }

    /// A table's or a player's, from its row's `webhook_url`, `webhook_secret` and `site`.
    pub(super) fn read(row: &sqlx::any::AnyRow) -> Result<Hooks, TableError> {
        use sqlx::Row;
        let webhook = match (row.try_get("webhook_url")?, row.try_get("webhook_secret")?) {
            (Some(url), Some(secret)) => Some(Webhook { url, secret }),
            _ => None,
        };
        Ok(Hooks {
            webhook,
            site: row.try_get("site")?,
        })
    }
}

/// The receiver a webhook URL names: its host and port (`games.example:443`, `127.0.0.1:9000`),
/// the unit deliveries are shared between. Empty for a URL that does not parse (none is taken
/// at a table's creation).
pub fn receiver_of(url: &str) -> String {
    let Ok(parsed) = url::Url::parse(url) else {
        return String::new();
    };
    match (parsed.host_str(), parsed.port_or_known_default()) {
        (Some(host), Some(port)) => format!("{host}:{port}"),
        (Some(host), None) => host.to_owned(),
        (None, _) => String::new(),
    }
}

/// How many due events of each receiver (host) one claim may take: `per_host`, or fewer for the
/// receivers listed in `fewer` (those with deliveries under way, or whose breaker is open: 0).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HostShares {
    /// A receiver's share when it is not listed.
    pub per_host: usize,
    /// Receivers that may take fewer, with what each may take.
    pub fewer: Vec<(String, usize)>,
}

impl HostShares {
    /// The same share for every receiver.
    pub fn even(per_host: usize) -> HostShares {
        HostShares {
            per_host,
            fewer: Vec::new(),
        }
    }
}

/// An event on its way to a webhook, as the outbox keeps it.
struct Outgoing<'a> {
    /// Unique: the receiver's key to deduplicate.
    event_id: String,
    /// Whose events go out in order: a table's id, or `player:<id>`.
    key: &'a str,
    seq: u64,
    kind: &'a str,
    body: String,
}

impl Outgoing<'_> {
    /// Writes it in `tx` for each of `targets`, due at once: the event itself for the own
    /// webhook, a copy (its own key and chain) for the site's.
    async fn write(self, tx: &mut Write, targets: &Targets, now: Millis) -> Result<(), TableError> {
        if let Some(webhook) = &targets.own {
            self.insert(tx, &self.event_id, self.key, None, webhook, now)
                .await?;
        }
        if let Some((site, webhook)) = &targets.site {
            let event_id = site::copy_key(site, &self.event_id);
            let key = site::copy_key(site, self.key);
            self.insert(tx, &event_id, &key, Some(site.as_str()), webhook, now)
                .await?;
        }
        Ok(())
    }

    /// Writes one row of it, `event_id` in `chain`, for `webhook`.
    async fn insert(
        &self,
        tx: &mut Write,
        event_id: &str,
        chain: &str,
        site: Option<&str>,
        webhook: &Webhook,
        now: Millis,
    ) -> Result<(), TableError> {
        sqlx::query(
            "INSERT INTO moot_outbox (event_id, table_id, seq, kind, url, host, secret, body, \
             status, attempts, next_attempt_ms, last_error, created_ms, done_ms, site) \
             VALUES ($1, $2, $3, $4, $5, $9, $6, $7, 'pending', 0, $8, NULL, $8, NULL, $10)",
        )
        .bind(event_id)
        .bind(chain)
        .bind(self.seq as i64)
        .bind(self.kind)
        .bind(&webhook.url)
        .bind(&webhook.secret)
        .bind(self.body.as_str())
        .bind(now)
        .bind(receiver_of(&webhook.url))
        .bind(site)
        .execute(&mut **tx)
        .await?;
        chain::append(tx, chain, event_id, now).await
    }
}

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

    /// The same tables, writing to the outbox each event of a player's feed if the player
    /// names a webhook (its body written by `player`; without it, a player's webhook is
    /// refused), and each deadline notice and seat's notice of a table with a webhook (written
    /// by `deadline` and `seat`). After [`Tables::with_webhooks`].
    pub fn with_notice_webhooks(
        mut self,
        player: PlayerEventBody,
        deadline: DeadlineBody,
        seat: SeatNoticeBody,
    ) -> Tables {
        if let Some(outbox) = &mut self.outbox {
            outbox.player_body = Some(player);
            outbox.deadline_body = Some(deadline);
            outbox.seat_notice_body = Some(seat);
        }
        self
    }

    /// Whether these tables post players' feeds to their webhooks.
    pub fn takes_player_webhooks(&self) -> bool {
        self.outbox
            .as_ref()
            .is_some_and(|o| o.player_body.is_some())
    }

    /// In a change's transaction: writes player `event` to the outbox, for the player's
    /// `hooks` (its webhook, its site's). Its key is the player's (`player:<id>`), so that a
    /// player's events go out in order, as a table's do. Whether it wrote any.
    pub(super) async fn enqueue_player_event(
        &self,
        tx: &mut Write,
        player_id: &str,
        hooks: &Hooks,
        event: &PlayerEvent,
        now: Millis,
    ) -> Result<bool, TableError> {
        let Some(body) = self.outbox.as_ref().and_then(|o| o.player_body) else {
            return Ok(false);
        };
        let targets = Targets::of(tx, hooks).await?;
        if targets.is_empty() {
            return Ok(false);
        }
        let key = format!("player:{player_id}");
        let outgoing = Outgoing {
            event_id: format!("{key}-{}", event.seq),
            key: &key,
            seq: event.seq,
            kind: event.notice.kind(),
            body: body(event),
        };
        outgoing.write(tx, &targets, now).await?;
        Ok(true)
    }

    /// Rings the delivery worker's bell after a commit that wrote a player's event.
    pub(super) fn ring_outbox(&self) {
        if let Some(outbox) = &self.outbox {
            outbox.bell.notify_one();
        }
    }

    /// Waits until an event is committed in this process (at once if one was since the last
    /// wait); never, without webhooks.
    pub async fn event_committed(&self) {
        match &self.outbox {
            Some(outbox) => outbox.bell.notified().await,
            None => std::future::pending().await,
        }
    }

    /// In a change's transaction: writes its event to the outbox for the table's `hooks` (its
    /// webhook, its site's), if either names one.
    pub(super) async fn enqueue(
        &self,
        tx: &mut Write,
        hooks: &Hooks,
        committed: &Committed,
        now: Millis,
    ) -> Result<(), TableError> {
        let Some(outbox) = &self.outbox else {
            return Ok(());
        };
        let targets = Targets::of(tx, hooks).await?;
        if targets.is_empty() {
            return Ok(());
        }
        let id = &committed.table.id;
        let seq = committed.seq();
        let event = Outgoing {
            event_id: format!("{id}-{seq}"),
            key: id,
            seq,
            kind: committed.event.name(),
            body: (outbox.body)(committed),
        };
        event.write(tx, &targets, now).await
    }

    /// Rings the delivery worker's bell after a commit that may have written an event for
    /// `hooks` (a site's webhook may name none: then the worker finds nothing new).
    pub(super) fn ring(&self, hooks: &Hooks) {
        if let (Some(outbox), true) = (&self.outbox, hooks.any()) {
            outbox.bell.notify_one();
        }
    }
}
