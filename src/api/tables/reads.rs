//! Reading a table: as it stands (`GET /api/v1/tables/{id}`, revalidated with its `ETag`) and
//! its history (`GET /api/v1/tables/{id}/moves`). Anyone with the table's id may read it.

use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, get, web};

use super::answer::{etag, not_modified, table_answer};
use super::bodies::{TableHistory, TableMove, TableResponse};
use super::refusals::{existing, problem};
use crate::api::problem::{ApiError, Problem};
use crate::extract::KeptTables;

/// A table as it stands. Its `ETag` changes with each move and at the end: send it back in
/// `If-None-Match` to be answered 304 while nothing changed.
#[utoipa::path(
    tag = "tables",
    params(("id" = String, Path, description = "The table's id")),
    responses(
        (status = 200, description = "The table", body = TableResponse,
            headers(("ETag" = String, description = "Changes with each move and at the end"))),
        (status = 304, description = "The table has not changed since the `ETag` sent in `If-None-Match`"),
        (status = 404, description = "`unknown_table`", body = Problem, content_type = "application/problem+json"),
        (status = 501, description = "`tables_off`", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "`storage_unavailable`: the tables' database cannot be used now; nothing was changed", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = String, description = "Seconds to wait before retrying"))),
    )
)]
#[get("/tables/{id}")]
pub async fn get_table(
    id: web::Path<String>,
    policy: KeptTables<ApiError>,
    http: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let table = existing(policy.tables(), &id).await?;
    let table = TableResponse::from(table);
    let tag = etag(&table);
    if not_modified(&http, &tag) {
        return Ok(HttpResponse::NotModified()
            .insert_header((header::ETAG, tag))
            .finish());
    }
    Ok(table_answer(table))
}

/// A table's history: every move with its seat and time, and the game's record.
#[utoipa::path(
    tag = "tables",
    params(("id" = String, Path, description = "The table's id")),
    responses(
        (status = 200, description = "The history", body = TableHistory),
        (status = 404, description = "`unknown_table`", body = Problem, content_type = "application/problem+json"),
        (status = 501, description = "`tables_off`", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "`storage_unavailable`: the tables' database cannot be used now; nothing was changed", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = String, description = "Seconds to wait before retrying"))),
    )
)]
#[get("/tables/{id}/moves")]
pub async fn table_history(
    id: web::Path<String>,
    policy: KeptTables<ApiError>,
) -> Result<web::Json<TableHistory>, ApiError> {
    let table = existing(policy.tables(), &id).await?;
    let history = policy.tables().history(&id).await.map_err(problem)?;
    Ok(web::Json(TableHistory {
        id: table.id,
        game: table.game.to_owned(),
        moves: history.moves.into_iter().map(TableMove::from).collect(),
        record: history.record,
    }))
}
