//! What a table's followers are told of each change, and what a follower who missed some reads
//! again: each [`Change`] with where the table stood after it (its ply, who acts or how it
//! ended, its deadline), never the position. A follower that missed changes reads them a page
//! at a time from the moves' rows, from where it is, so that catching up costs what it sends;
//! one too far behind is given the table as it stands instead ([`CatchUp::Reset`]).
//! Catch-up reads take turns on a few of the readers' connections, so that followers catching
//! up never keep moves and table reads waiting for a connection.

use serde::{Deserialize, Serialize};
use sqlx::Row;

use super::read::read_table;
use super::rows::{StoredTable, read_played, seat_of};
use super::store::Backend;
use super::{Committed, DAY, EndedBy, Event, Millis, Standing, Table, TableError, Tables};
use crate::limits::tables as limits;

/// Where a table stood after a change.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct After {
    /// Moves played.
    pub ply: u64,
    /// Who acts, or how it ended.
    pub standing: Standing,
    /// When the awaited move is due, if the table has a clock and goes on.
    pub deadline: Option<Millis>,
    /// When the change was committed.
    pub updated: Millis,
}

/// A change as a follower is told of it (and as a player's feed keeps it: see
/// [`super::player_feed`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Change {
    /// The table's id.
    pub table_id: String,
    /// The change's number ([`Table::seq`] after it).
    pub seq: u64,
    /// What happened.
    pub event: Event,
    /// Where the table stood after it.
    pub after: After,
}

impl Change {
    /// Whether the table is over after it: no change follows.
    pub fn is_last(&self) -> bool {
        matches!(self.after.standing, Standing::Finished { .. })
    }
}

impl Committed {
    /// The change as its followers are told of it.
    pub fn change(&self) -> Change {
        Change {
            table_id: self.table.id.clone(),
            seq: self.seq(),
            event: self.event.clone(),
            after: After {
                ply: self.table.ply,
                standing: self.table.standing.clone(),
                deadline: self.table.deadline,
                updated: self.table.updated,
            },
        }
    }
}

/// What a follower who saw change `seen` is to be sent.
#[derive(Debug)]
pub enum CatchUp {
    /// The next changes, in order (none when it saw the last).
    Changes(Vec<Change>),
    /// The table as it stands: the follower is more than
    /// [`limits::RESET_AFTER_CHANGES`] changes behind.
    Reset(Box<Table>),
}

/// Where a table stands, without its position: its row but the state.
#[derive(Clone, Debug)]
pub struct Head {
    /// The game's id.
    pub game: &'static str,
    /// Moves played.
    pub ply: u64,
    /// Who acts, or how it ended.
    pub standing: Standing,
    /// The seat the position awaits (as it stood when a seat resigned or won on time);
    /// `None` once the rules ended the game.
    pub awaited: Option<moot_games::Seat>,
    /// Days each move may take, if the table's clock is that shorthand's.
    pub days_per_move: Option<u32>,
    /// When the awaited move is due, if the table has a clock and goes on.
    pub deadline: Option<Millis>,
    /// When the table last changed.
    pub updated: Millis,
    /// Plies taken back in all.
    pub taken_back: u64,
    /// The change number of the last takeback (0 if none).
    pub takeback_seq: u64,
}

impl Head {
    /// The table's change number ([`Table::seq`]).
    pub fn seq(&self) -> u64 {
        self.standing.seq(self.ply, self.taken_back)
    }

    /// The change number of the move that brought the table to `ply` since the last takeback.
    fn seq_of_ply(&self, ply: u64) -> u64 {
        ply + 2 * self.taken_back
    }

    /// Whether the table is over.
    pub fn is_finished(&self) -> bool {
        self.standing.is_finished()
    }

    /// The change that ended the table after its last move, if a seat resigned or won on time,
    /// or the table was closed as abandoned or aborted.
    fn ending(&self) -> Option<Event> {
        match self.standing {
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
            Standing::Finished {
                ended_by: EndedBy::Aborted,
                ..
            } => Some(Event::Aborted),
            _ => None,
        }
    }
}

impl Tables {
    /// Where table `id` stands, without reading its position (but for a table written before
    /// the awaited seat was kept beside it).
    pub async fn head(&self, id: &str) -> Result<Option<Head>, TableError> {
        if !super::secret::is_table_id(id) {
            return Ok(None);
        }
        // SQLite would take the primary key's index and read the row, the state's overflow
        // pages included: the index that holds the head is named (PostgreSQL keeps a large
        // state out of the row by itself).
        let tables = match self.store.backend {
            Backend::Sqlite => "moot_tables INDEXED BY moot_tables_heads",
            Backend::Postgres => "moot_tables",
        };
        let Some(row) = sqlx::query(&format!(
            "SELECT game, ply, status, winner, ended_by, days_per_move, updated_ms, to_act, \
             taken_back, takeback_seq, deadline_ms FROM {tables} WHERE id = $1"
        ))
        .bind(id)
        .fetch_optional(self.store.reads()?)
        .await?
        else {
            return Ok(None);
        };
        let awaited = row
            .try_get::<Option<i64>, _>("to_act")?
            .map(seat_of)
            .transpose()?;
        let status: String = row.try_get("status")?;
        let finished = status == "finished";
        let standing = match (finished, awaited) {
            (true, _) => StoredTable::finished(
                row.try_get("winner")?,
                row.try_get::<Option<String>, _>("ended_by")?.as_deref(),
            )?,
            (false, Some(to_act)) => Standing::Ongoing { to_act },
            // Written before `to_act` was kept: the position says.
            (false, None) => {
                let table = read_table(self.store.reads()?, id).await?;
                return Ok(table.map(|t| Head::of(&t)));
            }
        };
        let game: String = row.try_get("game")?;
        Ok(Some(Head {
            game: moot_games::GAME_IDS
                .iter()
                .find(|id| **id == game)
                .ok_or_else(|| TableError::Corrupt(format!("unknown game {game:?}")))?,
            ply: row.try_get::<i64, _>("ply")? as u64,
            standing,
            awaited,
            days_per_move: row
                .try_get::<Option<i64>, _>("days_per_move")?
                .map(|d| d as u32),
            deadline: if finished {
                None
            } else {
                row.try_get("deadline_ms")?
            },
            updated: row.try_get("updated_ms")?,
            taken_back: row.try_get::<i64, _>("taken_back")? as u64,
            takeback_seq: row.try_get::<i64, _>("takeback_seq")? as u64,
        }))
    }

