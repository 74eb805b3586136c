//! The tables' rows as the database holds them, and their mapping to and from the layer's
//! types: a table's row ([`StoredTable`]) and its seats' rows as [`SELECT_TABLE`] reads them,
//! a move's row, a standing's columns, and the JSON columns (options, state) parsed and
//! written.

use serde_json::Value;
use sqlx::Row;
use sqlx::any::AnyRow;

use super::outbox::Hooks;
use super::{
    Clock, ClockTimes, EndedBy, Millis, Played, Rematch, SeatInfo, Standing, Table, TableError,
    Takebacks, Webhook, WebhookHealth,
};
use moot_games::{GAME_IDS, Game, Seat, Turn};

/// A table and its seats in one query (one row per seat, the table's columns on each, and the
/// keys that open the seat: its own credential's digest and its player's): a round trip fewer
/// per move, which is most of a move's cost on SQLite.
pub(super) const SELECT_TABLE: &str = "SELECT t.game, t.options, t.state, t.ply, t.status, t.winner, \
     t.ended_by, t.days_per_move, t.deadline_ms, t.created_ms, t.updated_ms, t.webhook_url, \
     t.webhook_secret, t.webhook_failed, t.webhook_error, t.rematch_offer, t.rematch_of, \
     t.rematched_by, t.takeback_offer, t.taken_back, t.takeback_seq, t.clock, t.clock_times, \
     t.near_ms, t.version, t.site, s.seat, s.name, s.credential_sha256, \
     s.player_id, p.credential_sha256 AS player_sha256 \
     FROM moot_tables t JOIN moot_seats s ON s.table_id = t.id \
     LEFT JOIN moot_players p ON p.id = s.player_id WHERE t.id = $1 ORDER BY s.seat";

/// A table's seats and the keys that open each, as [`SELECT_TABLE`] reads them.
pub(super) const SELECT_SEAT_KEYS: &str = "SELECT s.seat, s.credential_sha256, s.player_id, \
     p.credential_sha256 AS player_sha256 \
     FROM moot_seats s LEFT JOIN moot_players p ON p.id = s.player_id WHERE s.table_id = $1";

/// The digests of what opens a seat: the seat's own credential, and the credential of the
/// player who took it, if one did (and that player's id, whose feed hears of the table).
#[derive(Clone)]
pub(super) struct SeatKeys {
    pub(super) seat: String,
    player: Option<String>,
    pub(super) player_id: Option<String>,
}

impl SeatKeys {
    /// A seat's keys in a row of [`SELECT_TABLE`] or [`SELECT_SEAT_KEYS`].
    pub(super) fn read(row: &AnyRow) -> Result<SeatKeys, TableError> {
        Ok(SeatKeys {
            seat: row.try_get("credential_sha256")?,
            player: row.try_get("player_sha256")?,
            player_id: row.try_get("player_id")?,
        })
    }

    /// Whether `credential` opens the seat. Both keys are compared, so that the time taken
    /// tells nothing of which matched.
    pub(super) fn opened_by(&self, credential: &str) -> bool {
        let own = super::secret::matches(credential, &self.seat);
        let player = self
            .player
            .as_deref()
            .is_some_and(|kept| super::secret::matches(credential, kept));
        own | player
    }
}

/// A table with its seats' names in one row, for reading (no credential): the state is read
/// once, where [`SELECT_TABLE`]'s row per seat reads it with each.
pub(super) const SELECT_TABLE_ONCE: &str = "SELECT t.game, t.options, t.state, t.ply, t.status, \
     t.winner, t.ended_by, t.days_per_move, t.deadline_ms, t.created_ms, t.updated_ms, \
     t.webhook_url, t.webhook_secret, t.webhook_failed, t.webhook_error, t.rematch_offer, \
     t.rematch_of, t.rematched_by, t.takeback_offer, t.taken_back, t.takeback_seq, t.clock, \
     t.clock_times, t.near_ms, t.site, \
     (SELECT name FROM moot_seats WHERE table_id = t.id AND seat = 0) AS first_name, \
     (SELECT name FROM moot_seats WHERE table_id = t.id AND seat = 1) AS second_name \
     FROM moot_tables t WHERE t.id = $1";

