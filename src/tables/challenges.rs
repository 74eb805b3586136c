//! Challenges: a game offered by a player, to anyone (an open challenge, listed) or to one
//! player (an invitation, not listed). A challenge is not a table: whoever accepts it opens the
//! table ([`Tables::open_table`]), both seats held by their players, in the transaction that
//! marks the challenge accepted. That mark is written only where the challenge is still open,
//! so of two racing accepts one opens the table and the other is told the challenge is taken.
//! A challenge left open [`EXPIRES`] after it was made is no longer listed nor accepted; the
//! sweep marks it expired. Listing them is [`super::challenge_list`]'s.

use std::fmt;

use sqlx::Row;

pub use super::challenge_list::{ChallengeCursor, ChallengeFilter, Challenges};
use super::create::NewTable;
use super::player_feed::{Notice, Rung, Told};
use super::players::{NewPlayer, Player, insert_player, player_id};
use super::rows::{awaited, parse_json, seat_of, to_text};
use super::write::Write;
use super::{Clock, DAY, Millis, Table, TableError, Tables, secret};
use moot_games::{GAME_IDS, Game, Seat, with_game};

/// How long a challenge waits for someone to accept it.
pub const EXPIRES: Millis = 7 * DAY;

/// The most challenges a player keeps open at once.
pub const MAX_OPEN_PER_PLAYER: u64 = 20;

/// Where a challenge stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChallengeStatus {
    /// Waiting for someone to accept it.
    Open,
    /// Accepted: its table is open.
    Accepted,
    /// Declined by the invited player.
    Declined,
    /// Called off by its creator.
    Cancelled,
    /// No one accepted it in time.
    Expired,
}

impl ChallengeStatus {
    /// As stored and as the API writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            ChallengeStatus::Open => "open",
            ChallengeStatus::Accepted => "accepted",
            ChallengeStatus::Declined => "declined",
            ChallengeStatus::Cancelled => "cancelled",
            ChallengeStatus::Expired => "expired",
        }
    }

    fn parse(text: &str) -> Result<ChallengeStatus, TableError> {
        [
            ChallengeStatus::Open,
            ChallengeStatus::Accepted,
            ChallengeStatus::Declined,
            ChallengeStatus::Cancelled,
            ChallengeStatus::Expired,
        ]
        .into_iter()
        .find(|s| s.as_str() == text)
        .ok_or_else(|| TableError::Corrupt(format!("a challenge's status {text:?}")))
    }
}

/// A challenge as anyone holding its id sees it.
#[derive(Clone, Debug, PartialEq)]
pub struct Challenge {
    /// Its id (unguessable: the capability to read and accept it).
    pub id: String,
    /// The game's id.
    pub game: &'static str,
    /// The game's options, as JSON.
    pub options: serde_json::Value,
    /// Days each move may take at its table, if its clock is that shorthand's.
    pub days_per_move: Option<u32>,
    /// Its table's clock, if it has one.
    pub clock: Option<Clock>,
    /// Who made it: the player's id.
    pub creator_id: String,
    /// The creator's name, if it has one.
    pub creator_name: Option<String>,
    /// The creator's seat; `None`: drawn when someone accepts.
    pub creator_seat: Option<Seat>,
    /// The invited player, for an invitation.
    pub invited: Option<String>,
    /// Where it stands (an open one past [`EXPIRES`] reads as expired).
    pub status: ChallengeStatus,
    /// Its table, once accepted.
    pub table_id: Option<String>,
    /// When it was made.
    pub created: Millis,
    /// When it last changed.
    pub updated: Millis,
}

/// A challenge about to be made.
#[derive(Clone, Debug)]
pub struct NewChallenge {
    /// The game's id.
    pub game: &'static str,
    /// The options, as JSON (already checked by the game).
    pub options: String,
    /// Its table's clock, if any.
    pub clock: Option<Clock>,
    /// The creator's seat, or `None` for one drawn at accept.
    pub creator_seat: Option<Seat>,
    /// The invited player's id, for an invitation.
    pub invite: Option<String>,
}

