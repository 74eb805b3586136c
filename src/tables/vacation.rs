//! A seat's vacation: started now by the seat (or its player), ended by it or by itself once
//! the seat's allowance is used up (see [`super::clock`]). While the awaited seat is on
//! vacation its clock does not run: its deadline is moved on by the time taken. A vacation is
//! no change of the game (no event, the table's change number unchanged): its row's clock
//! times and deadline are rewritten where the table still has the ply and the deadline read,
//! and the deadline's notices are due again for the deadline moved. The opponent's player is
//! told (`vacation_started`, `vacation_ended`) in the same transaction, the table's webhook
//! too, and the table's followers as it happens (a [`super::SeatNotice`]).

use super::clock::VacationRefused;
use super::player_feed::Notice;
use super::rows::{parse_json, to_text};
use super::seat_notice::{SeatNotice, SeatNoticeKind};
use super::{Millis, Standing, Table, TableError, Tables};
use moot_games::{Game, with_game};

impl Tables {
    /// Starts (`on`) or ends the vacation of the seat holding `credential` at table `id`, at
    /// `now`: the table after it.
    pub async fn vacation(
        &self,
        id: &str,
        credential: &str,
        on: bool,
        now: Millis,
    ) -> Result<Table, TableError> {
        let mut tx = self.write().await?;
        let outcome = async {
            let (mut row, seat, seats, sitters) =
                Self::load_seated(&mut tx, id, credential, now).await?;
            let Some(clock) = row.clock else {
                return Err(TableError::Vacation(
                    "this table has no clock: there is no vacation to take".into(),
                ));
            };
            with_game!(row.game, G => {
                let state: <G as Game>::State = parse_json(&row.state, "state")?;
                let Standing::Ongoing { to_act } = row.standing::<G>(&state)? else {
                    return Err(TableError::Finished);
                };
                let times = row.times(&clock);
                let next = if on {
                    clock
                        .vacation_started(&times, seat, Some(to_act), now, row.created)
                        .map_err(|refused| TableError::Vacation(refused_words(refused)))?
                } else {
                    if clock
                        .on_vacation_until(&times.seats[seat.index()], now, row.created)
                        .is_none()
                    {
                        return Err(TableError::Vacation(
                            "the seat is on no vacation (or its vacation ran out)".into(),
                        ));
                    }
                    clock.vacation_ended(&times, seat, Some(to_act), now, row.created)
                };
                let deadline = clock.deadline(&next, to_act, row.created);
                let near = clock.near(&next, to_act, row.created);
                let written = sqlx::query(
                    "UPDATE moot_tables SET clock_times = $1, deadline_ms = $2, near_ms = $3, \
                     deadline_near_ply = NULL, deadline_passed_ply = NULL \
                     WHERE id = $4 AND ply = $5 AND status = 'ongoing' \
                     AND COALESCE(deadline_ms, -1) = $6",
                )
                .bind(to_text(&next)?)
                .bind(deadline)
                .bind(near)
                .bind(id)
                .bind(row.ply as i64)
                .bind(row.deadline.unwrap_or(-1))
                .execute(&mut *tx)
                .await?;
                if written.rows_affected() != 1 {
                    return Err(super::play::lost_race(&mut tx, id, row.ply).await);
                }
                row.clock_times = Some(next);
                row.deadline = Some(deadline);
                let table = row.table::<G>(id, &state, seats)?;
                // The opponent's player is told; the seat's own knows.
                let notice = match clock.on_vacation_until(&next.seats[seat.index()], now, row.created) {
                    Some(until) if on => Notice::VacationStarted { by: seat, until, deadline: Some(deadline) },
                    _ => Notice::VacationEnded { by: seat, deadline: Some(deadline) },
                };
                let told = sitters
                    .0
                    .into_iter()
                    .filter(|(_, sat)| *sat != seat)
                    .map(|(player, sat)| (player, sat, vec![notice.clone()]))
                    .collect();
                let rung = self.tell_players(&mut tx, id, told, now).await?;
                // The table's followers (both seats' pages) are told as it happens.
                let kind = if on {
                    SeatNoticeKind::VacationStarted
                } else {
                    SeatNoticeKind::VacationEnded
                };
                let seen = SeatNotice::at(&table, kind, seat, now)?;
                let hooks = row.hooks();
                self.tell_seat_notice(&mut tx, &hooks, &seen).await?;
                Ok((table, rung, seen, hooks))
            }, else Err(TableError::Corrupt(row.game.to_owned())))
        }
        .await;
        match tx.finish(outcome).await {
            Ok((table, rung, seen, hooks)) => {
                self.ring(&hooks);
                self.ring_players(rung);
                self.feed.publish_seat_notice(seen);
                Ok(table)
            }
            Err(error) => Err(self.expired_then(id, error, now).await),
        }
    }
}

/// Why a vacation cannot start, in words.
fn refused_words(refused: VacationRefused) -> String {
    match refused {
        VacationRefused::NoAllowance => "this table's clock gives no vacation (vacation_days: 0)",
        VacationRefused::Already => "the seat is on vacation already",
        VacationRefused::UsedUp => "the seat's vacation allowance is used up for this year",
    }
    .to_owned()
}
