//! The header's link to "Your games", with the count of tables awaiting the browser's player.
//! Every page's header has a place for it ([`YOUR_GAMES_SLOT`]); for a browser with a player's
//! cookie this middleware puts the link there, from one query (the player's tables awaiting
//! its move, counted). The pages themselves stay the same for every browser; a page that got
//! the link is the browser's own, so it is kept from shared caches (`private`, `Vary: Cookie`).

use actix_web::Error;
use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{self, HeaderValue};
use actix_web::middleware::Next;
use actix_web::web::Data;
use moot_templates::layout::YOUR_GAMES_SLOT;

use crate::paths;
use crate::tables::TablePolicy;
use crate::web::player;

/// Fills the header's place for the link on an HTML page, for a browser with a player.
pub async fn middleware(
    request: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, Error> {
    let credential = player::sent(request.request());
    let policy = request.app_data::<Data<TablePolicy>>().cloned();
    let response = next.call(request).await?;
    let (Some(credential), Some(policy)) = (credential, policy) else {
        return Ok(response.map_into_boxed_body());
    };
    let html = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"text/html"));
    if !html {
        return Ok(response.map_into_boxed_body());
    }
    let (request, response) = response.into_parts();
    let (mut head, body) = response.into_parts();
    let Ok(body) = actix_web::body::to_bytes(body).await else {
        return Err(actix_web::error::ErrorInternalServerError(
            "a page's body could not be read",
        ));
    };
    let Some(at) = find(&body, YOUR_GAMES_SLOT.as_bytes()) else {
        let response = head.set_body(BoxBody::new(body));
        return Ok(ServiceResponse::new(request, response));
    };
    let link = match policy.tables().awaiting(&credential).await {
        Ok(Some(awaiting)) => Some(
            moot_templates::your_games::header_link(
                paths::YOUR_GAMES,
                &moot_present::your_games::link_words(awaiting),
                &moot_present::your_games::link_label(awaiting),
                awaiting,
            )
            .into_string(),
        ),
        Ok(None) => None,
        Err(error) => {
            tracing::debug!(%error, "the player's count could not be read");
            None
        }
    };
    let mut filled = Vec::with_capacity(body.len() + 160);
    filled.extend_from_slice(&body[..at]);
    filled.extend_from_slice(link.unwrap_or_default().as_bytes());
    filled.extend_from_slice(&body[at + YOUR_GAMES_SLOT.len()..]);
    let headers = head.headers_mut();
    headers.remove(header::ETAG);
    headers.insert(header::VARY, HeaderValue::from_static("Cookie"));
    let shared = headers
        .get(header::CACHE_CONTROL)
        .is_none_or(|v| !v.as_bytes().starts_with(b"private"));
    if shared {
        headers.insert(
            header::CACHE_CONTROL,
            HeaderValue::from_static("private, no-cache"),
        );
    }
    let response = head.set_body(BoxBody::new(filled));
    Ok(ServiceResponse::new(request, response))
}

/// Where `needle` first occurs in `haystack`.
fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack
        .windows(needle.len())
        .position(|window| window == needle)
}
