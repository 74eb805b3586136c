//! The table operations, generic over the game and over the database (one code path for
//! SQLite and PostgreSQL). Each change is one transaction: load, check, apply with the engine,
//! write; it returns the [`Committed`] change with its [`Event`].
//!
//! Each committed change is told to the table's followers (see [`super::feed`]): in this
//! process directly, and with PostgreSQL to the other replicas by a `NOTIFY` sent in the
//! change's own transaction (so only committed changes are told). A table with a webhook has
//! the change's event written to the outbox in that transaction too (see [`super::outbox`]).
//!
//! Races: a move is written as the row `(table, ply)` and the table is updated only where it
//! still has the ply the client saw, so of two writers of one ply (two requests, or two
//! replicas sharing PostgreSQL) one commits and the other is told `StalePly`.

use serde_json::Value;
use sqlx::any::AnyRow;
use sqlx::{Any, Row, Transaction};

use super::feed::{Feed, FeedLimits};
use super::outbox::Outbox;
use super::secret;
use super::store::{Backend, Store};
use super::{
    Committed, Created, DAY, EndedBy, Event, History, Millis, Played, SeatInfo, Standing, Table,
    TableError, Webhook, WebhookHealth,
};
use moot_games::with_game;
use moot_games::{GAME_IDS, Game, Seat, Turn};

/// The tables of one server: its database, the cap on open tables, and the feed of their
/// changes. Cheap to clone.
#[derive(Clone, Debug)]
pub struct Tables {
    store: Store,
    max_open: u64,
    feed: Feed,
    /// This process among the replicas: its own notifications come back to it, and are
    /// skipped (it told its followers at the commit).
    replica: String,
    /// Where the events of tables with a webhook are written; `None` refuses webhooks.
    pub(super) outbox: Option<Outbox>,
}

/// The PostgreSQL channel of committed changes: `<replica> <table id> <seq>`.
const CHANGES_CHANNEL: &str = "moot_table_changes";

/// A table's row as stored.
struct Row_ {
    game: &'static str,
    options: String,
    state: String,
    ply: u64,
    status: String,
    winner: Option<i64>,
    ended_by: Option<String>,
    days_per_move: Option<i64>,
    deadline: Option<Millis>,
    created: Millis,
    updated: Millis,
    webhook: Option<Webhook>,
    webhook_failed: i64,
    webhook_error: Option<String>,
}

/// A table and its seats in one query (one row per seat, the table's columns on each): a
/// round trip fewer per move, which is most of a move's cost on SQLite.
const SELECT_TABLE: &str = "SELECT t.game, t.options, t.state, t.ply, t.status, t.winner, \
     t.ended_by, t.days_per_move, t.deadline_ms, t.created_ms, t.updated_ms, t.webhook_url, \
     t.webhook_secret, t.webhook_failed, t.webhook_error, s.seat, s.name, s.credential_sha256 \
     FROM moot_tables t JOIN moot_seats s ON s.table_id = t.id WHERE t.id = $1 ORDER BY s.seat";

/// A seat's row of [`SELECT_TABLE`]: the seat, and its credential's digest.
fn read_seat(row: &AnyRow) -> Result<(SeatInfo, String), TableError> {
    Ok((
        SeatInfo {
            seat: seat_of(row.try_get("seat")?)?,
            name: row.try_get("name")?,
        },
        row.try_get("credential_sha256")?,
    ))
}

fn seat_of(index: i64) -> Result<Seat, TableError> {
    match index {
        0 => Ok(Seat::First),
        1 => Ok(Seat::Second),
        _ => Err(TableError::Corrupt(format!("seat {index}"))),
    }
}

