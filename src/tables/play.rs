//! A seat's changes to its table: a move, a resignation, a claim on time. Each is one write:
//! the table loaded and the seat found by its credential, the change checked and written (only
//! where the table still has the ply it was loaded at), its event written to the outbox and
//! announced, then committed. On PostgreSQL a move with nothing to write beside it is written
//! in one statement that commits by itself (the ply check makes the read before it safe), the
//! fewest round trips a move can take.

use super::player_feed::{Rung, Sitters};
use super::rows::{SELECT_TABLE, StoredTable, awaited, columns, parse_json, read_seat, to_text};
use super::write::Write;
use super::{
    Committed, EndedBy, Event, Millis, Played, SeatInfo, Standing, TableError, Tables, Webhook,
    secret,
};
use moot_games::with_game;
use moot_games::{Game, Seat, Turn};
use sqlx::any::AnyArguments;
use sqlx::query::Query;
use sqlx::{Any, Row};

impl Tables {
    /// Loads a table for a change in `tx` at `now` and finds the seat whose credential this
    /// is: refused if the table is over, or if its clock expired and its expiry ends the game
    /// (the caller then ends it: see [`Tables::expired_then`]).
    pub(super) async fn load_seated(
        tx: &mut Write,
        id: &str,
        credential: &str,
        now: Millis,
    ) -> Result<(StoredTable, Seat, Vec<SeatInfo>, Sitters), TableError> {
        if !secret::is_table_id(id) {
            return Err(TableError::UnknownTable);
        }
        let rows = sqlx::query(SELECT_TABLE)
            .bind(id)
            .fetch_all(&mut **tx)
            .await?;
        let row = StoredTable::read(rows.first().ok_or(TableError::UnknownTable)?)?;
        let mut seated = None;
        let mut seats = Vec::with_capacity(2);
        let mut sitters = Sitters::default();
        for r in &rows {
            let (seat, keys) = read_seat(r)?;
            // Every seat is compared, so the time taken tells nothing of which matched. A
            // player's credential opens the seats its player took.
            if keys.opened_by(credential) {
                seated = Some(seat.seat);
            }
            if let Some(player) = keys.player_id {
                sitters.0.push((player, seat.seat));
            }
            seats.push(seat);
        }
        let seat = seated.ok_or(TableError::BadCredential)?;
        if row.status == "finished" {
            return Err(TableError::Finished);
        }
        if row.expired(now) {
            return Err(TableError::TimeExpired);
        }
        Ok((row, seat, seats, sitters))
    }

    /// In a seat's change's transaction, once the change is written: what is written beside
    /// it (its event in the outbox, its `NOTIFY`, its players' notices, its answer for an
    /// `Idempotency-Key`).
    pub(super) async fn beside(
        &self,
        tx: &mut Write,
        webhook: Option<&Webhook>,
        sitters: &Sitters,
        committed: &Committed,
        now: Millis,
    ) -> Result<Rung, TableError> {
        self.enqueue(tx, webhook, committed, now).await?;
        self.notify(tx, &committed.table.id, committed.seq())
            .await?;
        let rung = self
            .tell_players(tx, &committed.table.id, sitters.told(committed, None), now)
            .await?;
        self.remember_change(tx, committed, now).await?;
        Ok(rung)
    }

    /// Whether a change writes more than itself (its event in the outbox, its players'
    /// notices, its answer for an `Idempotency-Key`): then it takes a transaction of its own.
    fn writes_beside(&self, webhook: Option<&Webhook>, sitters: &Sitters) -> bool {
        (self.outbox.is_some() && webhook.is_some())
            || self.remembering.is_some()
            || !sitters.0.is_empty()
    }

    /// After the commit: the delivery worker's bell rung, this process's followers and the
    /// players' told.
    pub(super) fn announced(
        &self,
        webhook: Option<&Webhook>,
        rung: Rung,
        committed: Committed,
    ) -> Committed {
        self.ring(webhook);
        self.ring_players(rung);
        self.told(committed)
    }

