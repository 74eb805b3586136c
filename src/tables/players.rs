//! Player keys: a credential that reaches all of a player's seats, without an account. A
//! player is made with a name (or none) and a 256-bit credential, shown once and kept as its
//! digest like a seat's. A player takes a seat at a table's creation, or later with the seat's
//! own credential; the seat's credential keeps working alone. A player's tables are listed in
//! one query, from the seats it holds (`moot_seats_by_player`): a swept table's seats go with
//! it, so the list never names a table that is gone.

use std::fmt;

use sqlx::Row;

use super::player_feed::{Rung, Sitters};
use super::read::read_table;
use super::rows::{StoredTable, awaited, parse_json, seat_of};
use super::write::Write;
use super::{EndedBy, Millis, Standing, TableError, Tables, Webhook, secret};
use moot_games::{Game, Seat, with_game};

/// A player as anyone holding its credential sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Player {
    /// The player's id (random; names the player, grants nothing).
    pub id: String,
    /// The name it was given, if any.
    pub name: Option<String>,
    /// When it was made.
    pub created: Millis,
    /// Where its feed's events are posted, if it named a webhook.
    pub webhook_url: Option<String>,
}

/// A new player and its credential (shown once: only its digest is kept).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewPlayer {
    /// The player.
    pub player: Player,
    /// Its credential.
    pub credential: String,
}

/// A seat a player holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seated {
    /// The table's id.
    pub table_id: String,
    /// The seat.
    pub seat: Seat,
    /// The player holding it.
    pub player: Player,
}

/// Which of a player's tables to list.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TableFilter {
    /// Only the tables where the player's move is awaited.
    pub my_turn: bool,
    /// Only the ongoing (`Some(false)`) or the finished (`Some(true)`) tables.
    pub finished: Option<bool>,
}

/// Where a page of a player's tables ends, in the list's order (the player's turn first, then
/// the most recently changed, then by id): the next page starts after it. Written as
/// `<0|1>.<updated ms>.<table id>` in the `after` query parameter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListCursor {
    your_turn: bool,
    updated: Millis,
    id: String,
}

impl fmt::Display for ListCursor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}.{}.{}",
            u8::from(self.your_turn),
            self.updated,
            self.id
        )
    }
}

impl std::str::FromStr for ListCursor {
    type Err = ();

    fn from_str(text: &str) -> Result<ListCursor, ()> {
        let mut parts = text.splitn(3, '.');
        let your_turn = match parts.next() {
            Some("0") => false,
            Some("1") => true,
            _ => return Err(()),
        };
        let updated = parts.next().and_then(|u| u.parse().ok()).ok_or(())?;
        let id = parts
            .next()
            .filter(|id| secret::is_table_id(id))
            .ok_or(())?;
        Ok(ListCursor {
            your_turn,
            updated,
            id: id.to_owned(),
        })
    }
}

/// One of a player's tables, as its list tells it (never the position).
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerTable {
    /// The table's id.
    pub id: String,
    /// The game's id.
    pub game: &'static str,
    /// The player's seat.
    pub seat: Seat,
    /// The other seat's name: the one it was given, else its player's.
    pub opponent_name: Option<String>,
    /// Whether the table awaits the player's move.
    pub your_turn: bool,
    /// Moves played.
    pub ply: u64,
    /// How it ended, once it has: the winner (`None` for a draw) and how.
    pub ended: Option<(Option<Seat>, EndedBy)>,
    /// When the awaited move is due, if the table has a clock and goes on.
    pub deadline: Option<Millis>,
    /// When the table last changed.
    pub updated: Millis,
}

/// A page of a player's tables.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerTables {
    /// The tables, the player's turn first, then the most recently changed.
    pub tables: Vec<PlayerTable>,
    /// Where the next page starts, while there are more.
    pub next: Option<ListCursor>,
}

