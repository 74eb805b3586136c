//! Reading a table: as it stands (`GET /api/v1/tables/{id}`, revalidated with its `ETag`) and
//! its history a page at a time (`GET /api/v1/tables/{id}/moves`, revalidated the same way).
//! Anyone with the table's id may read it.

use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, get, web};

use serde::Deserialize;
use utoipa::IntoParams;

use super::answer::{etag, not_modified, table_answer};
use super::bodies::{TableHistory, TableMove, TableResponse, table_url};
use super::refusals::{existing, problem};
use crate::api::problem::{ApiError, ErrorCode, Problem};
use crate::extract::KeptTables;
use crate::limits::tables as limits;
use crate::tables::TableError;

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

/// Which page of a table's history: `GET /api/v1/tables/{id}/moves?from=…&limit=…`.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct HistoryQuery {
    /// The first move's ply (the first move is 1).
    #[param(minimum = 1, default = 1)]
    from: Option<u64>,
    /// The most moves to send (1 to 1000).
    #[param(minimum = 1, maximum = 1000, default = 1000)]
    limit: Option<u64>,
}

impl HistoryQuery {
    /// The page asked for, checked: `(from, limit)`.
    fn read(http: &HttpRequest) -> Result<(u64, u64), ApiError> {
        let query = web::Query::<HistoryQuery>::from_query(http.query_string()).map_err(|e| {
            ApiError::new(
                ErrorCode::InvalidRequest,
                format!("the query: {e} (`from` and `limit` are whole numbers)"),
            )
        })?;
        let from = query.from.unwrap_or(1);
        let limit = query.limit.unwrap_or(limits::HISTORY_PAGE);
        if from == 0 {
            return Err(ApiError::new(
                ErrorCode::InvalidRequest,
                "from: 0 is no ply (the first move is 1)",
            ));
        }
        if !(1..=limits::HISTORY_PAGE).contains(&limit) {
            return Err(ApiError::new(
                ErrorCode::InvalidRequest,
                format!(
                    "limit: {limit} is out of range (1 to {} moves a page)",
                    limits::HISTORY_PAGE
                ),
            ));
        }
        Ok((from, limit))
    }
}

/// A page of a table's history: its moves from ply `from` (1 by default), at most `limit`
/// (1000 by default and at most), each with its seat and time; with the game's record when
/// the page holds the whole history, and the next page's URL while there are more. Its `ETag`
/// changes with the table: send it back in `If-None-Match` to be answered 304.
#[utoipa::path(
    tag = "tables",
    params(("id" = String, Path, description = "The table's id"), HistoryQuery),
    responses(
        (status = 200, description = "The page of the history", body = TableHistory,
            headers(("ETag" = String, description = "Changes with each change of the table"))),
        (status = 304, description = "The table has not changed since the `ETag` sent in `If-None-Match`"),
        (status = 404, description = "`unknown_table`", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`invalid_request`: `from` or `limit` is not a whole number in range", body = Problem, content_type = "application/problem+json"),
        (status = 501, description = "`tables_off`", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "`storage_unavailable`: the tables' database cannot be used now; nothing was changed", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = String, description = "Seconds to wait before retrying"))),
    )
)]
#[get("/tables/{id}/moves")]
pub async fn table_history(
    id: web::Path<String>,
    policy: KeptTables<ApiError>,
    http: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let (from, limit) = HistoryQuery::read(&http)?;
    let tables = policy.tables();
    let head = tables
        .head(&id)
        .await
        .map_err(problem)?
        .ok_or_else(|| problem(TableError::UnknownTable))?;
    // The page's moves change only with the table: its change number names them.
    let tag = format!("\"h{}-{from}-{limit}\"", head.seq());
    if not_modified(&http, &tag) {
        return Ok(HttpResponse::NotModified()
            .insert_header((header::ETAG, tag))
            .finish());
    }
    let page = tables
        .history_page(&id, head.ply, from, limit)
        .await
        .map_err(problem)?;
    let last = page.moves.last().map_or(from.saturating_sub(1), |m| m.ply);
    let next = (last < head.ply && !page.moves.is_empty())
        .then(|| format!("{}/moves?from={}&limit={limit}", table_url(&id), last + 1));
    Ok(HttpResponse::Ok()
        .insert_header((header::ETAG, tag))
        .json(TableHistory {
            id: id.into_inner(),
            game: head.game.to_owned(),
            ply: head.ply,
            moves: page.moves.into_iter().map(TableMove::from).collect(),
            record: page.record,
            next,
        }))
}
