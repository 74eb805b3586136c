//! Notices on the pages (Web Push): the pages' script turns them on for the browser's player
//! (the cookie's) by posting the subscription its browser gave (`POST /your-games/notifications`,
//! the body as `POST /api/v1/players/me/push-subscriptions` takes it) and off by deleting it
//! (`DELETE /your-games/notifications?endpoint=…`). The script cannot read the cookie's
//! credential, so these routes find the player by the cookie; what they keep is the API's
//! ([`crate::api::tables::push::keep`], [`crate::api::tables::push::forget`]), and they answer as
//! it does, JSON and problems. Only Moot's own pages may call them
//! ([`super::same_origin`]).

use actix_web::{FromRequest, HttpRequest, HttpResponse, delete, post};

use crate::api::body::JsonBody;
use crate::api::problem::{ApiError, ErrorCode};
use crate::api::tables::push::{endpoint_of, forget, keep};
use crate::api::tables::refusals::problem;
use crate::extract::KeptTables;
use crate::tables::TablePolicy;
use crate::tables::players::Player;
use crate::web::player::{self, Browser};
use crate::web::same_origin;

/// `POST /your-games/notifications`: keeps the browser's subscription for its player.
#[post("/your-games/notifications")]
pub async fn turn_on(body: JsonBody, http: HttpRequest) -> Result<HttpResponse, ApiError> {
    let policy = KeptTables::<ApiError>::extract(&http).await?;
    let player = cookies_player(&http, &policy).await?;
    keep(&policy, &player.id, body.0).await
}

/// `DELETE /your-games/notifications?endpoint=…`: forgets the browser's subscription.
#[delete("/your-games/notifications")]
pub async fn turn_off(
    policy: KeptTables<ApiError>,
    http: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let player = cookies_player(&http, &policy).await?;
    let endpoint = endpoint_of(&http)?;
    forget(&policy, &player.id, &endpoint).await
}

/// The player of the browser's cookie, for a request from Moot's own pages.
async fn cookies_player(http: &HttpRequest, policy: &TablePolicy) -> Result<Player, ApiError> {
    same_origin::check(http, policy.limits().trust_forwarded)?;
    match player::browser(http, policy).await.map_err(problem)? {
        Browser::Player(player, _) => Ok(player),
        Browser::Unknown | Browser::Forged => Err(ApiError::new(
            ErrorCode::UnknownPlayerKey,
            "this browser holds no player: its cookie is missing, or no player's. Open or \
             join a table in this browser first",
        )),
    }
}
