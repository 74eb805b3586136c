//! The outbox's upkeep: its backlog, by receiver, for the gauges; and, at a worker's start, the
//! events an older server wrote put in order (their receiver written, their chain given its
//! head).

use sqlx::Row;

use super::receiver_of;
use crate::tables::{Millis, TableError, Tables};

/// The outbox's backlog: events not yet delivered nor given up.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Backlog {
    /// How many.
    pub pending: u64,
    /// When the oldest of them was committed.
    pub oldest: Option<Millis>,
    /// The same by receiver, the largest backlogs first, at most [`MOST_RECEIVERS`] of them.
    pub receivers: Vec<ReceiverBacklog>,
}

/// One receiver's part of the backlog.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReceiverBacklog {
    /// The receiver: a webhook URL's host and port.
    pub host: String,
    /// Its events not yet delivered nor given up.
    pub pending: u64,
    /// When the oldest of them was committed.
    pub oldest: Millis,
}

/// The most receivers the backlog names one by one (a gauge's labels each): the rest are only
/// in the totals.
pub const MOST_RECEIVERS: usize = 50;

impl Tables {
    /// The events not yet delivered nor given up, in all and by receiver: read from the index
    /// of pending events alone, whatever was delivered.
    pub async fn backlog(&self) -> Result<Backlog, TableError> {
        let rows = sqlx::query(
            "SELECT host, COUNT(*) AS pending, MIN(created_ms) AS oldest FROM moot_outbox \
             WHERE status = 'pending' GROUP BY host",
        )
        .fetch_all(self.store().reads()?)
        .await?;
        let mut receivers = rows
            .iter()
            .map(|row| {
                Ok(ReceiverBacklog {
                    host: row.try_get("host")?,
                    pending: row.try_get::<i64, _>("pending")? as u64,
                    oldest: row.try_get("oldest")?,
                })
            })
            .collect::<Result<Vec<_>, TableError>>()?;
        let pending = receivers.iter().map(|r| r.pending).sum();
        let oldest = receivers.iter().map(|r| r.oldest).min();
        receivers.sort_by(|a, b| b.pending.cmp(&a.pending).then_with(|| a.host.cmp(&b.host)));
        receivers.truncate(MOST_RECEIVERS);
        Ok(Backlog {
            pending,
            oldest,
            receivers,
        })
    }

    /// Writes the receiver of the pending events that have none (written before the outbox kept
    /// it, or by a server of an older version beside this one), so that claims share them
    /// fairly; answers how many.
    pub async fn fill_event_hosts(&self) -> Result<u64, TableError> {
        let rows = sqlx::query(
            "SELECT event_id, url FROM moot_outbox WHERE host = '' AND status = 'pending'",
        )
        .fetch_all(self.store().reads()?)
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

    /// Gives a head to each chain whose pending events have none (written by a server of an
    /// older version, which kept no heads): its first pending event. Answers how many chains.
    pub async fn adopt_waiting_events(&self) -> Result<u64, TableError> {
        let mut tx = self.write().await?;
        let outcome = sqlx::query(
            "INSERT INTO moot_outbox_chains (chain, head, due_ms) \
             SELECT table_id, event_id, next_attempt_ms FROM ( \
             SELECT o.table_id, o.event_id, o.next_attempt_ms, ROW_NUMBER() OVER \
             (PARTITION BY o.table_id ORDER BY o.seq, o.created_ms, o.event_id) AS place \
             FROM moot_outbox o WHERE o.status = 'pending' AND NOT EXISTS \
             (SELECT 1 FROM moot_outbox_chains c WHERE c.chain = o.table_id AND c.head IS NOT NULL) \
             ) AS waiting WHERE place = 1 \
             ON CONFLICT (chain) DO UPDATE SET head = excluded.head, due_ms = excluded.due_ms \
             WHERE moot_outbox_chains.head IS NULL",
        )
        .execute(&mut *tx)
        .await
        .map(|done| done.rows_affected())
        .map_err(TableError::from);
        tx.finish(outcome).await
    }
}
