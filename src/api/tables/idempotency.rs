//! `Idempotency-Key` (the IETF httpapi draft's header) on the tables' changes: `POST
//! /tables`, and a seat's move, resignation and claim. A change sent again with the same key
//! and the same request is answered as it was the first time, from the database, and made
//! once; the same key with another request is 422 `idempotency_key_reused`. A key counts
//! within its table for a seat's change, and per client (address) for a creation, whose
//! answer holds the seats' credentials.

use std::future::Future;

use actix_web::http::header::{self, HeaderName, HeaderValue};
use actix_web::{HttpRequest, HttpResponse};

use super::refusals::problem;
use crate::api::problem::{ApiError, ErrorCode};
use crate::tables::{Answering, Idempotent, Recall, Remembered, TableError, TablePolicy, Tables};

/// The request's header.
pub(super) const HEADER: &str = "idempotency-key";

/// Set on an answer given again: it is the first answer to this key, not a new change.
const REPLAYED: &str = "idempotent-replayed";

/// The lengths a key may have: long enough to be unguessable (a UUID is 36), at most 255.
const KEY_CHARS: std::ops::RangeInclusive<usize> = 16..=255;

/// The key sent, if any (quotes around it, as a structured-field string, are taken off),
/// counted against the client's share of keys kept ([`TablePolicy::may_keep_key`]); 422
/// `invalid_request` for one that is too short, too long or not visible ASCII, 429
/// `rate_limited` past the share.
pub(super) fn key_of(policy: &TablePolicy, http: &HttpRequest) -> Result<Option<String>, ApiError> {
    let Some(key) = key_sent(http)? else {
        return Ok(None);
    };
    let client = crate::api::site_key::client_of(http, policy.limits().trust_forwarded)?;
    if let Err(wait) = policy.may_keep_key(&client) {
        return Err(super::refusals::rate_limited(
            "requests with an Idempotency-Key",
            wait,
        ));
    }
    Ok(Some(key))
}

/// The key sent, if any, checked.
fn key_sent(http: &HttpRequest) -> Result<Option<String>, ApiError> {
    let Some(value) = http.headers().get(HEADER) else {
        return Ok(None);
    };
    let text = value.to_str().unwrap_or_default().trim();
    let key = text
        .strip_prefix('"')
        .and_then(|t| t.strip_suffix('"'))
        .unwrap_or(text);
    if !KEY_CHARS.contains(&key.len()) || !key.bytes().all(|b| b.is_ascii_graphic()) {
        return Err(ApiError::new(
            ErrorCode::InvalidRequest,
            format!(
                "Idempotency-Key: {} to {} visible ASCII characters (a random UUID, say)",
                KEY_CHARS.start(),
                KEY_CHARS.end()
            ),
        )
        .with_field("Idempotency-Key"));
    }
    Ok(Some(key.to_owned()))
}

/// Makes a change with `tables` at most once for `idempotent`'s key (none: just once), and
/// answers it: a request already answered is answered again (marked `Idempotent-Replayed`),
/// a key taken by another request is refused, and otherwise `change` runs with tables that
/// remember its answer (`answering`, which `answer_of` is too) in its transaction. Its
/// refusals are answered by `refused`.
pub(super) async fn at_most_once<T, F, Fut>(
    tables: &Tables,
    idempotent: Option<Idempotent>,
    (answer_of, answering): (fn(&T) -> Remembered, Answering),
    change: F,
    refused: impl FnOnce(TableError) -> ApiError,
) -> Result<HttpResponse, ApiError>
where
    F: FnOnce(Tables) -> Fut,
    Fut: Future<Output = Result<T, TableError>>,
{
    let Some(idempotent) = idempotent else {
        return match change(tables.clone()).await {
            Ok(made) => Ok(answer(answer_of(&made), false)),
            Err(error) => Err(refused(error)),
        };
    };
    match tables.recall(&idempotent).await.map_err(problem)? {
        Recall::Same(first) => return Ok(answer(first, true)),
        Recall::Different => return Err(reused()),
        Recall::New => {}
    }
    match change(tables.remembering(idempotent.clone(), answering)).await {
        Ok(made) => Ok(answer(answer_of(&made), false)),
        Err(error) => {
            // A request with the same key that committed first (two sent at once): its
            // answer; the key taken by another request: refused.
            match tables.recall(&idempotent).await {
                Ok(Recall::Same(first)) => Ok(answer(first, true)),
                Ok(Recall::Different) => Err(reused()),
                _ if matches!(error, TableError::KeyTaken) => Err(in_use()),
                _ => Err(refused(error)),
            }
        }
    }
}

/// 422 `idempotency_key_reused`.
fn reused() -> ApiError {
    ApiError::new(
        ErrorCode::IdempotencyKeyReused,
        "Idempotency-Key: this key was used for another request; send a new key with a new request",
    )
    .with_field("Idempotency-Key")
}

/// 409 `idempotency_key_in_use`: a request with the key was being carried out.
fn in_use() -> ApiError {
    ApiError::new(
        ErrorCode::IdempotencyKeyInUse,
        "Idempotency-Key: a request with this key was being carried out; send it again to get its answer",
    )
    .with_field("Idempotency-Key")
}

/// `remembered` as an HTTP answer; `replayed` marks it as given before.
pub(super) fn answer(remembered: Remembered, replayed: bool) -> HttpResponse {
    let status = actix_web::http::StatusCode::from_u16(remembered.status)
        .unwrap_or(actix_web::http::StatusCode::OK);
    let mut response = HttpResponse::build(status);
    response.insert_header((header::CONTENT_TYPE, "application/json"));
    for (name, value) in &remembered.headers {
        if let (Ok(name), Ok(value)) = (
            HeaderName::try_from(name.as_str()),
            HeaderValue::from_str(value),
        ) {
            response.insert_header((name, value));
        }
    }
    if replayed {
        response.insert_header((HeaderName::from_static(REPLAYED), "true"));
    }
    response.body(remembered.body)
}
