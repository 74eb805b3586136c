//! Web Push over HTTP: `GET /api/v1/push/key` gives the server's VAPID public key, which a
//! page passes to `pushManager.subscribe`; with the player's credential, `POST
//! /api/v1/players/me/push-subscriptions` keeps the subscription the browser gives and `DELETE`
//! forgets it. The pages keep and forget a browser's subscription for the player in its cookie
//! with the same functions ([`keep`], [`forget`]: `crate::web::notifications`). The pushes
//! themselves go out from the push worker (`crate::push`).

use actix_web::http::header;
use actix_web::{FromRequest, HttpRequest, HttpResponse, delete, get, post, web};

use super::players::player_of;
use super::push_bodies::{
    MY_SUBSCRIPTIONS, PushKeyResponse, SubscribeRequest, SubscriptionResponse,
};
use super::refusals::{problem, storage_unavailable};
use crate::api::body::JsonBody;
use crate::api::ops;
use crate::api::problem::{ApiError, ErrorCode, Problem};
use crate::extract::KeptTables;
use crate::push::subscription;
use crate::push::vapid::Vapid;
use crate::tables::{self, TablePolicy, subscriptions::Subscribed};

/// How long a client may keep the key: it changes only with the database.
const KEY_MAX_AGE: u64 = 24 * 60 * 60;

/// The server's VAPID public key: pass it as `applicationServerKey` to
/// `pushManager.subscribe`, then send the subscription to `subscriptions_url`. The same for
/// every player and replica; made at the first request.
#[utoipa::path(
    tag = "players",
    responses(
        (status = 200, description = "The key", body = PushKeyResponse,
            headers(("Cache-Control" = String, description = "Public, for a day"))),
        (status = 501, description = "`tables_off`: this server keeps no tables, nor players", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "`storage_unavailable`: the tables' database cannot be used now", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = String, description = "Seconds to wait before retrying"))),
    )
)]
#[get("/push/key")]
pub async fn push_key(policy: KeptTables<ApiError>) -> Result<HttpResponse, ApiError> {
    let private = policy
        .tables()
        .push_key(tables::now())
        .await
        .map_err(problem)?;
    let vapid = Vapid::from_private(&private).map_err(|error| {
        // A database edited by hand: nothing a client can do but wait for it to be mended.
        tracing::error!(%error, "the kept VAPID key cannot be used");
        storage_unavailable()
    })?;
    Ok(HttpResponse::Ok()
        .insert_header((
            header::CACHE_CONTROL,
            format!("public, max-age={KEY_MAX_AGE}"),
        ))
        .json(PushKeyResponse {
            public_key: vapid.public_key().to_owned(),
            subscriptions_url: MY_SUBSCRIPTIONS.to_owned(),
        }))
}

/// Keeps a browser's subscription for the player whose credential is sent: the player's
/// notices are pushed to it from then on. Sending the same endpoint again renews its keys. A
/// player keeps at most 10 subscriptions; an 11th replaces the oldest.
#[utoipa::path(
    tag = "players",
    params(
        ("Authorization" = String, Header, description = "`Bearer <credential>`: the player's credential"),
    ),
    request_body(content = SubscribeRequest, content_type = "application/json", description = "The browser's `PushSubscription.toJSON()`"),
    responses(
        (status = 201, description = "Kept", body = SubscriptionResponse),
        (status = 200, description = "The player had this endpoint already; its keys are the ones sent", body = SubscriptionResponse),
        (status = 401, description = "`unknown_player_key`: no player credential, or no player's", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`invalid_request`: the body is not a subscription, or its `endpoint` (not an https URL on the internet), `keys.p256dh` (not an uncompressed P-256 point) or `keys.auth` (not 16 bytes) cannot be used; `field` names which", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "`rate_limited`: this client sent too many wrong player credentials", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = String, description = "Seconds until this client may try again"))),
        (status = 501, description = "`tables_off`", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "`storage_unavailable`: the tables' database cannot be used now, nothing was kept", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = String, description = "Seconds to wait before retrying"))),
    )
)]
#[post("/players/me/push-subscriptions")]
pub async fn subscribe(body: JsonBody, http: HttpRequest) -> Result<HttpResponse, ApiError> {
    // The tables are taken once the body is read: a body's faults are answered first.
    let policy = KeptTables::<ApiError>::extract(&http).await?;
    let player = player_of(&policy, &http).await?;
    keep(&policy, &player.id, body.0).await
}

