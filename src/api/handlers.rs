//! The HTTP handlers: extract the game and the body, run the generic operation for that game
//! under [`problem_on_panic`], answer JSON. Documented for OpenAPI with `#[utoipa::path]`.

use actix_web::{HttpRequest, get, post, web, web::Json};
use serde::de::DeserializeOwned;

use super::body::{GameId, JsonBody};
use super::evaluate::Evaluator;
use super::ops;
use super::problem::{ApiError, Problem, problem_on_panic};
use super::serialized::Serialized;
use super::types::{
    ApplyRequest, ApplyResponse, EvaluateRequest, EvaluateResponse, GameResponse, GamesResponse,
    LegalMovesResponse, NewGameRequest, ReplayRequest, ReplayResponse, ScoreResponse, StateRequest,
};
use moot_games::with_game;

/// Runs `op` for the game under [`problem_on_panic`]: on the worker, or on the blocking pool
/// for a body over 16 KiB (its decoding takes milliseconds).
macro_rules! run_for_game {
    ($game:expr, $body:expr, $op:ident, $request:ty) => {{
        let body = $body;
        if body.is_large() {
            run_blocking!($game, body, $op, $request)
        } else {
            let GameId(id) = $game;
            let JsonBody(value, cost) = body;
            answer!(id, value, cost, $op, $request)
        }
    }};
}

/// Reads the body's JSON `value` as game `id`'s own request (`$request` names its untyped
/// form, which explains a refusal), drops the JSON and `release` (the body's share of the
/// decoding budget) once it is read, runs `op` and writes its answer, under
/// [`problem_on_panic`].
macro_rules! answer {
    ($id:expr, $value:expr, $release:expr, $op:ident, $request:ty) => {{
        let id = $id;
        let (value, release) = ($value, $release);
        problem_on_panic(|| {
            with_game!(id, G => {
                let request = ops::read::<G, _, $request>(&value)?;
                drop((value, release));
                Serialized::of(&ops::$op::<G>(request)?)
            }, else Err(ApiError::unknown_game(id)))
        })
    }};
}

/// Like [`run_for_game!`], on the blocking pool: for operations whose work grows with the
/// request (up to [`crate::limits::MAX_MOVES`] moves), which must not hold an async worker.
/// The body's moves take their cost from the memory budget first (503 when it is full); the
/// answer is written to JSON on the pool too ([`Serialized`]).
macro_rules! run_blocking {
    ($game:expr, $body:expr, $op:ident, $request:ty) => {{
        let GameId(id) = $game;
        let mut body = $body;
        body.take_for_moves()?;
        crate::blocking::off_workers(move || {
            // The body's share of the memory budget, its moves' included, is given back once
            // the answer is written.
            let JsonBody(value, cost) = body;
            let answer = answer!(id, value, (), $op, $request);
            drop(cost);
            answer
        })
        .await
        .map_err(|e| ApiError::internal(format!("the request could not run: {e}")))?
    }};
}

/// The body's members as `T`; the body's share of the decoding budget is given back once
/// they are read, when the parsed tree is dropped.
fn envelope<T: DeserializeOwned>(body: JsonBody) -> Result<T, ApiError> {
    ops::envelope(body.0)
}

/// The games, their options and defaults.
#[utoipa::path(
    tag = "games",
    responses((status = 200, description = "Every game the service referees", body = GamesResponse))
)]
#[get("/games")]
pub async fn list_games() -> Result<Json<GamesResponse>, ApiError> {
    problem_on_panic(ops::list_all).map(Json)
}

