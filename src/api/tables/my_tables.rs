//! `GET /api/v1/players/me/tables`: the tables of the player whose credential is sent, those
//! awaiting its move first, then the most recently changed; filtered (`to_act=me`,
//! `status=ongoing|finished`), a page at a time (`limit`, and `after` from the `next` link),
//! revalidated with an `ETag` that changes with any change of a listed table.

use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, get, web};
use serde::Deserialize;
use utoipa::{IntoParams, ToSchema};

use super::answer::not_modified;
use super::player_bodies::{MY_TABLES, PlayerTableEntry, PlayerTablesResponse};
use super::players::player_of;
use super::refusals::problem;
use crate::api::problem::{ApiError, ErrorCode, Problem};
use crate::extract::KeptTables;
use crate::tables::players::{ListCursor, TableFilter};

/// The most tables a page holds, and how many when `limit` is left out.
const MOST: u64 = 100;
const DEFAULT: u64 = 50;

/// Whose turn a listed table awaits.
#[derive(Clone, Copy, Debug, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ToActFilter {
    /// The player's: only the tables awaiting its move.
    Me,
}

/// Which tables by how they stand.
#[derive(Clone, Copy, Debug, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum StatusFilter {
    /// Those that go on.
    Ongoing,
    /// Those that are over (until they are swept).
    Finished,
}

/// The query of `GET /api/v1/players/me/tables`, each parameter at most once; any other is
/// refused.
#[derive(Debug, Default, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PlayerTablesQuery {
    /// `me`: only the tables awaiting the player's move.
    #[param(inline)]
    to_act: Option<ToActFilter>,
    /// Only the tables that go on, or only those that are over.
    #[param(inline)]
    status: Option<StatusFilter>,
    /// The most tables to send (1 to 100).
    #[param(minimum = 1, maximum = 100, default = 50)]
    limit: Option<u64>,
    /// Where the page starts: the `after` of the previous page's `next` link.
    after: Option<String>,
}

/// 400 `invalid_query` about `parameter`.
fn refused(parameter: &str, detail: impl std::fmt::Display) -> ApiError {
    ApiError::new(ErrorCode::InvalidQuery, format!("{parameter}: {detail}")).with_field(parameter)
}

impl PlayerTablesQuery {
    /// The query of `http`, checked.
    fn read(http: &HttpRequest) -> Result<PlayerTablesQuery, ApiError> {
        let pairs = web::Query::<Vec<(String, String)>>::from_query(http.query_string())
            .map_err(|e| ApiError::new(ErrorCode::InvalidQuery, format!("the query: {e}")))?
            .into_inner();
        let mut query = PlayerTablesQuery::default();
        let mut seen: Vec<&str> = Vec::new();
        for (name, value) in &pairs {
            if seen.contains(&name.as_str()) {
                return Err(refused(name, "given more than once"));
            }
            seen.push(name);
            match name.as_str() {
                "to_act" => {
                    query.to_act = Some(match value.as_str() {
                        "me" => ToActFilter::Me,
                        _ => {
                            return Err(refused(name, format!("{value:?}; the one value is `me`")));
                        }
                    });
                }
                "status" => {
                    query.status = Some(match value.as_str() {
                        "ongoing" => StatusFilter::Ongoing,
                        "finished" => StatusFilter::Finished,
                        _ => {
                            return Err(refused(
                                name,
                                format!("{value:?}; a table's status is `ongoing` or `finished`"),
                            ));
                        }
                    });
                }
                "limit" => match value.parse::<u64>() {
                    Ok(limit) if (1..=MOST).contains(&limit) => query.limit = Some(limit),
                    _ => {
                        return Err(refused(
                            name,
                            format!("{value:?}; a page holds 1 to {MOST} tables"),
                        ));
                    }
                },
                "after" => query.after = Some(value.clone()),
                _ => {
                    return Err(refused(
                        name,
                        "no such parameter; they are to_act, status, limit and after",
                    ));
                }
            }
        }
        Ok(query)
    }

