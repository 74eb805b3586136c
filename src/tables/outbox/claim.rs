//! Claiming the chains' heads for delivery, putting back a head not posted, and holding back a
//! receiver's heads while its breaker is open. Each reads the chains' heads and the events they
//! name, never a chain's other events: its cost is that of the heads it looks at.

use sqlx::Row;

use super::{Claimed, HostShares, chain, receiver_of};
use crate::tables::store::Backend;
use crate::tables::{Millis, TableError, Tables};

const CLAIMED_COLUMNS: &str =
    "event_id, table_id, seq, kind, url, host, secret, body, attempts, created_ms, site";

/// How many of the oldest due heads one claim ranks by receiver: measured with SQLite, a claim
/// over 20,000 due events of one receiver took 76 ms when it ranked them all, 3 ms within 256.
pub const CLAIM_WINDOW: usize = 256;

impl Tables {
    /// Claims at most `limit` events due at `now`, each for one attempt: no one else claims it
    /// before `now + lease` (unless its attempt is recorded first). Each is its chain's head,
    /// its first event not yet delivered nor given up, so a table's events are delivered in
    /// order: by change, then (a change's notices follow it) in the order written. At most
    /// `shares` of each receiver's heads are taken, every receiver's oldest due head before any
    /// receiver's second, so that one receiver's backlog never fills the claim. The claim looks
    /// at the [`CLAIM_WINDOW`] oldest due heads of receivers with room: a receiver whose older
    /// heads fill that window gets its share, and is passed over by the next claim (made at
    /// once by a worker that claimed something), which then reaches the others.
    pub async fn claim_events(
        &self,
        now: Millis,
        lease: Millis,
        limit: usize,
        shares: &HostShares,
    ) -> Result<Vec<Claimed>, TableError> {
        let sql = heads_sql(self.store().backend, shares.fewer.len());
        let clamp = |n: usize| i64::try_from(n).unwrap_or(i64::MAX);
        let mut query = sqlx::query(&sql)
            .bind(now + lease)
            .bind(now)
            .bind(clamp(limit))
            .bind(clamp(shares.per_host));
        for (host, share) in &shares.fewer {
            query = query.bind(host.clone()).bind(clamp(*share));
        }
        let mut tx = self.bookkeeping_write().await?;
        let claimed = async {
            let heads: Vec<String> = query
                .fetch_all(&mut *tx)
                .await?
                .iter()
                .map(|row| row.try_get("head"))
                .collect::<Result<_, _>>()?;
            if heads.is_empty() {
                return Ok(Vec::new());
            }
            let sql = events_sql(heads.len());
            let mut events = sqlx::query(&sql).bind(now + lease);
            for head in heads {
                events = events.bind(head);
            }
            Ok(events.fetch_all(&mut *tx).await?)
        }
        .await;
        let rows = tx.finish(claimed).await?;
        rows.iter().map(claimed_of).collect()
    }

    /// Puts back `event`, claimed but not posted (its receiver's breaker is open, or its share
    /// is taken): due again at `at`, its attempt not counted.
    pub async fn event_released(&self, event: &Claimed, at: Millis) -> Result<(), TableError> {
        let mut tx = self.bookkeeping_write().await?;
        let outcome = async {
            sqlx::query(
                "UPDATE moot_outbox SET attempts = attempts - 1, next_attempt_ms = $1 \
                 WHERE event_id = $2 AND status = 'pending' AND attempts > 0",
            )
            .bind(at)
            .bind(&event.event_id)
            .execute(&mut *tx)
            .await?;
            chain::due_at(&mut tx, &event.table_id, &event.event_id, at).await
        }
        .await;
        tx.finish(outcome).await
    }

