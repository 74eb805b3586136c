//! Tables that Moot keeps, over HTTP: create a table, read it (`ETag`, `If-None-Match`), read its
//! history, play a move with a seat's credential (`Authorization: Bearer …`), resign, claim a
//! win on time. The operations are [`crate::tables`]'s; this module reads requests, keeps each
//! client to its share of creations and wrong credentials, and answers JSON or problems.

use std::net::IpAddr;
use std::time::Duration;

use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, get, post, web};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use super::body::JsonBody;
use super::examples;
use super::handlers::problem_on_panic;
use super::ops;
use super::problem::{ApiError, ErrorCode, Problem};
#[allow(unused_imports)] // named by the `value_type` attributes below
use super::schemas::{GameOptions, GameState};
use crate::limits::tables as limits;
use crate::tables::{self, Committed, EndedBy, Standing, TableError, TablePolicy, Tables};
use moot_games::with_game;
use moot_games::{GAME_IDS, Game, Seat, Status, Turn};

fn rate_limited(what: &str, wait: Duration) -> ApiError {
    ApiError::new(
        ErrorCode::RateLimited,
        format!(
            "this client sent more {what} than its share; retry in {} ms",
            wait.as_millis()
        ),
    )
    .retry_after(wait.as_secs_f64().ceil() as u64)
}

fn client_of(policy: &TablePolicy, http: &HttpRequest) -> Option<IpAddr> {
    crate::client::client_of(http, policy.limits().trust_forwarded)
}

/// A wrong or missing credential: 401 saying `detail`, or 429 once the client is past its
/// share (and then barred).
fn strike(policy: &TablePolicy, client: Option<IpAddr>, detail: &str) -> ApiError {
    match policy.strike(client) {
        None => ApiError::new(ErrorCode::Unauthorized, detail),
        Some(wait) => rate_limited("wrong seat credentials", wait),
    }
}

/// A refusal of the tables as the API answers it; an engine's refusal of a move exactly as the
/// stateless API answers it.
pub(super) fn problem(error: TableError) -> ApiError {
    let code = match &error {
        TableError::UnknownTable => ErrorCode::UnknownTable,
        TableError::BadCredential => ErrorCode::Unauthorized,
        TableError::Finished => ErrorCode::TableFinished,
        TableError::StalePly { .. } => ErrorCode::StalePly,
        TableError::NotYourTurn => ErrorCode::NotYourTurn,
        TableError::NotWaiting => ErrorCode::NotWaiting,
        TableError::TooEarly(_) => ErrorCode::ClaimTooEarly,
        TableError::WebhooksOff => ErrorCode::WebhooksOff,
        TableError::Full(_) => {
            return ApiError::new(ErrorCode::TablesFull, error.to_string()).retry_after(60);
        }
        TableError::Move { text, error } => {
            return ApiError::from_move_error(text, error.clone()).with_field("move");
        }
        TableError::Corrupt(_) | TableError::Database(_) => {
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

pub(super) fn policy<E: crate::extract::TablesOff>(
    data: Option<web::Data<TablePolicy>>,
) -> Result<web::Data<TablePolicy>, E> {
    data.ok_or_else(E::tables_off)
}

/// A time as RFC 3339 (UTC).
pub(super) fn rfc3339(millis: tables::Millis) -> String {
    time::OffsetDateTime::from_unix_timestamp_nanos(i128::from(millis) * 1_000_000)
        .ok()
        .and_then(|t| {
            t.format(&time::format_description::well_known::Rfc3339)
                .ok()
        })
        .unwrap_or_default()
}

/// `POST /api/v1/tables`: a new table.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateTableRequest {
    /// The game's id: `hirth`, `tara` or `herfor`.
    #[schema(example = "herfor")]
    pub game: String,
    /// The game's options (its defaults for those left out).
    #[schema(value_type = Option<GameOptions>)]
    pub options: Option<Value>,
    /// Days each move may take; past its deadline the waiting seat may claim a win. No clock
    /// when left out.
    #[schema(minimum = 1, maximum = 60)]
    pub days_per_move: Option<u32>,
    /// The players' names, the first seat's first (at most 40 characters each).
    pub names: Option<Vec<String>>,
    /// Where to post each of the table's events, signed with the secret.
    pub webhook: Option<WebhookRequest>,
}

/// A table's webhook: each event (move, resignation, win on time) is posted to `url` as the
/// event stream's JSON, with `Moot-Signature: t=<unix time>,v1=<hex HMAC-SHA-256 of
/// "<t>.<body>" keyed with the secret>`, `Moot-Event-Id` and `Moot-Event`; retried for a day
/// until a 2xx answer.
#[derive(Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct WebhookRequest {
    /// An `http` or `https` URL on the public internet.
    #[schema(example = "https://games.example/hooks/moot", format = "uri")]
    pub url: String,
    /// The secret that signs each delivery (16 to 256 characters): kept to sign, never shown.
    #[schema(example = "a-long-random-secret-kept-by-the-site")]
    pub secret: String,
}

impl std::fmt::Debug for WebhookRequest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WebhookRequest")
            .field("url", &self.url)
            .finish_non_exhaustive()
    }
}