    /// Plays `text` at table `id` for the seat holding `credential`, if the table is still at
    /// `seen_ply`.
    pub async fn play(
        &self,
        id: &str,
        credential: &str,
        seen_ply: u64,
        text: &str,
        now: Millis,
    ) -> Result<Committed, TableError> {
        // On PostgreSQL a move is read, then written in one statement (the table's row where
        // it still has the ply read, the move's, the `NOTIFY`) that commits by itself; a
        // transaction opens only where more is written beside it. SQLite's transaction is
        // open from the start.
        let mut tx = self.deferred_write().await?;
        let outcome = async {
            let (row, seat, seats, sitters) =
                Self::load_seated(&mut tx, id, credential, now).await?;
            if row.ply != seen_ply {
                return Err(TableError::StalePly {
                    seen: seen_ply,
                    current: row.ply,
                });
            }
            let webhook = row.webhook.clone();
            let beside = self.writes_beside(webhook.as_ref(), &sitters);
            if beside {
                tx.transaction().await?;
            }
            let committed = with_game!(row.game, G => {
                self.play_in::<G>(&mut tx, id, row, seat, seats, text, now).await?
            }, else return Err(TableError::Corrupt(row.game.to_owned())));
            let mut rung = Rung::default();
            if beside {
                self.enqueue(&mut tx, webhook.as_ref(), &committed, now)
                    .await?;
                // The mover's move was awaited: a turn of several moves is told once.
                let told = sitters.told(&committed, Some(seat));
                rung = self.tell_players(&mut tx, id, told, now).await?;
                self.remember_change(&mut tx, &committed, now).await?;
            }
            Ok((committed, webhook, rung))
        }
        .await;
        let finished = tx.finish(outcome).await.map_err(|e| match e {
            TableError::Database(e) => stale_if_taken(e, seen_ply),
            e => e,
        });
        let (committed, webhook, rung) = match finished {
            Err(error) => return Err(self.expired_then(id, error, now).await),
            Ok(done) => done,
        };
        Ok(self.announced(webhook.as_ref(), rung, committed))
    }

    /// Checks and applies the move `text` with game `G`'s engine and writes it in `tx`: the
    /// move's row and the table's, where the table still has the ply it was loaded at, and
    /// the change's `NOTIFY`. A move that brings the table to the ply cap ends it, drawn, if
    /// the rules did not.
    #[allow(clippy::too_many_arguments)]
    async fn play_in<G: Game>(
        &self,
        tx: &mut Write,
        id: &str,
        mut row: StoredTable,
        seat: Seat,
        seats: Vec<SeatInfo>,
        text: &str,
        now: Millis,
    ) -> Result<Committed, TableError> {
        let mut state: G::State = parse_json(&row.state, "state")?;
        match G::turn(&state) {
            Turn::ToAct(to_act) if to_act != seat => return Err(TableError::NotYourTurn),
            Turn::ToAct(_) => {}
            Turn::Won(_) | Turn::Drawn => return Err(TableError::Finished),
        }
        let refused = |error| TableError::Move {
            text: text.to_owned(),
            error,
        };
        let mv = G::parse_move(&state, text).map_err(refused)?;
        let notation = G::format_move(&state, &mv);
        G::apply(&mut state, &mv).map_err(refused)?;
        let seen = row.ply;
        let ply = seen + 1;
        let standing = match Standing::after::<G>(&state) {
            Standing::Ongoing { .. } if ply >= self.ply_cap => Standing::Finished {
                winner: None,
                ended_by: EndedBy::PlyLimit,
            },
            standing => standing,
        };
        let (status, winner, ended_by) = columns(&standing);
        let times = row
            .clock
            .map(|clock| clock.after_move(&row.times(&clock), seat, now, row.created));
        let (deadline, near) = match (&standing, row.clock, &times) {
            (Standing::Ongoing { to_act }, Some(clock), Some(times)) => (
                Some(clock.deadline(times, *to_act, row.created)),
                Some(clock.near(times, *to_act, row.created)),
            ),
            _ => (None, None),
        };
        let times_text = times.as_ref().map(to_text).transpose()?;
        row.state = to_text(&state)?;
        let written = Written {
            state: &row.state,
            ply,
            seen,
            status,
            winner,
            ended_by,
            deadline,
            near,
            clock_times: times_text.as_deref(),
            to_act: awaited::<G>(&state),
            seat: seat.index() as i64,
            notation: &notation,
            now,
        };
        let updated = match self.notice(id, standing.seq(ply, row.takebacks.plies)) {
            Some(notice) => written.in_one_statement(tx, id, notice).await,
            None => written.in_two_statements(tx, id).await,
        }
        .map_err(|e| stale_if_taken(e, seen))?;
        if !updated {
            return Err(lost_race(tx, id, seen).await);
        }
        row.ply = ply;
        row.status = status.to_owned();
        row.winner = winner;
        row.ended_by = ended_by.map(str::to_owned);
        row.deadline = deadline;
        row.clock_times = times;
        row.updated = now;
        row.takebacks.asked_by = None;
        Ok(Committed {
            table: row.table::<G>(id, &state, seats)?,
            event: Event::Moved(Played {
                ply,
                seat,
                notation,
                time: now,
            }),
        })
    }

