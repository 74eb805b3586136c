//! A seat's changes to its table: a move, a resignation, a claim on time. Each is one write
//! transaction: the table loaded and the seat found by its credential, the change checked and
//! written (only where the table still has the ply it was loaded at), its event written to the
//! outbox and announced, then committed.

use super::rows::{SELECT_TABLE, StoredTable, awaited, columns, parse_json, read_seat, to_text};
use super::write::Write;
use super::{
    Committed, DAY, EndedBy, Event, Millis, Played, SeatInfo, Standing, TableError, Tables,
    Webhook, secret,
};
use moot_games::with_game;
use moot_games::{Game, Seat, Turn};

impl Tables {
    /// Loads a table for a change in `tx` and finds the seat whose credential this is.
    async fn load_seated(
        tx: &mut Write,
        id: &str,
        credential: &str,
    ) -> Result<(StoredTable, Seat, Vec<SeatInfo>), TableError> {
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

    /// In a seat's change's transaction, once the change is written: what is written beside
    /// it (its event in the outbox, its `NOTIFY`, its answer for an `Idempotency-Key`).
    async fn beside(
        &self,
        tx: &mut Write,
        webhook: Option<&Webhook>,
        committed: &Committed,
        now: Millis,
    ) -> Result<(), TableError> {
        self.enqueue(tx, webhook, committed, now).await?;
        self.notify(tx, &committed.table.id, committed.seq())
            .await?;
        self.remember_change(tx, committed, now).await
    }

    /// After the commit: the delivery worker's bell rung, this process's followers told.
    fn announced(&self, webhook: Option<&Webhook>, committed: Committed) -> Committed {
        self.ring(webhook);
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
        let mut tx = self.write().await?;
        let outcome = async {
            let (row, seat, seats) = Self::load_seated(&mut tx, id, credential).await?;
            if row.ply != seen_ply {
                return Err(TableError::StalePly {
                    seen: seen_ply,
                    current: row.ply,
                });
            }
            let webhook = row.webhook.clone();
            let cap = self.ply_cap;
            let committed = with_game!(row.game, G => {
                Self::play_in::<G>(&mut tx, id, row, seat, seats, text, cap, now).await?
            }, else return Err(TableError::Corrupt(row.game.to_owned())));
            self.beside(&mut tx, webhook.as_ref(), &committed, now)
                .await?;
            Ok((committed, webhook))
        }
        .await;
        let (committed, webhook) = tx.finish(outcome).await.map_err(|e| match e {
            TableError::Database(e) => stale_if_taken(e, seen_ply),
            e => e,
        })?;
        Ok(self.announced(webhook.as_ref(), committed))
    }

    /// Checks and applies the move `text` with game `G`'s engine and writes it in `tx`: the
    /// move's row, then the table's where it still has the ply it was loaded at. A move that
    /// brings the table to `ply_cap` plies ends it, drawn, if the rules did not.
    #[allow(clippy::too_many_arguments)]
    async fn play_in<G: Game>(
        tx: &mut Write,
        id: &str,
        mut row: StoredTable,
        seat: Seat,
        seats: Vec<SeatInfo>,
        text: &str,
        ply_cap: u64,
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
        let standing = match Standing::after::<G>(&state) {
            Standing::Ongoing { .. } if ply >= ply_cap => Standing::Finished {
                winner: None,
                ended_by: EndedBy::PlyLimit,
            },
            standing => standing,
        };
        let (status, winner, ended_by) = columns(&standing);
        let deadline = match standing {
            Standing::Ongoing { .. } => row.days_per_move.map(|days| now + days * DAY),
            Standing::Finished { .. } => None,
        };
        row.state = to_text(&state)?;
        let updated = sqlx::query(
            "UPDATE moot_tables SET state = $1, ply = $2, status = $3, winner = $4, \
             ended_by = $5, deadline_ms = $6, updated_ms = $7, to_act = $8 \
             WHERE id = $9 AND ply = $10 AND status = 'ongoing'",
        )
        .bind(&row.state)
        .bind(ply as i64)
        .bind(status)
        .bind(winner)
        .bind(ended_by)
        .bind(deadline)
        .bind(now)
        .bind(awaited::<G>(&state))
        .bind(id)
        .bind(seen as i64)
        .execute(&mut **tx)
        .await
        .map_err(|e| stale_if_taken(e, seen))?;
        if updated.rows_affected() != 1 {
            return Err(lost_race(tx, id, seen).await);
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
        decide: impl FnOnce(&StoredTable, Seat, Seat) -> Result<(Seat, EndedBy), TableError>,
    ) -> Result<Committed, TableError> {
        let mut tx = self.write().await?;
        let outcome = async {
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
                    return Err(lost_race(&mut tx, id, row.ply).await);
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
            self.beside(&mut tx, webhook.as_ref(), &committed, now)
                .await?;
            Ok((committed, webhook))
        }
        .await;
        let (committed, webhook) = tx.finish(outcome).await?;
        Ok(self.announced(webhook.as_ref(), committed))
    }
}

/// Why a change of table `id` loaded at ply `seen` found it changed when it wrote (another
/// change committed meanwhile, which PostgreSQL's replicas allow): `Finished` if a
/// resignation, a claim or the sweep's closing ended it at that ply, else `StalePly` (a
/// move).
async fn lost_race(tx: &mut Write, id: &str, seen: u64) -> TableError {
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
