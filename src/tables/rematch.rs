//! A rematch at a finished table: a seat offers it, and the other seat's offer in turn accepts
//! it: a new table opens between the same seats (each seat's credential and player open the new
//! one too), their colours swapped, with the same options, clock and webhook, the two tables
//! linked both ways. Either seat may decline the offer standing (the seat that made it,
//! withdrawing it). Each is one transaction, its notices written to the seats' players' feeds.
//! Two racing acceptances open one table: the old table's link is written only where it has
//! none, and the one that finds it written is answered with the table the other opened.

use super::create::NewTable;
use super::player_feed::{Notice, Rung, Told};
use super::rows::{StoredTable, awaited, parse_json, to_text};
use super::write::Write;
use super::{Millis, Rematch, SeatInfo, Table, TableError, Tables};
use moot_games::{Game, Seat, with_game};

/// What a seat's rematch did.
#[derive(Clone, Debug, PartialEq)]
pub enum Rematched {
    /// The seat's offer stands (made now, or before): the table as it stands.
    Offered(Table),
    /// The other seat's offer was standing, and is accepted now: the finished table, and the
    /// new one.
    Accepted {
        /// The finished table, linked to its rematch.
        table: Table,
        /// The rematch.
        rematch: Box<Table>,
    },
    /// The rematch was accepted before: the finished table, linked to it.
    Before(Table),
}

/// A finished table loaded for a rematch: its row, the seat asking, and each seat's name,
/// credential digest and player.
struct Loaded {
    row: StoredTable,
    seat: Seat,
    seats: Vec<SeatInfo>,
    digests: [String; 2],
    players: [Option<String>; 2],
}

impl Loaded {
    /// The seats' players and what each is told of the rematch.
    fn told(&self, notice: Notice) -> Told {
        Seat::BOTH
            .into_iter()
            .zip(&self.players)
            .filter_map(|(seat, player)| {
                player
                    .as_ref()
                    .map(|player| (player.clone(), seat, vec![notice.clone()]))
            })
            .collect()
    }

    /// The table as the layer gives it, its rematch as `rematch`.
    fn table(&self, id: &str, rematch: Rematch) -> Result<Table, TableError> {
        with_game!(self.row.game, G => {
            let state: <G as Game>::State = parse_json(&self.row.state, "state")?;
            let mut table = self.row.table::<G>(id, &state, self.seats.clone())?;
            table.rematch = rematch;
            Ok(table)
        }, else Err(TableError::Corrupt(self.row.game.to_owned())))
    }
}

impl Tables {
    /// The seat holding `credential` asks for a rematch at finished table `id`: its offer, or
    /// the other seat's offer accepted. A race lost to the other seat (both offering at once,
    /// or two acceptances) is tried again on what the other wrote.
    pub async fn rematch(
        &self,
        id: &str,
        credential: &str,
        now: Millis,
    ) -> Result<Rematched, TableError> {
        let mut tries = 0;
        loop {
            tries += 1;
            match self.try_rematch(id, credential, now).await {
                Err(TableError::RematchRace) if tries < 3 => continue,
                rematched => return rematched,
            }
        }
    }

    async fn try_rematch(
        &self,
        id: &str,
        credential: &str,
        now: Millis,
    ) -> Result<Rematched, TableError> {
        let mut tx = self.write().await?;
        let outcome = async {
            let loaded = load_finished(&mut tx, id, credential).await?;
            let standing = &loaded.row.rematch;
            if standing.by.is_some() {
                return Ok((Rematched::Before(loaded.table(id, standing.clone())?), None));
            }
            match standing.offered_by {
                Some(seat) if seat == loaded.seat => Ok((
                    Rematched::Offered(loaded.table(id, standing.clone())?),
                    None,
                )),
                Some(_) => {
                    let (table, rematch, rung) = self.accept(&mut tx, id, &loaded, now).await?;
                    Ok((
                        Rematched::Accepted {
                            table,
                            rematch: Box::new(rematch),
                        },
                        Some(rung),
                    ))
                }
                None => {
                    let (ply, taken_back) = (loaded.row.ply, loaded.row.takebacks.plies);
                    Self::count_offer(&mut tx, id, ply, taken_back).await?;
                    let offered = sqlx::query(
                        "UPDATE moot_tables SET rematch_offer = $1 \
                         WHERE id = $2 AND rematch_offer IS NULL AND rematched_by IS NULL",
                    )
                    .bind(loaded.seat.index() as i64)
                    .bind(id)
                    .execute(&mut *tx)
                    .await?;
                    if offered.rows_affected() != 1 {
                        return Err(TableError::RematchRace);
                    }
                    let told = loaded.told(Notice::RematchOffered { by: loaded.seat });
                    let rung = self.tell_players(&mut tx, id, told, now).await?;
                    let rematch = Rematch {
                        offered_by: Some(loaded.seat),
                        ..standing.clone()
                    };
                    Ok((Rematched::Offered(loaded.table(id, rematch)?), Some(rung)))
                }
            }
        }
        .await;
        let (rematched, rung) = tx.finish(outcome).await?;
        if let Some(rung) = rung {
            self.ring_players(rung);
        }
        Ok(rematched)
    }