    /// The seat holding `credential` resigns: the other seat wins.
    pub async fn resign(
        &self,
        id: &str,
        credential: &str,
        now: Millis,
    ) -> Result<Committed, TableError> {
        self.end(id, credential, now, |ending| {
            Ok((Some(ending.seat.other()), EndedBy::Resignation))
        })
        .await
    }

    /// The seat holding `credential` claims a win on time: it must be waiting for the other's
    /// move, and that move's deadline must have passed. Where no one has moved, the late first
    /// move aborts the table instead (see [`super::deadlines`]): there is nothing to claim.
    pub async fn claim(
        &self,
        id: &str,
        credential: &str,
        now: Millis,
    ) -> Result<Committed, TableError> {
        self.end(id, credential, now, |ending| {
            if ending.to_act == ending.seat {
                return Err(TableError::NotWaiting);
            }
            match ending.row.deadline {
                None => Err(TableError::TooEarly("this table has no clock".into())),
                Some(deadline) if now <= deadline => Err(TableError::TooEarly(format!(
                    "the move is due in {} s",
                    (deadline - now + 999) / 1000
                ))),
                Some(_) if ending.row.ply == 0 => Err(TableError::Unstarted),
                Some(_) => Ok((Some(ending.seat), EndedBy::Time)),
            }
        })
        .await
    }

    /// The seat holding `credential` calls the table off, with no result: only while a seat
    /// has not moved yet.
    pub async fn abort(
        &self,
        id: &str,
        credential: &str,
        now: Millis,
    ) -> Result<Committed, TableError> {
        self.end(id, credential, now, |ending| {
            if ending.both_moved {
                return Err(TableError::BothMoved);
            }
            Ok((None, EndedBy::Aborted))
        })
        .await
    }

