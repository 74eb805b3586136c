//! Player keys over HTTP: `POST /api/v1/players` makes one (its credential shown once), `GET
//! /api/v1/players/me` reads it back with that credential, and `PUT`/`DELETE
//! /api/v1/players/me/webhook` names (or drops) the webhook its feed is posted to. A wrong or missing player
//! credential counts against the client's share of wrong player credentials, as wrong seat
//! credentials do at a table; a client past it is barred for a while, but never from using a
//! right credential.

use actix_web::http::header;
use actix_web::{FromRequest, HttpRequest, HttpResponse, delete, get, post, put};

use super::bodies::WebhookRequest;
use super::create::{checked_webhook, name_of};
use super::player_bodies::{CreatePlayerRequest, CreatedPlayer, ME, MY_TABLES, PlayerResponse};
use super::refusals::{client_of, player_strike, problem, rate_limited};
use super::seats::bearer;
use crate::api::body::JsonBody;
use crate::api::ops;
use crate::api::problem::{ApiError, ErrorCode, Problem};
use crate::extract::KeptTables;
use crate::tables::players::Player;
use crate::tables::policy::PLAYER_KEYS;
use crate::tables::{self, TablePolicy};

/// The player holding `credential`, sent in `field` (`Authorization`, or a body's member); a
/// wrong one is refused and counted against the client.
pub(super) async fn known_player(
    policy: &TablePolicy,
    http: &HttpRequest,
    credential: &str,
    field: &str,
) -> Result<Player, ApiError> {
    if let Some(player) = policy.tables().player(credential).await.map_err(problem)? {
        return Ok(player);
    }
    let client = client_of(policy, http);
    if let Some(wait) = policy.barred(PLAYER_KEYS, client) {
        return Err(rate_limited("wrong player credentials", wait));
    }
    Err(player_strike(
        policy,
        client,
        &format!("{field}: the credential is no player's of this server"),
    )
    .with_field(field))
}

/// The player whose credential the request sends as `Authorization: Bearer <credential>`.
pub(super) async fn player_of(
    policy: &TablePolicy,
    http: &HttpRequest,
) -> Result<Player, ApiError> {
    // No credential guesses nothing: not counted, and answered 401 even to a barred client.
    let Some(credential) = bearer(http) else {
        return Err(ApiError::new(
            ErrorCode::UnknownPlayerKey,
            "send the player's credential as `Authorization: Bearer <credential>`",
        ));
    };
    known_player(policy, http, credential, "Authorization").await
}

/// Makes a player key: answers the player and its credential, shown once. Hand the credential
/// to the player: with it, the player takes seats (at a table's creation, in
/// `player_credentials`, or later with the seat's credential) and lists its tables.
#[utoipa::path(
    tag = "players",
    params(
        ("Moot-Site-Key" = Option<String>, Header, description = "A site's key, from the server's `--site-keys` file: the player counts against that site's budget of creations, not its address's, and is the site's (its feed goes to the site's webhook too, `PUT /api/v1/site/webhook`); a key that is no site's is 401 `unknown_site_key`"),
    ),
    request_body(content = CreatePlayerRequest, content_type = "application/json", description = "The player's name, if any (an empty body is a player without one)"),
    responses(
        (status = 201, description = "The player and its credential (shown once)", body = CreatedPlayer,
            headers(("Location" = String, description = "Where the player reads itself with its credential"))),
        (status = 401, description = "`unknown_site_key`: the `Moot-Site-Key` sent is no site's of this server", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`invalid_request`: a bad name", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "`rate_limited`: this client (its address, or the site whose key it sent) made more players than its share", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = String, description = "Seconds until this client may make another"))),
        (status = 501, description = "`tables_off`: this server keeps no tables, nor players", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "`storage_unavailable`: the tables' database cannot be used now, nothing was kept", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = String, description = "Seconds to wait before retrying"))),
    )
)]
#[post("/players")]
pub async fn create_player(body: JsonBody, http: HttpRequest) -> Result<HttpResponse, ApiError> {
    // The tables are taken once the body is read: a body's faults are answered first.
    let policy = KeptTables::<ApiError>::extract(&http).await?;
    let request: CreatePlayerRequest = ops::envelope(body.0)?;
    let name = match request.name {
        Some(name) => name_of(name, "name")?,
        None => None,
    };
    let client = crate::api::site_key::client_of(&http, policy.limits().trust_forwarded)?;
    if let Err(wait) = policy.may_create_player(&client) {
        return Err(rate_limited("new players", wait));
    }
    let made = policy
        .tables()
        .create_player(name, client.site_name(), tables::now())
        .await
        .map_err(problem)?;
    Ok(HttpResponse::Created()
        .insert_header((header::LOCATION, ME))
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .json(CreatedPlayer {
            id: made.player.id,
            name: made.player.name,
            credential: made.credential,
            url: ME.to_owned(),
            tables_url: MY_TABLES.to_owned(),
        }))
}

