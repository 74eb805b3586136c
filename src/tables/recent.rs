//! Tables as this process last wrote them, so that the next move at a table is written without
//! reading the table first: on PostgreSQL one round trip instead of two, most of what a move
//! costs the database beside its commit.
//!
//! What is remembered may be stale: another replica, or another change in this process (a
//! takeback, a vacation, a seat taken, a webhook's failure noted), may have changed the table
//! since. Every change of a table's row or of its seats raises its `version` (triggers on
//! PostgreSQL, so that no statement can forget it), and a move played from what was
//! remembered is written only where the version is still the one remembered. A move refused
//! for any reason (its own, or the version) is tried again from the database: no answer rests
//! on what was remembered alone. Only PostgreSQL remembers: SQLite's writer reads the table
//! inside its write lock, at little cost.

use dashmap::DashMap;
use sqlx::Row;

use super::player_feed::Sitters;
use super::rows::{SELECT_TABLE, SeatKeys, StoredTable, read_seat};
use super::write::Write;
use super::{Millis, SeatInfo, TableError, secret};
use moot_games::Seat;

/// Tables remembered at most: reached, all are forgotten (the busy ones come back at their
/// next move).
const MOST_TABLES: usize = 4096;

/// The largest position remembered, in bytes of JSON: a long table is read each time.
const LARGEST_STATE: usize = 16 * 1024;

/// What a seat's change reads of its table: its row, its seats, the keys that open them, the
/// players seated, and the version read.
#[derive(Clone)]
pub(super) struct Loaded {
    /// The table's row.
    pub(super) row: StoredTable,
    /// Its seats, as anyone may see them.
    pub(super) seats: Vec<SeatInfo>,
    /// What opens each seat, in the order of `seats`.
    pub(super) keys: Vec<SeatKeys>,
    /// The players seated.
    pub(super) sitters: Sitters,
    /// The row's version when read (see the module's documentation).
    pub(super) version: i64,
}

impl Loaded {
    /// Table `id` as read in `tx`.
    pub(super) async fn read(tx: &mut Write, id: &str) -> Result<Loaded, TableError> {
        if !secret::is_table_id(id) {
            return Err(TableError::UnknownTable);
        }
        let rows = sqlx::query(SELECT_TABLE)
            .bind(id)
            .fetch_all(&mut **tx)
            .await?;
        let first = rows.first().ok_or(TableError::UnknownTable)?;
        let mut loaded = Loaded {
            row: StoredTable::read(first)?,
            seats: Vec::with_capacity(2),
            keys: Vec::with_capacity(2),
            sitters: Sitters::default(),
            version: first.try_get("version")?,
        };
        for row in &rows {
            let (seat, keys) = read_seat(row)?;
            if let Some(player) = &keys.player_id {
                loaded.sitters.0.push((player.clone(), seat.seat));
            }
            loaded.seats.push(seat);
            loaded.keys.push(keys);
        }
        Ok(loaded)
    }

    /// The seat whose credential this is (its own, or its player's), whatever the table's
    /// state.
    pub(super) fn opened_by(&self, credential: &str) -> Result<Seat, TableError> {
        // Every seat is compared, so the time taken tells nothing of which matched.
        let mut seated = None;
        for (seat, keys) in self.seats.iter().zip(&self.keys) {
            if keys.opened_by(credential) {
                seated = Some(seat.seat);
            }
        }
        seated.ok_or(TableError::BadCredential)
    }

    /// The seat whose credential this is: refused if none, if the table is over, or if its
    /// clock expired and its expiry ends the game.
    pub(super) fn seat_for(&self, credential: &str, now: Millis) -> Result<Seat, TableError> {
        let seat = self.opened_by(credential)?;
        if self.row.status == "finished" {
            return Err(TableError::Finished);
        }
        if self.row.expired(now) {
            return Err(TableError::TimeExpired);
        }
        Ok(seat)
    }
}

/// The tables this process last wrote (see the module's documentation).
#[derive(Default)]
pub(super) struct Recent {
    tables: DashMap<String, Loaded>,
}

impl std::fmt::Debug for Recent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Recent")
            .field("tables", &self.tables.len())
            .finish()
    }
}

impl Recent {
    /// Table `id` as remembered, forgotten here: two changes at once do not both start from
    /// it.
    pub(super) fn take(&self, id: &str) -> Option<Loaded> {
        self.tables.remove(id).map(|(_, loaded)| loaded)
    }

    /// Remembers table `id` as just written, if it is still being played and small enough.
    pub(super) fn keep(&self, id: &str, loaded: Loaded) {
        if loaded.row.status != "ongoing" || loaded.row.state.len() > LARGEST_STATE {
            return;
        }
        if self.tables.len() >= MOST_TABLES {
            self.tables.clear();
        }
        self.tables.insert(id.to_owned(), loaded);
    }
}