/// Whether `text` could be a credential (so that anything else is refused before a query).
fn is_credential(text: &str) -> bool {
    text.len() == 64 && text.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// A player's row (`id`, `name`, `created_ms`, `webhook_url`).
fn read_player(row: &sqlx::any::AnyRow) -> Result<Player, TableError> {
    Ok(Player {
        id: row.try_get("id")?,
        name: row.try_get("name")?,
        created: row.try_get("created_ms")?,
        webhook_url: row.try_get("webhook_url")?,
    })
}

/// The player holding `credential`, as `executor` reads it. Found by the credential's digest
/// (an index): timing tells nothing of a 256-bit secret behind a SHA-256.
async fn find<'e, E>(executor: E, credential: &str) -> Result<Option<Player>, TableError>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    if !is_credential(credential) {
        return Ok(None);
    }
    sqlx::query(
        "SELECT id, name, created_ms, webhook_url FROM moot_players WHERE credential_sha256 = $1",
    )
    .bind(secret::digest(credential))
    .fetch_optional(executor)
    .await?
    .as_ref()
    .map(read_player)
    .transpose()
}

/// The id of the player holding `credential`, in a change's transaction.
pub(super) async fn player_id(tx: &mut Write, credential: &str) -> Result<String, TableError> {
    find(&mut **tx, credential)
        .await?
        .map(|player| player.id)
        .ok_or(TableError::UnknownPlayer)
}

