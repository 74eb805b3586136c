//! A seat's changes to its table: play a move, resign, abort, claim a win on time. Each is sent
//! with the seat's credential (`Authorization: Bearer …`); a wrong one counts against the
//! client's share, and a client past it is barred for a while (a missing one is only refused).

use actix_web::http::header;
use actix_web::{FromRequest, HttpRequest, HttpResponse, post, web};

use super::answer::change_answer;
use super::bodies::{TableMoveRequest, TableResponse};
use super::idempotency::{at_most_once, key_of};
use super::refusals::{client_of, problem, rate_limited, strike};
use crate::api::body::JsonBody;
use crate::api::ops;
use crate::api::problem::{ApiError, ErrorCode, Problem};
use crate::extract::KeptTables;
use crate::tables::{self, Answering, Committed, Idempotent, TableError, TablePolicy, Tables};

/// The credential of `Authorization: Bearer <credential>`.
pub(super) fn bearer(http: &HttpRequest) -> Option<&str> {
    let value = http.headers().get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, credential) = value.trim().split_once(' ')?;
    let credential = credential.trim();
    (scheme.eq_ignore_ascii_case("bearer") && !credential.is_empty()).then_some(credential)
}

/// Runs a seat's change: the client not barred, its credential read, the change committed
/// (at most once for an `Idempotency-Key`, see [`at_most_once`]); a wrong credential counts
/// against the client's share. `asked` is what the request asks (the operation and its body),
/// for the key's fingerprint.
async fn seated<F, Fut>(
    policy: &TablePolicy,
    http: &HttpRequest,
    (id, asked): (&str, &[&[u8]]),
    change: F,
) -> Result<HttpResponse, ApiError>
where
    F: FnOnce(Tables, String) -> Fut,
    Fut: Future<Output = Result<Committed, TableError>>,
{
    let client = client_of(policy, http);
    // A missing credential is no guess (and costs no read): 401, never counted against the
    // client's share.
    let Some(credential) = bearer(http) else {
        return Err(ApiError::new(
            ErrorCode::Unauthorized,
            "send the seat's credential as `Authorization: Bearer <credential>`",
        ));
    };
    // After the credential: a request without one is 401 whatever else it holds.
    let key = key_of(policy, http)?;
    if let Some(wait) = policy.barred(id, client) {
        // Barred at this table for wrong credentials: a guess costs a read, not a change, and
        // the right credential still passes.
        match policy.tables().seat(id, credential).await {
            Ok(_) => {}
            Err(TableError::BadCredential) => {
                return Err(rate_limited("wrong seat credentials", wait));
            }
            Err(error) => return Err(problem(error)),
        }
    }
    let idempotent = key.map(|key: String| {
        let mut parts = vec![credential.as_bytes()];
        parts.extend_from_slice(asked);
        Idempotent::new(id, &key, &parts)
    });
    at_most_once(
        policy.tables(),
        idempotent,
        (change_answer, Answering::Change(change_answer)),
        |tables| change(tables, credential.to_owned()),
        |error| match error {
            TableError::BadCredential => strike(
                policy,
                (id, client),
                "the credential is no seat's of this table",
            ),
            error => problem(error),
        },
    )
    .await
}

/// Plays a move for the seat whose credential is sent, if the table is still at the `ply` the
/// client saw: answers the table after it. A refused move is answered as `apply` answers it.
#[utoipa::path(
    tag = "tables",
    params(
        ("id" = String, Path, description = "The table's id"),
        ("Authorization" = String, Header, description = "`Bearer <credential>`: the seat's credential, or the credential of the player who took the seat"),
        ("Idempotency-Key" = Option<String>, Header, description = "A key of 16 to 255 visible ASCII characters (a random UUID) that makes the change at most once: the same request sent again with it is answered as the first time (`Idempotent-Replayed: true`); another request with it is 422 `idempotency_key_reused`. Kept at least 24 h"),
    ),
    request_body(content = TableMoveRequest, content_type = "application/json"),
    responses(
        (status = 200, description = "The table after the move", body = TableResponse,
            headers(("ETag" = String, description = "The table's new `ETag`"))),
        (status = 401, description = "`unauthorized`: no credential, or no seat's of this table", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "`not_your_turn`: the other seat must act", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "`unknown_table`", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`stale_ply`: a move was committed since the `ply` sent; read the table and try again; `idempotency_key_in_use`: a request with the `Idempotency-Key` was under way, send it again", body = Problem, content_type = "application/problem+json"),
        (status = 410, description = "`table_finished`: the table is over", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`invalid_request`, `unreadable_move`, `illegal_move` (with `rule`), as `apply` answers them; `idempotency_key_reused`: the `Idempotency-Key` was used for another request", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "`rate_limited`: this client sent too many wrong credentials", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = String, description = "Seconds until this client may try again"))),
        (status = 501, description = "`tables_off`", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "`storage_unavailable`: the tables' database cannot be used now; nothing was changed", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = String, description = "Seconds to wait before retrying"))),
    )
)]
#[post("/tables/{id}/moves")]
pub async fn play_move(
    id: web::Path<String>,
    body: JsonBody,
    http: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    // The tables are taken once the body is read: a body's faults are answered first, and a
    // body is never left unread.
    let policy = KeptTables::<ApiError>::extract(&http).await?;
    // What the move asks, as read (keys in order): the fingerprint of its key.
    let asked = body.0.to_string();
    let request: TableMoveRequest = ops::envelope(body.0)?;
    let asked = [b"move".as_slice(), asked.as_bytes()];
    let table = id.clone();
    seated(
        &policy,
        &http,
        (&table, &asked),
        |tables, credential| async move {
            tables
                .play(&id, &credential, request.ply, &request.mv, tables::now())
                .await
        },
    )
    .await
}

