//! The OpenAPI document as the handlers declare it: the base (title, description, tags)
//! declared here, the paths and schemas collected from the handlers by `utoipa-actix-web`, then
//! what their attributes cannot say: the `{game}` parameter's ids, and the bodies' examples
//! computed by playing ([`super::examples`]). [`super::contract`] publishes it.

use actix_web::App;
use serde_json::Value;
use utoipa::OpenApi;
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{ObjectBuilder, Schema, Type};
use utoipa_actix_web::AppExt;
use utoipa_actix_web::service_config::ServiceConfig;

use moot_games::GAME_IDS;

use super::examples;
use super::problem::{ErrorCode, Problem, StreamCap};

/// Where the document is served; Swagger UI is at `/docs/`.
pub const OPENAPI_PATH: &str = "/api-docs/openapi.json";

/// The OpenAPI document's base: title, description, tags and the problem schemas; the paths
/// and the other schemas are added from the handlers when the app is built.
#[derive(OpenApi)]
#[openapi(
    info(
        title = "Moot",
        description = "A referee for Hirþ, The High Kings of Tara and Herfor. Its games API is \
stateless: the client holds the state, sends it with each request and gets back the legal moves, \
the position after a move, the score, or a whole game replayed. Its tables are kept: games \
between two seats, stored durably (a change is answered 2xx only once it is committed; a \
database that cannot take it is a 503 `storage_unavailable`). Moves travel as notation strings, \
states as each game's versioned JSON. Errors are `application/problem+json` (RFC 9457) with a \
stable `code`; bodies are limited to 1 MiB.",
        license(name = "MIT", identifier = "MIT"),
    ),
    tags(
        (name = "games", description = "Play the games: start, list legal moves, apply moves, score, replay."),
        (name = "tables", description = "Tables Moot keeps for two players by correspondence: create one, hand each seat its credential, play with `Authorization: Bearer <credential>`."),
        (name = "players", description = "Player keys, without accounts: a credential that reaches all of a player's seats, and the list of its tables."),
        (name = "sites", description = "A site's backend, by its `Moot-Site-Key`: one webhook for every table and player its key made."),
        (name = "challenges", description = "Open challenges and invitations: a game offered to anyone (listed) or to one player; whoever accepts opens the table, both players seated."),
        (name = "service", description = "The service itself."),
    ),
    components(schemas(Problem, ErrorCode, StreamCap))
)]
pub struct ApiDoc;

/// The document of the routes that `routes` registers (generic over `{game}`): the base, their
/// paths and schemas, the game ids and the played examples.
pub fn document(routes: impl FnOnce(&mut ServiceConfig)) -> utoipa::openapi::OpenApi {
    let (_, mut document) = App::new()
        .into_utoipa_app()
        .openapi(ApiDoc::openapi())
        .configure(routes)
        .split_for_parts();
    list_game_ids(&mut document);
    set_played_examples(&mut document);
    document
}

/// A body's schema name and its played example.
type Played = (&'static str, fn() -> Value);

/// The bodies whose example is played, with it: the first registered game's, as the generic
/// document shows one game. Set on the document rather than on the types
/// (`#[schema(example = …)]`): the examples are computed with the operations, which use the
/// types.
const PLAYED: [Played; 15] = [
    ("GamesResponse", examples::games_response),
    ("NewGameRequest", examples::new_game_request),
    ("GameResponse", examples::game_response),
    ("StateRequest", examples::state_request),
    ("LegalMovesResponse", examples::legal_moves_response),
    ("ApplyRequest", examples::apply_request),
    ("ApplyResponse", examples::apply_response),
    ("ScoreResponse", examples::score_response),
    ("ReplayRequest", examples::replay_request),
    ("ReplayResponse", examples::replay_response),
    ("EvaluateRequest", examples::evaluate_request),
    ("EvaluateResponse", examples::evaluate_response),
    ("PictureRequest", examples::picture_request),
    ("TableHistory", examples::table_history),
    ("TableMoveRequest", examples::table_move_request),
];

/// Gives each body of [`PLAYED`] its example.
fn set_played_examples(document: &mut utoipa::openapi::OpenApi) {
    let Some(components) = document.components.as_mut() else {
        return;
    };
    for (name, example) in PLAYED {
        if let Some(RefOr::T(Schema::Object(schema))) = components.schemas.get_mut(name) {
            schema.example = Some(example());
        }
    }
}

/// Declares the `{game}` path parameter as one of the registered ids, which the handlers'
/// attributes cannot spell because the registry is not known to them.
fn list_game_ids(document: &mut utoipa::openapi::OpenApi) {
    let ids = ObjectBuilder::new()
        .schema_type(Type::String)
        .enum_values(Some(GAME_IDS.iter().copied()))
        .build();
    for item in document.paths.paths.values_mut() {
        let operations = [
            &mut item.get,
            &mut item.post,
            &mut item.put,
            &mut item.delete,
            &mut item.patch,
        ];
        for operation in operations.into_iter().flatten() {
            for parameter in operation.parameters.iter_mut().flatten() {
                if let RefOr::T(parameter) = parameter
                    && parameter.name == "game"
                {
                    parameter.schema = Some(ids.clone().into());
                }
            }
        }
    }
}
