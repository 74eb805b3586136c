//! Creating a table: the cap on open tables checked, then the table and its seats written, in
//! one transaction, each seat with its credential's digest. The cap is counted inside the
//! transaction, creations taking turns (SQLite's one writer; PostgreSQL's advisory lock, held
//! to the commit, across replicas), so that racing creations never open more than the cap.

use super::player_feed::{Rung, Sitters};
use super::players::player_id;
use super::read::read_table;
use super::rows::{awaited, to_text};
use super::store::Backend;
use super::write::Write;
use super::{Clock, Created, Millis, Table, TableError, Tables, Webhook, secret};
use moot_games::{Game, Seat};

/// The PostgreSQL advisory lock creations take turns on (any number shared by the replicas
/// and used for nothing else: "moot" in ASCII).
const CREATIONS_LOCK: i64 = 0x6d6f_6f74;

impl Tables {
    /// Creates a table of game `G` at its start `state` (from `options`), with a clock of
    /// `days_per_move` if given (see [`Clock::days_per_move`]), the seats' names, and a webhook
    /// if given (its URL already checked).
    pub async fn create<G: Game>(
        &self,
        options: &G::Options,
        state: &G::State,
        days_per_move: Option<u32>,
        names: [Option<String>; 2],
        webhook: Option<Webhook>,
        now: Millis,
    ) -> Result<Created, TableError> {
        self.create_seated::<G>(
            options,
            state,
            days_per_move.map(Clock::days_per_move),
            names,
            [None, None],
            webhook,
            None,
            now,
        )
        .await
    }

    /// [`Tables::create`] with any `clock`, each seat taken by the player holding the
    /// credential given for it, if any (see [`super::players`]), made by `site` if a site's key
    /// asked for it (its site's webhook gets the table's events).
    #[allow(clippy::too_many_arguments)]
    pub async fn create_seated<G: Game>(
        &self,
        options: &G::Options,
        state: &G::State,
        clock: Option<Clock>,
        names: [Option<String>; 2],
        players: [Option<String>; 2],
        webhook: Option<Webhook>,
        site: Option<String>,
        now: Millis,
    ) -> Result<Created, TableError> {
        if webhook.is_some() && self.outbox.is_none() {
            return Err(TableError::WebhooksOff);
        }
        let credentials = [secret::credential(), secret::credential()];
        let mut tx = self.write().await?;
        let outcome = async {
            let mut seated = [None, None];
            for (player, key) in seated.iter_mut().zip(&players) {
                if let Some(key) = key {
                    *player = Some(player_id(&mut tx, key).await?);
                }
            }
            let new = NewTable {
                game: G::ID,
                options: to_text(options)?,
                state: to_text(state)?,
                to_act: awaited::<G>(state),
                clock,
                names,
                digests: credentials.each_ref().map(|c| secret::digest(c)),
                players: seated,
                webhook,
                site,
            };
            let (table, rung) = self.open_table(&mut tx, new, now).await?;
            let created = Created { table, credentials };
            self.remember_creation(&mut tx, &created, now).await?;
            Ok((created, rung))
        }
        .await;
        let (created, rung) = tx.finish(outcome).await?;
        self.ring_players(rung);
        Ok(created)
    }

    /// Writes `new` as a table in `tx` (an id of its own, its clock starting `now`), once the
    /// cap on open tables allows it, and tells its seated players it started. For every change
    /// that opens a table (a creation, an accepted challenge or rematch): the caller commits.
    pub(super) async fn open_table(
        &self,
        tx: &mut Write,
        new: NewTable,
        now: Millis,
    ) -> Result<(Table, Rung), TableError> {
        let id = secret::table_id();
        let times = new.clock.map(|clock| clock.start(now));
        let due = match (new.clock, &times, new.to_act) {
            (Some(clock), Some(times), Some(to_act)) => {
                let to_act = super::rows::seat_of(to_act)?;
                Some((
                    clock.deadline(times, to_act, now),
                    clock.near(times, to_act, now),
                ))
            }
            _ => None,
        };
        if self.store.backend == Backend::Postgres {
            sqlx::query("SELECT pg_advisory_xact_lock($1)")
                .bind(CREATIONS_LOCK)
                .execute(&mut **tx)
                .await?;
        }
        let open: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM moot_tables WHERE status = 'ongoing'")
                .fetch_one(&mut **tx)
                .await?;
        if open as u64 >= self.max_open {
            return Err(TableError::Full(open as u64));
        }
        sqlx::query(
            "INSERT INTO moot_tables (id, game, options, state, ply, status, winner, ended_by, \
             days_per_move, deadline_ms, created_ms, updated_ms, webhook_url, webhook_secret, to_act, \
             clock, clock_times, near_ms, site) \
             VALUES ($1, $2, $3, $4, 0, 'ongoing', NULL, NULL, $5, $6, $7, $7, $8, $9, $10, $11, $12, $13, $14)",
        )
        .bind(&id)
        .bind(new.game)
        .bind(new.options)
        .bind(new.state)
        .bind(
            new.clock
                .and_then(|c| c.as_days_per_move())
                .map(i64::from),
        )
        .bind(due.map(|(deadline, _)| deadline))
        .bind(now)
        .bind(new.webhook.as_ref().map(|w| w.url.clone()))
        .bind(new.webhook.map(|w| w.secret))
        .bind(new.to_act)
        .bind(new.clock.as_ref().map(to_text).transpose()?)
        .bind(times.as_ref().map(to_text).transpose()?)
        .bind(due.map(|(_, near)| near))
        .bind(new.site)
        .execute(&mut **tx)
        .await?;
        let mut sitters = Sitters::default();
        for (seat, ((digest, name), player)) in new
            .digests
            .iter()
            .zip(new.names)
            .zip(new.players)
            .enumerate()
        {
            if let Some(player) = &player {
                sitters.0.push((player.clone(), Seat::BOTH[seat]));
            }
            sqlx::query(
                "INSERT INTO moot_seats (table_id, seat, name, credential_sha256, player_id) \
                 VALUES ($1, $2, $3, $4, $5)",
            )
            .bind(&id)
            .bind(seat as i64)
            .bind(name)
            .bind(digest)
            .bind(player)
            .execute(&mut **tx)
            .await?;
        }
        let table = read_table(&mut **tx, &id)
            .await?
            .ok_or_else(|| TableError::Corrupt("the new table is not there".into()))?;
        let told = sitters.started(&table);
        let rung = self.tell_players(tx, &id, told, now).await?;
        Ok((table, rung))
    }
}

/// A table about to be written: everything but its id and its times.
pub(super) struct NewTable {
    /// The game's id.
    pub game: &'static str,
    /// The options and the start state, as stored.
    pub options: String,
    pub state: String,
    /// The seat the state awaits, as stored (see [`awaited`]).
    pub to_act: Option<i64>,
    /// The clock, if any.
    pub clock: Option<Clock>,
    /// Each seat's name, its credential's digest and its player's id, the first seat's first.
    pub names: [Option<String>; 2],
    pub digests: [String; 2],
    pub players: [Option<String>; 2],
    /// Where its events are posted, if anywhere (the URL already checked).
    pub webhook: Option<Webhook>,
    /// The site it belongs to, whose webhook gets its events too.
    pub site: Option<String>,
}