/// The player whose credential is sent.
#[utoipa::path(
    tag = "players",
    params(
        ("Authorization" = String, Header, description = "`Bearer <credential>`: the player's credential"),
    ),
    responses(
        (status = 200, description = "The player", body = PlayerResponse),
        (status = 401, description = "`unknown_player_key`: no player credential, or no player's", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "`rate_limited`: this client sent too many wrong player credentials", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = String, description = "Seconds until this client may try again"))),
        (status = 501, description = "`tables_off`", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "`storage_unavailable`: the tables' database cannot be used now", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = String, description = "Seconds to wait before retrying"))),
    )
)]
#[get("/players/me")]
pub async fn me(policy: KeptTables<ApiError>, http: HttpRequest) -> Result<HttpResponse, ApiError> {
    let player = player_of(&policy, &http).await?;
    Ok(HttpResponse::Ok()
        .insert_header((header::CACHE_CONTROL, "private, no-cache"))
        .json(PlayerResponse::from(player)))
}

/// Posts the player's feed to a webhook from now on: each of its events (as
/// `GET /api/v1/players/me/events` sends them) to `url`, signed with `secret` like a table's
/// webhook, in order, retried for a day. Sent again, it replaces the webhook.
#[utoipa::path(
    tag = "players",
    params(
        ("Authorization" = String, Header, description = "`Bearer <credential>`: the player's credential"),
    ),
    request_body(content = WebhookRequest, content_type = "application/json"),
    responses(
        (status = 200, description = "The player, with its webhook's URL", body = PlayerResponse),
        (status = 401, description = "`unknown_player_key`: no player credential, or no player's", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`invalid_request`: a URL the server does not post to, or a weak secret", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "`rate_limited`: this client sent too many wrong player credentials", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = String, description = "Seconds until this client may try again"))),
        (status = 501, description = "`tables_off`; `webhooks_off`: this server posts no webhooks", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "`storage_unavailable`: the tables' database cannot be used now, nothing was kept", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = String, description = "Seconds to wait before retrying"))),
    )
)]
#[put("/players/me/webhook")]
pub async fn set_webhook(body: JsonBody, http: HttpRequest) -> Result<HttpResponse, ApiError> {
    let policy = KeptTables::<ApiError>::extract(&http).await?;
    let request: WebhookRequest = ops::envelope(body.0)?;
    let mut player = player_of(&policy, &http).await?;
    let webhook = checked_webhook(request, policy.limits().allow_private_webhooks, "")?;
    let url = webhook.url.clone();
    policy
        .tables()
        .set_player_webhook(&player.id, Some(webhook))
        .await
        .map_err(problem)?;
    player.webhook_url = Some(url);
    Ok(HttpResponse::Ok()
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .json(PlayerResponse::from(player)))
}

/// Stops posting the player's feed to its webhook (events already written are still sent).
#[utoipa::path(
    tag = "players",
    params(
        ("Authorization" = String, Header, description = "`Bearer <credential>`: the player's credential"),
    ),
    responses(
        (status = 204, description = "The player names no webhook now"),
        (status = 401, description = "`unknown_player_key`: no player credential, or no player's", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "`rate_limited`: this client sent too many wrong player credentials", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = String, description = "Seconds until this client may try again"))),
        (status = 501, description = "`tables_off`", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "`storage_unavailable`: the tables' database cannot be used now, nothing was changed", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = String, description = "Seconds to wait before retrying"))),
    )
)]
#[delete("/players/me/webhook")]
pub async fn remove_webhook(
    policy: KeptTables<ApiError>,
    http: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let player = player_of(&policy, &http).await?;
    policy
        .tables()
        .set_player_webhook(&player.id, None)
        .await
        .map_err(problem)?;
    Ok(HttpResponse::NoContent().finish())
}