/// Makes a player named `name` (if given), with a new credential, in a change's transaction;
/// `site`'s if a site's key asked for it (its site's webhook gets the player's feed).
pub(super) async fn insert_player(
    tx: &mut Write,
    name: Option<String>,
    site: Option<&str>,
    now: Millis,
) -> Result<NewPlayer, TableError> {
    let player = Player {
        id: secret::table_id(),
        name,
        created: now,
        webhook_url: None,
    };
    let credential = secret::credential();
    sqlx::query(
        "INSERT INTO moot_players (id, name, credential_sha256, created_ms, site) \
         VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(&player.id)
    .bind(player.name.clone())
    .bind(secret::digest(&credential))
    .bind(now)
    .bind(site)
    .execute(&mut **tx)
    .await?;
    Ok(NewPlayer { player, credential })
}

impl Tables {
    /// Makes a player named `name` (if given), with a new credential; `site`'s if a site's key
    /// asked for it.
    pub async fn create_player(
        &self,
        name: Option<String>,
        site: Option<&str>,
        now: Millis,
    ) -> Result<NewPlayer, TableError> {
        let mut tx = self.write().await?;
        let outcome = insert_player(&mut tx, name, site, now).await;
        tx.finish(outcome).await
    }

    /// Player `player_id`'s feed is posted to `webhook` from now on (none: no more).
    pub async fn set_player_webhook(
        &self,
        player_id: &str,
        webhook: Option<Webhook>,
    ) -> Result<(), TableError> {
        if webhook.is_some() && !self.takes_player_webhooks() {
            return Err(TableError::WebhooksOff);
        }
        let mut tx = self.write().await?;
        let (url, secret) = webhook.map(|w| (w.url, w.secret)).unzip();
        let outcome = sqlx::query(
            "UPDATE moot_players SET webhook_url = $1, webhook_secret = $2 WHERE id = $3",
        )
        .bind(url)
        .bind(secret)
        .bind(player_id)
        .execute(&mut *tx)
        .await
        .map_err(TableError::from)
        .and_then(|done| match done.rows_affected() {
            1 => Ok(()),
            _ => Err(TableError::UnknownPlayer),
        });
        tx.finish(outcome).await
    }

    /// The player holding `credential`, if any.
    pub async fn player(&self, credential: &str) -> Result<Option<Player>, TableError> {
        find(self.store.reads()?, credential).await
    }

    /// How many of the tables of the player holding `credential` await its move, in one
    /// query (the list's `my_turn`, counted); `None` when the credential is no player's. For
    /// the count every page's header shows a browser with a player.
    pub async fn awaiting(&self, credential: &str) -> Result<Option<u64>, TableError> {
        if !is_credential(credential) {
            return Ok(None);
        }
        let row = sqlx::query(
            "SELECT p.id, COUNT(t.id) AS awaiting FROM moot_players p \
             LEFT JOIN moot_seats s ON s.player_id = p.id \
             LEFT JOIN moot_tables t ON t.id = s.table_id AND t.status = 'ongoing' \
             AND t.to_act = s.seat \
             WHERE p.credential_sha256 = $1 GROUP BY p.id",
        )
        .bind(secret::digest(credential))
        .fetch_optional(self.store.reads()?)
        .await?;
        row.map(|row| Ok(row.try_get::<i64, _>("awaiting")?.max(0) as u64))
            .transpose()
    }

    /// The ids of the players holding table `id`'s seats (the first seat's first), where one
    /// does: a read, so that a page's visit takes a free seat without a write for every seat
    /// already held.
    pub async fn seat_holders(&self, id: &str) -> Result<[Option<String>; 2], TableError> {
        if !secret::is_table_id(id) {
            return Err(TableError::UnknownTable);
        }
        let rows = sqlx::query("SELECT seat, player_id FROM moot_seats WHERE table_id = $1")
            .bind(id)
            .fetch_all(self.store.reads()?)
            .await?;
        if rows.is_empty() {
            return Err(TableError::UnknownTable);
        }
        let mut holders = [None, None];
        for row in &rows {
            holders[seat_of(row.try_get("seat")?)?.index()] = row.try_get("player_id")?;
        }
        Ok(holders)
    }

    /// The player holding `player_credential` takes `seat` of table `id`, shown to be that
    /// seat's by `seat_credential`. Taking a seat one holds already changes nothing; a seat
    /// another player holds, or the table's other seat when this player holds it, is refused.
    pub async fn take_seat(
        &self,
        id: &str,
        seat: Seat,
        seat_credential: &str,
        player_credential: &str,
        now: Millis,
    ) -> Result<Seated, TableError> {
        if !secret::is_table_id(id) {
            return Err(TableError::UnknownTable);
        }
        let mut tx = self.write().await?;
        let outcome = async {
            let rows = sqlx::query(
                "SELECT seat, credential_sha256, player_id FROM moot_seats WHERE table_id = $1",
            )
            .bind(id)
            .fetch_all(&mut *tx)
            .await?;
            if rows.is_empty() {
                return Err(TableError::UnknownTable);
            }
            let mut shown = None;
            let mut holders = [None, None];
            for row in &rows {
                let at = seat_of(row.try_get("seat")?)?;
                let kept: String = row.try_get("credential_sha256")?;
                // Every seat is compared, so the time taken tells nothing of which matched.
                if secret::matches(seat_credential, &kept) {
                    shown = Some(at);
                }
                holders[at.index()] = row.try_get::<Option<String>, _>("player_id")?;
            }
            if shown != Some(seat) {
                return Err(TableError::BadCredential);
            }
            let player = find(&mut *tx, player_credential)
                .await?
                .ok_or(TableError::UnknownPlayer)?;
            match &holders[seat.index()] {
                Some(holder) if *holder == player.id => {
                    let seated = Seated {
                        table_id: id.to_owned(),
                        seat,
                        player,
                    };
                    return Ok((seated, Rung::default()));
                }
                Some(_) => {
                    return Err(TableError::SeatTaken(format!(
                        "another player holds the {} seat of this table",
                        seat_word(seat)
                    )));
                }
                None => {}
            }
            if holders[seat.other().index()].as_ref() == Some(&player.id) {
                return Err(TableError::SeatTaken(format!(
                    "this player holds the {} seat of this table: a player holds one seat of a table",
                    seat_word(seat.other())
                )));
            }
            let taken = sqlx::query(
                "UPDATE moot_seats SET player_id = $1 \
                 WHERE table_id = $2 AND seat = $3 AND player_id IS NULL",
            )
            .bind(&player.id)
            .bind(id)
            .bind(seat.index() as i64)
            .execute(&mut *tx)
            .await?;
            if taken.rows_affected() != 1 {
                return Err(TableError::SeatTaken(format!(
                    "another player took the {} seat of this table meanwhile",
                    seat_word(seat)
                )));
            }
            Self::note_awaited(&mut tx, id).await?;
            // The player's feed hears of the table from now on.
            let table = read_table(&mut *tx, id)
                .await?
                .ok_or(TableError::UnknownTable)?;
            let told = Sitters(vec![(player.id.clone(), seat)]).started(&table);
            let rung = self.tell_players(&mut tx, id, told, now).await?;
            let seated = Seated {
                table_id: id.to_owned(),
                seat,
                player,
            };
            Ok((seated, rung))
        }
        .await;
        let (seated, rung) = tx.finish(outcome).await.map_err(|error| match error {
            // The player took the other seat in a race with this claim.
            TableError::Database(e) if TableError::is_unique_violation(&e) => {
                TableError::SeatTaken("this player holds the other seat of this table".into())
            }
            error => error,
        })?;
        self.ring_players(rung);
        Ok(seated)
    }

    /// Keeps the awaited seat beside table `id`'s state if it was written before that was kept
    /// (the list of a player's tables reads whose turn it is from there, never the state).
    async fn note_awaited(tx: &mut Write, id: &str) -> Result<(), TableError> {
        let row = sqlx::query(
            "SELECT game, options, state, ply, status, winner, ended_by, days_per_move, \
             deadline_ms, created_ms, updated_ms, webhook_url, webhook_secret, webhook_failed, \
             webhook_error, rematch_offer, rematch_of, rematched_by, takeback_offer, taken_back, \
             takeback_seq, clock, clock_times, near_ms, site FROM moot_tables \
             WHERE id = $1 AND status = 'ongoing' AND to_act IS NULL",
        )
        .bind(id)
        .fetch_optional(&mut **tx)
        .await?;
        let Some(row) = row else {
            return Ok(());
        };
        let stored = StoredTable::read(&row)?;
        let to_act = with_game!(stored.game, G => {
            let state: <G as Game>::State = parse_json(&stored.state, "state")?;
            awaited::<G>(&state)
        }, else return Err(TableError::Corrupt(stored.game.to_owned())));
        sqlx::query("UPDATE moot_tables SET to_act = $1 WHERE id = $2 AND to_act IS NULL")
            .bind(to_act)
            .bind(id)
            .execute(&mut **tx)
            .await?;
        Ok(())
    }

    /// At most `limit` of player `player`'s tables that pass `filter`, after `after` in the
    /// list's order: one query over the player's seats (`moot_seats_by_player`), each joined
    /// to its table and to the other seat (for its name), never reading a position.
    pub async fn player_tables(
        &self,
        player: &str,
        filter: TableFilter,
        after: Option<&ListCursor>,
        limit: u64,
    ) -> Result<PlayerTables, TableError> {
        const YOUR_TURN: &str = "CAST(CASE WHEN t.status = 'ongoing' AND t.to_act = s.seat THEN 1 ELSE 0 END AS BIGINT)";
        let mut sql = format!(
            "SELECT t.id, t.game, t.ply, t.status, t.winner, t.ended_by, t.deadline_ms, \
             t.updated_ms, s.seat, COALESCE(o.name, op.name) AS opponent_name, \
             {YOUR_TURN} AS your_turn \
             FROM moot_seats s JOIN moot_tables t ON t.id = s.table_id \
             LEFT JOIN moot_seats o ON o.table_id = s.table_id AND o.seat <> s.seat \
             LEFT JOIN moot_players op ON op.id = o.player_id \
             WHERE s.player_id = $1"
        );
        if filter.my_turn {
            sql.push_str(&format!(" AND {YOUR_TURN} = 1"));
        }
        if let Some(finished) = filter.finished {
            let status = if finished { "finished" } else { "ongoing" };
            sql.push_str(&format!(" AND t.status = '{status}'"));
        }
        if after.is_some() {
            // The rows after the cursor in the order below, all three keys descending.
            sql.push_str(&format!(
                " AND ({YOUR_TURN} < $2 OR ({YOUR_TURN} = $2 AND (t.updated_ms < $3 \
                 OR (t.updated_ms = $3 AND t.id < $4))))"
            ));
        }
        sql.push_str(&format!(
            " ORDER BY your_turn DESC, t.updated_ms DESC, t.id DESC LIMIT {}",
            limit.saturating_add(1)
        ));
        let mut query = sqlx::query(&sql).bind(player);
        if let Some(cursor) = after {
            query = query
                .bind(i64::from(cursor.your_turn))
                .bind(cursor.updated)
                .bind(cursor.id.clone());
        }
        let rows = query.fetch_all(self.store.reads()?).await?;
        let mut tables = rows
            .iter()
            .map(read_listed)
            .collect::<Result<Vec<_>, _>>()?;
        let next = if tables.len() as u64 > limit {
            tables.truncate(limit as usize);
            tables.last().map(|last| ListCursor {
                your_turn: last.your_turn,
                updated: last.updated,
                id: last.id.clone(),
            })
        } else {
            None
        };
        Ok(PlayerTables { tables, next })
    }
}

/// A row of the list of a player's tables.
fn read_listed(row: &sqlx::any::AnyRow) -> Result<PlayerTable, TableError> {
    let game: String = row.try_get("game")?;
    let game = moot_games::GAME_IDS
        .iter()
        .find(|id| **id == game)
        .ok_or_else(|| TableError::Corrupt(format!("unknown game {game:?}")))?;
    let status: String = row.try_get("status")?;
    let ended = if status == "finished" {
        match StoredTable::finished(
            row.try_get("winner")?,
            row.try_get::<Option<String>, _>("ended_by")?.as_deref(),
        )? {
            Standing::Finished { winner, ended_by } => Some((winner, ended_by)),
            Standing::Ongoing { .. } => None,
        }
    } else {
        None
    };
    Ok(PlayerTable {
        id: row.try_get("id")?,
        game,
        seat: seat_of(row.try_get("seat")?)?,
        opponent_name: row.try_get("opponent_name")?,
        your_turn: row.try_get::<i64, _>("your_turn")? == 1,
        ply: row.try_get::<i64, _>("ply")? as u64,
        deadline: if ended.is_none() {
            row.try_get("deadline_ms")?
        } else {
            None
        },
        ended,
        updated: row.try_get("updated_ms")?,
    })
}

/// A seat as the API names it.
fn seat_word(seat: Seat) -> &'static str {
    match seat {
        Seat::First => "first",
        Seat::Second => "second",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_list_cursor_reads_back_what_it_writes_and_nothing_else() {
        let cursor = ListCursor {
            your_turn: true,
            updated: 1_796_212_800_000,
            id: "5f0c9d4e8b7a6f3e2d1c0b9a8f7e6d5c".to_owned(),
        };
        assert_eq!(cursor.to_string().parse::<ListCursor>(), Ok(cursor));
        for text in [
            "",
            "1",
            "2.5.5f0c9d4e8b7a6f3e2d1c0b9a8f7e6d5c",
            "1.x.5f0c9d4e8b7a6f3e2d1c0b9a8f7e6d5c",
            "0.5.not-an-id",
            "0.5.5F0C9D4E8B7A6F3E2D1C0B9A8F7E6D5C",
        ] {
            assert!(text.parse::<ListCursor>().is_err(), "{text:?}");
        }
    }

    #[test]
    fn only_lowercase_hex_of_256_bits_could_be_a_credential() {
        assert!(is_credential(&secret::credential()));
        assert!(!is_credential(&"AB".repeat(32)));
        assert!(!is_credential(&"ab".repeat(31)));
    }
}
