//! Takebacks: a seat asks to take back its last move (its last turn, in Hirþ: every ply it
//! played since the other seat last moved) while the other seat has not moved; the other
//! accepts, and the table goes back to the position before those plies, the asking seat's
//! move awaited again with a fresh deadline; or declines (the asking seat withdrawing its own
//! request alike). A move by the other seat lets the request lapse (see `play`'s update).
//!
//! The position is rebuilt by replaying the moves kept (a takeback is rare; the moves are the
//! record, the state only their result). Taking back lowers the ply, so a table's change
//! number is its ply plus twice the plies taken back ([`super::Standing::seq`]): it still
//! grows, and the takeback's own number is kept, so that a follower that has not seen it is
//! given the table anew rather than moves that are gone. A request and its refusal are told
//! to the table's followers as notices ([`SeatNotice`]), in this process and, through
//! `NOTIFY`, in the other replicas, so that a seat's page shows them as they happen.

use sqlx::Row;

use super::outbox::Hooks;
use super::player_feed::{Notice, Sitters, Told};
use super::rows::{StoredTable, awaited, parse_json, seat_of, to_text};
use super::seat_notice::{SeatNotice, SeatNoticeKind};
use super::{Committed, Event, Millis, SeatInfo, Standing, Table, TableError, Tables, Takebacks};
use moot_games::{Game, Seat, Turn, with_game};

/// What a seat's takeback did.
#[derive(Clone, Debug, PartialEq)]
pub enum TookBack {
    /// The seat's request stands (made now, or before): the table as it stands.
    Asked(Table),
    /// The other seat's request was standing, and is accepted now: the change committed.
    Accepted(Committed),
}

impl Sitters {
    /// What each player seated is told of a takeback's request or answer.
    fn told_of(&self, notice: Notice) -> Told {
        self.0
            .iter()
            .map(|(player, seat)| (player.clone(), *seat, vec![notice.clone()]))
            .collect()
    }
}

impl Tables {
    /// The seat holding `credential` asks to take back its last move at table `id`; or, where
    /// the other seat asked, accepts: the table goes back to before the other's last move.
    pub async fn takeback(
        &self,
        id: &str,
        credential: &str,
        now: Millis,
    ) -> Result<TookBack, TableError> {
        let mut tx = self.write().await?;
        let outcome = async {
            let (mut row, seat, seats, sitters) =
                Self::load_seated(&mut tx, id, credential, now).await?;
            match row.takebacks.asked_by {
                Some(asking) if asking == seat => {
                    let table = table_of(&row, id, seats)?;
                    Ok((TookBack::Asked(table), None, Hooks::default(), None))
                }
                Some(asking) => {
                    let hooks = row.hooks();
                    let committed = self
                        .take_back(&mut tx, id, &mut row, asking, seats, now)
                        .await?;
                    let rung = self
                        .beside(&mut tx, &hooks, &sitters, &committed, now)
                        .await?;
                    Ok((TookBack::Accepted(committed), Some(rung), hooks, None))
                }
                None => {
                    let hooks = row.hooks();
                    ask(&mut tx, id, &row, seat).await?;
                    let told = sitters.told_of(Notice::TakebackAsked { by: seat });
                    let rung = self.tell_players(&mut tx, id, told, now).await?;
                    row.takebacks.asked_by = Some(seat);
                    let table = table_of(&row, id, seats)?;
                    let notice = SeatNotice::at(&table, SeatNoticeKind::TakebackAsked, seat, now)?;
                    self.tell_seat_notice(&mut tx, &hooks, &notice).await?;
                    Ok((TookBack::Asked(table), Some(rung), hooks, Some(notice)))
                }
            }
        }
        .await;
        let (took, rung, hooks, notice) = match tx.finish(outcome).await {
            Ok(done) => done,
            Err(error) => return Err(self.expired_then(id, error, now).await),
        };
        if let Some(notice) = notice {
            self.feed.publish_seat_notice(notice);
        }
        Ok(match (took, rung) {
            (TookBack::Accepted(committed), Some(rung)) => {
                TookBack::Accepted(self.announced(&hooks, rung, committed))
            }
            (took, rung) => {
                self.ring(&hooks);
                if let Some(rung) = rung {
                    self.ring_players(rung);
                }
                took
            }
        })
    }