/// How a table's webhook fares.
#[derive(Clone, Copy, Debug, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum WebhookStatus {
    /// Every event so far was delivered or is on its way.
    Ok,
    /// The last delivery failed: it is retried (see `last_error`).
    Retrying,
    /// At least one event was given up after a day of retries.
    Failed,
}

/// A table's webhook as anyone reading the table sees it (never its URL or secret).
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct TableWebhook {
    /// How it fares.
    pub status: WebhookStatus,
    /// Events given up after a day of retries.
    pub failed_events: u64,
    /// Why the last delivery failed, until one succeeds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_error: Option<String>,
}

impl From<tables::WebhookHealth> for TableWebhook {
    fn from(health: tables::WebhookHealth) -> Self {
        let status = match (health.failed, &health.last_error) {
            (0, None) => WebhookStatus::Ok,
            (0, Some(_)) => WebhookStatus::Retrying,
            _ => WebhookStatus::Failed,
        };
        TableWebhook {
            status,
            failed_events: health.failed,
            last_error: health.last_error,
        }
    }
}

/// How a table stands.
#[derive(Clone, Copy, Debug, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum TableStatus {
    /// The game goes on.
    Ongoing,
    /// The table is over: see `result`.
    Finished,
}

/// How a finished table ended.
#[derive(Clone, Copy, Debug, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum TableEnding {
    /// By the game's rules.
    Rules,
    /// A seat resigned.
    Resignation,
    /// The waiting seat claimed a win after the deadline passed.
    Time,
}

/// The result of a finished table.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct TableResult {
    /// The winning seat; absent for a draw.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winner: Option<Seat>,
    /// How it ended.
    pub ended_by: TableEnding,
}

/// A seat as anyone may see it.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct TableSeat {
    /// Which seat.
    pub seat: Seat,
    /// The player's name, if one was given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

/// A table Moot keeps.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct TableResponse {
    /// The table's id: unguessable, and all it takes to read the table.
    pub id: String,
    /// The game's id.
    pub game: String,
    /// The game's options.
    #[schema(value_type = GameOptions)]
    pub options: Value,
    /// The position now.
    #[schema(value_type = GameState)]
    pub state: Value,
    /// Moves played so far: send it back with the next move.
    pub ply: u64,
    /// Whether the table goes on.
    pub status: TableStatus,
    /// The seat whose move is awaited, while the table goes on (the engine decides: a Hirþ
    /// offer's answer is awaited from the seat that answers).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to_act: Option<Seat>,
    /// How the table ended, once it has.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<TableResult>,
    /// The game's own status of the position (who acts and what they decide, or its result).
    pub game_status: Status,
    /// Both seats.
    pub seats: Vec<TableSeat>,
    /// Days each move may take, if the table has a clock.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub days_per_move: Option<u32>,
    /// When the awaited move is due (RFC 3339), if the table has a clock and goes on.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(format = DateTime)]
    pub deadline: Option<String>,
    /// When the table was created (RFC 3339).
    #[schema(format = DateTime)]
    pub created: String,
    /// When it last changed (RFC 3339).
    #[schema(format = DateTime)]
    pub updated: String,
    /// How the table's webhook fares, if it has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub webhook: Option<TableWebhook>,
}

