//! Deadline notices. Each awaited move's deadline is told once when it comes near (four fifths
//! of its time gone: `deadline_near`, to the player whose move is due) and once when it passes
//! (`deadline_passed`, to both players: the waiting one may claim the win), to the feeds of the
//! players seated at the table, to the table's webhook if it names one, and to the followers of
//! the table's stream (live: a notice is not kept with the moves; other replicas' followers hear
//! of it through `NOTIFY`). A deadline found already passed is told passed only. A first
//! deadline passed with no move made is not told: the table is aborted (no result), a change
//! like a resignation (see [`Tables::close_waiting`]); nor is a deadline passed on a clock
//! whose expiry ends the game: the table is ended, the waiting seat winning on time
//! ([`Tables::end_expired`], which a late change and a late read call too).
//!
//! The notices come from the database, not from a timer of one process: any replica's worker
//! looks for the deadlines due at the time it is given, and each table's notice is written in
//! one transaction with the mark that it was told (`deadline_near_ply`, `deadline_passed_ply`:
//! the ply whose deadline it was), only where the mark is not there yet. Of two replicas that
//! find one deadline, one writes the notice and the other changes nothing; a restart loses
//! nothing (the marks and the notices are committed together); a move changes the ply, so the
//! next deadline's notices are due again.

use sqlx::Row;

use super::outbox::Hooks;
use super::player_feed::{Notice, Sitters};
use super::rows::{StoredTable, parse_json, seat_of};
use super::write::Write;
use super::{Clock, Committed, DAY, EndedBy, Millis, TableError, Tables};
use crate::limits::tables as limits;
use moot_games::Seat;

/// The time left when a deadline is near, per day a move may take: a fifth (for a table whose
/// near time is not stored: made before clocks had kinds).
const NEAR_LEFT_PER_DAY: Millis = DAY / 5;

/// The most time between a deadline's coming near and the deadline: a fifth of the longest
/// turn (60 days of weekdays with their weekends, and a year's vacation), with room to spare.
const FURTHEST_NEAR: Millis = 40 * DAY;

/// Tables looked at per query: the ids of a batch are read, then each is told in its own
/// transaction.
const BATCH: i64 = 500;

/// Which notice a deadline is due.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Due {
    Near,
    Passed,
}

/// A table's deadline told, as its webhook posts it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeadlineNotice {
    /// The table's id.
    pub table_id: String,
    /// The table's change number (the notice follows that change).
    pub seq: u64,
    /// Moves played.
    pub ply: u64,
    /// The seat whose move is awaited.
    pub to_act: Seat,
    /// When the move is (or was) due.
    pub deadline: Millis,
    /// Whether the deadline passed (else it is near).
    pub passed: bool,
    /// When it was told.
    pub time: Millis,
}

impl DeadlineNotice {
    /// The event's name: `deadline_near` or `deadline_passed`.
    pub fn kind(&self) -> &'static str {
        if self.passed {
            "deadline_passed"
        } else {
            "deadline_near"
        }
    }
}

