//! Reading tables: a table as it stands, its history (whole, or a page) and record, and the
//! seat of a credential. Reads take no write transaction.

use sqlx::Row;

use super::rows::{
    SELECT_SEAT_KEYS, SELECT_TABLE_ONCE, SeatKeys, StoredTable, parse_json, read_played, seat_of,
};
use super::{History, HistoryPage, Millis, Played, SeatInfo, Table, TableError, Tables, secret};
use moot_games::with_game;
use moot_games::{Game, Seat};

impl Tables {
    /// The table with this id, if there is one, as it stands now (see [`Tables::get_at`]).
    pub async fn get(&self, id: &str) -> Result<Option<Table>, TableError> {
        self.get_at(id, super::now()).await
    }

    /// The table with this id, if there is one, as it stands at `now`. A table whose clock
    /// expired, where the expiry ends the game, is ended on time by this read if the deadline
    /// worker has not done it yet: the read ends it through the worker's own change
    /// ([`Tables::end_expired`], written once whoever comes first), so that no reader ever
    /// sees a game going on whose time is up, and every follower hears of its end.
    pub async fn get_at(&self, id: &str, now: Millis) -> Result<Option<Table>, TableError> {
        let table = read_table(self.store.reads()?, id).await?;
        let expired = table.as_ref().is_some_and(|table| {
            table.clock.is_some_and(|clock| clock.ends_on_expiry())
                && table.deadline.is_some_and(|deadline| now > deadline)
        });
        if !expired {
            return Ok(table);
        }
        match self.end_expired(id, now).await? {
            Some(ended) => Ok(Some(ended.table)),
            // Changed meanwhile (a move, or another replica ended it): as it is now.
            None => read_table(self.store.reads()?, id).await,
        }
    }

    /// At most `limit` moves of table `id` from ply `from` on, in order.
    async fn moves_from(&self, id: &str, from: u64, limit: u64) -> Result<Vec<Played>, TableError> {
        sqlx::query(
            "SELECT ply, seat, notation, played_ms FROM moot_moves \
             WHERE table_id = $1 AND ply >= $2 ORDER BY ply LIMIT $3",
        )
        .bind(id)
        .bind(from as i64)
        .bind(i64::try_from(limit).unwrap_or(i64::MAX))
        .fetch_all(self.store.reads()?)
        .await?
        .iter()
        .map(read_played)
        .collect()
    }

    /// A table's whole history and record.
    pub async fn history(&self, id: &str) -> Result<History, TableError> {
        let table = self.get(id).await?.ok_or(TableError::UnknownTable)?;
        let moves = self.moves_from(id, 1, u64::MAX).await?;
        let record = record_of(&table, &moves)?;
        Ok(History { moves, record })
    }

    /// At most `limit` moves of table `id` (at `ply`) from ply `from` on, and the game's
    /// record when they are the whole history: a page costs what it holds.
    pub async fn history_page(
        &self,
        id: &str,
        ply: u64,
        from: u64,
        limit: u64,
    ) -> Result<HistoryPage, TableError> {
        let moves = self.moves_from(id, from, limit).await?;
        let whole = from <= 1 && moves.len() as u64 == ply;
        let record = if whole {
            let table = self.get(id).await?.ok_or(TableError::UnknownTable)?;
            Some(record_of(&table, &moves)?)
        } else {
            None
        };
        Ok(HistoryPage { moves, record })
    }

    /// The seat of table `id` that this credential opens, the seat's own or its player's (a
    /// seat's page, finished or not).
    pub async fn seat(&self, id: &str, credential: &str) -> Result<Seat, TableError> {
        if !secret::is_table_id(id) {
            return Err(TableError::UnknownTable);
        }
        let rows = sqlx::query(SELECT_SEAT_KEYS)
            .bind(id)
            .fetch_all(self.store.reads()?)
            .await?;
        if rows.is_empty() {
            return Err(TableError::UnknownTable);
        }
        let mut seated = None;
        for row in rows {
            // Every seat is compared, so the time taken tells nothing of which matched.
            if SeatKeys::read(&row)?.opened_by(credential) {
                seated = Some(seat_of(row.try_get("seat")?)?);
            }
        }
        seated.ok_or(TableError::BadCredential)
    }
}

/// The game's record of `table`, whose `moves` are all its moves: the game's own format where
/// it has one (Hirþ), else the moves in notation.
fn record_of(table: &Table, moves: &[Played]) -> Result<String, TableError> {
    let own = with_game!(table.game, G => {
        let state: <G as Game>::State = serde_json::from_value(table.state.clone())
            .map_err(|e| TableError::Corrupt(e.to_string()))?;
        G::write_record(&state)
    }, else None);
    Ok(own.unwrap_or_else(|| {
        moves
            .iter()
            .map(|m| m.notation.as_str())
            .collect::<Vec<_>>()
            .join(" ")
    }))
}

/// Table `id` as `executor` reads it (the pool, or a change's own transaction), if there is
/// one.
pub(super) async fn read_table<'e, E>(executor: E, id: &str) -> Result<Option<Table>, TableError>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    if !secret::is_table_id(id) {
        return Ok(None);
    }
    let Some(found) = sqlx::query(SELECT_TABLE_ONCE)
        .bind(id)
        .fetch_optional(executor)
        .await?
    else {
        return Ok(None);
    };
    let row = StoredTable::read(&found)?;
    let seats = vec![
        SeatInfo {
            seat: Seat::First,
            name: found.try_get("first_name")?,
        },
        SeatInfo {
            seat: Seat::Second,
            name: found.try_get("second_name")?,
        },
    ];
    with_game!(row.game, G => {
            let state: <G as Game>::State = parse_json(&row.state, "state")?;
            row.table::<G>(id, &state, seats).map(Some)
        }, else Err(TableError::Corrupt(row.game.to_owned())))
}
