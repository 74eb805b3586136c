//! A seat's credential on the changes that take no `Idempotency-Key` (a rematch, a takeback,
//! a vacation): read from the request once the client may send one, and a wrong one counted
//! against the client's share as at the seat's other changes.

use actix_web::HttpRequest;

use super::refusals::{client_of, problem, rate_limited, strike};
use super::seats::bearer;
use crate::api::problem::{ApiError, ErrorCode};
use crate::tables::{TableError, TablePolicy};

/// The credential sent, once the client may send one to table `id`.
pub(super) async fn credential_for<'h>(
    policy: &TablePolicy,
    http: &'h HttpRequest,
    id: &str,
) -> Result<&'h str, ApiError> {
    let Some(credential) = bearer(http) else {
        return Err(ApiError::new(
            ErrorCode::Unauthorized,
            "send the seat's credential as `Authorization: Bearer <credential>`",
        ));
    };
    if let Some(wait) = policy.barred(id, client_of(policy, http)) {
        // Barred for wrong credentials: only a seat's own passes.
        match policy.tables().seat(id, credential).await {
            Ok(_) => {}
            Err(TableError::BadCredential) => {
                return Err(rate_limited("wrong seat credentials", wait));
            }
            Err(error) => return Err(problem(error)),
        }
    }
    Ok(credential)
}

/// A refusal, a wrong credential counted.
pub(super) fn refused(
    policy: &TablePolicy,
    http: &HttpRequest,
    id: &str,
    error: TableError,
) -> ApiError {
    match error {
        TableError::BadCredential => strike(
            policy,
            (id, client_of(policy, http)),
            "the credential is no seat's of this table",
        ),
        error => problem(error),
    }
}
