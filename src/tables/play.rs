//! A seat's changes to its table: a move, a resignation, a claim on time. Each is one write:
//! the table loaded and the seat found by its credential, the change checked and written (only
//! where the table still has the ply it was loaded at), its event written to the outbox, then
//! committed and announced. On PostgreSQL a move with nothing to write beside it is written
//! in one statement that commits by itself (the ply check makes the read before it safe), the
//! fewest round trips a move can take.

use super::outbox::Hooks;
use super::player_feed::{Rung, Sitters};
use super::recent::Loaded;
use super::rows::{StoredTable, awaited, columns, parse_json, to_text};
use super::store::Backend;
use super::write::Write;
use super::{Committed, EndedBy, Event, Millis, Played, SeatInfo, Standing, TableError, Tables};
use moot_games::with_game;
use moot_games::{Game, Seat, Turn};
use sqlx::Any;
use sqlx::any::AnyArguments;
use sqlx::query::Query;
use sqlx::query::QueryScalar;

/// How many times a move is read and written again when its table changed meanwhile at the
/// same ply.
const CHANGED_MEANWHILE_TRIES: u32 = 3;

/// A move asked for: at which table, by whom, seen at which ply, its text, and when.
struct Move<'a> {
    id: &'a str,
    credential: &'a str,
    seen_ply: u64,
    text: &'a str,
    now: Millis,
}

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
        let loaded = Loaded::read(tx, id).await?;
        let seat = loaded.seat_for(credential, now)?;
        Ok((loaded.row, seat, loaded.seats, loaded.sitters))
    }

    /// In a seat's change's transaction, once the change is written: what is written beside
    /// it (its event in the outbox, its players' notices, its answer for an `Idempotency-Key`).
    pub(super) async fn beside(
        &self,
        tx: &mut Write,
        hooks: &Hooks,
        sitters: &Sitters,
        committed: &Committed,
        now: Millis,
    ) -> Result<Rung, TableError> {
        self.enqueue(tx, hooks, committed, now).await?;
        let rung = self
            .tell_players(tx, &committed.table.id, sitters.told(committed, None), now)
            .await?;
        self.remember_change(tx, committed, now).await?;
        Ok(rung)
    }

    /// Whether a change writes more than itself (its event in the outbox, its players'
    /// notices, its answer for an `Idempotency-Key`): then it takes a transaction of its own.
    /// A table of a site may: its site's webhook is read in the transaction.
    fn writes_beside(&self, hooks: &Hooks, sitters: &Sitters) -> bool {
        (self.outbox.is_some() && hooks.any())
            || self.remembering.is_some()
            || !sitters.0.is_empty()
    }

    /// After the commit: the delivery worker's bell rung, the table's followers and the
    /// players' told.
    pub(super) fn announced(&self, hooks: &Hooks, rung: Rung, committed: Committed) -> Committed {
        self.ring(hooks);
        self.ring_players(rung);
        self.told(committed)
    }

    /// Plays `text` at table `id` for the seat holding `credential`, if the table is still at
    /// `seen_ply`. On PostgreSQL, from the table as this process last wrote it where it
    /// remembers it (see [`super::recent`]), else (or if that is refused) as read.
    pub async fn play(
        &self,
        id: &str,
        credential: &str,
        seen_ply: u64,
        text: &str,
        now: Millis,
    ) -> Result<Committed, TableError> {
        let mv = Move {
            id,
            credential,
            seen_ply,
            text,
            now,
        };
        if let Some(remembered) = self.recent.take(id) {
            match self.play_from(&mv, Some(remembered)).await {
                Ok(played) => return Ok(self.announced_move(id, played)),
                // The database failed: it would fail the same way again.
                Err(error) if error.is_storage() => return Err(error),
                // Refused, perhaps only because what was remembered is stale: asked again of
                // the database.
                Err(_) => {}
            }
        }
        // Another change at the same ply between the read and the write (a vacation, a seat
        // taken) leaves the move as good as it was: read again.
        let mut tries = 1;
        loop {
            match self.play_from(&mv, None).await {
                Ok(played) => return Ok(self.announced_move(id, played)),
                Err(TableError::ChangedMeanwhile) if tries < CHANGED_MEANWHILE_TRIES => tries += 1,
                Err(error) => return Err(self.expired_then(id, error, now).await),
            }
        }
    }

    /// The move `mv` played and committed, from the table as `remembered`, else as read.
    /// On PostgreSQL it is written in one statement (the table's row where it still has the
    /// version read, and the move's) that commits by itself; a transaction opens only where
    /// more is written beside it. SQLite's transaction is open from the start.
    async fn play_from(
        &self,
        mv: &Move<'_>,
        remembered: Option<Loaded>,
    ) -> Result<(Committed, Hooks, Rung, Loaded), TableError> {
        let mut tx = self.deferred_write().await?;
        let outcome = async {
            let loaded = match remembered {
                Some(loaded) => loaded,
                None => Loaded::read(&mut tx, mv.id).await?,
            };
            let seat = loaded.seat_for(mv.credential, mv.now)?;
            if loaded.row.ply != mv.seen_ply {
                return Err(TableError::StalePly {
                    seen: mv.seen_ply,
                    current: loaded.row.ply,
                });
            }
            let hooks = loaded.row.hooks();
            let beside = self.writes_beside(&hooks, &loaded.sitters);
            if beside {
                tx.transaction().await?;
            }
            let (committed, loaded) = with_game!(loaded.row.game, G => {
                self.play_in::<G>(&mut tx, mv, loaded, seat).await?
            }, else return Err(TableError::Corrupt(loaded.row.game.to_owned())));
            let mut rung = Rung::default();
            if beside {
                self.enqueue(&mut tx, &hooks, &committed, mv.now).await?;
                // The mover's move was awaited: a turn of several moves is told once.
                let told = loaded.sitters.told(&committed, Some(seat));
                rung = self.tell_players(&mut tx, mv.id, told, mv.now).await?;
                self.remember_change(&mut tx, &committed, mv.now).await?;
            }
            Ok((committed, hooks, rung, loaded))
        }
        .await;
        tx.finish(outcome).await.map_err(|e| match e {
            TableError::Database(e) => stale_if_taken(e, mv.seen_ply),
            e => e,
        })
    }

    /// A committed move announced (see [`Tables::announced`]), its table remembered as
    /// written (on PostgreSQL).
    fn announced_move(
        &self,
        id: &str,
        (committed, hooks, rung, loaded): (Committed, Hooks, Rung, Loaded),
    ) -> Committed {
        if self.store.backend == Backend::Postgres {
            self.recent.keep(id, loaded);
        }
        self.announced(&hooks, rung, committed)
    }

    /// Checks and applies the move `mv` with game `G`'s engine and writes it in `tx`: the
    /// move's row and the table's, where the table still has the version it was loaded at. A
    /// move that brings the table to the ply cap ends it, drawn, if the rules did not. The
    /// table as written is given back beside the change.
    async fn play_in<G: Game>(
        &self,
        tx: &mut Write,
        mv: &Move<'_>,
        mut loaded: Loaded,
        seat: Seat,
    ) -> Result<(Committed, Loaded), TableError> {
        let (id, text, now) = (mv.id, mv.text, mv.now);
        let row = &mut loaded.row;
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
        let parsed = G::parse_move(&state, text).map_err(refused)?;
        let notation = G::format_move(&state, &parsed);
        G::apply(&mut state, &parsed).map_err(refused)?;
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
            version: loaded.version,
        };
        let version = match self.store.backend {
            Backend::Postgres => written.in_one_statement(tx, id).await,
            Backend::Sqlite => written.in_two_statements(tx, id).await,
        }
        .map_err(|e| stale_if_taken(e, seen))?;
        let Some(version) = version else {
            return Err(lost_race(tx, id, seen).await);
        };
        loaded.version = version;
        let row = &mut loaded.row;
        row.ply = ply;
        row.status = status.to_owned();
        row.winner = winner;
        row.ended_by = ended_by.map(str::to_owned);
        row.deadline = deadline;
        row.clock_times = times;
        row.updated = now;
        row.takebacks.asked_by = None;
        let committed = Committed {
            table: row.table::<G>(id, &state, loaded.seats.clone())?,
            event: Event::Moved(Played {
                ply,
                seat,
                notation,
                time: now,
            }),
        };
        Ok((committed, loaded))
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
            let hooks = row.hooks();
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
                .beside(&mut tx, &hooks, &sitters, &committed, now)
                .await?;
            Ok((committed, hooks, rung))
        }
        .await;
        let (committed, hooks, rung) = match tx.finish(outcome).await {
            Err(error) => return Err(self.expired_then(id, error, now).await),
            Ok(done) => done,
        };
        Ok(self.announced(&hooks, rung, committed))
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

