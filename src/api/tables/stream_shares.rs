//! Whose share an event stream counts against, as its request says, and how a stream past a
//! cap is refused: 503 `streams_full`, its detail naming the cap and the flag that raises it,
//! its `cap` the same for a program. A request with a site's key (`Moot-Site-Key`) counts
//! against its site; one with a key that is no site's is refused (401 `unknown_site_key`), as
//! at every route that takes a key; any other against its address.

use actix_web::HttpRequest;

use crate::api::problem::{ApiError, ErrorCode, StreamCap};
use crate::tables::{BellsFull, FeedFull, Holder, TablePolicy};

/// What a refused stream is asked to wait before retrying, in seconds.
const RETRY_AFTER: u64 = 30;

/// Whose share a stream asked for by `http` counts against: its site's, or its address's
/// (`None` when the address is not known).
pub(super) fn holder(policy: &TablePolicy, http: &HttpRequest) -> Result<Option<Holder>, ApiError> {
    let client = crate::api::site_key::client_of(http, policy.limits().trust_forwarded)?;
    Ok(Holder::of(&client))
}

/// 503 `streams_full` for a table's stream.
pub(super) fn table_streams_full(refusal: FeedFull) -> ApiError {
    let cap = match refusal {
        FeedFull::Table(_) => StreamCap::Table,
        FeedFull::Seat(_) => StreamCap::Seat,
        FeedFull::Address(_) => StreamCap::Address,
        FeedFull::Site(_) => StreamCap::Site,
        FeedFull::Server(_) => StreamCap::Server,
    };
    streams_full(refusal.to_string(), cap)
}

/// 503 `streams_full` for a player's feed.
pub(super) fn player_feeds_full(refusal: BellsFull) -> ApiError {
    let cap = match refusal {
        BellsFull::Player(_) => StreamCap::Player,
        BellsFull::Address(_) => StreamCap::Address,
        BellsFull::Site(_) => StreamCap::Site,
        BellsFull::Server(_) => StreamCap::Server,
    };
    streams_full(refusal.to_string(), cap)
}

fn streams_full(detail: String, cap: StreamCap) -> ApiError {
    ApiError::new(ErrorCode::StreamsFull, detail)
        .with_cap(cap)
        .retry_after(RETRY_AFTER)
}