    /// In `tx`: takes back `asking`'s last plies at table `id` (loaded as `row`, which is
    /// updated): the moves deleted, the position replayed without them, the deadline and its
    /// notices' marks started again.
    async fn take_back(
        &self,
        tx: &mut super::write::Write,
        id: &str,
        row: &mut StoredTable,
        asking: Seat,
        seats: Vec<SeatInfo>,
        now: Millis,
    ) -> Result<Committed, TableError> {
        let moves = sqlx::query(
            "SELECT ply, seat, notation FROM moot_moves WHERE table_id = $1 ORDER BY ply",
        )
        .bind(id)
        .fetch_all(&mut **tx)
        .await?
        .iter()
        .map(|r| {
            Ok((
                seat_of(r.try_get("seat")?)?,
                r.try_get::<String, _>("notation")?,
            ))
        })
        .collect::<Result<Vec<(Seat, String)>, TableError>>()?;
        if moves.len() as u64 != row.ply {
            return Err(TableError::Corrupt(format!(
                "a table at ply {} keeps {} moves",
                row.ply,
                moves.len()
            )));
        }
        let plies = moves
            .iter()
            .rev()
            .take_while(|(seat, _)| *seat == asking)
            .count() as u64;
        if plies == 0 {
            // The other seat moved since: the request lapsed.
            return Err(TableError::NoTakebackRequest);
        }
        let seen = row.ply;
        let ply = seen - plies;
        let taken_back = row.takebacks.plies + plies;
        let seq = ply + 2 * taken_back;
        // The asking seat's turn starts again now, its bank as it stands.
        let times = row
            .clock
            .map(|clock| clock.restarted(&row.times(&clock), now));
        let due = match (row.clock, &times) {
            (Some(clock), Some(times)) => Some((
                clock.deadline(times, asking, row.created),
                clock.near(times, asking, row.created),
            )),
            _ => None,
        };
        let deadline = due.map(|(deadline, _)| deadline);
        let times_text = times.as_ref().map(to_text).transpose()?;
        with_game!(row.game, G => {
            let state = replay::<G>(&row.options, &moves[..ply as usize])?;
            if G::turn(&state) != Turn::ToAct(asking) {
                return Err(TableError::Corrupt(format!(
                    "the position before ply {} does not await the seat that played it",
                    ply + 1
                )));
            }
            row.state = to_text(&state)?;
            let updated = sqlx::query(
                "UPDATE moot_tables SET state = $1, ply = $2, to_act = $3, deadline_ms = $4, \
                 deadline_near_ply = NULL, deadline_passed_ply = NULL, takeback_offer = NULL, \
                 taken_back = $5, takeback_seq = $6, updated_ms = $7, clock_times = $11, \
                 near_ms = $12 \
                 WHERE id = $8 AND ply = $9 AND status = 'ongoing' AND takeback_offer = $10",
            )
            .bind(&row.state)
            .bind(ply as i64)
            .bind(awaited::<G>(&state))
            .bind(deadline)
            .bind(taken_back as i64)
            .bind(seq as i64)
            .bind(now)
            .bind(id)
            .bind(seen as i64)
            .bind(asking.index() as i64)
            .bind(times_text.as_deref())
            .bind(due.map(|(_, near)| near))
            .execute(&mut **tx)
            .await?;
            if updated.rows_affected() != 1 {
                return Err(TableError::StalePly { seen, current: seen + 1 });
            }
            Tables::keep_taken_back_positions(tx, (id, row.game, &row.options), &moves, ply)
                .await?;
            sqlx::query("DELETE FROM moot_moves WHERE table_id = $1 AND ply > $2")
                .bind(id)
                .bind(ply as i64)
                .execute(&mut **tx)
                .await?;
            row.ply = ply;
            row.deadline = deadline;
            row.clock_times = times;
            row.updated = now;
            row.takebacks = Takebacks { asked_by: None, plies: taken_back, last_seq: seq };
            Ok(Committed {
                table: row.table::<G>(id, &state, seats)?,
                event: Event::TakenBack { seat: asking, plies },
            })
        }, else Err(TableError::Corrupt(row.game.to_owned())))
    }

    /// The seat holding `credential` declines the takeback the other seat asks for at table
    /// `id`, or withdraws its own request: the table as it stands after.
    pub async fn decline_takeback(
        &self,
        id: &str,
        credential: &str,
        now: Millis,
    ) -> Result<Table, TableError> {
        let mut tx = self.write().await?;
        let outcome = async {
            let (mut row, seat, seats, sitters) =
                Self::load_seated(&mut tx, id, credential, now).await?;
            let Some(asking) = row.takebacks.asked_by else {
                return Err(TableError::NoTakebackRequest);
            };
            let declined = sqlx::query(
                "UPDATE moot_tables SET takeback_offer = NULL \
                 WHERE id = $1 AND ply = $2 AND takeback_offer = $3",
            )
            .bind(id)
            .bind(row.ply as i64)
            .bind(asking.index() as i64)
            .execute(&mut *tx)
            .await?;
            if declined.rows_affected() != 1 {
                return Err(TableError::NoTakebackRequest);
            }
            let told = sitters.told_of(Notice::TakebackDeclined { by: seat });
            let rung = self.tell_players(&mut tx, id, told, now).await?;
            row.takebacks.asked_by = None;
            let table = table_of(&row, id, seats)?;
            let notice = SeatNotice::at(&table, SeatNoticeKind::TakebackDeclined, seat, now)?;
            let hooks = row.hooks();
            self.tell_seat_notice(&mut tx, &hooks, &notice).await?;
            Ok((table, rung, notice, hooks))
        }
        .await;
        let (table, rung, notice, hooks) = match tx.finish(outcome).await {
            Ok(done) => done,
            Err(error) => return Err(self.expired_then(id, error, now).await),
        };
        self.ring(&hooks);
        self.ring_players(rung);
        self.feed.publish_seat_notice(notice);
        Ok(table)
    }
}

