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
//!
//! Each event keeps its receiver ([`receiver_of`] its URL: host and port), and a claim takes at
//! most a share of each receiver's due events ([`HostShares`]), the receivers' first events
//! before their second ones: a receiver with thousands of due events does not fill the claim
//! and starve the others. An event claimed but not posted (its receiver's breaker opened) is
//! put back without counting the attempt ([`Tables::event_released`]), and a receiver whose
//! breaker opens has its due events held back until its trial ([`Tables::hold_receiver`]).

use std::sync::Arc;

use sqlx::Row;
use tokio::sync::Notify;

use super::deadlines::DeadlineNotice;
use super::player_feed::PlayerEvent;
use super::seat_notice::SeatNotice;
use super::store::Backend;
use super::write::Write;
use super::{Committed, Millis, TableError, Tables, Webhook};

mod notices;

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

/// The outbox's backlog: events not yet delivered nor given up.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Backlog {
    /// How many.
    pub pending: u64,
    /// When the oldest of them was committed.
    pub oldest: Option<Millis>,
}

const CLAIMED_COLUMNS: &str =
    "event_id, table_id, seq, kind, url, host, secret, body, attempts, created_ms";

/// How many of the oldest due events one claim ranks by receiver: measured with SQLite, a claim
/// over 20,000 due events of one receiver took 76 ms when it ranked them all, 3 ms within 256.
pub const CLAIM_WINDOW: usize = 256;

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
    /// Writes it in `tx`, for `webhook`, due at once.
    async fn write(self, tx: &mut Write, webhook: &Webhook, now: Millis) -> Result<(), TableError> {
        sqlx::query(
            "INSERT INTO moot_outbox (event_id, table_id, seq, kind, url, host, secret, body, \
             status, attempts, next_attempt_ms, last_error, created_ms, done_ms) \
             VALUES ($1, $2, $3, $4, $5, $9, $6, $7, 'pending', 0, $8, NULL, $8, NULL)",
        )
        .bind(self.event_id)
        .bind(self.key)
        .bind(self.seq as i64)
        .bind(self.kind)
        .bind(&webhook.url)
        .bind(&webhook.secret)
        .bind(self.body)
        .bind(now)
        .bind(receiver_of(&webhook.url))
        .execute(&mut **tx)
        .await?;
        Ok(())
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
    /// `webhook`. Its key is the player's (`player:<id>`), so that a player's events go out in
    /// order, as a table's do.
    pub(super) async fn enqueue_player_event(
        &self,
        tx: &mut Write,
        player_id: &str,
        webhook: &Webhook,
        event: &PlayerEvent,
        now: Millis,
    ) -> Result<bool, TableError> {
        let Some(body) = self.outbox.as_ref().and_then(|o| o.player_body) else {
            return Ok(false);
        };
        let key = format!("player:{player_id}");
        let outgoing = Outgoing {
            event_id: format!("{key}-{}", event.seq),
            key: &key,
            seq: event.seq,
            kind: event.notice.kind(),
            body: body(event),
        };
        outgoing.write(tx, webhook, now).await?;
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
        let event = Outgoing {
            event_id: format!("{id}-{seq}"),
            key: id,
            seq,
            kind: committed.event.name(),
            body: (outbox.body)(committed),
        };
        event.write(tx, webhook, now).await
    }

    /// Rings the delivery worker's bell after a commit that wrote an event.
    pub(super) fn ring(&self, webhook: Option<&Webhook>) {
        if let (Some(outbox), Some(_)) = (&self.outbox, webhook) {
            outbox.bell.notify_one();
        }
    }

    /// Claims at most `limit` events due at `now`, each for one attempt: no one else claims it
    /// before `now + lease` (unless its attempt is recorded first). Each is its table's first
    /// event not yet delivered nor given up, so a table's events are delivered in order: by
    /// change, then (a change's notices follow it) by when each was written, then by id (a
    /// change's id, `<table>-<seq>`, comes before its notices', which go in the order made). At most
    /// `shares` of each receiver's events are taken, every receiver's oldest due event before any
    /// receiver's second, so that one receiver's backlog never fills the claim. The claim looks
    /// at the [`CLAIM_WINDOW`] oldest due events of receivers with room: a receiver whose older
    /// events fill that window gets its share, and is passed over by the next claim (made at
    /// once by a worker that claimed something), which then reaches the others.
    pub async fn claim_events(
        &self,
        now: Millis,
        lease: Millis,
        limit: usize,
        shares: &HostShares,
    ) -> Result<Vec<Claimed>, TableError> {
        let skip_locked = match self.store().backend {
            Backend::Postgres => " FOR UPDATE SKIP LOCKED",
            // One process writes at a time, under the writer's lock.
            Backend::Sqlite => "",
        };
        // The receivers' smaller shares, as rows ($5, $6), ($7, $8)…; none: an empty table.
        let fewer = if shares.fewer.is_empty() {
            "SELECT CAST(NULL AS TEXT), CAST(0 AS BIGINT) WHERE 1 = 0".to_owned()
        } else {
            let rows: Vec<String> = (0..shares.fewer.len())
                .map(|i| {
                    format!(
                        "(CAST(${} AS TEXT), CAST(${} AS BIGINT))",
                        5 + 2 * i,
                        6 + 2 * i
                    )
                })
                .collect();
            format!("VALUES {}", rows.join(", "))
        };
        // The oldest due events of receivers with room, at most CLAIM_WINDOW of them (the
        // cost of a claim stays bounded however many events wait), ranked within their receiver.
        let sql = format!(
            "WITH fewer (host, share) AS ({fewer}), \
             heads AS (SELECT o.event_id, o.host, o.next_attempt_ms FROM moot_outbox o \
             WHERE o.status = 'pending' AND o.next_attempt_ms <= $2 \
             AND o.host NOT IN (SELECT host FROM fewer WHERE share = 0) \
             AND NOT EXISTS (SELECT 1 FROM moot_outbox e WHERE e.table_id = o.table_id \
             AND e.status = 'pending' AND (e.seq < o.seq OR (e.seq = o.seq \
             AND (e.created_ms < o.created_ms \
             OR (e.created_ms = o.created_ms AND e.event_id < o.event_id))))) \
             ORDER BY o.next_attempt_ms LIMIT {CLAIM_WINDOW}), \
             ranked AS (SELECT event_id, host, next_attempt_ms, \
             ROW_NUMBER() OVER (PARTITION BY host ORDER BY next_attempt_ms, event_id) AS turn \
             FROM heads) \
             UPDATE moot_outbox SET attempts = attempts + 1, next_attempt_ms = $1 \
             WHERE event_id IN (SELECT event_id FROM moot_outbox \
             WHERE event_id IN (SELECT r.event_id FROM ranked r LEFT JOIN fewer f ON f.host = r.host \
             WHERE r.turn <= COALESCE(f.share, $4) ORDER BY r.turn, r.next_attempt_ms LIMIT $3) \
             AND status = 'pending' AND next_attempt_ms <= $2{skip_locked}) \
             RETURNING {CLAIMED_COLUMNS}"
        );
        let clamp = |n: usize| i64::try_from(n).unwrap_or(i64::MAX);
        let mut query = sqlx::query(&sql)
            .bind(now + lease)
            .bind(now)
            .bind(clamp(limit))
            .bind(clamp(shares.per_host));
        for (host, share) in &shares.fewer {
            query = query.bind(host.clone()).bind(clamp(*share));
        }
        let mut tx = self.write().await?;
        let rows = query.fetch_all(&mut *tx).await.map_err(TableError::from);
        let rows = tx.finish(rows).await?;
        rows.iter()
            .map(|row| {
                let url: String = row.try_get("url")?;
                let host: String = row.try_get("host")?;
                Ok(Claimed {
                    event_id: row.try_get("event_id")?,
                    table_id: row.try_get("table_id")?,
                    seq: row.try_get::<i64, _>("seq")? as u64,
                    kind: row.try_get("kind")?,
                    // Written before the outbox kept it: read from the URL.
                    host: if host.is_empty() {
                        receiver_of(&url)
                    } else {
                        host
                    },
                    url,
                    secret: row.try_get("secret")?,
                    body: row.try_get("body")?,
                    attempts: row.try_get::<i64, _>("attempts")? as u32,
                    created: row.try_get("created_ms")?,
                })
            })
            .collect()
    }

    /// Puts back `event`, claimed but not posted (its receiver's breaker is open, or its share
    /// is taken): due again at `at`, its attempt not counted.
    pub async fn event_released(&self, event: &Claimed, at: Millis) -> Result<(), TableError> {
        let mut tx = self.write().await?;
        let outcome = sqlx::query(
            "UPDATE moot_outbox SET attempts = attempts - 1, next_attempt_ms = $1 \
             WHERE event_id = $2 AND status = 'pending' AND attempts > 0",
        )
        .bind(at)
        .bind(&event.event_id)
        .execute(&mut *tx)
        .await
        .map(drop)
        .map_err(TableError::from);
        tx.finish(outcome).await
    }

    /// Holds back the pending events of the receiver `host` due before `until` (its breaker is
    /// open): due at `until`, their attempts unchanged. Other replicas then leave them too,
    /// rather than each scanning them at every claim; answers how many.
    pub async fn hold_receiver(&self, host: &str, until: Millis) -> Result<u64, TableError> {
        let mut tx = self.write().await?;
        let outcome = sqlx::query(
            "UPDATE moot_outbox SET next_attempt_ms = $1 \
             WHERE host = $2 AND status = 'pending' AND next_attempt_ms < $1",
        )
        .bind(until)
        .bind(host)
        .execute(&mut *tx)
        .await
        .map(|done| done.rows_affected())
        .map_err(TableError::from);
        tx.finish(outcome).await
    }

    /// Writes the receiver of the pending events that have none (written before the outbox kept
    /// it, or by a server of an older version beside this one), so that claims share them
    /// fairly; answers how many.
    pub async fn fill_event_hosts(&self) -> Result<u64, TableError> {
        let rows = sqlx::query(
            "SELECT event_id, url FROM moot_outbox WHERE host = '' AND status = 'pending'",
        )
        .fetch_all(&self.store().pool)
        .await?;
        if rows.is_empty() {
            return Ok(0);
        }
        let mut tx = self.write().await?;
        let outcome = async {
            let mut filled = 0;
            for row in &rows {
                let event_id: String = row.try_get("event_id")?;
                let url: String = row.try_get("url")?;
                let done = sqlx::query(
                    "UPDATE moot_outbox SET host = $1 WHERE event_id = $2 AND host = ''",
                )
                .bind(receiver_of(&url))
                .bind(event_id)
                .execute(&mut *tx)
                .await?;
                filled += done.rows_affected();
            }
            Ok(filled)
        }
        .await;
        tx.finish(outcome).await
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
