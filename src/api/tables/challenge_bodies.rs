//! The bodies of challenges, as the API reads and writes them, made from what
//! [`crate::tables::challenges`] keeps.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

#[allow(unused_imports)] // named by the `value_type` attributes below
use crate::api::schemas::GameOptions;

use super::bodies::{TableClock, TableResponse, rfc3339, table_url};
use super::player_bodies::{MY_TABLES, PlayerResponse};
use crate::tables::challenges::{Accepted, Challenge, ChallengeStatus};
use moot_games::Seat;

/// Where the open challenges are listed.
pub const CHALLENGES: &str = "/api/v1/challenges";

/// A challenge's URL in the API.
pub fn challenge_url(id: &str) -> String {
    format!("{CHALLENGES}/{id}")
}

/// The creator's seat at a challenge's table.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ChallengeSeat {
    /// The creator moves first.
    First,
    /// The acceptor moves first.
    Second,
    /// Drawn when someone accepts.
    #[default]
    Random,
}

impl ChallengeSeat {
    /// The creator's seat, if chosen.
    pub fn seat(self) -> Option<Seat> {
        match self {
            ChallengeSeat::First => Some(Seat::First),
            ChallengeSeat::Second => Some(Seat::Second),
            ChallengeSeat::Random => None,
        }
    }

    /// As a chosen seat, or none, reads.
    pub fn of(seat: Option<Seat>) -> ChallengeSeat {
        match seat {
            Some(Seat::First) => ChallengeSeat::First,
            Some(Seat::Second) => ChallengeSeat::Second,
            None => ChallengeSeat::Random,
        }
    }
}

/// `POST /api/v1/challenges`: a game offered, to anyone or to one player.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"game": "herfor", "options": {"size": 9}, "days_per_move": 3, "seat": "random"}))]
pub struct CreateChallengeRequest {
    /// The game's id: `hirth`, `tara` or `herfor`.
    pub game: String,
    /// The game's options (its defaults for those left out).
    #[schema(value_type = Option<GameOptions>)]
    pub options: Option<Value>,
    /// Days each move may take at the table (the shorthand of a `per_move` clock whose
    /// expiry lets the waiting seat claim); not with `clock`. No clock when both are left out.
    #[schema(minimum = 1, maximum = 60)]
    pub days_per_move: Option<u32>,
    /// The table's clock (not with `days_per_move`).
    pub clock: Option<TableClock>,
    /// The creator's seat: `first`, `second`, or `random` (drawn when someone accepts; the
    /// default).
    #[serde(default)]
    pub seat: ChallengeSeat,
    /// A player's id: the challenge is an invitation to that player alone, not listed.
    pub invite: Option<String>,
}

/// `POST /api/v1/challenges/{id}/accept` without a player credential: the player made to
/// accept.
#[derive(Clone, Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"name": "Brian"}))]
pub struct AcceptChallengeRequest {
    /// The new player's name (ignored when a player credential is sent).
    pub name: Option<String>,
}

/// Where a challenge stands.
#[derive(Clone, Copy, Debug, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ChallengeState {
    /// Waiting for someone to accept it.
    Open,
    /// Accepted: its table is open.
    Accepted,
    /// Declined by the invited player.
    Declined,
    /// Called off by its creator.
    Cancelled,
    /// No one accepted it within 7 days.
    Expired,
}

/// A player as a challenge names it.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct ChallengePlayer {
    /// The player's id.
    pub id: String,
    /// Its name, if it has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

/// A challenge.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(example = json!({
    "id": "3b9e1f0c7a2d4e6f8a1b3c5d7e9f0a2b",
    "url": "/api/v1/challenges/3b9e1f0c7a2d4e6f8a1b3c5d7e9f0a2b",
    "page_url": "/challenges/3b9e1f0c7a2d4e6f8a1b3c5d7e9f0a2b",
    "game": "herfor",
    "options": {"size": 9},
    "days_per_move": 3,
    "seat": "random",
    "creator": {"id": "8d2f0c6b4a1e9d7c5b3a2f1e0d9c8b7a", "name": "Aoife"},
    "status": "open",
    "created": "2026-12-05T09:30:00Z",
}))]
pub struct ChallengeResponse {
    /// The challenge's id: unguessable, and all it takes to read and accept it.
    pub id: String,
    /// The challenge in the API.
    #[schema(format = "uri-reference")]
    pub url: String,
    /// Its page, where a browser accepts it.
    #[schema(format = "uri-reference")]
    pub page_url: String,
    /// The game's id.
    pub game: String,
    /// The game's options.
    #[schema(value_type = GameOptions)]
    pub options: Value,
    /// Days each move may take at the table, if its clock is that shorthand's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub days_per_move: Option<u32>,
    /// The table's clock; absent for none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clock: Option<TableClock>,
    /// The creator's seat.
    pub seat: ChallengeSeat,
    /// Who made it.
    pub creator: ChallengePlayer,
    /// The invited player's id, for an invitation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub invited: Option<String>,
    /// Where it stands.
    pub status: ChallengeState,
    /// Its table, once accepted (its id is the capability to read it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub table_id: Option<String>,
    /// The table in the API, once accepted.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(format = "uri-reference")]
    pub table_url: Option<String>,
    /// When it was made (RFC 3339).
    #[schema(format = DateTime)]
    pub created: String,
}