    /// The link to the page after `cursor`, with this query's filters and limit.
    fn next(&self, cursor: &ListCursor, limit: u64) -> String {
        let mut link = format!("{MY_TABLES}?limit={limit}");
        if self.to_act.is_some() {
            link.push_str("&to_act=me");
        }
        match self.status {
            Some(StatusFilter::Ongoing) => link.push_str("&status=ongoing"),
            Some(StatusFilter::Finished) => link.push_str("&status=finished"),
            None => {}
        }
        link.push_str(&format!("&after={cursor}"));
        link
    }
}

/// The tables of the player whose credential is sent: those awaiting its move first, then the
/// most recently changed, each with the player's seat, the opponent's name, whether it is the
/// player's turn, the ply, the status, the deadline and the result (never the position: read
/// the table at its `url`). A table swept after it finished leaves the list. Its `ETag`
/// changes with any change of a table on the page: send it back in `If-None-Match` to be
/// answered 304 while nothing changed. Pages follow the order as it stands when each is read:
/// a table that changes while a client pages may move past the client's place.
#[utoipa::path(
    tag = "players",
    params(
        ("Authorization" = String, Header, description = "`Bearer <credential>`: the player's credential"),
        PlayerTablesQuery,
    ),
    responses(
        (status = 200, description = "A page of the player's tables", body = PlayerTablesResponse,
            headers(("ETag" = String, description = "Changes with any change of the page"))),
        (status = 304, description = "The page has not changed since the `ETag` sent in `If-None-Match`"),
        (status = 400, description = "`invalid_query`: a parameter is unknown, repeated or has a value it cannot take (`field` names it)", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "`unknown_player_key`: no player credential, or no player's", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "`rate_limited`: this client sent too many wrong player credentials", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = String, description = "Seconds until this client may try again"))),
        (status = 501, description = "`tables_off`", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "`storage_unavailable`: the tables' database cannot be used now", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = String, description = "Seconds to wait before retrying"))),
    )
)]
#[get("/players/me/tables")]
pub async fn my_tables(
    policy: KeptTables<ApiError>,
    http: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let player = player_of(&policy, &http).await?;
    let query = PlayerTablesQuery::read(&http)?;
    let after = match &query.after {
        Some(text) => Some(text.parse::<ListCursor>().map_err(|()| {
            refused(
                "after",
                format!("{text:?} is no place in the list; take it from a `next` link"),
            )
        })?),
        None => None,
    };
    let limit = query.limit.unwrap_or(DEFAULT);
    let filter = TableFilter {
        my_turn: query.to_act.is_some(),
        finished: query.status.map(|s| matches!(s, StatusFilter::Finished)),
    };
    let page = policy
        .tables()
        .player_tables(&player.id, filter, after.as_ref(), limit)
        .await
        .map_err(problem)?;
    let answer = PlayerTablesResponse {
        next: page.next.as_ref().map(|cursor| query.next(cursor, limit)),
        tables: page
            .tables
            .into_iter()
            .map(PlayerTableEntry::from)
            .collect(),
    };
    let body = serde_json::to_string(&answer).map_err(|e| ApiError::internal(e.to_string()))?;
    // The page is its own version: any change of a table on it changes its bytes.
    let tag = format!("\"p{}\"", &crate::digest::digest(&body)[..32]);
    if not_modified(&http, &tag) {
        return Ok(HttpResponse::NotModified()
            .insert_header((header::ETAG, tag))
            .insert_header((header::CACHE_CONTROL, "private, no-cache"))
            .insert_header((header::VARY, "Authorization"))
            .finish());
    }
    Ok(HttpResponse::Ok()
        .insert_header((header::ETAG, tag))
        .insert_header((header::CACHE_CONTROL, "private, no-cache"))
        .insert_header((header::VARY, "Authorization"))
        .content_type("application/json")
        .body(body))
}
