//! The limit on a request's target (path and query), set deliberately below the HTTP layer's so
//! that Moot answers it: a target over [`MAX_LINK_BYTES`] gets 414 with a problem
//! (`uri_too_long`) under `/api` and a friendly page elsewhere. Past the `http` crate's own
//! limit ([`MAX_URL_BYTES`](crate::limits::MAX_URL_BYTES)) the request never reaches Moot: actix answers an empty 400 and
//! closes the connection. The gap between the two is room for the links a page writes: a link
//! it was given of at most [`MAX_LINK_BYTES`], plus the moves it adds, stays under
//! [`MAX_URL_BYTES`](crate::limits::MAX_URL_BYTES), so every link a page writes gets an answer from Moot (see
//! [`crate::limits::MAX_LINK_GROWTH`]). A page writes its link re-encoded (a `[` sent as itself
//! comes back as `%5B`), so the pages also refuse a link whose written form is over
//! [`MAX_LINK_BYTES`] with the same page (`moot_present::link`).

use actix_web::Error;
use actix_web::body::{EitherBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::middleware::Next;

use crate::api::problem::{ApiError, ErrorCode};
use crate::limits::MAX_LINK_BYTES;
use crate::web::error::PageError;

/// The length of the request's target in bytes, as sent (path and query, URL-encoded).
pub fn target_bytes(request: &ServiceRequest) -> usize {
    let uri = request.uri();
    uri.path_and_query()
        .map_or(uri.path().len(), |target| target.as_str().len())
}

/// Answers a target over [`MAX_LINK_BYTES`] with 414 (a problem under `/api`, a page elsewhere)
/// before any route reads it.
pub async fn middleware(
    request: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<EitherBody<impl MessageBody>>, Error> {
    let bytes = target_bytes(&request);
    if bytes <= MAX_LINK_BYTES {
        return Ok(next.call(request).await?.map_into_left_body());
    }
    let error: Error = if request.path().starts_with("/api") {
        ApiError::new(
            ErrorCode::UriTooLong,
            format!(
                "the request target is {bytes} bytes; this server reads at most {MAX_LINK_BYTES} (send long move lists in a POST body)"
            ),
        )
        .into()
    } else {
        PageError::link_too_long(bytes).into()
    };
    let (request, _) = request.into_parts();
    Ok(ServiceResponse::from_err(error, request).map_into_right_body())
}
