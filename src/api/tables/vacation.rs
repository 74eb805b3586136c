//! A seat's vacation: `POST /api/v1/tables/{id}/vacation` starts it now, `DELETE` ends it
//! (it ends by itself once the seat's allowance is used up). Sent with the seat's credential
//! or its player's; a wrong one counts against the client's share, as a move's does.

use actix_web::{HttpRequest, HttpResponse, delete, post, web};

use super::answer::table_answer;
use super::bodies::TableResponse;
use super::credential::{credential_for, refused};
use crate::api::problem::{ApiError, Problem};
use crate::extract::KeptTables;
use crate::tables::{self, TablePolicy};

/// Starts (`on`) or ends the vacation of the seat whose credential is sent.
async fn vacation(
    policy: &TablePolicy,
    http: &HttpRequest,
    id: &str,
    on: bool,
) -> Result<HttpResponse, ApiError> {
    let credential = credential_for(policy, http, id).await?;
    let table = policy
        .tables()
        .vacation(id, credential, on, tables::now())
        .await
        .map_err(|error| refused(policy, http, id, error))?;
    Ok(table_answer(TableResponse::from(table)))
}

/// The seat whose credential is sent goes on vacation now: its clock stops (its deadline moves
/// on by the time taken) until it comes back (`DELETE`), moves, or its allowance for the
/// table's year is used up. The opponent sees it in the table's `seats[].vacation_until`.
#[utoipa::path(
    tag = "tables",
    params(
        ("id" = String, Path, description = "The table's id"),
        ("Authorization" = String, Header, description = "`Bearer <credential>`: the seat's credential, or the credential of the player who took the seat"),
    ),
    responses(
        (status = 200, description = "The table, the seat on vacation", body = TableResponse),
        (status = 401, description = "`unauthorized`", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "`unknown_table`", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`vacation_refused`: the clock gives no vacation, the seat is on one already, or its allowance is used up; `stale_ply`: a move was committed meanwhile", body = Problem, content_type = "application/problem+json"),
        (status = 410, description = "`table_finished`; `time_expired`: the awaited move's deadline passed, and the table ended on time", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "`rate_limited`: too many wrong credentials", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = String, description = "Seconds until this client may try again"))),
        (status = 501, description = "`tables_off`", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "`storage_unavailable`: the tables' database cannot be used now; nothing was changed", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = String, description = "Seconds to wait before retrying"))),
    )
)]
#[post("/tables/{id}/vacation")]
pub async fn start_vacation(
    id: web::Path<String>,
    policy: KeptTables<ApiError>,
    http: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    vacation(&policy, &http, &id, true).await
}

/// The seat whose credential is sent comes back from vacation: its clock runs again, its
/// deadline moved on by the time it was away.
#[utoipa::path(
    tag = "tables",
    params(
        ("id" = String, Path, description = "The table's id"),
        ("Authorization" = String, Header, description = "`Bearer <credential>`: the seat's credential, or the credential of the player who took the seat"),
    ),
    responses(
        (status = 200, description = "The table, the seat back", body = TableResponse),
        (status = 401, description = "`unauthorized`", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "`unknown_table`", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`vacation_refused`: the seat is on no vacation (or it ran out); `stale_ply`: a move was committed meanwhile", body = Problem, content_type = "application/problem+json"),
        (status = 410, description = "`table_finished`; `time_expired`: the awaited move's deadline passed, and the table ended on time", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "`rate_limited`: too many wrong credentials", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = String, description = "Seconds until this client may try again"))),
        (status = 501, description = "`tables_off`", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "`storage_unavailable`: the tables' database cannot be used now; nothing was changed", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = String, description = "Seconds to wait before retrying"))),
    )
)]
#[delete("/tables/{id}/vacation")]
pub async fn end_vacation(
    id: web::Path<String>,
    policy: KeptTables<ApiError>,
    http: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    vacation(&policy, &http, &id, false).await
}