fn read_row(row: &AnyRow) -> Result<Row_, TableError> {
    let game: String = row.try_get("game")?;
    let game = GAME_IDS
        .iter()
        .find(|id| **id == game)
        .ok_or_else(|| TableError::Corrupt(format!("unknown game {game:?}")))?;
    Ok(Row_ {
        game,
        options: row.try_get("options")?,
        state: row.try_get("state")?,
        ply: row.try_get::<i64, _>("ply")? as u64,
        status: row.try_get("status")?,
        winner: row.try_get("winner")?,
        ended_by: row.try_get("ended_by")?,
        days_per_move: row.try_get("days_per_move")?,
        deadline: row.try_get("deadline_ms")?,
        created: row.try_get("created_ms")?,
        updated: row.try_get("updated_ms")?,
        webhook: match (
            row.try_get::<Option<String>, _>("webhook_url")?,
            row.try_get::<Option<String>, _>("webhook_secret")?,
        ) {
            (Some(url), Some(secret)) => Some(Webhook { url, secret }),
            _ => None,
        },
        webhook_failed: row.try_get("webhook_failed")?,
        webhook_error: row.try_get("webhook_error")?,
    })
}

fn parse_json<T: serde::de::DeserializeOwned>(text: &str, what: &str) -> Result<T, TableError> {
    serde_json::from_str(text).map_err(|e| TableError::Corrupt(format!("{what}: {e}")))
}

fn to_text<T: serde::Serialize>(value: &T) -> Result<String, TableError> {
    serde_json::to_string(value).map_err(|e| TableError::Corrupt(e.to_string()))
}

impl Row_ {
    fn standing<G: Game>(&self, state: &G::State) -> Result<Standing, TableError> {
        if self.status == "finished" {
            let ended_by = self
                .ended_by
                .as_deref()
                .and_then(EndedBy::parse)
                .ok_or_else(|| TableError::Corrupt("a finished table says not how".into()))?;
            return Ok(Standing::Finished {
                winner: self.winner.map(seat_of).transpose()?,
                ended_by,
            });
        }
        match G::turn(state) {
            Turn::ToAct(seat) => Ok(Standing::Ongoing { to_act: seat }),
            _ => Err(TableError::Corrupt(
                "an ongoing table whose game is over".into(),
            )),
        }
    }

    fn table<G: Game>(
        &self,
        id: &str,
        state: &G::State,
        seats: Vec<SeatInfo>,
    ) -> Result<Table, TableError> {
        let standing = self.standing::<G>(state)?;
        Ok(Table {
            id: id.to_owned(),
            game: self.game,
            options: parse_json::<Value>(&self.options, "options")?,
            state: serde_json::to_value(state).map_err(|e| TableError::Corrupt(e.to_string()))?,
            ply: self.ply,
            game_status: G::status(state),
            deadline: match standing {
                Standing::Ongoing { .. } => self.deadline,
                Standing::Finished { .. } => None,
            },
            standing,
            seats,
            days_per_move: self.days_per_move.map(|d| d as u32),
            created: self.created,
            updated: self.updated,
            webhook: self.webhook.as_ref().map(|_| WebhookHealth {
                failed: self.webhook_failed as u64,
                last_error: self.webhook_error.clone(),
            }),
        })
    }
}

/// The stored form of a standing: status, winner, how it ended.
fn columns(standing: &Standing) -> (&'static str, Option<i64>, Option<&'static str>) {
    match standing {
        Standing::Ongoing { .. } => ("ongoing", None, None),
        Standing::Finished { winner, ended_by } => (
            "finished",
            winner.map(|s| s.index() as i64),
            Some(ended_by.as_str()),
        ),
    }
}

impl Tables {
    /// The tables kept in `store`, at most `max_open` of them ongoing at once.
    pub fn new(store: Store, max_open: u64) -> Tables {
        Tables {
            store,
            max_open,
            feed: Feed::new(FeedLimits::default()),
            replica: secret::table_id(),
            outbox: None,
        }
    }

    /// The same tables, their followers bounded by `limits`.
    pub fn with_feed(self, limits: FeedLimits) -> Tables {
        Tables {
            feed: Feed::new(limits),
            ..self
        }
    }