/// Who accepts a challenge: a player by its credential, or a new player made in the same
/// transaction (named, if a name is given).
#[derive(Clone)]
pub enum Acceptor {
    /// The player holding this credential.
    Credential(String),
    /// A new player.
    New(Option<String>),
}

impl fmt::Debug for Acceptor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Acceptor::Credential(_) => f.write_str("Acceptor::Credential(..)"),
            Acceptor::New(name) => f.debug_tuple("Acceptor::New").field(name).finish(),
        }
    }
}

/// An accepted challenge: its table, the acceptor's seat and seat credential (shown once), and
/// the acceptor (with its credential when it was made here).
#[derive(Clone, Debug)]
pub struct Accepted {
    /// The challenge, accepted.
    pub challenge: Challenge,
    /// The new table.
    pub table: Table,
    /// The acceptor's seat.
    pub seat: Seat,
    /// The seat's credential.
    pub credential: String,
    /// The acceptor.
    pub player: Player,
    /// The acceptor's credential, when the player was made by the accept.
    pub player_credential: Option<String>,
}

/// A challenge's columns, its creator's name beside them.
pub(super) const SELECT_CHALLENGE: &str = "SELECT c.id, c.game, c.options, c.days_per_move, c.clock, c.creator_id, \
     p.name AS creator_name, c.creator_seat, c.invited_id, c.status, c.table_id, c.created_ms, \
     c.updated_ms FROM moot_challenges c JOIN moot_players p ON p.id = c.creator_id";

/// A row of [`SELECT_CHALLENGE`], read at `now` (an open challenge past its time is expired).
pub(super) fn read_challenge(
    row: &sqlx::any::AnyRow,
    now: Millis,
) -> Result<Challenge, TableError> {
    let game: String = row.try_get("game")?;
    let game = GAME_IDS
        .iter()
        .copied()
        .find(|id| *id == game)
        .ok_or_else(|| TableError::Corrupt(format!("a challenge's game {game:?}")))?;
    let options: String = row.try_get("options")?;
    let created: Millis = row.try_get("created_ms")?;
    let mut status = ChallengeStatus::parse(&row.try_get::<String, _>("status")?)?;
    if status == ChallengeStatus::Open && created + EXPIRES <= now {
        status = ChallengeStatus::Expired;
    }
    let days_per_move = row
        .try_get::<Option<i64>, _>("days_per_move")?
        .map(|d| d as u32);
    let clock = match row.try_get::<Option<String>, _>("clock")? {
        Some(text) => Some(parse_json::<Clock>(&text, "clock")?),
        None => days_per_move.map(Clock::days_per_move),
    };
    Ok(Challenge {
        id: row.try_get("id")?,
        game,
        options: parse_json(&options, "options")?,
        days_per_move,
        clock,
        creator_id: row.try_get("creator_id")?,
        creator_name: row.try_get("creator_name")?,
        creator_seat: row
            .try_get::<Option<i64>, _>("creator_seat")?
            .map(seat_of)
            .transpose()?,
        invited: row.try_get("invited_id")?,
        status,
        table_id: row.try_get("table_id")?,
        created,
        updated: row.try_get("updated_ms")?,
    })
}

/// A challenge no longer open, as a refusal: taken when accepted, closed otherwise.
fn not_open(challenge: &Challenge) -> TableError {
    match challenge.status {
        ChallengeStatus::Accepted => TableError::ChallengeTaken,
        status => TableError::ChallengeClosed(status.as_str()),
    }
}

/// Challenge `id` in `tx`, read at `now`.
async fn load(tx: &mut Write, id: &str, now: Millis) -> Result<Challenge, TableError> {
    if !secret::is_table_id(id) {
        return Err(TableError::UnknownChallenge);
    }
    let row = sqlx::query(&format!("{SELECT_CHALLENGE} WHERE c.id = $1"))
        .bind(id)
        .fetch_optional(&mut **tx)
        .await?
        .ok_or(TableError::UnknownChallenge)?;
    read_challenge(&row, now)
}