/// Starts a game with the options given (defaults for those left out; the body may be empty).
#[utoipa::path(
    tag = "games",
    params(("game" = String, Path, description = "The game's id", example = "herfor")),
    request_body(content = Option<NewGameRequest>, content_type = "application/json"),
    responses(
        (status = 200, description = "The initial position", body = GameResponse),
        (status = "4XX", description = "`unknown_game`, `malformed_json`, `invalid_request`, `invalid_options`, …", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "`overloaded`: the bodies being decoded fill the server's memory budget; retry after `Retry-After` seconds", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/games/{game}/new")]
pub async fn new_game(game: GameId, body: JsonBody) -> Result<Serialized<GameResponse>, ApiError> {
    run_for_game!(game, body, new_game, NewGameRequest)
}

/// Every legal move in a position, in the game's notation.
#[utoipa::path(
    tag = "games",
    params(("game" = String, Path, description = "The game's id", example = "herfor")),
    request_body(content = StateRequest, content_type = "application/json"),
    responses(
        (status = 200, description = "The legal moves and who acts", body = LegalMovesResponse),
        (status = "4XX", description = "`unknown_game`, `malformed_json`, `invalid_request`, `invalid_state`, …", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "`overloaded`: the bodies being decoded fill the server's memory budget; retry after `Retry-After` seconds", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/games/{game}/legal-moves")]
pub async fn legal_moves(
    game: GameId,
    body: JsonBody,
) -> Result<Serialized<LegalMovesResponse>, ApiError> {
    run_for_game!(game, body, legal_moves, StateRequest)
}

/// Plays one move, or several in order, and returns the position after them with each ply's
/// events and status. The first move refused is reported with its index and the rule.
#[utoipa::path(
    tag = "games",
    params(("game" = String, Path, description = "The game's id", example = "herfor")),
    request_body(content = ApplyRequest, content_type = "application/json"),
    responses(
        (status = 200, description = "The position after the moves", body = ApplyResponse),
        (status = "4XX", description = "`invalid_state`, `unreadable_move`, `illegal_move` (with `rule`, `move`, `index`), `game_over`, …", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "`overloaded`: the bodies being decoded, and the moves being played (2 KiB a move), fill the server's memory budget; retry after `Retry-After` seconds", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/games/{game}/apply")]
pub async fn apply(game: GameId, body: JsonBody) -> Result<Serialized<ApplyResponse>, ApiError> {
    run_blocking!(game, body, apply, ApplyRequest)
}

/// The rule-specific score breakdown of a position.
#[utoipa::path(
    tag = "games",
    params(("game" = String, Path, description = "The game's id", example = "herfor")),
    request_body(content = StateRequest, content_type = "application/json"),
    responses(
        (status = 200, description = "The score and who acts", body = ScoreResponse),
        (status = "4XX", description = "`unknown_game`, `malformed_json`, `invalid_request`, `invalid_state`, …", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "`overloaded`: the bodies being decoded fill the server's memory budget; retry after `Retry-After` seconds", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/games/{game}/score")]
pub async fn score(game: GameId, body: JsonBody) -> Result<Serialized<ScoreResponse>, ApiError> {
    run_for_game!(game, body, score, StateRequest)
}

/// Replays a whole game from its options and its moves or record: the final position, every
/// ply, the record in the game's format, and the slips the record reader forgave.
#[utoipa::path(
    tag = "games",
    params(("game" = String, Path, description = "The game's id", example = "herfor")),
    request_body(content = ReplayRequest, content_type = "application/json"),
    responses(
        (status = 200, description = "The game replayed", body = ReplayResponse),
        (status = "4XX", description = "`invalid_options`, `unreadable_move`, `illegal_move`, `invalid_record` (with `line`), …", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "`overloaded`: the bodies being decoded, and the moves being played (2 KiB a move), fill the server's memory budget; retry after `Retry-After` seconds", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/games/{game}/replay")]
pub async fn replay(game: GameId, body: JsonBody) -> Result<Serialized<ReplayResponse>, ApiError> {
    run_blocking!(game, body, replay, ReplayRequest)
}

/// The computer player's analysis of a position: its value for the seat that must act (and
/// for Herfor the expected stone margin), the best move, the principal variation, every legal
/// move's visits and mean value. Searches run off the async workers, a limited number at once;
/// a repeated request with a playout budget is answered from a cache.
#[utoipa::path(
    tag = "games",
    params(
        ("game" = String, Path, description = "The game's id", example = "herfor"),
        ("Moot-Site-Key" = Option<String>, Header, description = "A site's key, from the server's `--site-keys` file: the request counts against that site's own rate, not its address's (for a site's backend relaying its players' requests); a key that is no site's is 401 `unknown_site_key`"),
    ),
    request_body(content = EvaluateRequest, content_type = "application/json"),
    responses(
        (status = 200, description = "The analysis", body = EvaluateResponse),
        (status = "4XX", description = "`invalid_state`, `invalid_request` (two budgets, a zero budget, an unknown strength), `budget_too_large` (with `field`), …", body = Problem, content_type = "application/problem+json"),
        (status = 501, description = "`evaluate_off`: this server runs no evaluations (`--max-evaluations 0`)", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "`unknown_site_key`: the `Moot-Site-Key` sent is no site's of this server", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "`rate_limited`: this client (peer address, or the site whose `Moot-Site-Key` it sent) sent more evaluations than its share; retry after `Retry-After` seconds", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = String, description = "Seconds until this client may send another"))),
        (status = 503, description = "`overloaded`: the most evaluations the server runs at once are running and this one waited its turn in vain (the line is fair between clients), or this client's share of them is running; retry after `Retry-After` seconds (the wall-clock cap of a search)", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = String, description = "Seconds to wait before retrying"))),
    )
)]
#[post("/games/{game}/evaluate")]
pub async fn evaluate(
    game: GameId,
    body: JsonBody,
    evaluator: web::Data<Evaluator>,
    http: HttpRequest,
) -> Result<Json<EvaluateResponse>, ApiError> {
    let GameId(id) = game;
    let request: EvaluateRequest = envelope(body)?;
    let client = super::site_key::client_of(&http, evaluator.config().trust_forwarded)?;
    let answer = with_game!(id, G => evaluator.evaluate::<G>(request, client).await, else Err(ApiError::unknown_game(id)))?;
    Ok(Json(answer))
}