/// A table's row as stored: its columns, the JSON ones still text.
#[derive(Clone)]
pub(super) struct StoredTable {
    /// The game's id, one of [`GAME_IDS`].
    pub(super) game: &'static str,
    /// The options, as JSON text.
    pub(super) options: String,
    /// The position, as JSON text.
    pub(super) state: String,
    /// Moves played so far.
    pub(super) ply: u64,
    /// `ongoing` or `finished`.
    pub(super) status: String,
    /// The winning seat's index, if finished with a winner.
    pub(super) winner: Option<i64>,
    /// How it ended ([`EndedBy::as_str`]), if finished.
    pub(super) ended_by: Option<String>,
    /// Days each move may take, if the table has a clock.
    pub(super) days_per_move: Option<i64>,
    /// The table's clock, if it has one (the shorthand's for a table made before clocks had
    /// kinds).
    pub(super) clock: Option<Clock>,
    /// The times its clock keeps, if stored.
    pub(super) clock_times: Option<ClockTimes>,
    /// When the awaited move is due, if the table has a clock.
    pub(super) deadline: Option<Millis>,
    /// When the table was created.
    pub(super) created: Millis,
    /// When it last changed.
    pub(super) updated: Millis,
    /// Where its events are posted, if anywhere.
    pub(super) webhook: Option<Webhook>,
    /// Events its webhook gave up.
    pub(super) webhook_failed: i64,
    /// Its webhook's last failure, until a delivery succeeds.
    pub(super) webhook_error: Option<String>,
    /// The site whose key made it, whose webhook gets a copy of its events.
    pub(super) site: Option<String>,
    /// A rematch offered, and the tables it links to.
    pub(super) rematch: Rematch,
    /// A takeback asked for, and the plies taken back before.
    pub(super) takebacks: Takebacks,
}

impl StoredTable {
    /// The table's columns of a row of [`SELECT_TABLE`].
    pub(super) fn read(row: &AnyRow) -> Result<StoredTable, TableError> {
        let game: String = row.try_get("game")?;
        let game = GAME_IDS
            .iter()
            .find(|id| **id == game)
            .ok_or_else(|| TableError::Corrupt(format!("unknown game {game:?}")))?;
        let days_per_move: Option<i64> = row.try_get("days_per_move")?;
        let clock = match row.try_get::<Option<String>, _>("clock")? {
            Some(text) => Some(parse_json::<Clock>(&text, "clock")?),
            None => days_per_move.map(|days| Clock::days_per_move(days as u32)),
        };
        let clock_times = row
            .try_get::<Option<String>, _>("clock_times")?
            .map(|text| parse_json::<ClockTimes>(&text, "clock_times"))
            .transpose()?;
        Ok(StoredTable {
            game,
            options: row.try_get("options")?,
            state: row.try_get("state")?,
            ply: row.try_get::<i64, _>("ply")? as u64,
            status: row.try_get("status")?,
            winner: row.try_get("winner")?,
            ended_by: row.try_get("ended_by")?,
            days_per_move,
            clock,
            clock_times,
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
            site: row.try_get("site")?,
            rematch: Rematch {
                offered_by: row
                    .try_get::<Option<i64>, _>("rematch_offer")?
                    .map(seat_of)
                    .transpose()?,
                of: row.try_get("rematch_of")?,
                by: row.try_get("rematched_by")?,
            },
            takebacks: Takebacks {
                asked_by: row
                    .try_get::<Option<i64>, _>("takeback_offer")?
                    .map(seat_of)
                    .transpose()?,
                plies: row.try_get::<i64, _>("taken_back")? as u64,
                last_seq: row.try_get::<i64, _>("takeback_seq")? as u64,
            },
        })
    }

    /// Where its events go: its webhook, and its site's.
    pub(super) fn hooks(&self) -> Hooks {
        Hooks {
            webhook: self.webhook.clone(),
            site: self.site.clone(),
        }
    }

    /// The times its clock keeps: as stored, or, for a table made before they were kept,
    /// its clock's started at its last change (hours per move count from the last move).
    pub(super) fn times(&self, clock: &Clock) -> ClockTimes {
        self.clock_times
            .unwrap_or_else(|| clock.start(self.updated))
    }

    /// Whether the awaited move's deadline passed at `now` on a clock whose expiry ends the
    /// game (the table still ongoing as stored).
    pub(super) fn expired(&self, now: Millis) -> bool {
        self.status == "ongoing"
            && self.clock.is_some_and(|c| c.ends_on_expiry())
            && self.deadline.is_some_and(|deadline| now > deadline)
    }

