//! A table's notices written to the outbox for its webhook: a deadline's, a seat's. Each
//! carries the change number of the change it follows and goes out after it.

use std::sync::atomic::{AtomicU64, Ordering};

use super::site::Targets;
use super::{Hooks, Outgoing};
use crate::tables::deadlines::DeadlineNotice;
use crate::tables::seat_notice::SeatNotice;
use crate::tables::write::Write;
use crate::tables::{TableError, Tables};

impl Tables {
    /// In a seat's notice's transaction: writes it to the outbox for the table's `hooks` (its
    /// webhook, its site's), after the change it follows. A seat may ask, be declined and ask again at one change,
    /// even within a millisecond: its id orders it after the notices this process made before
    /// (see [`notice_rank`]), and a random part keeps it apart from another replica's.
    pub(in crate::tables) async fn enqueue_seat_notice(
        &self,
        tx: &mut Write,
        hooks: &Hooks,
        notice: &SeatNotice,
    ) -> Result<(), TableError> {
        let Some(body) = self.outbox.as_ref().and_then(|o| o.seat_notice_body) else {
            return Ok(());
        };
        let targets = Targets::of(tx, hooks).await?;
        if targets.is_empty() {
            return Ok(());
        }
        let kind = notice.kind.name();
        let outgoing = Outgoing {
            event_id: format!(
                "{}-{}-{:020}-{}-{kind}",
                notice.table_id,
                notice.seq,
                notice_rank(),
                &crate::tables::secret::table_id()[..8]
            ),
            key: &notice.table_id,
            seq: notice.seq,
            kind,
            body: body(notice),
        };
        outgoing.write(tx, &targets, notice.time).await
    }

    /// In a deadline notice's transaction: writes it to the outbox for the table's `hooks` (its
    /// webhook, its site's), after the table's change it follows (same `seq`, written later).
    /// Whether it did.
    pub(in crate::tables) async fn enqueue_deadline(
        &self,
        tx: &mut Write,
        hooks: &Hooks,
        notice: &DeadlineNotice,
    ) -> Result<bool, TableError> {
        let Some(body) = self.outbox.as_ref().and_then(|o| o.deadline_body) else {
            return Ok(false);
        };
        let targets = Targets::of(tx, hooks).await?;
        if targets.is_empty() {
            return Ok(false);
        }
        let kind = notice.kind();
        let outgoing = Outgoing {
            event_id: format!("{}-{}-{kind}", notice.table_id, notice.seq),
            key: &notice.table_id,
            seq: notice.seq,
            kind,
            body: body(notice),
        };
        outgoing.write(tx, &targets, notice.time).await?;
        Ok(true)
    }
}

/// A number for each seat's notice this process writes to the outbox, greater than the last:
/// the nanoseconds since 1970, or one more than the last where the clock has not moved on.
fn notice_rank() -> u64 {
    static LAST: AtomicU64 = AtomicU64::new(0);
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |since| since.as_nanos() as u64);
    let previous = LAST
        .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |last| {
            Some(now.max(last + 1))
        })
        .unwrap_or(now);
    now.max(previous + 1)
}