    /// Ends a table outside the rules: `decide` is told the table and who asks, and names the
    /// winner (if any) and how it ended.
    async fn end(
        &self,
        id: &str,
        credential: &str,
        now: Millis,
        decide: impl FnOnce(&Ending) -> Result<(Option<Seat>, EndedBy), TableError>,
    ) -> Result<Committed, TableError> {
        let mut tx = self.write().await?;
        let outcome = async {
            let (mut row, seat, seats, sitters) =
                Self::load_seated(&mut tx, id, credential, now).await?;
            let movers: i64 = sqlx::query_scalar(
                "SELECT COUNT(DISTINCT seat) FROM moot_moves WHERE table_id = $1",
            )
            .bind(id)
            .fetch_one(&mut *tx)
            .await?;
            let webhook = row.webhook.clone();
            let committed = with_game!(row.game, G => {
                let state: <G as Game>::State = parse_json(&row.state, "state")?;
                let Standing::Ongoing { to_act } = row.standing::<G>(&state)? else {
                    return Err(TableError::Finished);
                };
                let ending = Ending { row: &row, to_act, seat, both_moved: movers >= 2 };
                let (winner, ended_by) = decide(&ending)?;
                let winner_index = winner.map(|w| w.index() as i64);
                let updated = sqlx::query(
                    "UPDATE moot_tables SET status = 'finished', winner = $1, ended_by = $2, \
                     deadline_ms = NULL, updated_ms = $3 WHERE id = $4 AND status = 'ongoing' AND ply = $5",
                )
                .bind(winner_index)
                .bind(ended_by.as_str())
                .bind(now)
                .bind(id)
                .bind(row.ply as i64)
                .execute(&mut *tx)
                .await?;
                if updated.rows_affected() != 1 {
                    return Err(lost_race(&mut tx, id, row.ply).await);
                }
                row.status = "finished".to_owned();
                row.winner = winner_index;
                row.ended_by = Some(ended_by.as_str().to_owned());
                row.deadline = None;
                row.updated = now;
                let event = match ended_by {
                    EndedBy::Time => Event::TimeClaimed { seat },
                    EndedBy::Aborted => Event::Aborted,
                    _ => Event::Resigned { seat },
                };
                Committed { table: row.table::<G>(id, &state, seats)?, event }
            }, else return Err(TableError::Corrupt(row.game.to_owned())));
            let rung = self
                .beside(&mut tx, webhook.as_ref(), &sitters, &committed, now)
                .await?;
            Ok((committed, webhook, rung))
        }
        .await;
        let (committed, webhook, rung) = match tx.finish(outcome).await {
            Err(error) => return Err(self.expired_then(id, error, now).await),
            Ok(done) => done,
        };
        Ok(self.announced(webhook.as_ref(), rung, committed))
    }

    /// A change's refusal, once a refusal for an expired clock has ended the table on time
    /// (in this request, if no replica's deadline worker did it first): the refused change
    /// rolled back, the ending is a change of its own. The database's failure to end it is
    /// answered in the refusal's stead.
    pub(super) async fn expired_then(
        &self,
        id: &str,
        error: TableError,
        now: Millis,
    ) -> TableError {
        if !matches!(error, TableError::TimeExpired) {
            return error;
        }
        match self.end_expired(id, now).await {
            Ok(_) => error,
            Err(failed) => failed,
        }
    }
}

/// What a seat's ending of its table is decided on.
struct Ending<'a> {
    /// The table as read.
    row: &'a StoredTable,
    /// The seat whose move is awaited.
    to_act: Seat,
    /// The seat asking.
    seat: Seat,
    /// Whether both seats have moved.
    both_moved: bool,
}

/// Why a change of table `id` loaded at ply `seen` found it changed when it wrote (another
/// change committed meanwhile, which PostgreSQL's replicas allow): `Finished` if a
/// resignation, a claim or the sweep's closing ended it at that ply, else `StalePly` (a
/// move).
/// A move's update of its table, where the table still has the ply read (`$10`) and is
/// ongoing: the same text alone and inside PostgreSQL's one statement. A takeback asked for
/// lapses: the other seat moved.
macro_rules! update_table {
    () => {
        "UPDATE moot_tables SET state = $1, ply = $2, status = $3, winner = $4, \
         ended_by = $5, deadline_ms = $6, updated_ms = $7, to_act = $8, takeback_offer = NULL, \
         clock_times = $11, near_ms = $12 WHERE id = $9 AND ply = $10 AND status = 'ongoing'"
    };
}

