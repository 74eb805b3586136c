//! Open tables that no one plays end: each table left waiting for a move longer than the
//! server keeps it waiting is closed as abandoned (finished, no winner, `ended_by:
//! "abandoned"`), then swept like any finished table once it has been kept its days. Without
//! this, a table without a clock would stay open for ever, and clients could fill the cap on
//! open tables for good.
//!
//! A table waits from its deadline if it has a clock (its waiting seat may claim the win until
//! it is closed), else from its last change (its creation, or its last move). It waits
//! [`Abandonment::after`] once someone has moved, and [`Abandonment::unstarted_after`] while
//! no one has.
//!
//! Each table is closed in a transaction of its own, written only where it is still open at
//! the ply it was found at: of two replicas closing one table, or of a closing and a move, one
//! commits and the other changes nothing. The closing is a change of the table like a
//! resignation: its event (`abandoned`) goes to the outbox for the table's webhook, to the
//! table's followers, and to the feeds of the players seated there.

use super::player_feed::Sitters;
use super::rows::{SELECT_TABLE, StoredTable, parse_json, read_seat};
use super::{Committed, DAY, EndedBy, Event, Millis, Standing, TableError, Tables};
use crate::limits::tables as limits;
use moot_games::{Game, Seat, with_game};

/// How long an open table is kept waiting for a move before it is closed as abandoned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Abandonment {
    /// How long a table where someone moved waits: after its deadline if it has a clock, else
    /// after its last move.
    pub after: Millis,
    /// How long a table where no one moved yet waits: after its first deadline if it has a
    /// clock, else after its creation.
    pub unstarted_after: Millis,
}

impl Default for Abandonment {
    fn default() -> Self {
        Abandonment::days(
            limits::ABANDON_AFTER_DAYS,
            limits::ABANDON_UNSTARTED_AFTER_DAYS,
        )
    }
}

impl Abandonment {
    /// Tables waiting `after` days once started, `unstarted_after` days before.
    pub fn days(after: u32, unstarted_after: u32) -> Abandonment {
        Abandonment {
            after: i64::from(after) * DAY,
            unstarted_after: i64::from(unstarted_after) * DAY,
        }
    }

    /// Whether an open table at `ply`, with this `deadline` (if it has a clock) and last
    /// changed at `updated`, has waited too long at `now`. (The query of
    /// [`Tables::abandon`] says the same in SQL.)
    fn is_over(&self, ply: u64, deadline: Option<Millis>, updated: Millis, now: Millis) -> bool {
        let since = deadline.unwrap_or(updated);
        let wait = if ply == 0 {
            self.unstarted_after
        } else {
            self.after
        };
        since < now.saturating_sub(wait)
    }
}

/// Tables looked at per query while closing: the ids of a batch are read, then each is closed
/// in its own transaction.
const BATCH: i64 = 500;

impl Tables {
    /// Closes as abandoned every open table that has waited for a move longer than
    /// `abandonment` allows at `now`; returns how many. A table that cannot be read is left
    /// (and logged); a failure of the database stops the run.
    pub async fn abandon(&self, now: Millis, abandonment: Abandonment) -> Result<u64, TableError> {
        let mut closed = 0;
        let mut after_id = String::new();
        loop {
            let ids: Vec<String> = sqlx::query_scalar(
                "SELECT id FROM moot_tables WHERE status = 'ongoing' AND id > $1 \
                 AND COALESCE(deadline_ms, updated_ms) < \
                 CASE WHEN ply = 0 THEN $2 ELSE $3 END ORDER BY id LIMIT $4",
            )
            .bind(&after_id)
            .bind(now.saturating_sub(abandonment.unstarted_after))
            .bind(now.saturating_sub(abandonment.after))
            .bind(BATCH)
            .fetch_all(self.store.reads()?)
            .await?;
            for id in &ids {
                let overdue = |row: &StoredTable, _| {
                    abandonment
                        .is_over(row.ply, row.deadline, row.updated, now)
                        .then_some((None, EndedBy::Abandoned))
                };
                match self.close_waiting(id, now, overdue).await {
                    Ok(Some(_)) => closed += 1,
                    Ok(None) => {}
                    Err(error) if error.is_storage() => return Err(error),
                    Err(error) => {
                        tracing::warn!(%error, table = %id, "an abandoned table cannot be closed")
                    }
                }
            }
            match ids.last() {
                Some(last) if ids.len() as i64 == BATCH => after_id = last.clone(),
                _ => return Ok(closed),
            }
        }
    }