    /// The other seat's offer accepted, in `tx`: the new table opened, both linked.
    async fn accept(
        &self,
        tx: &mut Write,
        id: &str,
        loaded: &Loaded,
        now: Millis,
    ) -> Result<(Table, Table, Rung), TableError> {
        let row = &loaded.row;
        let swapped = |pair: [Option<String>; 2]| {
            let [first, second] = pair;
            [second, first]
        };
        let names = loaded.seats.iter().fold([None, None], |mut names, seat| {
            names[seat.seat.index()] = seat.name.clone();
            names
        });
        let new = with_game!(row.game, G => {
            let options: <G as Game>::Options = parse_json(&row.options, "options")?;
            let state = G::new_game(&options)
                .map_err(|e| TableError::Corrupt(format!("options: {e}")))?;
            NewTable {
                game: G::ID,
                options: row.options.clone(),
                state: to_text(&state)?,
                to_act: awaited::<G>(&state),
                clock: row.clock,
                names: swapped(names),
                digests: [loaded.digests[1].clone(), loaded.digests[0].clone()],
                players: swapped(loaded.players.clone()),
                webhook: row.webhook.clone(),
                // A rematch is its table's site's, as the table was.
                site: row.site.clone(),
            }
        }, else return Err(TableError::Corrupt(row.game.to_owned())));
        let (mut rematch, started) = self.open_table(tx, new, now).await?;
        // The link is written only where none is: of two acceptances, one opens the table.
        let linked = sqlx::query(
            "UPDATE moot_tables SET rematched_by = $1, rematch_offer = NULL \
             WHERE id = $2 AND rematched_by IS NULL AND rematch_offer = $3",
        )
        .bind(&rematch.id)
        .bind(id)
        .bind(loaded.seat.other().index() as i64)
        .execute(&mut **tx)
        .await?;
        if linked.rows_affected() != 1 {
            return Err(TableError::RematchRace);
        }
        sqlx::query("UPDATE moot_tables SET rematch_of = $1 WHERE id = $2")
            .bind(id)
            .bind(&rematch.id)
            .execute(&mut **tx)
            .await?;
        rematch.rematch.of = Some(id.to_owned());
        let told = loaded.told(Notice::RematchAccepted {
            rematch: rematch.id.clone(),
        });
        let rung = self.tell_players(tx, id, told, now).await?;
        let table = loaded.table(
            id,
            Rematch {
                offered_by: None,
                of: row.rematch.of.clone(),
                by: Some(rematch.id.clone()),
            },
        )?;
        Ok((table, rematch, started.and(rung)))
    }

    /// The seat holding `credential` declines the rematch offered at table `id` (or withdraws
    /// its own offer): the table as it stands after.
    pub async fn decline_rematch(
        &self,
        id: &str,
        credential: &str,
        now: Millis,
    ) -> Result<Table, TableError> {
        let mut tx = self.write().await?;
        let outcome = async {
            let loaded = load_finished(&mut tx, id, credential).await?;
            let standing = &loaded.row.rematch;
            if let Some(rematch) = &standing.by {
                return Err(TableError::Rematched(rematch.clone()));
            }
            if standing.offered_by.is_none() {
                return Err(TableError::NoRematchOffer);
            }
            let declined = sqlx::query(
                "UPDATE moot_tables SET rematch_offer = NULL \
                 WHERE id = $1 AND rematch_offer IS NOT NULL AND rematched_by IS NULL",
            )
            .bind(id)
            .execute(&mut *tx)
            .await?;
            if declined.rows_affected() != 1 {
                return Err(TableError::NoRematchOffer);
            }
            let told = loaded.told(Notice::RematchDeclined { by: loaded.seat });
            let rung = self.tell_players(&mut tx, id, told, now).await?;
            let rematch = Rematch {
                offered_by: None,
                ..standing.clone()
            };
            Ok((loaded.table(id, rematch)?, rung))
        }
        .await;
        let (table, rung) = tx.finish(outcome).await?;
        self.ring_players(rung);
        Ok(table)
    }
}

/// Loads finished table `id` in `tx` for a rematch, with the seat `credential` opens (its own
/// credential, or its player's).
async fn load_finished(tx: &mut Write, id: &str, credential: &str) -> Result<Loaded, TableError> {
    let read = super::recent::Loaded::read(tx, id).await?;
    let seat = read.opened_by(credential)?;
    if read.row.status != "finished" {
        return Err(TableError::Unfinished);
    }
    let mut digests = [String::new(), String::new()];
    let mut players = [None, None];
    for (info, keys) in read.seats.iter().zip(read.keys) {
        digests[info.seat.index()] = keys.seat;
        players[info.seat.index()] = keys.player_id;
    }
    Ok(Loaded {
        row: read.row,
        seat,
        seats: read.seats,
        digests,
        players,
    })
}
