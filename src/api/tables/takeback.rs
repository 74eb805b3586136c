//! A takeback: `POST /api/v1/tables/{id}/takeback` asks to take back the seat's last move (or
//! Hirþ turn) while the other seat has not moved, or accepts the other seat's request (the
//! table goes back to before its last move); `DELETE` declines the request standing, or
//! withdraws the seat's own. Sent with a seat's credential or its player's. Asking again
//! answers the same: no key is needed to retry; an acceptance is answered once (the next
//! `POST` would be a request of its own).

use actix_web::{HttpRequest, HttpResponse, delete, post, web};

use super::bodies::{TableResponse, TakebackResponse, TakebackStatus};
use super::credential::{credential_for, refused};
use crate::api::problem::{ApiError, Problem};
use crate::extract::KeptTables;
use crate::tables::{self, TookBack};

/// Asks to take back the last move (or Hirþ turn: every ply since the other seat last moved)
/// of the seat whose credential is sent, while the other seat's move is awaited; if the other
/// seat asked, accepts: its last move is taken back, its move awaited again with a fresh
/// deadline. The seats' players are told in their feeds (`takeback_asked`, then `takeback`
/// and `your_turn`), and the table's followers and webhook of the takeback (`takeback`).
#[utoipa::path(
    tag = "tables",
    params(
        ("id" = String, Path, description = "The table's id"),
        ("Authorization" = String, Header, description = "`Bearer <credential>`: the seat's credential, or the credential of the player who took the seat"),
    ),
    responses(
        (status = 200, description = "The seat's request stands (`asked`), or the other seat's is accepted (`taken_back`): the table as it stands", body = TakebackResponse),
        (status = 401, description = "`unauthorized`", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "`unknown_table`", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`nothing_to_take_back`: the seat's move is awaited, or the other seat moved since its last move; `stale_ply`: a move was committed meanwhile", body = Problem, content_type = "application/problem+json"),
        (status = 410, description = "`table_finished`", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "`rate_limited`: too many wrong credentials (with `Retry-After`), or the table took 3 takeback requests and rematch offers since its last move (the next move lifts it)", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = String, description = "Seconds until this client may try again"))),
        (status = 501, description = "`tables_off`", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "`storage_unavailable`: the tables' database cannot be used now; nothing was changed", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = String, description = "Seconds to wait before retrying"))),
    )
)]
#[post("/tables/{id}/takeback")]
pub async fn ask_takeback(
    id: web::Path<String>,
    policy: KeptTables<ApiError>,
    http: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let credential = credential_for(&policy, &http, &id).await?;
    let took = policy
        .tables()
        .takeback(&id, credential, tables::now())
        .await
        .map_err(|error| refused(&policy, &http, &id, error))?;
    let (status, table) = match took {
        TookBack::Asked(table) => (TakebackStatus::Asked, table),
        TookBack::Accepted(committed) => (TakebackStatus::TakenBack, committed.table),
    };
    Ok(HttpResponse::Ok().json(TakebackResponse {
        status,
        table: TableResponse::from(table),
    }))
}

/// Declines the takeback the other seat asks for, or withdraws the seat's own request. The
/// seats' players are told in their feeds (`takeback_declined`).
#[utoipa::path(
    tag = "tables",
    params(
        ("id" = String, Path, description = "The table's id"),
        ("Authorization" = String, Header, description = "`Bearer <credential>`: the seat's credential, or the credential of the player who took the seat"),
    ),
    responses(
        (status = 200, description = "The table, no takeback asked for", body = TableResponse),
        (status = 401, description = "`unauthorized`", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "`unknown_table`", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`no_takeback_request`: no takeback is asked for (answered, or the other seat moved since)", body = Problem, content_type = "application/problem+json"),
        (status = 410, description = "`table_finished`", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "`rate_limited`: too many wrong credentials", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = String, description = "Seconds until this client may try again"))),
        (status = 501, description = "`tables_off`", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "`storage_unavailable`: the tables' database cannot be used now; nothing was changed", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = String, description = "Seconds to wait before retrying"))),
    )
)]
#[delete("/tables/{id}/takeback")]
pub async fn decline_takeback(
    id: web::Path<String>,
    policy: KeptTables<ApiError>,
    http: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let credential = credential_for(&policy, &http, &id).await?;
    let table = policy
        .tables()
        .decline_takeback(&id, credential, tables::now())
        .await
        .map_err(|error| refused(&policy, &http, &id, error))?;
    Ok(HttpResponse::Ok().json(TableResponse::from(table)))
}
