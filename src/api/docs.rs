//! The OpenAPI document: the base (title, description, tags) declared here, the paths and
//! schemas collected from the handlers by `utoipa-actix-web` when the app is built.

use utoipa::OpenApi;
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{ObjectBuilder, Type};

use moot_games::GAME_IDS;

use super::problem::{ErrorCode, Problem};

/// Where the document is served; Swagger UI is at `/docs/`.
pub const OPENAPI_PATH: &str = "/api-docs/openapi.json";

/// The OpenAPI document's base: title, description, tags and the problem schemas; the paths
/// and the other schemas are added from the handlers when the app is built.
#[derive(OpenApi)]
#[openapi(
    info(
        title = "Moot",
        description = "A stateless referee for Hirþ, The High Kings of Tara and Herfor. The client \
holds the state: send it with each request and get back the legal moves, the position after a \
move, the score, or a whole game replayed. Moves travel as notation strings, states as each \
game's versioned JSON. Errors are `application/problem+json` (RFC 9457) with a stable `code`; \
bodies are limited to 1 MiB.",
        license(name = "MIT", identifier = "MIT"),
    ),
    tags(
        (name = "games", description = "Play the games: start, list legal moves, apply moves, score, replay."),
        (name = "tables", description = "Tables Moot keeps for two players by correspondence: create one, hand each seat its credential, play with `Authorization: Bearer <credential>`."),
        (name = "service", description = "The service itself."),
    ),
    components(schemas(Problem, ErrorCode))
)]
pub struct ApiDoc;

/// Declares the `{game}` path parameter as one of the registered ids, which the handlers'
/// attributes cannot spell because the registry is not known to them.
pub fn list_game_ids(document: &mut utoipa::openapi::OpenApi) {
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