impl From<tables::Table> for TableResponse {
    fn from(table: tables::Table) -> Self {
        let (status, to_act, result) = match table.standing {
            Standing::Ongoing { to_act } => (TableStatus::Ongoing, Some(to_act), None),
            Standing::Finished { winner, ended_by } => (
                TableStatus::Finished,
                None,
                Some(TableResult {
                    winner,
                    ended_by: match ended_by {
                        EndedBy::Rules => TableEnding::Rules,
                        EndedBy::Resignation => TableEnding::Resignation,
                        EndedBy::Time => TableEnding::Time,
                    },
                }),
            ),
        };
        TableResponse {
            id: table.id,
            game: table.game.to_owned(),
            options: table.options,
            state: table.state,
            ply: table.ply,
            status,
            to_act,
            result,
            game_status: table.game_status,
            seats: table
                .seats
                .into_iter()
                .map(|s| TableSeat {
                    seat: s.seat,
                    name: s.name,
                })
                .collect(),
            days_per_move: table.days_per_move,
            deadline: table.deadline.map(rfc3339),
            created: rfc3339(table.created),
            updated: rfc3339(table.updated),
            webhook: table.webhook.map(TableWebhook::from),
        }
    }
}

/// One seat's credential, shown once.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct SeatCredential {
    /// Which seat.
    pub seat: Seat,
    /// The player's name, if one was given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The seat's secret: send it as `Authorization: Bearer <credential>` to play, resign or
    /// claim. Moot keeps only its digest and cannot show it again.
    pub credential: String,
    /// Where this seat posts its moves.
    #[schema(format = "uri-reference")]
    pub moves_url: String,
    /// The seat's page, where its player plays in a browser. It holds the credential: hand it
    /// to that player only.
    #[schema(format = "uri-reference")]
    pub play_url: String,
}

/// A new table, with each seat's credential (shown once).
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct CreatedTable {
    /// The table.
    pub table: TableResponse,
    /// One credential per seat, the first seat's first: hand each to its player.
    pub seats: Vec<SeatCredential>,
    /// Where anyone with the link may read the table (read only).
    #[schema(format = "uri-reference")]
    pub watch_url: String,
    /// The spectators' page: the table in a browser, read only.
    #[schema(format = "uri-reference")]
    pub watch_page_url: String,
}

/// `POST /api/v1/tables/{id}/moves`: one move, and the ply the client saw.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[schema(example = examples::table_move_request)]
#[serde(deny_unknown_fields)]
pub struct TableMoveRequest {
    /// The move in the game's notation.
    #[serde(rename = "move")]
    #[schema(example = "c3")]
    pub mv: String,
    /// The table's `ply` the client saw: if another move was committed since, the move is
    /// refused with 409 `stale_ply`.
    pub ply: u64,
}

/// One move of a table's history.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct TableMove {
    /// The table's ply after this move (the first move is 1).
    pub ply: u64,
    /// The seat that played it.
    pub seat: Seat,
    /// The move in the game's notation.
    #[serde(rename = "move")]
    pub mv: String,
    /// When it was committed (RFC 3339).
    #[schema(format = DateTime)]
    pub time: String,
}

/// A table's history.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(example = examples::table_history)]
pub struct TableHistory {
    /// The table's id.
    pub id: String,
    /// The game's id.
    pub game: String,
    /// Every move, in order.
    pub moves: Vec<TableMove>,
    /// The game's record (`replay` reads it back): Hirþ's own format, the moves in notation for
    /// the other games.
    pub record: String,
}

fn table_url(id: &str) -> String {
    format!("/api/v1/tables/{id}")
}

/// The `ETag` of a table as it stands: its id, ply and status, and how its webhook fares.
fn etag(table: &TableResponse) -> String {
    let status = match table.status {
        TableStatus::Ongoing => "ongoing",
        TableStatus::Finished => "finished",
    };
    let webhook = match &table.webhook {
        None => String::new(),
        Some(hook) => format!(
            "-w{}{}",
            hook.failed_events,
            if hook.last_error.is_some() { "e" } else { "" }
        ),
    };
    format!("\"{}-{}-{status}{webhook}\"", table.id, table.ply)
}

