//! The service's own routes outside the API: the home page, the stylesheet, the health check
//! and the API's documentation.

use actix_web::http::header;
use actix_web::{HttpResponse, get, web::Json};
use moot_templates::home::{GameCard, HomeView, OptionLine};

use crate::api::ApiError;
use crate::api::types::Health;

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

#[get("/")]
pub async fn home() -> Result<HttpResponse, ApiError> {
    let listing = crate::api::handlers::guarded(crate::api::ops::list_all)?;
    let view = HomeView {
        games: listing
            .games
            .into_iter()
            .map(|game| GameCard {
                rules_href: game.rules_url,
                play_href: moot_present::link::play_path(&game.id),
                api_href: format!("/api/v1/games/{}/new", game.id),
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
            .collect(),
        docs_href: "/docs/".to_owned(),
        openapi_href: crate::api::docs::OPENAPI_PATH.to_owned(),
    };
    Ok(HttpResponse::Ok()
        .content_type("text/html; charset=utf-8")
        .body(moot_templates::home::page(&view).into_string()))
}

#[get("/static/moot.css")]
pub async fn stylesheet() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/css; charset=utf-8")
        .insert_header((header::CACHE_CONTROL, "public, max-age=3600"))
        .body(MOOT_CSS)
}

#[get("/static/moot.js")]
pub async fn script() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/javascript; charset=utf-8")
        .insert_header((header::CACHE_CONTROL, "public, max-age=3600"))
        .body(MOOT_JS)
}

/// `/docs` → `/docs/`, where Swagger UI is served.
#[get("/docs")]
pub async fn docs_redirect() -> HttpResponse {
    HttpResponse::PermanentRedirect()
        .insert_header((header::LOCATION, "/docs/"))
        .finish()
}
