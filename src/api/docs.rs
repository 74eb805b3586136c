//! The OpenAPI document: the base (title, description, tags) declared here, the paths and
//! schemas collected from the handlers by `utoipa-actix-web` when the app is built.

use utoipa::OpenApi;

use super::problem::{ErrorCode, Problem};

/// Where the document is served; Swagger UI is at `/docs/`.
pub const OPENAPI_PATH: &str = "/api-docs/openapi.json";

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Moot",
        description = "A stateless referee for Hirþ, The High Kings of Tara and Herfor. The client \
holds the state: send it with each request and get back the legal moves, the position after a \
move, the score, or a whole game replayed. Moves travel as notation strings, states as each \
game's versioned JSON. Errors are `application/problem+json` (RFC 9457) with a stable `code`; \
bodies are limited to 1 MiB.",
        license(name = "MIT"),
    ),
    tags(
        (name = "games", description = "Play the games: start, list legal moves, apply moves, score, replay."),
        (name = "service", description = "The service itself."),
    ),
    components(schemas(Problem, ErrorCode))
)]
pub struct ApiDoc;