/// The credential of `Authorization: Bearer <credential>`.
fn bearer(http: &HttpRequest) -> Option<&str> {
    let value = http.headers().get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, credential) = value.trim().split_once(' ')?;
    let credential = credential.trim();
    (scheme.eq_ignore_ascii_case("bearer") && !credential.is_empty()).then_some(credential)
}

fn names(names: Option<Vec<String>>) -> Result<[Option<String>; 2], ApiError> {
    let names = names.unwrap_or_default();
    if names.len() > 2 {
        return Err(ApiError::new(
            ErrorCode::InvalidRequest,
            "names: at most two, one per seat",
        )
        .with_field("names"));
    }
    let mut seats = [None, None];
    for (index, name) in names.into_iter().enumerate() {
        let chars = name.chars().count();
        if chars > limits::NAME_CHARS || name.chars().any(char::is_control) {
            let field = format!("names[{index}]");
            return Err(ApiError::new(
                ErrorCode::InvalidRequest,
                format!(
                    "{field}: a name has at most {} characters and no control characters",
                    limits::NAME_CHARS
                ),
            )
            .with_field(field));
        }
        seats[index] = (!name.trim().is_empty()).then(|| name.trim().to_owned());
    }
    Ok(seats)
}

/// The webhook a creation names, its URL checked (see [`crate::webhooks::target`]).
fn webhook(
    request: Option<WebhookRequest>,
    allow_private: bool,
) -> Result<Option<tables::Webhook>, ApiError> {
    let Some(request) = request else {
        return Ok(None);
    };
    let refused = |field: &str, detail: String| {
        ApiError::new(ErrorCode::InvalidRequest, format!("{field}: {detail}")).with_field(field)
    };
    crate::webhooks::target::check(&request.url, allow_private)
        .map_err(|detail| refused("webhook.url", format!("{:?}: {detail}", request.url)))?;
    let chars = request.secret.chars().count();
    if !(limits::WEBHOOK_SECRET_CHARS).contains(&chars)
        || request.secret.chars().any(char::is_control)
    {
        return Err(refused(
            "webhook.secret",
            format!(
                "{chars} characters; a secret has {} to {} characters and no control characters",
                limits::WEBHOOK_SECRET_CHARS.start(),
                limits::WEBHOOK_SECRET_CHARS.end()
            ),
        ));
    }
    Ok(Some(tables::Webhook {
        url: request.url,
        secret: request.secret,
    }))
}

async fn create_for<G: Game>(
    tables: &Tables,
    request: CreateTableRequest,
    allow_private_webhooks: bool,
) -> Result<tables::Created, ApiError> {
    let names = names(request.names)?;
    let webhook = webhook(request.webhook, allow_private_webhooks)?;
    if let Some(days) = request.days_per_move
        && !(1..=limits::MAX_DAYS_PER_MOVE).contains(&days)
    {
        return Err(ApiError::new(
            ErrorCode::InvalidRequest,
            format!(
                "days_per_move: {days}; a move may take 1 to {} days",
                limits::MAX_DAYS_PER_MOVE
            ),
        )
        .with_field("days_per_move"));
    }
    let (options, state) = problem_on_panic(|| ops::start::<G>(request.options))?;
    tables
        .create::<G>(
            &options,
            &state,
            request.days_per_move,
            names,
            webhook,
            tables::now(),
        )
        .await
        .map_err(problem)
}

