//! A site's one webhook over HTTP: `PUT`, `GET` and `DELETE /api/v1/site/webhook`, with the
//! site's key in `Moot-Site-Key`. Every event of the tables and players that key made (their
//! own webhooks' events, a player's whole feed) is posted to it, signed with its secret. A
//! request without a key is refused (401 `unknown_site_key`, `field` naming the header), as is
//! a key that is no site's.

use actix_web::http::header;
use actix_web::{FromRequest, HttpRequest, HttpResponse, delete, get, put};

use super::bodies::{SiteWebhookResponse, WebhookRequest};
use super::create::checked_webhook;
use super::refusals::problem;
use crate::api::body::JsonBody;
use crate::api::ops;
use crate::api::problem::{ApiError, ErrorCode, Problem};
use crate::extract::KeptTables;
use crate::site_keys::{Client, HEADER};
use crate::tables::{self, TablePolicy};

/// The name of the site whose key `http` sends: required here.
fn site_of(policy: &TablePolicy, http: &HttpRequest) -> Result<String, ApiError> {
    match crate::api::site_key::client_of(http, policy.limits().trust_forwarded)? {
        Client::Site(site) => Ok(site.name().to_owned()),
        Client::Address(_) => Err(ApiError::new(
            ErrorCode::UnknownSiteKey,
            format!(
                "{HEADER}: a site's webhook is reached with the site's key (from the server's \
                 --site-keys file); none was sent"
            ),
        )
        .with_field(HEADER)),
    }
}

/// Posts every event of the tables and players this site's key made to one webhook, from the
/// next change on: each table's events (as its own webhook gets them) and each player's feed
/// (as `PUT /api/v1/players/me/webhook` gets it), signed with `secret`, each table's and each
/// player's in order, retried for a day. Sent again, it replaces the webhook.
#[utoipa::path(
    tag = "sites",
    params(
        ("Moot-Site-Key" = String, Header, description = "The site's key, from the server's `--site-keys` file"),
    ),
    request_body(content = WebhookRequest, content_type = "application/json"),
    responses(
        (status = 200, description = "The site's webhook (never its secret)", body = SiteWebhookResponse),
        (status = 401, description = "`unknown_site_key`: no `Moot-Site-Key` sent, or one that is no site's", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`invalid_request`: a URL the server does not post to, or a weak secret (`field`: `url` or `secret`)", body = Problem, content_type = "application/problem+json"),
        (status = 501, description = "`tables_off`; `webhooks_off`: this server posts no webhooks", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "`storage_unavailable`: the tables' database cannot be used now, nothing was kept", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = String, description = "Seconds to wait before retrying"))),
    )
)]
#[put("/site/webhook")]
pub async fn set_site_webhook(body: JsonBody, http: HttpRequest) -> Result<HttpResponse, ApiError> {
    // The tables are taken once the body is read: a body's faults are answered first.
    let policy = KeptTables::<ApiError>::extract(&http).await?;
    let site = site_of(&policy, &http)?;
    let request: WebhookRequest = ops::envelope(body.0)?;
    let webhook = checked_webhook(request, policy.limits().allow_private_webhooks, "")?;
    let kept = policy
        .tables()
        .set_site_webhook(&site, webhook, tables::now())
        .await
        .map_err(problem)?;
    Ok(HttpResponse::Ok()
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .json(SiteWebhookResponse::from(kept)))
}

/// The site's webhook: its URL and how it fares (never its secret).
#[utoipa::path(
    tag = "sites",
    params(
        ("Moot-Site-Key" = String, Header, description = "The site's key, from the server's `--site-keys` file"),
    ),
    responses(
        (status = 200, description = "The site's webhook", body = SiteWebhookResponse),
        (status = 401, description = "`unknown_site_key`: no `Moot-Site-Key` sent, or one that is no site's", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "`not_found`: the site names no webhook", body = Problem, content_type = "application/problem+json"),
        (status = 501, description = "`tables_off`", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "`storage_unavailable`: the tables' database cannot be used now", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = String, description = "Seconds to wait before retrying"))),
    )
)]
#[get("/site/webhook")]
pub async fn site_webhook(
    policy: KeptTables<ApiError>,
    http: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let site = site_of(&policy, &http)?;
    let kept = policy
        .tables()
        .site_webhook(&site)
        .await
        .map_err(problem)?
        .ok_or_else(no_webhook)?;
    Ok(HttpResponse::Ok()
        .insert_header((header::CACHE_CONTROL, "private, no-cache"))
        .json(SiteWebhookResponse::from(kept)))
}

/// Stops posting the site's events to its webhook from the next change on (events already
/// written still go, to the URL they were written for). Sent again, it is answered the same.
#[utoipa::path(
    tag = "sites",
    params(
        ("Moot-Site-Key" = String, Header, description = "The site's key, from the server's `--site-keys` file"),
    ),
    responses(
        (status = 204, description = "The site names no webhook now (whether it named one or not)"),
        (status = 401, description = "`unknown_site_key`: no `Moot-Site-Key` sent, or one that is no site's", body = Problem, content_type = "application/problem+json"),
        (status = 501, description = "`tables_off`", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "`storage_unavailable`: the tables' database cannot be used now, nothing was changed", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = String, description = "Seconds to wait before retrying"))),
    )
)]
#[delete("/site/webhook")]
pub async fn remove_site_webhook(
    policy: KeptTables<ApiError>,
    http: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let site = site_of(&policy, &http)?;
    policy
        .tables()
        .remove_site_webhook(&site)
        .await
        .map_err(problem)?;
    Ok(HttpResponse::NoContent().finish())
}

/// The refusal of a site that names no webhook.
fn no_webhook() -> ApiError {
    ApiError::new(
        ErrorCode::NotFound,
        "this site names no webhook: PUT /api/v1/site/webhook names one",
    )
}