impl Tables {
    /// Tells each deadline that came near or passed by `now` and was not told yet, and aborts
    /// the tables whose first move is late; returns how many notices were written (one per
    /// table and kind) and tables aborted. A table that cannot be read is
    /// left (and logged); a failure of the database stops the run.
    pub async fn notice_deadlines(&self, now: Millis) -> Result<u64, TableError> {
        let mut told = 0;
        let mut after_id = String::new();
        let furthest_near = now.saturating_add(FURTHEST_NEAR);
        loop {
            // Near: four fifths of the time gone, not yet told; passed: not yet told.
            let ids: Vec<String> = sqlx::query_scalar(
                "SELECT id FROM moot_tables WHERE deadline_ms <= $1 AND status = 'ongoing' \
                 AND id > $2 AND to_act IS NOT NULL \
                 AND COALESCE(near_ms, deadline_ms - days_per_move * $3) <= $4 \
                 AND (deadline_passed_ply IS NULL OR deadline_passed_ply <> ply) \
                 AND (deadline_ms < $4 OR deadline_near_ply IS NULL OR deadline_near_ply <> ply) \
                 ORDER BY id LIMIT $5",
            )
            .bind(furthest_near)
            .bind(&after_id)
            .bind(NEAR_LEFT_PER_DAY)
            .bind(now)
            .bind(BATCH)
            .fetch_all(self.store.reads()?)
            .await?;
            for id in &ids {
                let done = match self.notice_deadline(id, now).await {
                    // Nothing to tell: a first deadline passed with no move aborts the table,
                    // a deadline passed on a clock whose expiry ends the game ends it.
                    Ok(false) => self.end_expired(id, now).await.map(|e| e.is_some()),
                    other => other,
                };
                match done {
                    Ok(true) => told += 1,
                    Ok(false) => {}
                    Err(error) if error.is_storage() => return Err(error),
                    Err(error) => {
                        tracing::warn!(%error, table = %id, "a deadline cannot be told")
                    }
                }
            }
            match ids.last() {
                Some(last) if ids.len() as i64 == BATCH => after_id = last.clone(),
                _ => return Ok(told),
            }
        }
    }

    /// Tells table `id`'s deadline if a notice is still due at `now`, in one transaction with
    /// its mark; whether it did (not if a move, the table's end or another replica came first).
    async fn notice_deadline(&self, id: &str, now: Millis) -> Result<bool, TableError> {
        let mut tx = self.write().await?;
        let outcome = async {
            let rows = sqlx::query(
                "SELECT t.ply, t.taken_back, t.to_act, t.deadline_ms, t.days_per_move, t.near_ms, \
                 t.clock, t.deadline_near_ply, t.deadline_passed_ply, t.webhook_url, \
                 t.webhook_secret, t.site, s.seat, s.player_id \
                 FROM moot_tables t JOIN moot_seats s ON s.table_id = t.id \
                 WHERE t.id = $1 AND t.status = 'ongoing' ORDER BY s.seat",
            )
            .bind(id)
            .fetch_all(&mut *tx)
            .await?;
            let Some(first) = rows.first() else {
                return Ok(None);
            };
            let ply: i64 = first.try_get("ply")?;
            let days: Option<i64> = first.try_get("days_per_move")?;
            let near = first.try_get::<Option<i64>, _>("near_ms")?.or_else(|| {
                let deadline = first.try_get::<Option<i64>, _>("deadline_ms").ok()??;
                Some(deadline - days? * NEAR_LEFT_PER_DAY)
            });
            let (Some(to_act), Some(deadline), Some(near)) = (
                first.try_get::<Option<i64>, _>("to_act")?,
                first.try_get::<Option<i64>, _>("deadline_ms")?,
                near,
            ) else {
                return Ok(None);
            };
            let ends = match first.try_get::<Option<String>, _>("clock")? {
                Some(text) => parse_json::<Clock>(&text, "clock")?.ends_on_expiry(),
                None => false,
            };
            let told_at = |column| -> Result<bool, TableError> {
                Ok(first.try_get::<Option<i64>, _>(column)? == Some(ply))
            };
            let due = if deadline < now && (ply == 0 || ends) {
                // The table is aborted, or ended on time, instead (by the caller).
                None
            } else if deadline < now {
                (!told_at("deadline_passed_ply")?).then_some(Due::Passed)
            } else if near <= now {
                (!told_at("deadline_near_ply")?).then_some(Due::Near)
            } else {
                None
            };
            let Some(due) = due else {
                return Ok(None);
            };
            if !Self::mark_told(&mut tx, id, ply, due).await? {
                return Ok(None);
            }
            let to_act = seat_of(to_act)?;
            let ply = ply as u64;
            let hooks = Hooks::read(first)?;
            let taken_back = first.try_get::<i64, _>("taken_back")? as u64;
            let notice = DeadlineNotice {
                table_id: id.to_owned(),
                // An ongoing table's change number: see `Standing::seq`.
                seq: ply + 2 * taken_back,
                ply,
                to_act,
                deadline,
                passed: due == Due::Passed,
                time: now,
            };
            let mut posted = false;
            if hooks.any() {
                posted = self.enqueue_deadline(&mut tx, &hooks, &notice).await?;
            }
            self.notify_deadline(&mut tx, &notice).await?;
            let mut sitters = Sitters::default();
            for row in &rows {
                if let Some(player) = row.try_get::<Option<String>, _>("player_id")? {
                    sitters.0.push((player, seat_of(row.try_get("seat")?)?));
                }
            }
            let told = sitters
                .0
                .into_iter()
                .filter(|(_, seat)| due == Due::Passed || *seat == to_act)
                .map(|(player, seat)| {
                    let notice = match due {
                        Due::Near => Notice::DeadlineNear {
                            ply,
                            to_act,
                            deadline,
                        },
                        Due::Passed => Notice::DeadlinePassed {
                            ply,
                            to_act,
                            deadline,
                        },
                    };
                    (player, seat, vec![notice])
                })
                .collect();
            let rung = self.tell_players(&mut tx, id, told, now).await?;
            Ok(Some((notice, rung, posted)))
        }
        .await;
        let Some((notice, rung, posted)) = tx.finish(outcome).await? else {
            return Ok(false);
        };
        self.ring_players(rung);
        if posted {
            self.ring_outbox();
        }
        if self.feed.is_followed(&notice.table_id) {
            self.feed.publish_deadline(notice);
        }
        Ok(true)
    }