/// A move's update of its table, where the table still has the ply (`$10`) and the version
/// (`$13`) read and is ongoing: the same text alone and inside PostgreSQL's one statement. A
/// takeback asked for lapses: the other seat moved.
macro_rules! update_table {
    () => {
        "UPDATE moot_tables SET state = $1, ply = $2, status = $3, winner = $4, \
         ended_by = $5, deadline_ms = $6, updated_ms = $7, to_act = $8, takeback_offer = NULL, \
         clock_times = $11, near_ms = $12 WHERE id = $9 AND ply = $10 AND version = $13 \
         AND status = 'ongoing'"
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
    /// The table's version when read: it is written only where it still has it.
    version: i64,
}

impl Written<'_> {
    /// On PostgreSQL: the table's row and the move's in one statement (one round trip,
    /// atomic by itself). The table's new version, if it still had the ply and version read.
    async fn in_one_statement(&self, tx: &mut Write, id: &str) -> Result<Option<i64>, sqlx::Error> {
        // A `WITH` that writes runs whether or not the query reads it.
        let query = sqlx::query_scalar(concat!(
            "WITH moved AS (",
            update_table!(),
            " RETURNING id, version), \
             played AS (INSERT INTO moot_moves (table_id, ply, seat, notation, played_ms) \
               SELECT id, $2, $14, $15, $7 FROM moved) \
             SELECT version FROM moved"
        ));
        self.bind_table(query, id)
            .bind(self.seat)
            .bind(self.notation)
            .fetch_optional(&mut **tx)
            .await
    }

    /// Elsewhere: the move's row, then the table's, in the open transaction. The table's
    /// version (unchanged: only PostgreSQL raises it), if it still had the ply.
    async fn in_two_statements(
        &self,
        tx: &mut Write,
        id: &str,
    ) -> Result<Option<i64>, sqlx::Error> {
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
        Ok((updated.rows_affected() == 1).then_some(self.version))
    }

    /// `query` with the parameters of `update_table!` bound ($1 to $13).
    fn bind_table<'q, Q: Bind<'q>>(&'q self, query: Q, id: &'q str) -> Q {
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
            .bind(self.version)
    }
}

