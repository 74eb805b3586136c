//! The request and response bodies of the API.
//!
//! A body with a game-dependent member (a state, options, a score) is generic over it: the
//! operations read and answer it as the game's own type (`ApplyRequest<HerforState>`), once the
//! game is known (see [`super::ops`]). Its default, a JSON value, is what the document describes:
//! the member's schema is the union of every game's ([`super::schemas`]). The examples computed
//! by really playing are set on the document by [`super::docs`], not here: they are computed
//! with the operations, which use these types.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

#[allow(unused_imports)] // named by the `value_type` attributes below
use super::schemas::{GameEvent, GameOptions, GameScore, GameState};
use moot_games::Status;

/// `GET /api/v1/games`: every game the service referees.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct GamesResponse {
    /// Every game the service referees, always in the same order.
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
    /// The option's member in `options` (`size`).
    pub name: String,
    /// The value used when the option is left out.
    #[schema(value_type = OptionValue)]
    pub default: Value,
    /// What the option means, from the game's option schema.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
}

/// The value of one option: a flag, a number or a name.
#[derive(Serialize, ToSchema)]
#[serde(untagged)]
#[allow(dead_code)] // a schema only: option values travel as JSON
pub enum OptionValue {
    /// An option on or off (Herfor's `pie`).
    #[schema(title = "OptionFlag")]
    Flag(bool),
    /// A number (Herfor's `size`, Hirþ's match `target`).
    #[schema(title = "OptionNumber")]
    Number(i64),
    /// One of the names the option allows (Tara's `first`: `red` or `blue`).
    #[schema(title = "OptionName")]
    Name(String),
}

/// A strength of the computer player: the play pages' budgets, in playouts for easy, normal
/// and strong — Herfor 50, 600 and 20000; Tara 100, 1000 and 5000; Hirþ 100, 1000 and 20000 —
/// or `perfect`: the proven answer, only where the game is solved (Herfor on size 3; elsewhere
/// 422 `invalid_request`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum StrengthName {
    /// The pages' easy budget.
    Easy,
    /// The pages' normal budget, which a request without a budget gets.
    Normal,
    /// The pages' strong budget.
    Strong,
    /// The proven answer, where the game is solved.
    Perfect,
}

/// `POST …/new`: start a game. An empty body, `{}` or a missing member means the defaults.
#[derive(Clone, Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(bound = "")]
pub struct NewGameRequest<O = Value> {
    /// The game's options; a member left out takes its default.
    #[serde(default)]
    #[schema(value_type = Option<GameOptions>)]
    pub options: Option<O>,
}

/// A position and who acts in it.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(bound = "")]
pub struct GameResponse<S = Value> {
    /// The position, to send back with the next request.
    #[schema(value_type = GameState)]
    pub state: S,
    /// Who acts and what they decide.
    pub status: Status,
}

/// `POST …/legal-moves` and `POST …/score`: a position.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(bound = "")]
pub struct StateRequest<S = Value> {
    /// A state as returned by `new` or `apply`.
    #[schema(value_type = GameState)]
    pub state: S,
}

/// Every legal move in a position, in the game's notation.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct LegalMovesResponse {
    /// Empty once the game is over.
    pub moves: Vec<String>,
    /// Who acts and what they decide, or how the game ended.
    pub status: Status,
}

/// `POST …/apply`: one move (`move`) or several played in order (`moves`), not both.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(bound = "")]
pub struct ApplyRequest<S = Value> {
    /// The position to play from, as returned by `new` or `apply`.
    #[schema(value_type = GameState)]
    pub state: S,
    /// One move in the game's notation.
    #[serde(rename = "move", default)]
    pub mv: Option<String>,
    /// Moves in the game's notation, played in order; an illegal one is reported with its index.
    /// At most 5000 (`too_many_moves`).
    #[serde(default)]
    #[schema(max_items = 5000)]
    pub moves: Option<Vec<String>>,
    /// `false` leaves out the per-ply list (`plies` is then empty): for long lists of moves.
    #[serde(default)]
    #[schema(default = true)]
    pub plies: Option<bool>,
}

/// One move played: its canonical notation, what it caused, and who acts after it.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Ply {
    /// The move in the game's notation, as the engine writes it.
    #[serde(rename = "move")]
    pub mv: String,
    /// What the move caused, in order, as the game's events.
    #[schema(value_type = Vec<GameEvent>)]
    pub events: Vec<Value>,
    /// Who acts after the move, or how the game ended with it.
    pub status: Status,
}

/// The position after the moves, and each move played.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(bound = "")]
pub struct ApplyResponse<S = Value> {
    /// The position after the last move.
    #[schema(value_type = GameState)]
    pub state: S,
    /// Who acts there, or how the game ended.
    pub status: Status,
    /// Each move played, in order; empty when the request sent `"plies": false`.
    pub plies: Vec<Ply>,
}

/// The score breakdown of a position.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(bound = "")]
pub struct ScoreResponse<C = Value> {
    /// The score in the game's own terms: its schema says what each member counts.
    #[schema(value_type = GameScore)]
    pub score: C,
    /// Who acts, or how the game ended.
    pub status: Status,
}

