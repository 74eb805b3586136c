//! The chains of webhook events (a table's, a player's), each keeping its head: its first
//! event not yet delivered nor given up, the only one of the chain a claim may take. An event
//! written to an empty chain becomes its head; a head delivered or given up hands its place to
//! the chain's next pending event, found through the index of pending events alone (delivered
//! ones are never read).
//!
//! Events are appended to a chain in its order (a change's, then its notices; a player's feed
//! numbered as it grows), so the head set at the first write stays the first.
//!
//! On PostgreSQL two transactions may touch one chain at once: a change appending to it, and
//! a delivery advancing it. Both lock the chain's row first (the append's upsert, the
//! advance's `FOR UPDATE`), and the advance reads the next pending event after its lock, in a
//! statement of its own: an append committed before the lock is seen and becomes the head; an
//! append waiting for the lock finds the chain as the advance left it and, if it left no head,
//! becomes it.

use sqlx::Row;

use crate::tables::store::Backend;
use crate::tables::write::Write;
use crate::tables::{Millis, TableError};

/// A chain's (`$1`) first pending event, read from the index of pending events.
pub(super) const NEXT_PENDING: &str = "SELECT event_id, next_attempt_ms FROM moot_outbox \
    WHERE table_id = $1 AND status = 'pending' ORDER BY seq, created_ms, event_id LIMIT 1";

/// The upsert that appends an event (`$2`, due at `$3`) to a chain (`$1`).
pub(super) const APPEND: &str = "INSERT INTO moot_outbox_chains (chain, head, due_ms) \
    VALUES ($1, $2, $3) ON CONFLICT (chain) DO UPDATE SET \
    head = COALESCE(moot_outbox_chains.head, excluded.head), \
    due_ms = CASE WHEN moot_outbox_chains.head IS NULL THEN excluded.due_ms \
    ELSE moot_outbox_chains.due_ms END";

/// In the transaction writing `event_id` to `chain`: the event is the chain's head if nothing
/// of the chain waits, due at `now`.
pub(super) async fn append(
    tx: &mut Write,
    chain: &str,
    event_id: &str,
    now: Millis,
) -> Result<(), TableError> {
    sqlx::query(APPEND)
        .bind(chain)
        .bind(event_id)
        .bind(now)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// In the transaction that marked `done` delivered or given up: if it is `chain`'s head, the
/// chain's next pending event takes its place (due when that event is), or the chain is left
/// without a head, idle since `now`.
pub(super) async fn advance(
    tx: &mut Write,
    backend: Backend,
    chain: &str,
    done: &str,
    now: Millis,
) -> Result<(), TableError> {
    if backend == Backend::Postgres {
        sqlx::query("SELECT chain FROM moot_outbox_chains WHERE chain = $1 FOR UPDATE")
            .bind(chain)
            .fetch_optional(&mut **tx)
            .await?;
    }
    let next = sqlx::query(NEXT_PENDING)
        .bind(chain)
        .fetch_optional(&mut **tx)
        .await?;
    let (head, due) = match next {
        Some(row) => (
            Some(row.try_get::<String, _>("event_id")?),
            row.try_get::<i64, _>("next_attempt_ms")?.min(now),
        ),
        None => (None, now),
    };
    sqlx::query(
        "UPDATE moot_outbox_chains SET head = $1, due_ms = $2 WHERE chain = $3 AND head = $4",
    )
    .bind(head)
    .bind(due)
    .bind(chain)
    .bind(done)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// In `tx`: `chain`'s head `event_id` is next due at `at` (retried later, put back, claimed).
pub(super) async fn due_at(
    tx: &mut Write,
    chain: &str,
    event_id: &str,
    at: Millis,
) -> Result<(), TableError> {
    sqlx::query("UPDATE moot_outbox_chains SET due_ms = $1 WHERE chain = $2 AND head = $3")
        .bind(at)
        .bind(chain)
        .bind(event_id)
        .execute(&mut **tx)
        .await?;
    Ok(())
}
