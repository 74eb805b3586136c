//! The service's own routes outside the API: the home page, the stylesheet, the health check
//! and the API's documentation; and the answer for what no route took.

use actix_web::http::header::{self, HeaderValue};
use actix_web::http::{Method, StatusCode};
use actix_web::web::{Data, Json};
use actix_web::{HttpRequest, HttpResponse, ResponseError, get};
use moot_templates::home::{GameCard, HomeView, OptionLine};

use crate::api::problem::Problem;
use crate::api::types::{Health, Readiness};
use crate::api::{ApiError, ErrorCode};
use crate::paths;
use crate::tables::TablePolicy;
use crate::web::PageGame;
use crate::web::error::{PageError, page_on_panic};
use moot_ai::Strength;
use moot_games::Seat;
use moot_present::link::{Link, Opponent, Query};
use moot_present::preview::picture_href;

/// The stylesheet, embedded at build time so the binary needs no files at run time.
pub const MOOT_CSS: &str = include_str!("../static/moot.css");

/// The play pages' script (progressive enhancement: the pages work without it), embedded too.
pub const MOOT_JS: &str = include_str!("../static/moot.js");

/// Whether the service is up.
#[utoipa::path(
    tag = "service",
    responses((status = 200, description = "The service is up", body = Health))
)]
#[get("/healthz")]
pub async fn healthz() -> Json<Health> {
    Json(Health {
        status: "ok".to_owned(),
    })
}

/// Whether this server can take requests that change tables: its database takes a write
/// now (a probe row written, the answer reused for a second). Unlike `/healthz` (the process
/// answers), this is for load balancers and orchestrators: a replica whose database is down,
/// full, read-only or lost leaves the pool until it is back. A server without tables is ready
/// whenever it answers.
#[utoipa::path(
    tag = "service",
    responses(
        (status = 200, description = "The server can keep tables' changes", body = Readiness),
        (status = 503, description = "`storage_unavailable`: the tables' database cannot take writes now; `Retry-After` says when to look again", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/readyz")]
pub async fn readyz(tables: Option<Data<TablePolicy>>) -> Result<Json<Readiness>, ApiError> {
    if let Some(policy) = tables {
        policy
            .tables()
            .ready()
            .await
            .map_err(|_| crate::api::tables::storage_unavailable())?;
    }
    Ok(Json(Readiness {
        status: "ready".to_owned(),
    }))
}

/// `GET /`: the home page, every game with its options and its links (play, rules, API).
#[get("/")]
pub async fn home(tables: Option<Data<TablePolicy>>) -> Result<HttpResponse, PageError> {
    let friends_offered = tables.is_some();
    let listing = page_on_panic(|| {
        crate::api::ops::list_all().map_err(|e| {
            PageError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                "Something went wrong in Moot",
                format!("The games could not be listed: {e}"),
            )
        })
    })?;
    let games = listing
        .games
        .into_iter()
        .map(|game| {
            let id = game.id.clone();
            moot_games::with_game!(id.as_str(), G => game_card::<G>(game, friends_offered), else Err(PageError::unknown_game(&id)))
        })
        .collect::<Result<Vec<_>, PageError>>()?;
    let view = HomeView {
        games,
        docs_href: paths::API_REFERENCE.to_owned(),
        openapi_href: crate::api::docs::OPENAPI_PATH.to_owned(),
        challenges_href: friends_offered.then(|| paths::CHALLENGES.to_owned()),
    };
    Ok(HttpResponse::Ok()
        .content_type("text/html; charset=utf-8")
        .body(moot_templates::home::page(&view).into_string()))
}

/// A game's card on the home page: its board, what it is like (the game's own words), the
/// computer at the game's defaults, and the API's options for developers.
fn game_card<G: PageGame>(
    game: crate::api::types::GameListing,
    friends_offered: bool,
) -> Result<GameCard, PageError> {
    let start = Link::<G>::read(&Query::default())?.0;
    let mut against_computer = start.clone();
    against_computer.opponent = Some(Opponent {
        seat: Seat::Second,
        strength: Strength::Normal,
    });
    Ok(GameCard {
        picture_href: picture_href(&start, &[("pixels", "480".to_owned())]),
        picture_alt: format!("The {} board at the start of a game", game.name),
        what: G::INTRO.what.to_owned(),
        length: G::INTRO.length.to_owned(),
        players: G::INTRO.players.to_owned(),
        computer_href: against_computer.href(),
        // A friend elsewhere, where the server keeps tables: the game's defaults, to change on
        // the way.
        friend_href: friends_offered.then(|| paths::friend(&game.id)),
        options_href: paths::play(&game.id),
        rules_href: game.rules_url,
        api_href: paths::new_game_api(&game.id),
        id: game.id,
        name: game.name,
        options: game
            .options
            .into_iter()
            .map(|option| OptionLine {
                name: option.name,
                default: option.default.to_string(),
                description: option.description,
            })
            .collect(),
    })
}

/// `GET /static/moot.css`: the embedded stylesheet, which browsers may keep for an hour.
#[get("/static/moot.css")]
pub async fn stylesheet() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/css; charset=utf-8")
        .insert_header((header::CACHE_CONTROL, "public, max-age=3600"))
        .body(MOOT_CSS)
}

/// `GET /static/moot.js`: the play pages' embedded script, which browsers may keep for an hour.
#[get("/static/moot.js")]
pub async fn script() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/javascript; charset=utf-8")
        .insert_header((header::CACHE_CONTROL, "public, max-age=3600"))
        .body(MOOT_JS)
}