/// Creates a table for two players: answers the table and one credential per seat, shown
/// once, with the seat's page to play in a browser. Hand each seat's credential (or page) to
/// its player; the watch URLs to anyone.
#[utoipa::path(
    tag = "tables",
    request_body(content = CreateTableRequest, content_type = "application/json"),
    responses(
        (status = 201, description = "The table, each seat's credential, the watch URL", body = CreatedTable,
            headers(("Location" = String, description = "The table's URL"))),
        (status = 422, description = "`invalid_request` (an unknown game, a bad name, clock or webhook), `invalid_options`", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "`rate_limited`: this client created more tables than its share", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = String, description = "Seconds until this client may create another"))),
        (status = 501, description = "`tables_off`: this server keeps no tables; `webhooks_off`: it posts no webhooks", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "`tables_full`: the server keeps as many open tables as it may", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = String, description = "Seconds to wait before retrying"))),
    )
)]
#[post("/tables")]
pub async fn create_table(
    body: JsonBody,
    data: Option<web::Data<TablePolicy>>,
    http: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let policy = policy::<ApiError>(data)?;
    let request: CreateTableRequest = ops::envelope(body.0)?;
    let game = GAME_IDS
        .iter()
        .find(|id| **id == request.game)
        .ok_or_else(|| {
            ApiError::new(
                ErrorCode::InvalidRequest,
                format!(
                    "game: no game has the id {:?}; the games are: {}",
                    request.game,
                    GAME_IDS.join(", ")
                ),
            )
            .with_field("game")
        })?;
    if let Err(wait) = policy.may_create(client_of(&policy, &http)) {
        return Err(rate_limited("new tables", wait));
    }
    let allow_private = policy.limits().allow_private_webhooks;
    let created = with_game!(*game, G => create_for::<G>(policy.tables(), request, allow_private).await, else Err(ApiError::unknown_game(game)))?;
    let id = created.table.id.clone();
    let table = TableResponse::from(created.table);
    let seats = table
        .seats
        .iter()
        .zip(created.credentials)
        .map(|(seat, credential)| SeatCredential {
            seat: seat.seat,
            name: seat.name.clone(),
            play_url: crate::paths::seat(&id, &credential),
            credential,
            moves_url: format!("{}/moves", table_url(&id)),
        })
        .collect();
    let answer = CreatedTable {
        table,
        seats,
        watch_url: table_url(&id),
        watch_page_url: crate::paths::watch(&id),
    };
    Ok(HttpResponse::Created()
        .insert_header((header::LOCATION, table_url(&id)))
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .json(answer))
}

/// An answer with a table and its `ETag`, never cached by a shared cache.
fn table_answer(table: TableResponse) -> HttpResponse {
    HttpResponse::Ok()
        .insert_header((header::ETAG, etag(&table)))
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .json(table)
}

/// Whether `If-None-Match` names this `ETag` (or `*`).
fn not_modified(http: &HttpRequest, etag: &str) -> bool {
    http.headers()
        .get_all(header::IF_NONE_MATCH)
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(|tag| tag.trim().trim_start_matches("W/"))
        .any(|tag| tag == etag || tag == "*")
}

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
    )
)]
#[get("/tables/{id}")]
pub async fn get_table(
    id: web::Path<String>,
    data: Option<web::Data<TablePolicy>>,
    http: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let policy = policy::<ApiError>(data)?;
    let table = policy
        .tables()
        .get(&id)
        .await
        .map_err(problem)?
        .ok_or_else(|| problem(TableError::UnknownTable))?;
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
    )
)]
#[get("/tables/{id}/moves")]
pub async fn table_history(
    id: web::Path<String>,
    data: Option<web::Data<TablePolicy>>,
) -> Result<web::Json<TableHistory>, ApiError> {
    let policy = policy::<ApiError>(data)?;
    let table = policy
        .tables()
        .get(&id)
        .await
        .map_err(problem)?
        .ok_or_else(|| problem(TableError::UnknownTable))?;
    let history = policy.tables().history(&id).await.map_err(problem)?;
    Ok(web::Json(TableHistory {
        id: table.id,
        game: table.game.to_owned(),
        moves: history
            .moves
            .into_iter()
            .map(|m| TableMove {
                ply: m.ply,
                seat: m.seat,
                mv: m.notation,
                time: rfc3339(m.time),
            })
            .collect(),
        record: history.record,
    }))
}

/// Runs a seat's change: the client not barred, its credential read, the change committed; a
/// wrong credential counts against the client's share.
async fn seated<F, Fut>(
    policy: &TablePolicy,
    http: &HttpRequest,
    change: F,
) -> Result<HttpResponse, ApiError>
where
    F: FnOnce(String) -> Fut,
    Fut: Future<Output = Result<Committed, TableError>>,
{
    let client = client_of(policy, http);
    policy
        .not_barred(client)
        .map_err(|wait| rate_limited("wrong seat credentials", wait))?;
    let Some(credential) = bearer(http) else {
        return Err(strike(
            policy,
            client,
            "send the seat's credential as `Authorization: Bearer <credential>`",
        ));
    };
    match change(credential.to_owned()).await {
        Ok(committed) => Ok(table_answer(TableResponse::from(committed.table))),
        Err(TableError::BadCredential) => Err(strike(
            policy,
            client,
            "the credential is no seat's of this table",
        )),
        Err(error) => Err(problem(error)),
    }
}