/// The player accepting a challenge, in `tx`: the one holding the credential, or a new one
/// (with its credential), `site`'s if a site's key asked for it.
async fn accepting_player(
    tx: &mut Write,
    acceptor: Acceptor,
    site: Option<&str>,
    now: Millis,
) -> Result<(Player, Option<String>), TableError> {
    match acceptor {
        Acceptor::Credential(credential) => {
            let player_id = player_id(tx, &credential).await?;
            let player = sqlx::query(
                "SELECT id, name, created_ms, webhook_url FROM moot_players WHERE id = $1",
            )
            .bind(&player_id)
            .fetch_one(&mut **tx)
            .await?;
            let player = Player {
                id: player.try_get("id")?,
                name: player.try_get("name")?,
                created: player.try_get("created_ms")?,
                webhook_url: player.try_get("webhook_url")?,
            };
            Ok((player, None))
        }
        Acceptor::New(name) => {
            let NewPlayer { player, credential } = insert_player(tx, name, site, now).await?;
            Ok((player, Some(credential)))
        }
    }
}

/// The site an accepted challenge's table belongs to, in `tx`: its creator's site, if a site
/// made the creator (the challenge is that site's offer), else the accepting request's `site`.
async fn table_site(
    tx: &mut Write,
    creator_id: &str,
    site: Option<String>,
) -> Result<Option<String>, TableError> {
    let creators: Option<String> =
        sqlx::query_scalar("SELECT site FROM moot_players WHERE id = $1")
            .bind(creator_id)
            .fetch_optional(&mut **tx)
            .await?
            .flatten();
    Ok(creators.or(site))
}