/// The pages' service worker: shows a pushed notice, and opens its page when it is clicked.
pub const PUSH_WORKER_JS: &str = include_str!("../static/push-worker.js");

/// `GET /push-worker.js`: the service worker, at the root so that its scope is the whole site.
/// `no-cache`: a browser asks again (a 304 when unchanged) each time it checks the worker for
/// an update, so that a new server's worker reaches it at once, not after a day.
#[get("/push-worker.js")]
pub async fn push_worker() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/javascript; charset=utf-8")
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .body(PUSH_WORKER_JS)
}

/// The site's icon: a stone in Moot's colours, 32 px, embedded.
pub const FAVICON_PNG: &[u8] = include_bytes!("../static/favicon.png");

/// `GET /favicon.ico`: the site's icon (a PNG: browsers read an icon by its type, not its
/// name), which browsers may keep for a day.
#[get("/favicon.ico")]
pub async fn favicon() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("image/png")
        .insert_header((header::CACHE_CONTROL, "public, max-age=86400"))
        .body(FAVICON_PNG)
}

/// The API reference's page: Swagger UI's, with a phone's viewport, a main landmark, and the
/// two files below after Swagger UI's own.
const REFERENCE_HTML: &str = include_str!("../static/docs.html");
/// Colours for Swagger UI that meet WCAG AA contrast.
const REFERENCE_CSS: &str = include_str!("../static/docs.css");
/// Names Swagger UI's lists of parameter values for screen readers.
const REFERENCE_JS: &str = include_str!("../static/docs.js");

/// Swagger UI's settings: the document; no top bar (an unlabelled field to load another
/// document, an unnamed theme button); no deep links (each operation's path would be a link
/// inside its summary's button: two controls in one); examples without syntax colours too
/// faint to read.
pub fn reference_config() -> utoipa_swagger_ui::Config<'static> {
    utoipa_swagger_ui::Config::new([crate::api::docs::OPENAPI_PATH])
        .use_base_layout()
        .deep_linking(false)
        .with_syntax_highlight(false)
}

/// `GET /docs/`: the API reference (Swagger UI on the OpenAPI document).
#[get("/docs/")]
pub async fn reference() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/html; charset=utf-8")
        .body(REFERENCE_HTML)
}

/// `GET /docs/moot.css`: the API reference's colours.
#[get("/docs/moot.css")]
pub async fn reference_stylesheet() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/css; charset=utf-8")
        .insert_header((header::CACHE_CONTROL, "public, max-age=3600"))
        .body(REFERENCE_CSS)
}

/// `GET /docs/moot.js`: the API reference's names for screen readers.
#[get("/docs/moot.js")]
pub async fn reference_script() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/javascript; charset=utf-8")
        .insert_header((header::CACHE_CONTROL, "public, max-age=3600"))
        .body(REFERENCE_JS)
}

/// `/docs` → `/docs/`, where Swagger UI is served.
#[get("/docs")]
pub async fn docs_redirect() -> HttpResponse {
    HttpResponse::PermanentRedirect()
        .insert_header((header::LOCATION, paths::API_REFERENCE))
        .finish()
}

/// The methods HTTP defines (RFC 9110 and PATCH): any other is a token no client of Moot sends.
const DEFINED_METHODS: [Method; 9] = [
    Method::GET,
    Method::HEAD,
    Method::POST,
    Method::PUT,
    Method::DELETE,
    Method::CONNECT,
    Method::OPTIONS,
    Method::TRACE,
    Method::PATCH,
];

/// The answer for every request no route took: 405 `method_not_allowed` (with `Allow`) when a
/// route serves the path with other methods, else 404: a `not_found` problem under `/api`, a
/// friendly page elsewhere. A method HTTP does not define is answered after the tarpit's hold.
pub async fn fallback(request: HttpRequest) -> HttpResponse {
    if !DEFINED_METHODS.contains(request.method()) {
        crate::compute::tarpit::hold().await;
    }
    let path = request.path();
    let mut allowed = crate::api::documented::documented_methods(path);
    if allowed.is_empty() && path == paths::NOTIFICATIONS {
        // The pages' script's route: it changes the player's notices, and shows nothing.
        allowed = vec!["POST".to_owned(), "DELETE".to_owned()];
    }
    if allowed.is_empty() && request.resource_map().match_pattern(path).is_some() {
        // Every other route outside the API's document is a GET (and so HEAD) route.
        allowed = vec!["GET".to_owned(), "HEAD".to_owned()];
    }
    if allowed.is_empty() && !path.starts_with("/api") {
        // A person followed a bad link to a page: answer with a page, not JSON.
        return PageError::new(
            StatusCode::NOT_FOUND,
            "Nothing here",
            format!("There is no page at {path}."),
        )
        .with_link("Choose a game", paths::HOME)
        .error_response();
    }
    // Answered with their error, as every problem is, for the request id and the access log.
    if allowed.is_empty() {
        return HttpResponse::from_error(ApiError::new(
            ErrorCode::NotFound,
            format!("nothing is served at {path}"),
        ));
    }
    // A method is any token a client sends (a thousand characters, or a hundred thousand):
    // the answer names it by an excerpt.
    let method = crate::limits::excerpt(request.method().as_str(), crate::limits::EXCERPT_CHARS);
    let detail = format!(
        "{method} is not served at {path}; use {}",
        allowed.join(" or ")
    );
    let mut response = HttpResponse::from_error(ApiError::new(ErrorCode::MethodNotAllowed, detail));
    if let Ok(allow) = HeaderValue::from_str(&allowed.join(", ")) {
        response.headers_mut().insert(header::ALLOW, allow);
    }
    response
}