/// Plays a move for the seat whose credential is sent, if the table is still at the `ply` the
/// client saw: answers the table after it. A refused move is answered as `apply` answers it.
#[utoipa::path(
    tag = "tables",
    params(
        ("id" = String, Path, description = "The table's id"),
        ("Authorization" = String, Header, description = "`Bearer <credential>`: the seat's credential"),
    ),
    request_body(content = TableMoveRequest, content_type = "application/json"),
    responses(
        (status = 200, description = "The table after the move", body = TableResponse,
            headers(("ETag" = String, description = "The table's new `ETag`"))),
        (status = 401, description = "`unauthorized`: no credential, or no seat's of this table", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "`not_your_turn`: the other seat must act", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "`unknown_table`", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`stale_ply`: a move was committed since the `ply` sent; read the table and try again", body = Problem, content_type = "application/problem+json"),
        (status = 410, description = "`table_finished`: the table is over", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`invalid_request`, `unreadable_move`, `illegal_move` (with `rule`), as `apply` answers them", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "`rate_limited`: this client sent too many wrong credentials", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = String, description = "Seconds until this client may try again"))),
        (status = 501, description = "`tables_off`", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/tables/{id}/moves")]
pub async fn play_move(
    id: web::Path<String>,
    body: JsonBody,
    data: Option<web::Data<TablePolicy>>,
    http: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let policy = policy::<ApiError>(data)?;
    let request: TableMoveRequest = ops::envelope(body.0)?;
    let tables = policy.tables().clone();
    seated(&policy, &http, |credential| async move {
        tables
            .play(&id, &credential, request.ply, &request.mv, tables::now())
            .await
    })
    .await
}

/// The seat whose credential is sent resigns: the other seat wins.
#[utoipa::path(
    tag = "tables",
    params(
        ("id" = String, Path, description = "The table's id"),
        ("Authorization" = String, Header, description = "`Bearer <credential>`: the seat's credential"),
    ),
    responses(
        (status = 200, description = "The table, finished", body = TableResponse),
        (status = 401, description = "`unauthorized`", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "`unknown_table`", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`stale_ply`: a move was committed meanwhile", body = Problem, content_type = "application/problem+json"),
        (status = 410, description = "`table_finished`", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "`rate_limited`: too many wrong credentials", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = String, description = "Seconds until this client may try again"))),
        (status = 501, description = "`tables_off`", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/tables/{id}/resign")]
pub async fn resign(
    id: web::Path<String>,
    data: Option<web::Data<TablePolicy>>,
    http: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let policy = policy::<ApiError>(data)?;
    let tables = policy.tables().clone();
    seated(&policy, &http, |credential| async move {
        tables.resign(&id, &credential, tables::now()).await
    })
    .await
}

/// The seat whose credential is sent claims a win on time: it must be waiting for the other
/// seat's move, and that move's deadline must have passed.
#[utoipa::path(
    tag = "tables",
    params(
        ("id" = String, Path, description = "The table's id"),
        ("Authorization" = String, Header, description = "`Bearer <credential>`: the seat's credential"),
    ),
    responses(
        (status = 200, description = "The table, won on time", body = TableResponse),
        (status = 401, description = "`unauthorized`", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "`not_waiting`: the claimant's own move is awaited", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "`unknown_table`", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`claim_too_early`: the deadline has not passed, or the table has no clock; `stale_ply`", body = Problem, content_type = "application/problem+json"),
        (status = 410, description = "`table_finished`", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "`rate_limited`: too many wrong credentials", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = String, description = "Seconds until this client may try again"))),
        (status = 501, description = "`tables_off`", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/tables/{id}/claim")]
pub async fn claim(
    id: web::Path<String>,
    data: Option<web::Data<TablePolicy>>,
    http: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let policy = policy::<ApiError>(data)?;
    let tables = policy.tables().clone();
    seated(&policy, &http, |credential| async move {
        tables.claim(&id, &credential, tables::now()).await
    })
    .await
}

/// The document's examples of the tables' bodies, in the game `G`: a request to create a table,
/// what creating it answers, the table after some moves, its history, and a move to send. Built
/// from the same types the handlers answer with; the id, credentials and times are fixed so the
/// document is the same from build to build.
pub struct TableExamples {
    /// A `CreateTableRequest`.
    pub create_request: Value,
    /// A `CreatedTable`.
    pub created: Value,
    /// A `TableResponse`.
    pub table: Value,
    /// A `TableHistory`.
    pub history: Value,
    /// A `TableMoveRequest`.
    pub move_request: Value,
}

impl TableExamples {
    /// The examples of game `G` with these options: a table where `opening` was played, and
    /// `next` is the move to send.
    pub fn of<G: Game>(options: &Value, opening: &[String], next: &str) -> Option<Self> {
        const TABLE_ID: &str = "5f0c9d4e8b7a6f3e2d1c0b9a8f7e6d5c";
        const NAMES: [&str; 2] = ["Aoife", "Bran"];
        const DAYS: u32 = 3;
        const CREATED: tables::Millis = 1_796_212_800_000; // 2026-12-02T12:00:00Z
        const HOUR: tables::Millis = 3_600_000;
        let at = |ply: usize| CREATED + ply as tables::Millis * HOUR;
        let table = |state: &G::State, ply: usize| -> Option<TableResponse> {
            let standing = Standing::after::<G>(state);
            Some(TableResponse::from(tables::Table {
                id: TABLE_ID.to_owned(),
                game: G::ID,
                options: options.clone(),
                state: serde_json::to_value(state).ok()?,
                ply: ply as u64,
                deadline: matches!(standing, Standing::Ongoing { .. })
                    .then_some(at(ply) + i64::from(DAYS) * tables::DAY),
                standing,
                game_status: G::status(state),
                seats: [Seat::First, Seat::Second]
                    .into_iter()
                    .zip(NAMES)
                    .map(|(seat, name)| tables::SeatInfo {
                        seat,
                        name: Some(name.to_owned()),
                    })
                    .collect(),
                days_per_move: Some(DAYS),
                created: CREATED,
                updated: at(ply),
                webhook: None,
            }))
        };
        let typed: G::Options = serde_json::from_value(options.clone()).ok()?;
        let mut state = G::new_game(&typed).ok()?;
        let fresh = table(&state, 0)?;
        let mut moves = Vec::new();
        for (index, notation) in opening.iter().enumerate() {
            let Turn::ToAct(seat) = G::turn(&state) else {
                return None;
            };
            let mv = G::parse_move(&state, notation).ok()?;
            G::apply(&mut state, &mv).ok()?;
            moves.push(TableMove {
                ply: index as u64 + 1,
                seat,
                mv: notation.clone(),
                time: rfc3339(at(index + 1)),
            });
        }
        let record = G::write_record(&state).unwrap_or_else(|| opening.join(" "));
        let history = TableHistory {
            id: TABLE_ID.to_owned(),
            game: G::ID.to_owned(),
            moves,
            record,
        };
        let seats = fresh
            .seats
            .iter()
            .zip(["3b9f", "c41e"])
            .map(|(seat, stem)| SeatCredential {
                seat: seat.seat,
                name: seat.name.clone(),
                credential: stem.repeat(16),
                moves_url: format!("{}/moves", table_url(TABLE_ID)),
                play_url: crate::paths::seat(TABLE_ID, &stem.repeat(16)),
            })
            .collect();
        let created = CreatedTable {
            table: fresh,
            seats,
            watch_url: table_url(TABLE_ID),
            watch_page_url: crate::paths::watch(TABLE_ID),
        };
        Some(TableExamples {
            create_request: serde_json::json!({
                "game": G::ID,
                "options": options,
                "days_per_move": DAYS,
                "names": NAMES,
            }),
            created: serde_json::to_value(created).ok()?,
            table: serde_json::to_value(table(&state, opening.len())?).ok()?,
            history: serde_json::to_value(history).ok()?,
            move_request: serde_json::json!({ "move": next, "ply": opening.len() }),
        })
    }
}