    /// The feed of the tables' changes, to follow a table.
    pub fn feed(&self) -> &Feed {
        &self.feed
    }

    /// In a change's transaction: on PostgreSQL, tells the other replicas (at the commit)
    /// that table `id` reached change `seq`.
    async fn notify(
        &self,
        tx: &mut Transaction<'static, Any>,
        id: &str,
        seq: u64,
    ) -> Result<(), TableError> {
        if self.store.backend == Backend::Postgres {
            sqlx::query("SELECT pg_notify($1, $2)")
                .bind(CHANGES_CHANNEL)
                .bind(format!("{} {id} {seq}", self.replica))
                .execute(&mut **tx)
                .await?;
        }
        Ok(())
    }

    /// Tells this process's followers of the table of a committed change.
    fn told(&self, committed: Committed) -> Committed {
        if self.feed.is_followed(&committed.table.id) {
            self.feed.publish(committed.clone());
        }
        committed
    }

    /// With PostgreSQL (`url`), for as long as the server runs: hears the other replicas'
    /// changes and tells this process's followers of them. A notification lost while the
    /// connection was down is made good by the followers, who check the database now and
    /// then. Spawned on the server's runtime; returns at once on SQLite (one process).
    pub async fn listen(self, url: String) {
        if self.store.backend != Backend::Postgres {
            return;
        }
        let mut listener = loop {
            match sqlx::postgres::PgListener::connect(&url).await {
                Ok(mut listener) => match listener.listen(CHANGES_CHANNEL).await {
                    Ok(()) => break listener,
                    Err(error) => {
                        tracing::warn!(%error, "cannot listen for other replicas' changes")
                    }
                },
                Err(error) => tracing::warn!(%error, "cannot listen for other replicas' changes"),
            }
            tokio::time::sleep(std::time::Duration::from_secs(1)).await;
        };
        loop {
            let notification = match listener.recv().await {
                Ok(notification) => notification,
                Err(error) => {
                    tracing::warn!(%error, "listening for other replicas' changes failed; retrying");
                    tokio::time::sleep(std::time::Duration::from_secs(1)).await;
                    continue;
                }
            };
            let mut words = notification.payload().split(' ');
            let (Some(replica), Some(id), Some(seq)) = (words.next(), words.next(), words.next())
            else {
                continue;
            };
            let Ok(seq) = seq.parse::<u64>() else {
                continue;
            };
            if replica == self.replica || !self.feed.is_followed(id) {
                continue;
            }
            match self.changes_since(id, seq.saturating_sub(1), 1).await {
                Ok(changes) => changes.into_iter().for_each(|c| self.feed.publish(c)),
                Err(error) => tracing::warn!(%error, "cannot read another replica's change"),
            }
        }
    }

    /// The database.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// A transaction for a change; on SQLite it waits for this process's other writers first
    /// (see [`Store`]), and the guard must live as long as the transaction.
    pub(super) async fn write(
        &self,
    ) -> Result<
        (
            Option<tokio::sync::OwnedMutexGuard<()>>,
            Transaction<'static, Any>,
        ),
        TableError,
    > {
        let guard = match &self.store.sqlite_writer {
            Some(lock) => Some(lock.clone().lock_owned().await),
            None => None,
        };
        Ok((guard, self.store.pool.begin().await?))
    }