/// Marks challenge `id` `status` at `now`, where it is still open: `false` when another change
/// closed it first.
async fn close(
    tx: &mut Write,
    id: &str,
    status: ChallengeStatus,
    now: Millis,
) -> Result<bool, TableError> {
    let done = sqlx::query(
        "UPDATE moot_challenges SET status = $1, updated_ms = $2 WHERE id = $3 AND status = 'open'",
    )
    .bind(status.as_str())
    .bind(now)
    .bind(id)
    .execute(&mut **tx)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// What one player is told of a challenge, at `seat` (its seat at the table once there is one;
/// before, the one it would take, which the API does not show). The caller files it under the
/// table, or the challenge's id while there is none.
fn told(player: &str, seat: Seat, notice: Notice) -> Told {
    vec![(player.to_owned(), seat, vec![notice])]
}

impl Tables {
    /// Makes a challenge by player `creator_id`: refused when the player has
    /// [`MAX_OPEN_PER_PLAYER`] open, or invites itself or no player. The invited player is
    /// told.
    pub async fn create_challenge(
        &self,
        creator_id: &str,
        new: NewChallenge,
        now: Millis,
    ) -> Result<Challenge, TableError> {
        let id = secret::table_id();
        let mut tx = self.write().await?;
        let outcome = async {
            let open: i64 = sqlx::query_scalar(
                "SELECT COUNT(*) FROM moot_challenges \
                 WHERE creator_id = $1 AND status = 'open' AND created_ms > $2",
            )
            .bind(creator_id)
            .bind(now - EXPIRES)
            .fetch_one(&mut *tx)
            .await?;
            if open as u64 >= MAX_OPEN_PER_PLAYER {
                return Err(TableError::TooManyChallenges(MAX_OPEN_PER_PLAYER));
            }
            if let Some(invited) = &new.invite {
                if invited == creator_id {
                    return Err(TableError::BadInvite(
                        "a player cannot invite itself".to_owned(),
                    ));
                }
                let known: Option<String> =
                    sqlx::query_scalar("SELECT id FROM moot_players WHERE id = $1")
                        .bind(invited)
                        .fetch_optional(&mut *tx)
                        .await?;
                if known.is_none() {
                    return Err(TableError::BadInvite(format!(
                        "no player has the id {invited:?}"
                    )));
                }
            }
            sqlx::query(
                "INSERT INTO moot_challenges (id, game, options, days_per_move, creator_id, \
                 creator_seat, invited_id, status, table_id, created_ms, updated_ms, clock) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, 'open', NULL, $8, $8, $9)",
            )
            .bind(&id)
            .bind(new.game)
            .bind(&new.options)
            .bind(new.clock.and_then(|c| c.as_days_per_move()).map(i64::from))
            .bind(creator_id)
            .bind(new.creator_seat.map(|s| s.index() as i64))
            .bind(new.invite.clone())
            .bind(now)
            .bind(new.clock.as_ref().map(to_text).transpose()?)
            .execute(&mut *tx)
            .await?;
            let challenge = load(&mut tx, &id, now).await?;
            let mut rung = Rung::default();
            if let Some(invited) = &challenge.invited {
                let notice = Notice::ChallengeReceived {
                    challenge_id: id.clone(),
                    game: challenge.game.to_owned(),
                    from_id: challenge.creator_id.clone(),
                    from: challenge.creator_name.clone(),
                };
                let seat = challenge.creator_seat.map_or(Seat::First, Seat::other);
                rung = self
                    .tell_players(&mut tx, &id, told(invited, seat, notice), now)
                    .await?;
            }
            Ok((challenge, rung))
        }
        .await;
        let (challenge, rung) = tx.finish(outcome).await?;
        self.ring_players(rung);
        Ok(challenge)
    }

    /// Challenge `id`, as it stands.
    pub async fn challenge(&self, id: &str, now: Millis) -> Result<Challenge, TableError> {
        if !secret::is_table_id(id) {
            return Err(TableError::UnknownChallenge);
        }
        let row = sqlx::query(&format!("{SELECT_CHALLENGE} WHERE c.id = $1"))
            .bind(id)
            .fetch_optional(self.store.reads()?)
            .await?
            .ok_or(TableError::UnknownChallenge)?;
        read_challenge(&row, now)
    }

    /// Accepts challenge `id` for `acceptor`, asked with `site`'s key if any: the challenge
    /// marked accepted (where it is still open) and its table opened, both seats held, in one
    /// transaction; the creator is told. The table is the site's of the challenge's creator, if
    /// a site made that player, else `site`'s; a new player made to accept is `site`'s.
    pub async fn accept_challenge(
        &self,
        id: &str,
        acceptor: Acceptor,
        site: Option<String>,
        now: Millis,
    ) -> Result<Accepted, TableError> {
        let credentials = [secret::credential(), secret::credential()];
        let creator_first = rand::random::<bool>();
        let mut tx = self.write().await?;
        let outcome = async {
            let mut challenge = load(&mut tx, id, now).await?;
            if challenge.status != ChallengeStatus::Open {
                return Err(not_open(&challenge));
            }
            let (player, player_credential) =
                accepting_player(&mut tx, acceptor, site.as_deref(), now).await?;
            if player.id == challenge.creator_id {
                return Err(TableError::OwnChallenge);
            }
            if challenge
                .invited
                .as_ref()
                .is_some_and(|invited| *invited != player.id)
            {
                return Err(TableError::NotInvited);
            }
            // Of two accepts, the one that waited finds it accepted here.
            if !close(&mut tx, id, ChallengeStatus::Accepted, now).await? {
                return Err(TableError::ChallengeTaken);
            }
            let creator_seat = challenge.creator_seat.unwrap_or(if creator_first {
                Seat::First
            } else {
                Seat::Second
            });
            let seat = creator_seat.other();
            let mut names = [None, None];
            let mut players = [None, None];
            names[creator_seat.index()] = challenge.creator_name.clone();
            players[creator_seat.index()] = Some(challenge.creator_id.clone());
            names[seat.index()] = player.name.clone();
            players[seat.index()] = Some(player.id.clone());
            let site = table_site(&mut tx, &challenge.creator_id, site).await?;
            let new = with_game!(challenge.game, G => {
                let options: <G as Game>::Options = parse_json(
                    &to_text(&challenge.options)?, "options")?;
                let state = G::new_game(&options)
                    .map_err(|e| TableError::Corrupt(format!("a challenge's options: {e}")))?;
                NewTable {
                    game: G::ID,
                    options: to_text(&options)?,
                    state: to_text(&state)?,
                    to_act: awaited::<G>(&state),
                    clock: challenge.clock,
                    names,
                    digests: credentials.each_ref().map(|c| secret::digest(c)),
                    players,
                    webhook: None,
                    site: site.clone(),
                }
            }, else return Err(TableError::Corrupt(challenge.game.to_owned())));
            let (table, started) = self.open_table(&mut tx, new, now).await?;
            sqlx::query("UPDATE moot_challenges SET table_id = $1 WHERE id = $2")
                .bind(&table.id)
                .bind(id)
                .execute(&mut *tx)
                .await?;
            let notice = Notice::ChallengeAccepted {
                challenge_id: id.to_owned(),
                by_id: player.id.clone(),
                by: player.name.clone(),
            };
            let told_creator = self
                .tell_players(
                    &mut tx,
                    &table.id,
                    told(&challenge.creator_id, creator_seat, notice),
                    now,
                )
                .await?;
            challenge.status = ChallengeStatus::Accepted;
            challenge.table_id = Some(table.id.clone());
            challenge.updated = now;
            let accepted = Accepted {
                challenge,
                table,
                seat,
                credential: credentials[seat.index()].clone(),
                player,
                player_credential,
            };
            self.remember_acceptance(&mut tx, &accepted, now).await?;
            Ok((accepted, [started, told_creator]))
        }
        .await;
        let (accepted, rungs) = tx.finish(outcome).await?;
        for rung in rungs {
            self.ring_players(rung);
        }
        Ok(accepted)
    }

    /// The invited player `player_id` declines challenge `id`; its creator is told.
    pub async fn decline_challenge(
        &self,
        id: &str,
        player_id: &str,
        now: Millis,
    ) -> Result<Challenge, TableError> {
        let mut tx = self.write().await?;
        let outcome = async {
            let mut challenge = load(&mut tx, id, now).await?;
            if challenge.invited.as_deref() != Some(player_id) {
                return Err(TableError::NotInvited);
            }
            if challenge.status != ChallengeStatus::Open {
                return Err(not_open(&challenge));
            }
            if !close(&mut tx, id, ChallengeStatus::Declined, now).await? {
                return Err(TableError::ChallengeTaken);
            }
            let notice = Notice::ChallengeDeclined {
                challenge_id: id.to_owned(),
                by_id: player_id.to_owned(),
            };
            let seat = challenge.creator_seat.unwrap_or(Seat::First);
            let rung = self
                .tell_players(&mut tx, id, told(&challenge.creator_id, seat, notice), now)
                .await?;
            challenge.status = ChallengeStatus::Declined;
            challenge.updated = now;
            Ok((challenge, rung))
        }
        .await;
        let (challenge, rung) = tx.finish(outcome).await?;
        self.ring_players(rung);
        Ok(challenge)
    }

    /// Its creator `player_id` calls challenge `id` off.
    pub async fn cancel_challenge(
        &self,
        id: &str,
        player_id: &str,
        now: Millis,
    ) -> Result<Challenge, TableError> {
        let mut tx = self.write().await?;
        let outcome = async {
            let mut challenge = load(&mut tx, id, now).await?;
            if challenge.creator_id != player_id {
                return Err(TableError::NotCreator);
            }
            if challenge.status != ChallengeStatus::Open {
                return Err(not_open(&challenge));
            }
            if !close(&mut tx, id, ChallengeStatus::Cancelled, now).await? {
                return Err(TableError::ChallengeTaken);
            }
            challenge.status = ChallengeStatus::Cancelled;
            challenge.updated = now;
            Ok(challenge)
        }
        .await;
        tx.finish(outcome).await
    }

    /// In the sweep's transaction: marks expired the challenges left open [`EXPIRES`].
    pub(super) async fn expire_challenges(tx: &mut Write, now: Millis) -> Result<(), TableError> {
        sqlx::query(
            "UPDATE moot_challenges SET status = 'expired', updated_ms = $1 \
             WHERE status = 'open' AND created_ms <= $2",
        )
        .bind(now)
        .bind(now - EXPIRES)
        .execute(&mut **tx)
        .await?;
        Ok(())
    }
}