impl From<Challenge> for ChallengeResponse {
    fn from(challenge: Challenge) -> Self {
        ChallengeResponse {
            url: challenge_url(&challenge.id),
            page_url: crate::paths::challenge(&challenge.id),
            id: challenge.id,
            game: challenge.game.to_owned(),
            options: challenge.options,
            days_per_move: challenge.days_per_move,
            clock: challenge.clock.map(TableClock::from),
            seat: ChallengeSeat::of(challenge.creator_seat),
            creator: ChallengePlayer {
                id: challenge.creator_id,
                name: challenge.creator_name,
            },
            invited: challenge.invited,
            status: match challenge.status {
                ChallengeStatus::Open => ChallengeState::Open,
                ChallengeStatus::Accepted => ChallengeState::Accepted,
                ChallengeStatus::Declined => ChallengeState::Declined,
                ChallengeStatus::Cancelled => ChallengeState::Cancelled,
                ChallengeStatus::Expired => ChallengeState::Expired,
            },
            table_url: challenge.table_id.as_deref().map(table_url),
            table_id: challenge.table_id,
            created: rfc3339(challenge.created),
        }
    }
}

/// A page of open challenges.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct ChallengesResponse {
    /// The challenges, newest first.
    pub challenges: Vec<ChallengeResponse>,
    /// The next page, while there are more.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(format = "uri-reference")]
    pub next: Option<String>,
}

/// The player who accepted, with its credential when the accept made it (shown once).
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct AcceptingPlayer {
    /// The player.
    #[serde(flatten)]
    pub player: PlayerResponse,
    /// The new player's credential, when the accept made the player: Moot keeps only its
    /// digest and cannot show it again.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub credential: Option<String>,
    /// Where the player reads its tables with its credential.
    #[schema(format = "uri-reference")]
    pub tables_url: String,
}

/// An accepted challenge: its table, and the acceptor's seat and credentials.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct AcceptedChallenge {
    /// The new table, as `GET /api/v1/tables/{id}` shows it.
    pub table: TableResponse,
    /// The acceptor's seat.
    pub seat: Seat,
    /// The seat's credential (the player's credential also opens it): send it as
    /// `Authorization: Bearer <credential>` to play. Shown once.
    pub credential: String,
    /// The seat's page, where its player plays in a browser. It holds the credential.
    #[schema(format = "uri-reference")]
    pub play_url: String,
    /// The acceptor.
    pub player: AcceptingPlayer,
    /// The challenge, accepted.
    pub challenge: ChallengeResponse,
}

impl From<Accepted> for AcceptedChallenge {
    fn from(accepted: Accepted) -> Self {
        AcceptedChallenge {
            play_url: crate::paths::seat(&accepted.table.id, &accepted.credential),
            table: TableResponse::from(accepted.table),
            seat: accepted.seat,
            credential: accepted.credential,
            player: AcceptingPlayer {
                player: PlayerResponse::from(accepted.player),
                credential: accepted.player_credential,
                tables_url: MY_TABLES.to_owned(),
            },
            challenge: ChallengeResponse::from(accepted.challenge),
        }
    }
}

/// The document's example of a challenge's body `schema` in game `game`, from `created` (the
/// example of a new table in that game): its options and its table, as accepting opens it.
pub fn example(schema: &str, game: &str, created: &Value) -> Option<Value> {
    const ID: &str = "3b9e1f0c7a2d4e6f8a1b3c5d7e9f0a2b";
    let table = &created["table"];
    let challenge = |status: ChallengeState, table_id: Option<&str>| ChallengeResponse {
        id: ID.to_owned(),
        url: challenge_url(ID),
        page_url: crate::paths::challenge(ID),
        game: game.to_owned(),
        options: table["options"].clone(),
        days_per_move: table["days_per_move"].as_u64().map(|d| d as u32),
        clock: serde_json::from_value(table["clock"].clone()).ok(),
        seat: ChallengeSeat::Random,
        creator: ChallengePlayer {
            id: "8d2f0c6b4a1e9d7c5b3a2f1e0d9c8b7a".to_owned(),
            name: Some("Aoife".to_owned()),
        },
        invited: None,
        status,
        table_url: table_id.map(table_url),
        table_id: table_id.map(str::to_owned),
        created: "2026-12-02T11:00:00Z".to_owned(),
    };
    let value = match schema {
        "CreateChallengeRequest" => serde_json::json!({
            "game": game,
            "options": table["options"],
            "days_per_move": table["days_per_move"],
            "seat": "random",
        }),
        "ChallengeResponse" => serde_json::to_value(challenge(ChallengeState::Open, None)).ok()?,
        "ChallengesResponse" => serde_json::to_value(ChallengesResponse {
            challenges: vec![challenge(ChallengeState::Open, None)],
            next: Some(format!("{CHALLENGES}?limit=1&after=1796209200000.{ID}")),
        })
        .ok()?,
        "AcceptedChallenge" => {
            let seat = &created["seats"][1];
            let table_id = table["id"].as_str()?;
            serde_json::json!({
                "table": table,
                "seat": "second",
                "credential": seat["credential"],
                "play_url": seat["play_url"],
                "player": {
                    "id": "6a4c2e0f8d6b4a2c0e8f6d4b2a0c8e6f",
                    "name": "Bran",
                    "tables_url": MY_TABLES,
                },
                "challenge": serde_json::to_value(
                    challenge(ChallengeState::Accepted, Some(table_id))).ok()?,
            })
        }
        _ => return None,
    };
    Some(value)
}