/// A move's row and its table's new columns, as written.
struct Written<'a> {
    state: &'a str,
    ply: u64,
    /// The table's ply when read: it is written only where it still has it.
    seen: u64,
    status: &'a str,
    winner: Option<i64>,
    ended_by: Option<&'a str>,
    deadline: Option<Millis>,
    near: Option<Millis>,
    clock_times: Option<&'a str>,
    to_act: Option<i64>,
    seat: i64,
    notation: &'a str,
    now: Millis,
}

impl Written<'_> {
    /// On PostgreSQL: the table's row, the move's and the `NOTIFY` of the change in one
    /// statement (one round trip, atomic by itself). Whether the table still had the ply.
    async fn in_one_statement(
        &self,
        tx: &mut Write,
        id: &str,
        (channel, payload): (&str, String),
    ) -> Result<bool, sqlx::Error> {
        // `told` is read so that its `NOTIFY` is sent: a `WITH` query nobody reads is not run.
        let query = sqlx::query(concat!(
            "WITH moved AS (",
            update_table!(),
            " RETURNING id), \
             played AS ( \
               INSERT INTO moot_moves (table_id, ply, seat, notation, played_ms) \
               SELECT id, $2, $13, $14, $7 FROM moved RETURNING ply), \
             told AS (SELECT pg_notify($15, $16) FROM played) \
             SELECT (SELECT count(*) FROM played) AS written, (SELECT count(*) FROM told) AS told"
        ));
        let row = self
            .bind_table(query, id)
            .bind(self.seat)
            .bind(self.notation)
            .bind(channel)
            .bind(payload)
            .fetch_one(&mut **tx)
            .await?;
        Ok(row.try_get::<i64, _>("written")? == 1)
    }

    /// Elsewhere: the move's row, then the table's, in the open transaction. Whether the
    /// table still had the ply.
    async fn in_two_statements(&self, tx: &mut Write, id: &str) -> Result<bool, sqlx::Error> {
        sqlx::query(
            "INSERT INTO moot_moves (table_id, ply, seat, notation, played_ms) \
             VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(id)
        .bind(self.ply as i64)
        .bind(self.seat)
        .bind(self.notation)
        .bind(self.now)
        .execute(&mut **tx)
        .await?;
        let updated = self
            .bind_table(sqlx::query(update_table!()), id)
            .execute(&mut **tx)
            .await?;
        Ok(updated.rows_affected() == 1)
    }

    /// `query` with the parameters of `update_table!` bound ($1 to $12).
    fn bind_table<'q>(
        &'q self,
        query: Query<'q, Any, AnyArguments<'q>>,
        id: &'q str,
    ) -> Query<'q, Any, AnyArguments<'q>> {
        query
            .bind(self.state)
            .bind(self.ply as i64)
            .bind(self.status)
            .bind(self.winner)
            .bind(self.ended_by)
            .bind(self.deadline)
            .bind(self.now)
            .bind(self.to_act)
            .bind(id)
            .bind(self.seen as i64)
            .bind(self.clock_times)
            .bind(self.near)
    }
}

pub(super) async fn lost_race(tx: &mut Write, id: &str, seen: u64) -> TableError {
    let finished = sqlx::query_scalar::<_, String>(
        "SELECT status FROM moot_tables WHERE id = $1 AND ply = $2",
    )
    .bind(id)
    .bind(seen as i64)
    .fetch_optional(&mut **tx)
    .await;
    match finished {
        Ok(Some(status)) if status == "finished" => TableError::Finished,
        Ok(_) => TableError::StalePly {
            seen,
            current: seen + 1,
        },
        Err(error) => TableError::Database(error),
    }
}

/// A write refused because another wrote the ply first is `StalePly`; anything else is the
/// database's failure.
fn stale_if_taken(error: sqlx::Error, seen: u64) -> TableError {
    if TableError::is_unique_violation(&error) {
        TableError::StalePly {
            seen,
            current: seen + 1,
        }
    } else {
        TableError::Database(error)
    }
}