    /// What a follower of table `id` who saw change `seen` is to be sent: at most `limit`
    /// changes after it, or the table as it stands when it is too far behind (see
    /// [`CatchUp`]). Waits for a turn among the followers catching up.
    pub async fn catch_up(&self, id: &str, seen: u64, limit: usize) -> Result<CatchUp, TableError> {
        let _turn = self
            .catching_up
            .acquire()
            .await
            .map_err(|_| TableError::Corrupt("the catch-up turns are closed".into()))?;
        let head = self.head(id).await?.ok_or(TableError::UnknownTable)?;
        // A follower that has not seen the last takeback holds moves taken back since: it is
        // given the table as it stands, as one too far behind is.
        if head.seq().saturating_sub(seen) > limits::RESET_AFTER_CHANGES || seen < head.takeback_seq
        {
            let table = read_table(self.store.reads()?, id)
                .await?
                .ok_or(TableError::UnknownTable)?;
            return Ok(CatchUp::Reset(Box::new(table)));
        }
        self.changes_after(id, &head, seen, limit)
            .await
            .map(CatchUp::Changes)
    }

    /// The changes of table `id` (standing as `head` says) after change `seen`, at most
    /// `limit`: its moves from the database, one more row read to know who acted next.
    async fn changes_after(
        &self,
        id: &str,
        head: &Head,
        seen: u64,
        limit: usize,
    ) -> Result<Vec<Change>, TableError> {
        let mut changes = Vec::new();
        // The moves since the last takeback, which the follower saw, are numbered from it.
        let seen_ply = seen.saturating_sub(2 * head.taken_back);
        if seen_ply < head.ply {
            let rows = sqlx::query(
                "SELECT ply, seat, notation, played_ms FROM moot_moves \
                 WHERE table_id = $1 AND ply > $2 ORDER BY ply LIMIT $3",
            )
            .bind(id)
            .bind(seen_ply as i64)
            .bind(limit as i64 + 1)
            .fetch_all(self.store.reads()?)
            .await?;
            let moves = rows
                .iter()
                .map(read_played)
                .collect::<Result<Vec<_>, _>>()?;
            for (i, played) in moves.iter().enumerate().take(limit) {
                let last = played.ply == head.ply;
                let standing = match moves.get(i + 1) {
                    // Whoever played next was awaited.
                    Some(next) => Standing::Ongoing { to_act: next.seat },
                    None if !last => {
                        return Err(TableError::Corrupt(format!(
                            "ply {} has no move",
                            played.ply + 1
                        )));
                    }
                    None => match (head.ending(), head.awaited) {
                        // The move before a resignation, a win on time or the closing of an
                        // abandoned table left the game going.
                        (Some(_), Some(to_act)) => Standing::Ongoing { to_act },
                        _ => head.standing.clone(),
                    },
                };
                // The last move's deadline is the table's (a clock's may hang on more than the
                // move's time: a bank, weekends, a vacation); an earlier one's is known for
                // days per move only.
                let deadline = match (&standing, last, head.deadline) {
                    (Standing::Ongoing { .. }, true, Some(deadline)) => Some(deadline),
                    (Standing::Ongoing { .. }, _, _) => head
                        .days_per_move
                        .map(|days| played.time + i64::from(days) * DAY),
                    (Standing::Finished { .. }, _, _) => None,
                };
                changes.push(Change {
                    table_id: id.to_owned(),
                    seq: head.seq_of_ply(played.ply),
                    event: Event::Moved(played.clone()),
                    after: After {
                        ply: played.ply,
                        standing,
                        deadline,
                        updated: played.time,
                    },
                });
            }
        }
        let moves_told = changes.last().is_none_or(|c| c.after.ply == head.ply);
        if let Some(event) = head.ending()
            && moves_told
            && changes.len() < limit
            && seen < head.seq()
        {
            changes.push(Change {
                table_id: id.to_owned(),
                seq: head.seq(),
                event,
                after: After {
                    ply: head.ply,
                    standing: head.standing.clone(),
                    deadline: None,
                    updated: head.updated,
                },
            });
        }
        Ok(changes)
    }
}

impl Head {
    /// A table's head, from the table read whole.
    pub fn of(table: &Table) -> Head {
        let awaited = match &table.game_status {
            moot_games::Status::Ongoing { to_act, .. } => Some(*to_act),
            moot_games::Status::Finished { .. } => None,
        };
        Head {
            game: table.game,
            ply: table.ply,
            standing: table.standing.clone(),
            awaited,
            days_per_move: table.days_per_move,
            deadline: table.deadline,
            updated: table.updated,
            taken_back: table.takebacks.plies,
            takeback_seq: table.takebacks.last_seq,
        }
    }
}