    /// Where the table stands, its `state` being the stored one parsed.
    pub(super) fn standing<G: Game>(&self, state: &G::State) -> Result<Standing, TableError> {
        if self.status == "finished" {
            return StoredTable::finished(self.winner, self.ended_by.as_deref());
        }
        match G::turn(state) {
            Turn::ToAct(seat) => Ok(Standing::Ongoing { to_act: seat }),
            _ => Err(TableError::Corrupt(
                "an ongoing table whose game is over".into(),
            )),
        }
    }

    /// How a finished table ended, from its `winner` and `ended_by` columns.
    pub(super) fn finished(
        winner: Option<i64>,
        ended_by: Option<&str>,
    ) -> Result<Standing, TableError> {
        let ended_by = ended_by
            .and_then(EndedBy::parse)
            .ok_or_else(|| TableError::Corrupt("a finished table says not how".into()))?;
        Ok(Standing::Finished {
            winner: winner.map(seat_of).transpose()?,
            ended_by,
        })
    }

    /// The table `id` as the layer gives it, at `state` (the stored one parsed, or the one
    /// just written), with its `seats`.
    pub(super) fn table<G: Game>(
        &self,
        id: &str,
        state: &G::State,
        seats: Vec<SeatInfo>,
    ) -> Result<Table, TableError> {
        let standing = self.standing::<G>(state)?;
        let standing_finished = standing.is_finished();
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
            clock: self.clock,
            clock_times: self.clock.map(|clock| self.times(&clock)),
            created: self.created,
            updated: self.updated,
            webhook: self.webhook.as_ref().map(|_| WebhookHealth {
                failed: self.webhook_failed as u64,
                last_error: self.webhook_error.clone(),
            }),
            rematch: self.rematch.clone(),
            takebacks: Takebacks {
                // A request stands only while the game goes on.
                asked_by: self.takebacks.asked_by.filter(|_| !standing_finished),
                ..self.takebacks.clone()
            },
        })
    }
}

/// A seat's row of [`SELECT_TABLE`]: the seat, and the keys that open it.
pub(super) fn read_seat(row: &AnyRow) -> Result<(SeatInfo, SeatKeys), TableError> {
    Ok((
        SeatInfo {
            seat: seat_of(row.try_get("seat")?)?,
            name: row.try_get("name")?,
        },
        SeatKeys::read(row)?,
    ))
}

/// A row of `moot_moves` (its `ply`, `seat`, `notation` and `played_ms`): one move played.
pub(super) fn read_played(row: &AnyRow) -> Result<Played, TableError> {
    Ok(Played {
        ply: row.try_get::<i64, _>("ply")? as u64,
        seat: seat_of(row.try_get("seat")?)?,
        notation: row.try_get("notation")?,
        time: row.try_get("played_ms")?,
    })
}

/// The seat stored as `index`.
pub(super) fn seat_of(index: i64) -> Result<Seat, TableError> {
    match index {
        0 => Ok(Seat::First),
        1 => Ok(Seat::Second),
        _ => Err(TableError::Corrupt(format!("seat {index}"))),
    }
}

/// A JSON column's `text` read as a `T`; `what` names the column in the error.
pub(super) fn parse_json<T: serde::de::DeserializeOwned>(
    text: &str,
    what: &str,
) -> Result<T, TableError> {
    serde_json::from_str(text).map_err(|e| TableError::Corrupt(format!("{what}: {e}")))
}

/// A value as a JSON column's text.
pub(super) fn to_text<T: serde::Serialize>(value: &T) -> Result<String, TableError> {
    serde_json::to_string(value).map_err(|e| TableError::Corrupt(e.to_string()))
}

/// The `to_act` column of a position: the seat it awaits, if any.
pub(super) fn awaited<G: Game>(state: &G::State) -> Option<i64> {
    match G::turn(state) {
        Turn::ToAct(seat) => Some(seat.index() as i64),
        Turn::Won(_) | Turn::Drawn => None,
    }
}

/// The stored form of a standing: status, winner, how it ended.
pub(super) fn columns(standing: &Standing) -> (&'static str, Option<i64>, Option<&'static str>) {
    match standing {
        Standing::Ongoing { .. } => ("ongoing", None, None),
        Standing::Finished { winner, ended_by } => (
            "finished",
            winner.map(|s| s.index() as i64),
            Some(ended_by.as_str()),
        ),
    }
}
