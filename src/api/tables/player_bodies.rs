//! The bodies of player keys and of a player's tables, as the API reads and writes them, made
//! from what [`crate::tables::players`] keeps.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::bodies::{TableResult, TableStatus, rfc3339, table_url};
use crate::tables::Standing;
use crate::tables::players::{Player, PlayerTable};
use moot_games::Seat;

/// Where a player holding its credential reads itself.
pub const ME: &str = "/api/v1/players/me";
/// Where a player holding its credential reads its tables.
pub const MY_TABLES: &str = "/api/v1/players/me/tables";

/// `POST /api/v1/players`: a new player key.
#[derive(Clone, Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"name": "Aoife"}))]
pub struct CreatePlayerRequest {
    /// The player's name (at most 40 characters; no control characters, bidirectional
    /// controls nor zero-width characters), given to the seats it takes unnamed.
    pub name: Option<String>,
}

/// A new player, with its credential (shown once).
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(example = json!({
    "id": "8d2f0c6b4a1e9d7c5b3a2f1e0d9c8b7a",
    "name": "Aoife",
    "credential": "7c1d".repeat(16),
    "url": ME,
    "tables_url": MY_TABLES,
}))]
pub struct CreatedPlayer {
    /// The player's id: names the player, grants nothing.
    pub id: String,
    /// The player's name, if one was given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The player's secret: send it as `Authorization: Bearer <credential>` to read the player
    /// and its tables, and as `player_credential` to take a seat. Moot keeps only its digest
    /// and cannot show it again.
    pub credential: String,
    /// Where the player reads itself with its credential.
    #[schema(format = "uri-reference")]
    pub url: String,
    /// Where the player reads its tables with its credential.
    #[schema(format = "uri-reference")]
    pub tables_url: String,
}

/// A player, as its credential's holder reads it.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(example = json!({"id": "8d2f0c6b4a1e9d7c5b3a2f1e0d9c8b7a", "name": "Aoife"}))]
pub struct PlayerResponse {
    /// The player's id.
    pub id: String,
    /// The player's name, if one was given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Where the player's feed is posted, if it names a webhook (its secret is never shown).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(format = "uri")]
    pub webhook_url: Option<String>,
}

impl From<Player> for PlayerResponse {
    fn from(player: Player) -> Self {
        PlayerResponse {
            id: player.id,
            name: player.name,
            webhook_url: player.webhook_url,
        }
    }
}

/// `PUT /api/v1/tables/{id}/seats/{seat}/player`: the player who takes the seat.
#[derive(Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"player_credential": "7c1d".repeat(16)}))]
pub struct TakeSeatRequest {
    /// The player's credential.
    pub player_credential: String,
}

impl std::fmt::Debug for TakeSeatRequest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TakeSeatRequest").finish_non_exhaustive()
    }
}

/// A seat a player holds.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(example = json!({
    "table_id": "5f0c9d4e8b7a6f3e2d1c0b9a8f7e6d5c",
    "seat": "first",
    "player": {"id": "8d2f0c6b4a1e9d7c5b3a2f1e0d9c8b7a", "name": "Aoife"},
    "tables_url": MY_TABLES,
}))]
pub struct SeatPlayer {
    /// The table's id.
    pub table_id: String,
    /// The seat.
    pub seat: Seat,
    /// The player holding it.
    pub player: PlayerResponse,
    /// Where the player reads its tables with its credential.
    #[schema(format = "uri-reference")]
    pub tables_url: String,
}

/// One of a player's tables (never its position: read the table at `url`).
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct PlayerTableEntry {
    /// The table's id.
    pub id: String,
    /// The table's URL.
    #[schema(format = "uri-reference")]
    pub url: String,
    /// The game's id.
    pub game: String,
    /// The player's seat.
    pub seat: Seat,
    /// The other seat's name (the one given at the table's creation, else its player's), if
    /// it has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub opponent_name: Option<String>,
    /// Whether the table awaits the player's move (through the whole of a turn of several
    /// steps).
    pub your_turn: bool,
    /// Moves played so far.
    pub ply: u64,
    /// Whether the table goes on.
    pub status: TableStatus,
    /// When the awaited move is due (RFC 3339), if the table has a clock and goes on.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(format = DateTime)]
    pub deadline: Option<String>,
    /// How the table ended, once it has.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<TableResult>,
    /// When the table last changed (RFC 3339).
    #[schema(format = DateTime)]
    pub updated: String,
}

impl From<PlayerTable> for PlayerTableEntry {
    fn from(table: PlayerTable) -> Self {
        let standing = match table.ended {
            Some((winner, ended_by)) => Standing::Finished { winner, ended_by },
            // The seat awaited does not show here: `your_turn` says it.
            None => Standing::Ongoing { to_act: table.seat },
        };
        let (status, _, result) = super::bodies::standing_fields(&standing);
        PlayerTableEntry {
            url: table_url(&table.id),
            id: table.id,
            game: table.game.to_owned(),
            seat: table.seat,
            opponent_name: table.opponent_name,
            your_turn: table.your_turn,
            ply: table.ply,
            status,
            deadline: table.deadline.map(rfc3339),
            result,
            updated: rfc3339(table.updated),
        }
    }
}

/// A page of a player's tables.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(example = json!({
    "tables": [
        {
            "id": "5f0c9d4e8b7a6f3e2d1c0b9a8f7e6d5c",
            "url": "/api/v1/tables/5f0c9d4e8b7a6f3e2d1c0b9a8f7e6d5c",
            "game": "herfor",
            "seat": "first",
            "opponent_name": "Bran",
            "your_turn": true,
            "ply": 4,
            "status": "ongoing",
            "deadline": "2026-12-05T16:00:00Z",
            "updated": "2026-12-02T16:00:00Z",
        },
        {
            "id": "0a1b2c3d4e5f60718293a4b5c6d7e8f9",
            "url": "/api/v1/tables/0a1b2c3d4e5f60718293a4b5c6d7e8f9",
            "game": "tara",
            "seat": "second",
            "your_turn": false,
            "ply": 31,
            "status": "finished",
            "result": {"winner": "second", "ended_by": "rules"},
            "updated": "2026-12-01T09:30:00Z",
        },
    ],
    "next": "/api/v1/players/me/tables?limit=2&after=0.1796115000000.0a1b2c3d4e5f60718293a4b5c6d7e8f9",
}))]
pub struct PlayerTablesResponse {
    /// The tables: those awaiting the player's move first, then the most recently changed.
    pub tables: Vec<PlayerTableEntry>,
    /// The next page, while there are more tables.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(format = "uri-reference")]
    pub next: Option<String>,
}