/// `POST …/replay`: a whole game from its options, as a list of moves or as a record, not both.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(bound = "")]
pub struct ReplayRequest<O = Value> {
    /// The game's options; left out means the defaults.
    #[serde(default)]
    #[schema(value_type = Option<GameOptions>)]
    pub options: Option<O>,
    /// The moves in the game's notation, in order. At most 5000 (`too_many_moves`).
    #[serde(default)]
    #[schema(max_items = 5000)]
    pub moves: Option<Vec<String>>,
    /// A game record in the game's record format (for games without one: moves separated by
    /// white space or commas). At most 5000 moves (`too_many_moves`).
    #[serde(default)]
    pub record: Option<String>,
    /// `false` leaves out the per-ply list (`plies` is then empty): for long games.
    #[serde(default)]
    #[schema(default = true)]
    pub plies: Option<bool>,
}

/// The game replayed: the final position, every ply, and the record.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(bound = "")]
pub struct ReplayResponse<S = Value> {
    /// The position after the last move.
    #[schema(value_type = GameState)]
    pub state: S,
    /// Who acts there, or how the game ended.
    pub status: Status,
    /// Each move played, in order; empty when the request sent `"plies": false`.
    pub plies: Vec<Ply>,
    /// The game's record: in the game's own format where it has one (Hirþ writes complete turns
    /// only, H12), else the moves separated by spaces.
    pub record: String,
    /// Slips in the record that the reader forgave.
    pub warnings: Vec<String>,
}

/// `POST …/evaluate`: a position to analyse, with at most one of `playouts`, `millis` and
/// `strength` (none: the normal strength).
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct EvaluateRequest {
    /// A state as returned by `new` or `apply`.
    #[schema(value_type = GameState)]
    pub state: Value,
    /// Playouts to run (deterministic: the same state, playouts and seed give the same
    /// answer, which the server may answer from its cache). At most the server's cap.
    #[serde(default)]
    #[schema(minimum = 1)]
    pub playouts: Option<u64>,
    /// Milliseconds to search instead (not reproducible, never cached). At most the server's cap.
    #[serde(default)]
    #[schema(minimum = 1)]
    pub millis: Option<u64>,
    /// `easy`, `normal` or `strong`: the budgets of the play pages; `perfect`: the proven
    /// answer, only on boards the server has solved (Herfor size 3; elsewhere 422). Herfor
    /// size 3 is answered exactly whatever the budget; should a proof not end within the
    /// server's limits, the answer is the normal strength's search, without `exact`.
    #[serde(default)]
    #[schema(value_type = Option<StrengthName>, example = "normal")]
    pub strength: Option<String>,
    /// The search's random seed, any integer from 0 to 2^53 − 1 (the largest JavaScript holds
    /// exactly); 0 when left out.
    #[serde(default)]
    #[schema(maximum = 9_007_199_254_740_991_u64)]
    pub seed: Option<u64>,
}

/// What the search found, for the seat that must act (`status.to_act`).
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct EvaluateResponse {
    /// The value of the position for the seat that must act: −1 lost … 1 won. Once the game
    /// is over: its result for the first seat.
    pub value: f64,
    /// Herfor: the expected final stone margin for that seat (the button counts ½). Once the
    /// game is over: the final margin for the first seat.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub margin: Option<f64>,
    /// The recommended move; absent once the game is over.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub best_move: Option<String>,
    /// The principal variation: the most visited line, from the best move on.
    pub pv: Vec<String>,
    /// Every legal move with its visits and mean value for the seat that must act.
    pub moves: Vec<MoveEvaluation>,
    /// Playouts run.
    pub playouts: u64,
    /// Time the search took, in milliseconds.
    pub elapsed_ms: f64,
    /// Answered from the cache (the numbers are those of the first search).
    pub cached: bool,
    /// The answer is proven with perfect play (Herfor on size 3): `value` is 1 (won) or −1
    /// (lost), each move's `value` likewise, with no playouts and no `margin`. Absent when the
    /// answer is the search's.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub exact: bool,
    /// With `exact`: every best move (each winning move, or every move of a lost position);
    /// `best_move` is one of them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub best_moves: Vec<String>,
    /// Who acts in the position analysed, or how the game ended.
    pub status: Status,
}

/// One legal move in the analysis.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct MoveEvaluation {
    /// The move in the game's notation.
    #[serde(rename = "move")]
    pub mv: String,
    /// Playouts that went through the move; 0 in an `exact` answer.
    pub visits: u64,
    /// Mean value for the seat that must act; 0 when the move was not visited.
    pub value: f64,
}

/// `GET /readyz`.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(example = json!({"status": "ready"}))]
pub struct Readiness {
    /// `ready` while the server can keep tables' changes (or keeps no tables).
    pub status: String,
}

/// `GET /healthz`.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(example = json!({"status": "ok"}))]
pub struct Health {
    /// `ok` whenever the service answers.
    pub status: String,
}
