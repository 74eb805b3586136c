//! `PUT /api/v1/tables/{id}/seats/{seat}/player`: a player takes a seat, shown to be its by
//! the seat's credential (`Authorization: Bearer …`). Taking it again is answered the same; a
//! seat another player holds is 409 `seat_taken`. The seat's credential keeps working alone.

use actix_web::{FromRequest, HttpRequest, HttpResponse, put, web};

use super::player_bodies::{MY_TABLES, PlayerResponse, SeatPlayer, TakeSeatRequest};
use super::players::known_player;
use super::refusals::{client_of, problem, rate_limited, strike};
use super::seats::bearer;
use crate::api::body::JsonBody;
use crate::api::ops;
use crate::api::problem::{ApiError, ErrorCode, Problem};
use crate::extract::KeptTables;
use crate::tables::{self, TableError};
use moot_games::Seat;

/// The seat a path names: `first` or `second`.
fn seat_named(word: &str) -> Result<Seat, ApiError> {
    match word {
        "first" => Ok(Seat::First),
        "second" => Ok(Seat::Second),
        _ => Err(ApiError::new(
            ErrorCode::NotFound,
            format!("seat: no seat is called {word:?}; a table's seats are `first` and `second`"),
        )
        .with_field("seat")),
    }
}

/// The player whose credential is sent in the body takes the seat whose credential is sent in
/// `Authorization`: the player then finds the table in its list. Idempotent: taking a seat the
/// player holds answers the same.
#[utoipa::path(
    tag = "players",
    params(
        ("id" = String, Path, description = "The table's id"),
        ("seat" = Seat, Path, description = "The seat: `first` or `second`"),
        ("Authorization" = String, Header, description = "`Bearer <credential>`: the seat's credential"),
    ),
    request_body(content = TakeSeatRequest, content_type = "application/json"),
    responses(
        (status = 200, description = "The player holds the seat", body = SeatPlayer),
        (status = 401, description = "`unauthorized`: no seat credential, or not this seat's; `unknown_player_key`: `player_credential` is no player's", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "`unknown_table`; `not_found`: no such seat", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`seat_taken`: another player holds the seat, or this player holds the table's other seat", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "`rate_limited`: this client sent too many wrong seat or player credentials", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = String, description = "Seconds until this client may try again"))),
        (status = 501, description = "`tables_off`", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "`storage_unavailable`: the tables' database cannot be used now; nothing was changed", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = String, description = "Seconds to wait before retrying"))),
    )
)]
#[put("/tables/{id}/seats/{seat}/player")]
pub async fn take_seat(
    path: web::Path<(String, String)>,
    body: JsonBody,
    http: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    // The tables are taken once the body is read: a body's faults are answered first.
    let policy = KeptTables::<ApiError>::extract(&http).await?;
    let request: TakeSeatRequest = ops::envelope(body.0)?;
    let (id, seat) = path.into_inner();
    let seat = seat_named(&seat)?;
    let client = client_of(&policy, &http);
    // No credential guesses nothing: not counted, and answered 401 even to a barred client.
    let Some(credential) = bearer(&http) else {
        return Err(ApiError::new(
            ErrorCode::Unauthorized,
            "send the seat's credential as `Authorization: Bearer <credential>`",
        ));
    };
    if let Some(wait) = policy.barred(&id, client) {
        // Barred at this table for wrong credentials: only the seat's own passes.
        match policy.tables().seat(&id, credential).await {
            Ok(found) if found == seat => {}
            Ok(_) | Err(TableError::BadCredential) => {
                return Err(rate_limited("wrong seat credentials", wait));
            }
            Err(error) => return Err(problem(error)),
        }
    }
    let taken = policy
        .tables()
        .take_seat(
            &id,
            seat,
            credential,
            &request.player_credential,
            tables::now(),
        )
        .await;
    let seated = match taken {
        Ok(seated) => seated,
        Err(TableError::BadCredential) => {
            return Err(strike(
                &policy,
                (&id, client),
                "the credential is not this seat's of this table",
            ));
        }
        Err(TableError::UnknownPlayer) => {
            // Counted and answered as any wrong player credential.
            known_player(
                &policy,
                &http,
                &request.player_credential,
                "player_credential",
            )
            .await?;
            return Err(problem(TableError::UnknownPlayer));
        }
        Err(error) => return Err(problem(error)),
    };
    Ok(HttpResponse::Ok().json(SeatPlayer {
        table_id: seated.table_id,
        seat: seated.seat,
        player: PlayerResponse::from(seated.player),
        tables_url: MY_TABLES.to_owned(),
    }))
}