/// The seat whose credential is sent resigns: the other seat wins.
#[utoipa::path(
    tag = "tables",
    params(
        ("id" = String, Path, description = "The table's id"),
        ("Authorization" = String, Header, description = "`Bearer <credential>`: the seat's credential, or the credential of the player who took the seat"),
        ("Idempotency-Key" = Option<String>, Header, description = "A key of 16 to 255 visible ASCII characters (a random UUID) that makes the change at most once: the same request sent again with it is answered as the first time (`Idempotent-Replayed: true`); another request with it is 422 `idempotency_key_reused`. Kept at least 24 h"),
    ),
    responses(
        (status = 200, description = "The table, finished", body = TableResponse),
        (status = 401, description = "`unauthorized`", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "`unknown_table`", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`stale_ply`: a move was committed meanwhile; `idempotency_key_in_use`: a request with the `Idempotency-Key` was under way, send it again", body = Problem, content_type = "application/problem+json"),
        (status = 410, description = "`table_finished`", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "`rate_limited`: too many wrong credentials", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = String, description = "Seconds until this client may try again"))),
        (status = 422, description = "`idempotency_key_reused`: the `Idempotency-Key` was used for another request", body = Problem, content_type = "application/problem+json"),
        (status = 501, description = "`tables_off`", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "`storage_unavailable`: the tables' database cannot be used now; nothing was changed", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = String, description = "Seconds to wait before retrying"))),
    )
)]
#[post("/tables/{id}/resign")]
pub async fn resign(
    id: web::Path<String>,
    policy: KeptTables<ApiError>,
    http: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let table = id.clone();
    seated(
        &policy,
        &http,
        (&table, &[b"resign"]),
        |tables, credential| async move { tables.resign(&id, &credential, tables::now()).await },
    )
    .await
}

/// The seat whose credential is sent calls the table off, with no result: only while a seat
/// has not moved yet (its first move, or a reply to it, is all that was played).
#[utoipa::path(
    tag = "tables",
    params(
        ("id" = String, Path, description = "The table's id"),
        ("Authorization" = String, Header, description = "`Bearer <credential>`: the seat's credential, or the credential of the player who took the seat"),
        ("Idempotency-Key" = Option<String>, Header, description = "A key of 16 to 255 visible ASCII characters (a random UUID) that makes the change at most once: the same request sent again with it is answered as the first time (`Idempotent-Replayed: true`); another request with it is 422 `idempotency_key_reused`. Kept at least 24 h"),
    ),
    responses(
        (status = 200, description = "The table, finished with no winner (`ended_by: aborted`)", body = TableResponse),
        (status = 401, description = "`unauthorized`", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "`unknown_table`", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`both_moved`: both seats have moved (resign instead); `stale_ply`: a move was committed meanwhile; `idempotency_key_in_use`: a request with the `Idempotency-Key` was under way, send it again", body = Problem, content_type = "application/problem+json"),
        (status = 410, description = "`table_finished`", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "`rate_limited`: too many wrong credentials", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = String, description = "Seconds until this client may try again"))),
        (status = 422, description = "`idempotency_key_reused`: the `Idempotency-Key` was used for another request", body = Problem, content_type = "application/problem+json"),
        (status = 501, description = "`tables_off`", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "`storage_unavailable`: the tables' database cannot be used now; nothing was changed", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = String, description = "Seconds to wait before retrying"))),
    )
)]
#[post("/tables/{id}/abort")]
pub async fn abort(
    id: web::Path<String>,
    policy: KeptTables<ApiError>,
    http: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let table = id.clone();
    seated(
        &policy,
        &http,
        (&table, &[b"abort"]),
        |tables, credential| async move { tables.abort(&id, &credential, tables::now()).await },
    )
    .await
}

/// The seat whose credential is sent claims a win on time: it must be waiting for the other
/// seat's move, and that move's deadline must have passed.
#[utoipa::path(
    tag = "tables",
    params(
        ("id" = String, Path, description = "The table's id"),
        ("Authorization" = String, Header, description = "`Bearer <credential>`: the seat's credential, or the credential of the player who took the seat"),
        ("Idempotency-Key" = Option<String>, Header, description = "A key of 16 to 255 visible ASCII characters (a random UUID) that makes the change at most once: the same request sent again with it is answered as the first time (`Idempotent-Replayed: true`); another request with it is 422 `idempotency_key_reused`. Kept at least 24 h"),
    ),
    responses(
        (status = 200, description = "The table, won on time", body = TableResponse),
        (status = 401, description = "`unauthorized`", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "`not_waiting`: the claimant's own move is awaited", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "`unknown_table`", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`claim_too_early`: the deadline has not passed, or the table has no clock; `nothing_to_claim`: no one has moved (a late first move aborts the table); `stale_ply`; `idempotency_key_in_use`: a request with the `Idempotency-Key` was under way, send it again", body = Problem, content_type = "application/problem+json"),
        (status = 410, description = "`table_finished`", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "`rate_limited`: too many wrong credentials", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = String, description = "Seconds until this client may try again"))),
        (status = 422, description = "`idempotency_key_reused`: the `Idempotency-Key` was used for another request", body = Problem, content_type = "application/problem+json"),
        (status = 501, description = "`tables_off`", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "`storage_unavailable`: the tables' database cannot be used now; nothing was changed", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = String, description = "Seconds to wait before retrying"))),
    )
)]
#[post("/tables/{id}/claim")]
pub async fn claim(
    id: web::Path<String>,
    policy: KeptTables<ApiError>,
    http: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let table = id.clone();
    seated(
        &policy,
        &http,
        (&table, &[b"claim"]),
        |tables, credential| async move { tables.claim(&id, &credential, tables::now()).await },
    )
    .await
}