/// In `tx`: `seat` asks to take back its last move at table `id` (loaded as `row`), if it may
/// and the table takes one more request since its last move; the request stands.
async fn ask(
    tx: &mut super::write::Write,
    id: &str,
    row: &StoredTable,
    seat: Seat,
) -> Result<(), TableError> {
    let last_mover = last_mover(tx, id, row.ply).await?;
    check_may_ask(seat, last_mover, awaited_seat(row)?)?;
    Tables::count_offer(tx, id, row.ply, row.takebacks.plies).await?;
    let asked = sqlx::query(
        "UPDATE moot_tables SET takeback_offer = $1 WHERE id = $2 AND ply = $3 \
         AND status = 'ongoing' AND takeback_offer IS NULL",
    )
    .bind(seat.index() as i64)
    .bind(id)
    .bind(row.ply as i64)
    .execute(&mut **tx)
    .await?;
    if asked.rows_affected() != 1 {
        return Err(TableError::StalePly {
            seen: row.ply,
            current: row.ply + 1,
        });
    }
    Ok(())
}

/// Whether `seat` may ask to take back its last move: the other seat's move is awaited, and
/// the last move played was `seat`'s.
fn check_may_ask(seat: Seat, last_mover: Option<Seat>, to_act: Seat) -> Result<(), TableError> {
    let refused = |why: &str| Err(TableError::NothingToTakeBack(why.to_owned()));
    match last_mover {
        None => refused("no move has been played: there is nothing to take back"),
        Some(_) if to_act == seat => refused(
            "your move is awaited: a takeback is asked for once your move (or turn) is made, \
             before the other seat moves",
        ),
        Some(last) if last != seat => refused("the other seat has moved since your last move"),
        Some(_) => Ok(()),
    }
}

/// The seat that played ply `ply` of table `id` (none before the first move).
async fn last_mover(
    tx: &mut super::write::Write,
    id: &str,
    ply: u64,
) -> Result<Option<Seat>, TableError> {
    if ply == 0 {
        return Ok(None);
    }
    let seat: Option<i64> =
        sqlx::query_scalar("SELECT seat FROM moot_moves WHERE table_id = $1 AND ply = $2")
            .bind(id)
            .bind(ply as i64)
            .fetch_optional(&mut **tx)
            .await?;
    seat.map(seat_of).transpose()
}

/// The seat an ongoing table's position awaits.
fn awaited_seat(row: &StoredTable) -> Result<Seat, TableError> {
    with_game!(row.game, G => {
        let state: <G as Game>::State = parse_json(&row.state, "state")?;
        match row.standing::<G>(&state)? {
            Standing::Ongoing { to_act } => Ok(to_act),
            Standing::Finished { .. } => Err(TableError::Finished),
        }
    }, else Err(TableError::Corrupt(row.game.to_owned())))
}

/// The table `id` as stored in `row`, with its `seats`.
fn table_of(row: &StoredTable, id: &str, seats: Vec<SeatInfo>) -> Result<Table, TableError> {
    with_game!(row.game, G => {
        let state: <G as Game>::State = parse_json(&row.state, "state")?;
        row.table::<G>(id, &state, seats)
    }, else Err(TableError::Corrupt(row.game.to_owned())))
}

/// Game `G`'s position after `moves` from the start of a game with `options`.
pub(super) fn replay<G: Game>(
    options: &str,
    moves: &[(Seat, String)],
) -> Result<G::State, TableError> {
    let options: G::Options = parse_json(options, "options")?;
    let mut state =
        G::new_game(&options).map_err(|e| TableError::Corrupt(format!("options: {e}")))?;
    for (ply, (_, notation)) in (1..).zip(moves) {
        let kept = |e| TableError::Corrupt(format!("the move kept at ply {ply} ({notation}): {e}"));
        let mv = G::parse_move(&state, notation).map_err(kept)?;
        G::apply(&mut state, &mv).map_err(kept)?;
    }
    Ok(state)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_takeback_is_asked_for_only_by_the_last_mover_while_the_other_seat_is_awaited() {
        let first = Seat::First;
        let second = Seat::Second;
        assert!(check_may_ask(first, Some(first), second).is_ok());
        // Nothing played yet.
        assert!(check_may_ask(first, None, first).is_err());
        // Its own move is awaited (the other replied, or its Hirþ turn goes on).
        assert!(check_may_ask(first, Some(second), first).is_err());
        assert!(check_may_ask(first, Some(first), first).is_err());
        // The other seat played last (a Hirþ answer that hands the turn back does not count).
        assert!(check_may_ask(first, Some(second), second).is_err());
    }
}
