//! How the API answers the tables' refusals: a [`TableError`] as a problem (a refused move
//! exactly as the stateless API answers one), and a client past its share of creations or of
//! wrong seat credentials.

use std::net::IpAddr;
use std::time::Duration;

use actix_web::HttpRequest;

use crate::api::problem::{ApiError, ErrorCode};
use crate::limits::tables::STORAGE_RETRY_AFTER;
use crate::tables::policy::PLAYER_KEYS;
use crate::tables::{Table, TableError, TablePolicy, Tables};

/// 429 `rate_limited`: this client sent more `what` than its share; it may retry in `wait`.
pub(super) fn rate_limited(what: &str, wait: Duration) -> ApiError {
    ApiError::new(
        ErrorCode::RateLimited,
        format!(
            "this client sent more {what} than its share; retry in {} ms",
            wait.as_millis()
        ),
    )
    .retry_after(wait.as_secs_f64().ceil() as u64)
}

/// The client a request comes from, as the tables' per-client shares count it.
pub(super) fn client_of(policy: &TablePolicy, http: &HttpRequest) -> Option<IpAddr> {
    crate::client::client_of(http, policy.limits().trust_forwarded)
}

/// A wrong credential at table `id`: 401 saying `detail`, or 429 once the client
/// is past its share there (and then barred from it).
pub(super) fn strike(
    policy: &TablePolicy,
    (id, client): (&str, Option<IpAddr>),
    detail: &str,
) -> ApiError {
    match policy.strike(id, client) {
        None => ApiError::new(ErrorCode::Unauthorized, detail),
        Some(wait) => rate_limited("wrong seat credentials", wait),
    }
}

/// A wrong or missing player credential: 401 `unknown_player_key` saying `detail`, or 429
/// once the client is past its share of wrong player credentials (and then barred from using
/// any but a right one for a while).
pub(super) fn player_strike(
    policy: &TablePolicy,
    client: Option<IpAddr>,
    detail: &str,
) -> ApiError {
    match policy.strike(PLAYER_KEYS, client) {
        None => ApiError::new(ErrorCode::UnknownPlayerKey, detail),
        Some(wait) => rate_limited("wrong player credentials", wait),
    }
}

/// A refusal of the tables as the API answers it; an engine's refusal of a move exactly as the
/// stateless API answers it; the database's failure as 503 `storage_unavailable` (the
/// driver's words go to the log, not to the client).
pub(crate) fn problem(error: TableError) -> ApiError {
    if error.is_storage() {
        tracing::debug!(%error, "a table request met the database's failure");
        return storage_unavailable();
    }
    let code = match &error {
        TableError::UnknownTable => ErrorCode::UnknownTable,
        TableError::BadCredential => ErrorCode::Unauthorized,
        TableError::Finished => ErrorCode::TableFinished,
        TableError::TimeExpired => ErrorCode::TimeExpired,
        TableError::Vacation(_) => ErrorCode::VacationRefused,
        // A table that kept changing under a move tried again: the client reads it anew.
        TableError::StalePly { .. } | TableError::ChangedMeanwhile => ErrorCode::StalePly,
        TableError::NotYourTurn => ErrorCode::NotYourTurn,
        TableError::NotWaiting => ErrorCode::NotWaiting,
        TableError::TooEarly(_) => ErrorCode::ClaimTooEarly,
        TableError::Unstarted => ErrorCode::NothingToClaim,
        TableError::BothMoved => ErrorCode::BothMoved,
        TableError::Unfinished => ErrorCode::NotFinished,
        TableError::Rematched(_) => ErrorCode::AlreadyRematched,
        TableError::NoRematchOffer => ErrorCode::NoRematchOffer,
        TableError::NothingToTakeBack(_) => ErrorCode::NothingToTakeBack,
        TableError::NoTakebackRequest => ErrorCode::NoTakebackRequest,
        TableError::TooManyOffers(_) => ErrorCode::RateLimited,
        // Three races lost to the other seat's rematch changes: the table moved on.
        TableError::RematchRace => ErrorCode::StalePly,
        TableError::WebhooksOff => ErrorCode::WebhooksOff,
        TableError::KeyTaken => ErrorCode::IdempotencyKeyInUse,
        TableError::UnknownPlayer => ErrorCode::UnknownPlayerKey,
        TableError::SeatTaken(_) => ErrorCode::SeatTaken,
        TableError::PushTooLarge(_) => ErrorCode::InvalidRequest,
        TableError::UnknownChallenge => ErrorCode::UnknownChallenge,
        TableError::ChallengeTaken => ErrorCode::ChallengeTaken,
        TableError::ChallengeClosed(_) => ErrorCode::ChallengeClosed,
        TableError::TooManyChallenges(_) => ErrorCode::TooManyChallenges,
        TableError::OwnChallenge => ErrorCode::OwnChallenge,
        TableError::NotInvited => ErrorCode::NotInvited,
        TableError::NotCreator => ErrorCode::NotYourChallenge,
        TableError::BadInvite(_) => {
            return ApiError::new(ErrorCode::InvalidRequest, format!("invite: {error}"))
                .with_field("invite");
        }
        TableError::Full(_) => {
            return ApiError::new(ErrorCode::TablesFull, error.to_string()).retry_after(60);
        }
        TableError::Move { text, error } => {
            return ApiError::from_move_error(text, error.clone()).with_field("move");
        }
        TableError::Corrupt(_)
        | TableError::Database(_)
        | TableError::FileLost(_)
        | TableError::DatabaseDown(_) => {
            tracing::error!(%error, "a table operation failed");
            return ApiError::internal(error.to_string());
        }
    };
    let error = ApiError::new(code, error.to_string());
    match code {
        ErrorCode::StalePly => error.with_field("ply"),
        _ => error,
    }
}

/// 503 `storage_unavailable`: the tables' database cannot be used now; nothing was kept.
pub(crate) fn storage_unavailable() -> ApiError {
    let wait = STORAGE_RETRY_AFTER;
    ApiError::new(
        ErrorCode::StorageUnavailable,
        format!(
            "the tables' database cannot be used now, so this request was not carried out; \
             retry in {wait} s (sent with an Idempotency-Key, a change is made at most once)"
        ),
    )
    .retry_after(wait)
}

/// Table `id` as it stands, or its refusal: 404 `unknown_table`, or the database's.
pub(super) async fn existing(tables: &Tables, id: &str) -> Result<Table, ApiError> {
    tables
        .get(id)
        .await
        .map_err(problem)?
        .ok_or_else(|| problem(TableError::UnknownTable))
}
