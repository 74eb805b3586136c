//! The request and response bodies of the API.
//!
//! Game-dependent members are held as JSON values here and typed by the game's engine once the
//! game is known (see [`super::ops`]); their schemas are the unions of [`super::schemas`]. Every
//! type's example is computed by really playing the first registered game ([`super::examples`]).

use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use super::examples;
#[allow(unused_imports)] // named by the `value_type` attributes below
use super::schemas::{GameEvent, GameOptions, GameScore, GameState};
use crate::games::Status;

/// `GET /api/v1/games`: every game the service referees.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(example = examples::games_response)]
pub struct GamesResponse {
    pub games: Vec<GameListing>,
}

/// One game: its id in URLs, its name, and its options.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct GameListing {
    /// The id used in the API's paths (`herfor`).
    pub id: String,
    /// The name for people.
    pub name: String,
    /// Every option with its default value: what `new` uses when `options` is left out.
    #[schema(value_type = GameOptions)]
    pub default_options: Value,
    /// The options one by one, with what they mean.
    pub options: Vec<OptionListing>,
    /// The page with the game's rules.
    pub rules_url: String,
}

/// One option of a game.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct OptionListing {
    pub name: String,
    /// The value used when the option is left out.
    #[schema(value_type = Object)]
    pub default: Value,
    /// What the option means, from the game's option schema.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
}

/// `POST …/new`: start a game. An empty body, `{}` or a missing member means the defaults.
#[derive(Clone, Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = examples::new_game_request)]
pub struct NewGameRequest {
    /// The game's options; a member left out takes its default.
    #[serde(default)]
    #[schema(value_type = Option<GameOptions>)]
    pub options: Option<Value>,
}

/// A position and who acts in it.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(example = examples::game_response)]
pub struct GameResponse {
    #[schema(value_type = GameState)]
    pub state: Value,
    pub status: Status,
}

/// `POST …/legal-moves` and `POST …/score`: a position.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = examples::state_request)]
pub struct StateRequest {
    /// A state as returned by `new` or `apply`.
    #[schema(value_type = GameState)]
    pub state: Value,
}

/// Every legal move in a position, in the game's notation.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(example = examples::legal_moves_response)]
pub struct LegalMovesResponse {
    /// Empty once the game is over.
    pub moves: Vec<String>,
    pub status: Status,
}

/// `POST …/apply`: one move (`move`) or several played in order (`moves`), not both.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = examples::apply_request)]
pub struct ApplyRequest {
    #[schema(value_type = GameState)]
    pub state: Value,
    /// One move in the game's notation.
    #[serde(rename = "move", default)]
    pub mv: Option<String>,
    /// Moves in the game's notation, played in order; an illegal one is reported with its index.
    #[serde(default)]
    pub moves: Option<Vec<String>>,
}

/// One move played: its canonical notation, what it caused, and who acts after it.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Ply {
    /// The move in the game's notation, as the engine writes it.
    #[serde(rename = "move")]
    pub mv: String,
    #[schema(value_type = Vec<GameEvent>)]
    pub events: Vec<Value>,
    pub status: Status,
}

/// The position after the moves, and each move played.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(example = examples::apply_response)]
pub struct ApplyResponse {
    #[schema(value_type = GameState)]
    pub state: Value,
    pub status: Status,
    pub plies: Vec<Ply>,
}

/// The score breakdown of a position.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(example = examples::score_response)]
pub struct ScoreResponse {
    #[schema(value_type = GameScore)]
    pub score: Value,
    pub status: Status,
}

/// `POST …/replay`: a whole game from its options, as a list of moves or as a record, not both.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = examples::replay_request)]
pub struct ReplayRequest {
    /// The game's options; left out means the defaults.
    #[serde(default)]
    #[schema(value_type = Option<GameOptions>)]
    pub options: Option<Value>,
    /// The moves in the game's notation, in order.
    #[serde(default)]
    pub moves: Option<Vec<String>>,
    /// A game record in the game's record format (for games without one: moves separated by
    /// white space or commas).
    #[serde(default)]
    pub record: Option<String>,
}

/// The game replayed: the final position, every ply, and the record.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(example = examples::replay_response)]
pub struct ReplayResponse {
    #[schema(value_type = GameState)]
    pub state: Value,
    pub status: Status,
    pub plies: Vec<Ply>,
    /// The game's record: in the game's own format where it has one (Hirþ writes complete turns
    /// only, H12), else the moves separated by spaces.
    pub record: String,
    /// Slips in the record that the reader forgave.
    pub warnings: Vec<String>,
}

/// `GET /healthz`.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(example = json!({"status": "ok"}))]
pub struct Health {
    pub status: String,
}
