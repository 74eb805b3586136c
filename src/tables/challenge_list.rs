//! The challenges listed: the open ones to anyone, a page at a time with filters, and a
//! player's own (made or received).

use std::fmt;

use super::challenges::{
    Challenge, EXPIRES, MAX_OPEN_PER_PLAYER, SELECT_CHALLENGE, read_challenge,
};
use super::{Millis, TableError, Tables, secret};
use moot_games::Seat;

/// Which open challenges to list.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ChallengeFilter {
    /// Only this game's.
    pub game: Option<&'static str>,
    /// Only those with this clock (days per move): `Some(None)` for those without a clock of
    /// any kind.
    pub days_per_move: Option<Option<u32>>,
    /// Only those where the creator takes this seat: `Some(None)` for a seat drawn at accept.
    pub creator_seat: Option<Option<Seat>>,
}

/// Where a page of open challenges ends (newest first, then by id): written
/// `<created ms>.<id>` in the `after` query parameter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChallengeCursor {
    created: Millis,
    id: String,
}

impl fmt::Display for ChallengeCursor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.created, self.id)
    }
}

impl std::str::FromStr for ChallengeCursor {
    type Err = ();

    fn from_str(text: &str) -> Result<ChallengeCursor, ()> {
        let (created, id) = text.split_once('.').ok_or(())?;
        let created = created.parse().map_err(drop)?;
        if !secret::is_table_id(id) {
            return Err(());
        }
        Ok(ChallengeCursor {
            created,
            id: id.to_owned(),
        })
    }
}

/// A page of open challenges.
#[derive(Clone, Debug, PartialEq)]
pub struct Challenges {
    /// The challenges, newest first.
    pub challenges: Vec<Challenge>,
    /// Where the next page starts, while there are more.
    pub next: Option<ChallengeCursor>,
}

impl Tables {
    /// A page of at most `limit` open challenges to anyone, newest first, after `after`:
    /// those made within [`EXPIRES`] of `now`.
    pub async fn open_challenges(
        &self,
        filter: ChallengeFilter,
        after: Option<&ChallengeCursor>,
        limit: u64,
        now: Millis,
    ) -> Result<Challenges, TableError> {
        let mut sql = format!(
            "{SELECT_CHALLENGE} WHERE c.status = 'open' AND c.invited_id IS NULL \
             AND c.created_ms > $1"
        );
        let mut n = 1;
        let mut next = || {
            n += 1;
            n
        };
        if filter.game.is_some() {
            sql.push_str(&format!(" AND c.game = ${}", next()));
        }
        match filter.days_per_move {
            Some(Some(_)) => sql.push_str(&format!(" AND c.days_per_move = ${}", next())),
            // A clock of another kind (hours, a bank) has no days per move, but is a clock.
            Some(None) => sql.push_str(" AND c.days_per_move IS NULL AND c.clock IS NULL"),
            None => {}
        }
        match filter.creator_seat {
            Some(Some(_)) => sql.push_str(&format!(" AND c.creator_seat = ${}", next())),
            Some(None) => sql.push_str(" AND c.creator_seat IS NULL"),
            None => {}
        }
        if after.is_some() {
            let (created, id) = (next(), next());
            sql.push_str(&format!(
                " AND (c.created_ms < ${created} OR (c.created_ms = ${created} AND c.id < ${id}))"
            ));
        }
        sql.push_str(&format!(
            " ORDER BY c.created_ms DESC, c.id DESC LIMIT ${}",
            next()
        ));
        let mut query = sqlx::query(&sql).bind(now - EXPIRES);
        if let Some(game) = filter.game {
            query = query.bind(game);
        }
        if let Some(Some(days)) = filter.days_per_move {
            query = query.bind(i64::from(days));
        }
        if let Some(Some(seat)) = filter.creator_seat {
            query = query.bind(seat.index() as i64);
        }
        if let Some(after) = after {
            query = query.bind(after.created).bind(after.id.clone());
        }
        let rows = query
            .bind(limit as i64 + 1)
            .fetch_all(self.store.reads()?)
            .await?;
        let mut challenges = rows
            .iter()
            .map(|row| read_challenge(row, now))
            .collect::<Result<Vec<_>, _>>()?;
        let more = challenges.len() as u64 > limit;
        challenges.truncate(limit as usize);
        let next = more
            .then(|| challenges.last())
            .flatten()
            .map(|last| ChallengeCursor {
                created: last.created,
                id: last.id.clone(),
            });
        Ok(Challenges { challenges, next })
    }

    /// The open challenges player `player_id` made, or was invited to, newest first (at most
    /// [`MAX_OPEN_PER_PLAYER`] of each kind, as a player keeps no more open).
    pub async fn my_challenges(
        &self,
        player_id: &str,
        now: Millis,
    ) -> Result<Vec<Challenge>, TableError> {
        let rows = sqlx::query(&format!(
            "{SELECT_CHALLENGE} WHERE c.status = 'open' AND c.created_ms > $1 \
             AND (c.creator_id = $2 OR c.invited_id = $2) \
             ORDER BY c.created_ms DESC, c.id DESC LIMIT $3"
        ))
        .bind(now - EXPIRES)
        .bind(player_id)
        .bind(2 * MAX_OPEN_PER_PLAYER as i64)
        .fetch_all(self.store.reads()?)
        .await?;
        rows.iter().map(|row| read_challenge(row, now)).collect()
    }
}