    /// Holds back the heads of the receiver `host` due before `until` (its breaker is open):
    /// due at `until`, their attempts unchanged. Other replicas then leave them too, rather
    /// than each scanning them at every claim; answers how many.
    pub async fn hold_receiver(&self, host: &str, until: Millis) -> Result<u64, TableError> {
        let mut tx = self.bookkeeping_write().await?;
        let outcome = sqlx::query(
            "UPDATE moot_outbox_chains SET due_ms = $1 \
             WHERE chain IN (SELECT table_id FROM moot_outbox \
             WHERE host = $2 AND status = 'pending') \
             AND head IS NOT NULL AND due_ms < $1 \
             AND (SELECT o.host FROM moot_outbox o WHERE o.event_id = head) = $2",
        )
        .bind(until)
        .bind(host)
        .execute(&mut *tx)
        .await
        .map(|done| done.rows_affected())
        .map_err(TableError::from);
        tx.finish(outcome).await
    }
}

/// The claim's first statement: the oldest due heads of receivers with room, at most
/// [`CLAIM_WINDOW`] of them, ranked within their receiver, and leased (`$1`) if due at `$2`;
/// at most `$3` of them, `$4` of a receiver not among the `fewer` receivers bound after them
/// (host and share). Answers the heads taken.
pub(super) fn heads_sql(backend: Backend, fewer: usize) -> String {
    let skip_locked = match backend {
        Backend::Postgres => " FOR UPDATE SKIP LOCKED",
        // One process writes at a time, under the writer's lock.
        Backend::Sqlite => "",
    };
    // The receivers' smaller shares, as rows ($5, $6), ($7, $8)…; none: an empty table.
    let fewer = if fewer == 0 {
        "SELECT CAST(NULL AS TEXT), CAST(0 AS BIGINT) WHERE 1 = 0".to_owned()
    } else {
        let rows: Vec<String> = (0..fewer)
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
    // Each head's receiver is read by its key (a subquery per head, in the due heads' order),
    // never by a join that a planner could answer by scanning the whole outbox; and the heads
    // once (materialized), not again for each chain the update looks at.
    format!(
        "WITH fewer (host, share) AS ({fewer}), \
         heads AS MATERIALIZED (SELECT chain, host, due_ms FROM (SELECT c.chain, c.due_ms, \
         (SELECT o.host FROM moot_outbox o WHERE o.event_id = c.head) AS host \
         FROM moot_outbox_chains c WHERE c.head IS NOT NULL AND c.due_ms <= $2) AS due \
         WHERE host NOT IN (SELECT host FROM fewer WHERE share = 0) \
         ORDER BY due_ms LIMIT {CLAIM_WINDOW}), \
         ranked AS (SELECT chain, host, due_ms, \
         ROW_NUMBER() OVER (PARTITION BY host ORDER BY due_ms, chain) AS turn FROM heads) \
         UPDATE moot_outbox_chains SET due_ms = $1 \
         WHERE chain IN (SELECT chain FROM moot_outbox_chains \
         WHERE chain IN (SELECT r.chain FROM ranked r LEFT JOIN fewer f ON f.host = r.host \
         WHERE r.turn <= COALESCE(f.share, $4) ORDER BY r.turn, r.due_ms LIMIT $3) \
         AND head IS NOT NULL AND due_ms <= $2{skip_locked}) \
         RETURNING head"
    )
}

/// The claim's second statement: the `heads` events taken ($2…), their attempt counted and
/// leased until `$1`.
pub(super) fn events_sql(heads: usize) -> String {
    let places: Vec<String> = (0..heads).map(|i| format!("${}", i + 2)).collect();
    format!(
        "UPDATE moot_outbox SET attempts = attempts + 1, next_attempt_ms = $1 \
         WHERE event_id IN ({}) AND status = 'pending' RETURNING {CLAIMED_COLUMNS}",
        places.join(", ")
    )
}

/// An event claimed, as its row reads.
fn claimed_of(row: &sqlx::any::AnyRow) -> Result<Claimed, TableError> {
    let url: String = row.try_get("url")?;
    let host: String = row.try_get("host")?;
    Ok(Claimed {
        event_id: row.try_get("event_id")?,
        table_id: row.try_get("table_id")?,
        site: row.try_get("site")?,
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
}