/// Keeps the subscription `body` (a browser's `PushSubscription.toJSON()`) for player
/// `player_id`: 201 when new, 200 when the player had its endpoint. The API's route (the
/// player by its credential) and the pages' (by the browser's cookie) both answer with this.
pub async fn keep(
    policy: &TablePolicy,
    player_id: &str,
    body: serde_json::Value,
) -> Result<HttpResponse, ApiError> {
    let request: SubscribeRequest = ops::envelope(body)?;
    let kept = subscription::check(
        &request.endpoint,
        &request.keys.p256dh,
        &request.keys.auth,
        policy.limits().allow_private_webhooks,
    )
    .map_err(|refused| {
        ApiError::new(
            ErrorCode::InvalidRequest,
            format!("{}: {}", refused.field, refused.why),
        )
        .with_field(refused.field)
    })?;
    let subscribed = policy
        .tables()
        .subscribe(player_id, &kept, tables::now())
        .await
        .map_err(problem)?;
    let answer = SubscriptionResponse {
        endpoint: kept.endpoint,
    };
    Ok(match subscribed {
        Subscribed::New => HttpResponse::Created().json(answer),
        Subscribed::Again => HttpResponse::Ok().json(answer),
    })
}

/// Forgets the subscription at `endpoint` of the player whose credential is sent (a page whose
/// player turned notices off), with the pushes still waiting for it.
#[utoipa::path(
    tag = "players",
    params(
        ("Authorization" = String, Header, description = "`Bearer <credential>`: the player's credential"),
        ("endpoint" = String, Query, description = "The subscription's endpoint, as sent"),
    ),
    responses(
        (status = 204, description = "Forgotten"),
        (status = 400, description = "`invalid_query`: no `endpoint`, or another parameter", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "`unknown_player_key`: no player credential, or no player's", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "`not_found`: the player has no subscription at this endpoint", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "`rate_limited`: this client sent too many wrong player credentials", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = String, description = "Seconds until this client may try again"))),
        (status = 501, description = "`tables_off`", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "`storage_unavailable`: the tables' database cannot be used now, nothing was changed", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = String, description = "Seconds to wait before retrying"))),
    )
)]
#[delete("/players/me/push-subscriptions")]
pub async fn unsubscribe(
    policy: KeptTables<ApiError>,
    http: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let endpoint = endpoint_of(&http)?;
    let player = player_of(&policy, &http).await?;
    forget(&policy, &player.id, &endpoint).await
}

/// Forgets player `player_id`'s subscription at `endpoint`: 204, or 404 `not_found` when the
/// player has none there. The API's route and the pages' both answer with this.
pub async fn forget(
    policy: &TablePolicy,
    player_id: &str,
    endpoint: &str,
) -> Result<HttpResponse, ApiError> {
    let forgotten = policy
        .tables()
        .unsubscribe(player_id, endpoint, tables::now())
        .await
        .map_err(problem)?;
    if !forgotten {
        return Err(ApiError::new(
            ErrorCode::NotFound,
            "endpoint: this player has no subscription at this endpoint",
        )
        .with_field("endpoint"));
    }
    Ok(HttpResponse::NoContent().finish())
}

/// The query's `endpoint`, given once and alone.
pub fn endpoint_of(http: &HttpRequest) -> Result<String, ApiError> {
    let refused =
        |detail: String| ApiError::new(ErrorCode::InvalidQuery, detail).with_field("endpoint");
    let pairs = web::Query::<Vec<(String, String)>>::from_query(http.query_string())
        .map_err(|e| refused(format!("the query: {e}")))?
        .into_inner();
    let mut endpoint = None;
    for (name, value) in pairs {
        match name.as_str() {
            "endpoint" if endpoint.is_none() => endpoint = Some(value),
            "endpoint" => return Err(refused("endpoint: given more than once".into())),
            other => {
                return Err(ApiError::new(
                    ErrorCode::InvalidQuery,
                    format!("{other}: not a parameter of this route; it takes `endpoint`"),
                )
                .with_field(other));
            }
        }
    }
    endpoint.ok_or_else(|| refused("endpoint: the subscription's endpoint, as sent".into()))
}