    /// Ends table `id` if its deadline passed by `now`: aborted if no one moved in it yet,
    /// else, if its clock's expiry ends the game, won on time by the waiting seat; `None` if
    /// neither (or a move, or another replica, came first). The deadline worker, a change
    /// arriving late and a read of the table after its deadline all end it through this.
    pub(super) async fn end_expired(
        &self,
        id: &str,
        now: Millis,
    ) -> Result<Option<Committed>, TableError> {
        self.close_waiting(id, now, |row: &StoredTable, to_act: Seat| {
            let deadline = row.deadline?;
            if now <= deadline {
                return None;
            }
            if row.ply == 0 {
                return Some((None, EndedBy::Aborted));
            }
            row.clock
                .is_some_and(|clock| clock.ends_on_expiry())
                .then_some((Some(to_act.other()), EndedBy::Time))
        })
        .await
    }

    /// Marks the deadline of table `id` at `ply` told (a passed deadline is told near too:
    /// no near notice follows it), where it was not yet; whether this did.
    async fn mark_told(tx: &mut Write, id: &str, ply: i64, due: Due) -> Result<bool, TableError> {
        let query = match due {
            Due::Near => {
                "UPDATE moot_tables SET deadline_near_ply = ply \
                 WHERE id = $1 AND ply = $2 AND status = 'ongoing' \
                 AND (deadline_near_ply IS NULL OR deadline_near_ply <> $2)"
            }
            Due::Passed => {
                "UPDATE moot_tables SET deadline_near_ply = ply, deadline_passed_ply = ply \
                 WHERE id = $1 AND ply = $2 AND status = 'ongoing' \
                 AND (deadline_passed_ply IS NULL OR deadline_passed_ply <> $2)"
            }
        };
        let marked = sqlx::query(query)
            .bind(id)
            .bind(ply)
            .execute(&mut **tx)
            .await?;
        Ok(marked.rows_affected() == 1)
    }
}

/// Every [`limits::DEADLINES_EVERY`], for as long as the server runs (spawned on its runtime):
/// tells the deadlines come near or passed.
pub async fn deadlines_forever(tables: Tables) {
    let mut every = tokio::time::interval(limits::DEADLINES_EVERY);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        every.tick().await;
        match tables.notice_deadlines(super::now()).await {
            Ok(0) => {}
            Ok(told) => tracing::debug!(told, "deadlines told"),
            Err(error) => tracing::warn!(%error, "telling deadlines failed"),
        }
    }
}
