//! Reading tables: a table as it stands, its history and record, the changes a follower
//! missed (the last one as stored, earlier ones replayed by the engine), and the seat of a
//! credential. Reads take no write transaction.

use sqlx::Row;

use super::rows::{SELECT_TABLE, StoredTable, parse_json, read_played, read_seat, seat_of};
use super::{
    Committed, DAY, EndedBy, Event, History, Played, Standing, Table, TableError, Tables, secret,
};
use moot_games::with_game;
use moot_games::{Game, Seat};

impl Tables {
    /// The table with this id, if there is one.
    pub async fn get(&self, id: &str) -> Result<Option<Table>, TableError> {
        read_table(&self.store.pool, id).await
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
        .map(read_played)
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
            Standing::Finished {
                ended_by: EndedBy::Abandoned,
                ..
            } => Some(Event::Abandoned),
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
        if played.ply == table.ply && table.seq() == table.ply {
            // The last move's table is the one stored: it may have ended the table outside
            // the rules (the ply cap), which the engine does not know of.
            changes.push(Committed {
                table: table.clone(),
                event: Event::Moved(played),
            });
            break;
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

/// Table `id` as `executor` reads it (the pool, or a change's own transaction), if there is
/// one.
pub(super) async fn read_table<'e, E>(executor: E, id: &str) -> Result<Option<Table>, TableError>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    if !secret::is_table_id(id) {
        return Ok(None);
    }
    let rows = sqlx::query(SELECT_TABLE)
        .bind(id)
        .fetch_all(executor)
        .await?;
    let Some(first) = rows.first() else {
        return Ok(None);
    };
    let row = StoredTable::read(first)?;
    let seats = rows
        .iter()
        .map(|r| read_seat(r).map(|(seat, _)| seat))
        .collect::<Result<Vec<_>, TableError>>()?;
    with_game!(row.game, G => {
            let state: <G as Game>::State = parse_json(&row.state, "state")?;
            row.table::<G>(id, &state, seats).map(Some)
        }, else Err(TableError::Corrupt(row.game.to_owned())))
}