/// A query that takes parameters: [`Query`] and [`QueryScalar`].
trait Bind<'q> {
    /// The query with `value` bound to its next parameter.
    fn bind<T: 'q + sqlx::Encode<'q, Any> + sqlx::Type<Any>>(self, value: T) -> Self;
}

impl<'q> Bind<'q> for Query<'q, Any, AnyArguments<'q>> {
    fn bind<T: 'q + sqlx::Encode<'q, Any> + sqlx::Type<Any>>(self, value: T) -> Self {
        Query::bind(self, value)
    }
}

impl<'q, O> Bind<'q> for QueryScalar<'q, Any, O, AnyArguments<'q>> {
    fn bind<T: 'q + sqlx::Encode<'q, Any> + sqlx::Type<Any>>(self, value: T) -> Self {
        QueryScalar::bind(self, value)
    }
}

/// Why a change of table `id` loaded at ply `seen` found it changed when it wrote (another
/// change committed meanwhile, which PostgreSQL's replicas allow): `Finished` if it ended,
/// `StalePly` if it has another ply, else `ChangedMeanwhile` (another change at the same ply:
/// a vacation, a seat taken).
pub(super) async fn lost_race(tx: &mut Write, id: &str, seen: u64) -> TableError {
    let found =
        sqlx::query_as::<_, (String, i64)>("SELECT status, ply FROM moot_tables WHERE id = $1")
            .bind(id)
            .fetch_optional(&mut **tx)
            .await;
    match found {
        Ok(Some((status, _))) if status == "finished" => TableError::Finished,
        Ok(Some((_, ply))) if ply as u64 != seen => TableError::StalePly {
            seen,
            current: ply as u64,
        },
        Ok(Some(_)) => TableError::ChangedMeanwhile,
        Ok(None) => TableError::UnknownTable,
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