    /// Creates a table of game `G` at its start `state` (from `options`), with a clock of
    /// `days_per_move` if given, the seats' names, and a webhook if given (its URL already
    /// checked).
    pub async fn create<G: Game>(
        &self,
        options: &G::Options,
        state: &G::State,
        days_per_move: Option<u32>,
        names: [Option<String>; 2],
        webhook: Option<Webhook>,
        now: Millis,
    ) -> Result<Created, TableError> {
        if webhook.is_some() && self.outbox.is_none() {
            return Err(TableError::WebhooksOff);
        }
        let open: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM moot_tables WHERE status = 'ongoing'")
                .fetch_one(&self.store.pool)
                .await?;
        if open as u64 >= self.max_open {
            return Err(TableError::Full(open as u64));
        }
        let id = secret::table_id();
        let credentials = [secret::credential(), secret::credential()];
        let deadline = days_per_move.map(|days| now + i64::from(days) * DAY);
        let (_guard, mut tx) = self.write().await?;
        sqlx::query(
            "INSERT INTO moot_tables (id, game, options, state, ply, status, winner, ended_by, \
             days_per_move, deadline_ms, created_ms, updated_ms, webhook_url, webhook_secret) \
             VALUES ($1, $2, $3, $4, 0, 'ongoing', NULL, NULL, $5, $6, $7, $7, $8, $9)",
        )
        .bind(&id)
        .bind(G::ID)
        .bind(to_text(options)?)
        .bind(to_text(state)?)
        .bind(days_per_move.map(i64::from))
        .bind(deadline)
        .bind(now)
        .bind(webhook.as_ref().map(|w| w.url.clone()))
        .bind(webhook.map(|w| w.secret))
        .execute(&mut *tx)
        .await?;
        for (seat, (credential, name)) in credentials.iter().zip(&names).enumerate() {
            sqlx::query(
                "INSERT INTO moot_seats (table_id, seat, name, credential_sha256) \
                 VALUES ($1, $2, $3, $4)",
            )
            .bind(&id)
            .bind(seat as i64)
            .bind(name.clone())
            .bind(secret::digest(credential))
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        let table = self
            .get(&id)
            .await?
            .ok_or_else(|| TableError::Corrupt("the new table is not there".into()))?;
        Ok(Created { table, credentials })
    }

    /// The table with this id, if there is one.
    pub async fn get(&self, id: &str) -> Result<Option<Table>, TableError> {
        if !secret::is_table_id(id) {
            return Ok(None);
        }
        let rows = sqlx::query(SELECT_TABLE)
            .bind(id)
            .fetch_all(&self.store.pool)
            .await?;
        let Some(first) = rows.first() else {
            return Ok(None);
        };
        let row = read_row(first)?;
        let seats = rows
            .iter()
            .map(|r| read_seat(r).map(|(seat, _)| seat))
            .collect::<Result<Vec<_>, TableError>>()?;
        with_game!(row.game, G => {
            let state: <G as Game>::State = parse_json(&row.state, "state")?;
            row.table::<G>(id, &state, seats).map(Some)
        }, else Err(TableError::Corrupt(row.game.to_owned())))
    }

    /// The moves of table `id` from ply `from` on, in order.
    async fn moves_from(&self, id: &str, from: u64) -> Result<Vec<Played>, TableError> {
        sqlx::query(
            "SELECT ply, seat, notation, played_ms FROM moot_moves \
             WHERE table_id = $1 AND ply >= $2 ORDER BY ply",
        )
        .bind(id)
        .bind(from as i64)
        .fetch_all(&self.store.pool)
        .await?
        .iter()
        .map(|r| {
            Ok(Played {
                ply: r.try_get::<i64, _>("ply")? as u64,
                seat: seat_of(r.try_get("seat")?)?,
                notation: r.try_get("notation")?,
                time: r.try_get("played_ms")?,
            })
        })
        .collect()
    }

    /// A table's history and record.
    pub async fn history(&self, id: &str) -> Result<History, TableError> {
        let table = self.get(id).await?.ok_or(TableError::UnknownTable)?;
        let moves = self.moves_from(id, 1).await?;
        let record = with_game!(table.game, G => {
            let state: <G as Game>::State = serde_json::from_value(table.state.clone())
                .map_err(|e| TableError::Corrupt(e.to_string()))?;
            G::write_record(&state)
        }, else None)
        .unwrap_or_else(|| {
            moves
                .iter()
                .map(|m| m.notation.as_str())
                .collect::<Vec<_>>()
                .join(" ")
        });
        Ok(History { moves, record })
    }

    /// The changes of table `id` after its change `seq` (see [`Table::seq`]), in order, at
    /// most `limit` of them, each with the table as it stood after it: what a follower who saw
    /// change `seq` missed (asked again from the last one, until none is left). The last
    /// change's table is the one stored; earlier ones are replayed by the engine from the
    /// start. (`limit` bounds the memory: a Hirþ state holds its match's record, so a long
    /// match's tables grow with it.)
    pub async fn changes_since(
        &self,
        id: &str,
        seq: u64,
        limit: usize,
    ) -> Result<Vec<Committed>, TableError> {
        let table = self.get(id).await?.ok_or(TableError::UnknownTable)?;
        if seq >= table.seq() {
            return Ok(Vec::new());
        }
        let ending = match table.standing {
            Standing::Finished {
                winner: Some(winner),
                ended_by: EndedBy::Resignation,
            } => Some(Event::Resigned {
                seat: winner.other(),
            }),
            Standing::Finished {
                winner: Some(winner),
                ended_by: EndedBy::Time,
            } => Some(Event::TimeClaimed { seat: winner }),
            _ => None,
        };
        let mut changes = Vec::new();
        if seq < table.ply {
            let last_only = ending.is_none() && seq + 1 == table.ply;
            let moves = self
                .moves_from(id, if last_only { table.ply } else { 1 })
                .await?;
            if last_only {
                let played = moves
                    .into_iter()
                    .next()
                    .ok_or_else(|| TableError::Corrupt(format!("ply {} has no move", table.ply)))?;
                changes.push(Committed {
                    table: table.clone(),
                    event: Event::Moved(played),
                });
            } else {
                changes = with_game!(table.game, G => replayed::<G>(&table, moves, seq, limit)?,
                    else return Err(TableError::Corrupt(table.game.to_owned())));
            }
        }
        let moves_told = changes.last().is_none_or(|c| c.table.ply == table.ply);
        if let Some(event) = ending
            && moves_told
            && changes.len() < limit
        {
            changes.push(Committed { table, event });
        }
        Ok(changes)
    }

    /// The seat of table `id` whose credential this is (a seat's page, finished or not).
    pub async fn seat(&self, id: &str, credential: &str) -> Result<Seat, TableError> {
        if !secret::is_table_id(id) {
            return Err(TableError::UnknownTable);
        }
        let rows =
            sqlx::query("SELECT seat, credential_sha256 FROM moot_seats WHERE table_id = $1")
                .bind(id)
                .fetch_all(&self.store.pool)
                .await?;
        if rows.is_empty() {
            return Err(TableError::UnknownTable);
        }
        let mut seated = None;
        for row in rows {
            let kept: String = row.try_get("credential_sha256")?;
            // Every seat is compared, so the time taken tells nothing of which matched.
            if secret::matches(credential, &kept) {
                seated = Some(seat_of(row.try_get("seat")?)?);
            }
        }
        seated.ok_or(TableError::BadCredential)
    }

    /// Loads a table for a change in `tx` and finds the seat whose credential this is.
    async fn load_seated(
        tx: &mut Transaction<'static, Any>,
        id: &str,
        credential: &str,
    ) -> Result<(Row_, Seat, Vec<SeatInfo>), TableError> {
        if !secret::is_table_id(id) {
            return Err(TableError::UnknownTable);
        }
        let rows = sqlx::query(SELECT_TABLE)
            .bind(id)
            .fetch_all(&mut **tx)
            .await?;
        let row = read_row(rows.first().ok_or(TableError::UnknownTable)?)?;
        let mut seated = None;
        let mut seats = Vec::with_capacity(2);
        for r in &rows {
            let (seat, kept) = read_seat(r)?;
            // Every seat is compared, so the time taken tells nothing of which matched.
            if secret::matches(credential, &kept) {
                seated = Some(seat.seat);
            }
            seats.push(seat);
        }
        let seat = seated.ok_or(TableError::BadCredential)?;
        if row.status == "finished" {
            return Err(TableError::Finished);
        }
        Ok((row, seat, seats))
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
        let (_guard, mut tx) = self.write().await?;
        let (row, seat, seats) = Self::load_seated(&mut tx, id, credential).await?;
        if row.ply != seen_ply {
            return Err(TableError::StalePly {
                seen: seen_ply,
                current: row.ply,
            });
        }
        let webhook = row.webhook.clone();
        let committed = with_game!(row.game, G => {
            Self::play_in::<G>(&mut tx, id, row, seat, seats, text, now).await?
        }, else return Err(TableError::Corrupt(row.game.to_owned())));
        self.enqueue(&mut tx, webhook.as_ref(), &committed, now)
            .await?;
        self.notify(&mut tx, id, committed.seq()).await?;
        tx.commit().await.map_err(|e| stale_if_taken(e, seen_ply))?;
        self.ring(webhook.as_ref());
        Ok(self.told(committed))
    }

    async fn play_in<G: Game>(
        tx: &mut Transaction<'static, Any>,
        id: &str,
        mut row: Row_,
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
        sqlx::query(
            "INSERT INTO moot_moves (table_id, ply, seat, notation, played_ms) \
             VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(id)
        .bind(ply as i64)
        .bind(seat.index() as i64)
        .bind(&notation)
        .bind(now)
        .execute(&mut **tx)
        .await
        .map_err(|e| stale_if_taken(e, seen))?;
        let standing = Standing::after::<G>(&state);
        let (status, winner, ended_by) = columns(&standing);
        let deadline = match standing {
            Standing::Ongoing { .. } => row.days_per_move.map(|days| now + days * DAY),
            Standing::Finished { .. } => None,
        };
        row.state = to_text(&state)?;
        let updated = sqlx::query(
            "UPDATE moot_tables SET state = $1, ply = $2, status = $3, winner = $4, \
             ended_by = $5, deadline_ms = $6, updated_ms = $7 WHERE id = $8 AND ply = $9",
        )
        .bind(&row.state)
        .bind(ply as i64)
        .bind(status)
        .bind(winner)
        .bind(ended_by)
        .bind(deadline)
        .bind(now)
        .bind(id)
        .bind(seen as i64)
        .execute(&mut **tx)
        .await
        .map_err(|e| stale_if_taken(e, seen))?;
        if updated.rows_affected() != 1 {
            return Err(TableError::StalePly {
                seen,
                current: seen + 1,
            });
        }
        row.ply = ply;
        row.status = status.to_owned();
        row.winner = winner;
        row.ended_by = ended_by.map(str::to_owned);
        row.deadline = deadline;
        row.updated = now;
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
        self.end(id, credential, now, |_, _, seat| {
            Ok((seat.other(), EndedBy::Resignation))
        })
        .await
    }

    /// The seat holding `credential` claims a win on time: it must be waiting for the other's
    /// move, and that move's deadline must have passed.
    pub async fn claim(
        &self,
        id: &str,
        credential: &str,
        now: Millis,
    ) -> Result<Committed, TableError> {
        self.end(id, credential, now, |row, to_act, seat| {
            if to_act == seat {
                return Err(TableError::NotWaiting);
            }
            match row.deadline {
                None => Err(TableError::TooEarly(
                    "this table has no clock (days_per_move)".into(),
                )),
                Some(deadline) if now <= deadline => Err(TableError::TooEarly(format!(
                    "the move is due in {} s",
                    (deadline - now + 999) / 1000
                ))),
                Some(_) => Ok((seat, EndedBy::Time)),
            }
        })
        .await
    }

    /// Ends a table outside the rules: `decide` is given the row, the seat to act and the seat
    /// asking, and names the winner and how it ended.
    async fn end(
        &self,
        id: &str,
        credential: &str,
        now: Millis,
        decide: impl FnOnce(&Row_, Seat, Seat) -> Result<(Seat, EndedBy), TableError>,
    ) -> Result<Committed, TableError> {
        let (_guard, mut tx) = self.write().await?;
        let (mut row, seat, seats) = Self::load_seated(&mut tx, id, credential).await?;
        let webhook = row.webhook.clone();
        let committed = with_game!(row.game, G => {
            let state: <G as Game>::State = parse_json(&row.state, "state")?;
            let Standing::Ongoing { to_act } = row.standing::<G>(&state)? else {
                return Err(TableError::Finished);
            };
            let (winner, ended_by) = decide(&row, to_act, seat)?;
            let updated = sqlx::query(
                "UPDATE moot_tables SET status = 'finished', winner = $1, ended_by = $2, \
                 deadline_ms = NULL, updated_ms = $3 WHERE id = $4 AND status = 'ongoing' AND ply = $5",
            )
            .bind(winner.index() as i64)
            .bind(ended_by.as_str())
            .bind(now)
            .bind(id)
            .bind(row.ply as i64)
            .execute(&mut *tx)
            .await?;
            if updated.rows_affected() != 1 {
                return Err(TableError::StalePly { seen: row.ply, current: row.ply + 1 });
            }
            row.status = "finished".to_owned();
            row.winner = Some(winner.index() as i64);
            row.ended_by = Some(ended_by.as_str().to_owned());
            row.deadline = None;
            row.updated = now;
            let event = match ended_by {
                EndedBy::Time => Event::TimeClaimed { seat },
                _ => Event::Resigned { seat },
            };
            Committed { table: row.table::<G>(id, &state, seats)?, event }
        }, else return Err(TableError::Corrupt(row.game.to_owned())));
        self.enqueue(&mut tx, webhook.as_ref(), &committed, now)
            .await?;
        self.notify(&mut tx, id, committed.seq()).await?;
        tx.commit().await?;
        self.ring(webhook.as_ref());
        Ok(self.told(committed))
    }
}

/// The changes of `table` after change `seq` (at most `limit`), by replaying its `moves` (all
/// of them, from the first) from the start of its game: each move's change with the table
/// after it.
fn replayed<G: Game>(
    table: &Table,
    moves: Vec<Played>,
    seq: u64,
    limit: usize,
) -> Result<Vec<Committed>, TableError> {
    let corrupt = |what: String| TableError::Corrupt(what);
    let options: G::Options = serde_json::from_value(table.options.clone())
        .map_err(|e| corrupt(format!("options: {e}")))?;
    let mut state = G::new_game(&options).map_err(|e| corrupt(format!("options: {e}")))?;
    let mut changes = Vec::new();
    for played in moves {
        if changes.len() == limit {
            break;
        }
        let mv = G::parse_move(&state, &played.notation)
            .map_err(|e| corrupt(format!("ply {}: {e}", played.ply)))?;
        G::apply(&mut state, &mv).map_err(|e| corrupt(format!("ply {}: {e}", played.ply)))?;
        if played.ply <= seq {
            continue;
        }
        let standing = Standing::after::<G>(&state);
        let then = Table {
            state: serde_json::to_value(&state).map_err(|e| corrupt(e.to_string()))?,
            ply: played.ply,
            game_status: G::status(&state),
            deadline: match standing {
                Standing::Ongoing { .. } => table
                    .days_per_move
                    .map(|days| played.time + i64::from(days) * DAY),
                Standing::Finished { .. } => None,
            },
            standing,
            updated: played.time,
            ..table.clone()
        };
        changes.push(Committed {
            table: then,
            event: Event::Moved(played),
        });
    }
    Ok(changes)
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