    /// Ends table `id` outside its rules if it is still open and `decide`, told the stored
    /// row and the seat awaited, names how (the winner, if any, and why) at `now`, in one
    /// transaction with its event; `None` if it does not (or the table changed meanwhile: a
    /// move, another replica). The update is written only where the table still has the ply
    /// and the deadline read, so that of two replicas ending one table one does.
    pub(super) async fn close_waiting(
        &self,
        id: &str,
        now: Millis,
        decide: impl FnOnce(&StoredTable, Seat) -> Option<(Option<Seat>, EndedBy)>,
    ) -> Result<Option<Committed>, TableError> {
        let mut tx = self.write().await?;
        let outcome = async {
            let rows = sqlx::query(SELECT_TABLE)
                .bind(id)
                .fetch_all(&mut *tx)
                .await?;
            let Some(first) = rows.first() else {
                return Ok(None);
            };
            let mut row = StoredTable::read(first)?;
            if row.status != "ongoing" {
                return Ok(None);
            }
            let mut seats = Vec::with_capacity(2);
            let mut sitters = Sitters::default();
            for r in &rows {
                let (seat, keys) = read_seat(r)?;
                if let Some(player) = keys.player_id {
                    sitters.0.push((player, seat.seat));
                }
                seats.push(seat);
            }
            let hooks = row.hooks();
            let committed = with_game!(row.game, G => {
                let state: <G as Game>::State = parse_json(&row.state, "state")?;
                let Standing::Ongoing { to_act } = row.standing::<G>(&state)? else {
                    return Ok(None);
                };
                let Some((winner, ended_by)) = decide(&row, to_act) else {
                    return Ok(None);
                };
                let winner_index = winner.map(|w| w.index() as i64);
                let closed = sqlx::query(
                    "UPDATE moot_tables SET status = 'finished', winner = $1, \
                     ended_by = $2, deadline_ms = NULL, updated_ms = $3 \
                     WHERE id = $4 AND status = 'ongoing' AND ply = $5 \
                     AND COALESCE(deadline_ms, -1) = $6",
                )
                .bind(winner_index)
                .bind(ended_by.as_str())
                .bind(now)
                .bind(id)
                .bind(row.ply as i64)
                .bind(row.deadline.unwrap_or(-1))
                .execute(&mut *tx)
                .await?;
                if closed.rows_affected() != 1 {
                    return Ok(None);
                }
                row.status = "finished".to_owned();
                row.winner = winner_index;
                row.ended_by = Some(ended_by.as_str().to_owned());
                row.deadline = None;
                row.updated = now;
                let event = match (ended_by, winner) {
                    (EndedBy::Aborted, _) => Event::Aborted,
                    // Won on time without a claim: told as a claim of the waiting seat.
                    (EndedBy::Time, Some(seat)) => Event::TimeClaimed { seat },
                    _ => Event::Abandoned,
                };
                Committed { table: row.table::<G>(id, &state, seats)?, event }
            }, else return Err(TableError::Corrupt(row.game.to_owned())));
            self.enqueue(&mut tx, &hooks, &committed, now).await?;
            let rung = self
                .tell_players(&mut tx, id, sitters.told(&committed, None), now)
                .await?;
            Ok(Some((committed, hooks, rung)))
        }
        .await;
        let Some((committed, hooks, rung)) = tx.finish(outcome).await? else {
            return Ok(None);
        };
        self.ring(&hooks);
        self.ring_players(rung);
        Ok(Some(self.told(committed)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_waits_from_its_deadline_or_its_last_change_and_less_before_its_first_move() {
        let rules = Abandonment::days(30, 7);
        let t0 = 1_800_000_000_000;
        // No clock, no move: a week after its creation.
        assert!(!rules.is_over(0, None, t0, t0 + 7 * DAY));
        assert!(rules.is_over(0, None, t0, t0 + 7 * DAY + 1));
        // No clock, a move: 30 days after it.
        assert!(!rules.is_over(3, None, t0, t0 + 30 * DAY));
        assert!(rules.is_over(3, None, t0, t0 + 30 * DAY + 1));
        // A clock: from the deadline, however long ago the last change was.
        let deadline = t0 + 10 * DAY;
        assert!(!rules.is_over(3, Some(deadline), t0, deadline + 30 * DAY));
        assert!(rules.is_over(3, Some(deadline), t0, deadline + 30 * DAY + 1));
        assert!(!rules.is_over(0, Some(deadline), t0, deadline + 7 * DAY));
        assert!(rules.is_over(0, Some(deadline), t0, deadline + 7 * DAY + 1));
    }
}
