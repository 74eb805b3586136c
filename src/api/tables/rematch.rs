//! A rematch at a finished table: `POST /api/v1/tables/{id}/rematch` offers it, or accepts the
//! other seat's offer (a new table opens between the same seats, colours swapped);
//! `DELETE` declines the offer standing, or withdraws the seat's own. Sent with a seat's
//! credential or its player's; a wrong one counts against the client's share as at the seat's
//! other changes. An offer or an acceptance counts against the client's share of new tables,
//! as `POST /tables` does. Offering again, or accepting again, answers the same: no key is
//! needed to retry.

use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, delete, post, web};

use super::bodies::{RematchResponse, RematchStatus, TableResponse, table_url};
use super::credential::{credential_for, refused};
use super::refusals::{problem, rate_limited};
use crate::api::problem::{ApiError, Problem};
use crate::extract::KeptTables;
use crate::tables::{self, Rematched};

/// Offers a rematch at the finished table for the seat whose credential is sent; if the other
/// seat offered one, accepts it: a new table opens between the same seats (each seat's
/// credential and player open it too), their colours swapped, with the same options, clock and
/// webhook, the two linked both ways (`rematch_of`, `rematched_by`). The seats' players are
/// told in their feeds (`rematch_offered`, `rematch_accepted`, and `table_started` of the new
/// table).
#[utoipa::path(
    tag = "tables",
    params(
        ("id" = String, Path, description = "The finished table's id"),
        ("Authorization" = String, Header, description = "`Bearer <credential>`: the seat's credential, or the credential of the player who took the seat"),
    ),
    responses(
        (status = 200, description = "The seat's offer stands (`offered`), or the rematch was accepted before (`accepted`, with the rematch)", body = RematchResponse),
        (status = 201, description = "The other seat's offer is accepted: the rematch is open", body = RematchResponse,
            headers(("Location" = String, description = "The rematch's table"))),
        (status = 401, description = "`unauthorized`", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "`unknown_table`", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`not_finished`: the table goes on", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "`rate_limited`: too many wrong credentials (with `Retry-After`), more new tables than the client's share (an offer or an acceptance counts as a creation), or the table took 3 takeback requests and rematch offers since its last move", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = String, description = "Seconds until this client may try again"))),
        (status = 501, description = "`tables_off`", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "`storage_unavailable`: the tables' database cannot be used now; nothing was changed; `tables_full`: no table can be opened now", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = String, description = "Seconds to wait before retrying"))),
    )
)]
#[post("/tables/{id}/rematch")]
pub async fn offer_rematch(
    id: web::Path<String>,
    policy: KeptTables<ApiError>,
    http: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let credential = credential_for(&policy, &http, &id).await?;
    // An offer or an acceptance is a step to a new table: counted as a creation, so that
    // rematches cannot open the tables `POST /tables` would refuse.
    let client = crate::api::site_key::client_of(&http, policy.limits().trust_forwarded)?;
    if let Err(wait) = policy.may_create(&client) {
        return Err(rate_limited("new tables", wait));
    }
    let rematched = policy
        .tables()
        .rematch(&id, credential, tables::now())
        .await
        .map_err(|error| refused(&policy, &http, &id, error))?;
    Ok(match rematched {
        Rematched::Offered(table) => HttpResponse::Ok().json(RematchResponse {
            status: RematchStatus::Offered,
            table: TableResponse::from(table),
            rematch: None,
        }),
        Rematched::Accepted { table, rematch } => HttpResponse::Created()
            .insert_header((header::LOCATION, table_url(&rematch.id)))
            .json(RematchResponse {
                status: RematchStatus::Accepted,
                table: TableResponse::from(table),
                rematch: Some(TableResponse::from(*rematch)),
            }),
        Rematched::Before(table) => {
            let rematch = match &table.rematch.by {
                // A rematch swept since is not named again.
                Some(rematch) => policy
                    .tables()
                    .get(rematch)
                    .await
                    .map_err(problem)?
                    .map(TableResponse::from),
                None => None,
            };
            HttpResponse::Ok().json(RematchResponse {
                status: RematchStatus::Accepted,
                table: TableResponse::from(table),
                rematch,
            })
        }
    })
}

/// Declines the rematch the other seat offers at the finished table, or withdraws the seat's
/// own offer. The seats' players are told in their feeds (`rematch_declined`).
#[utoipa::path(
    tag = "tables",
    params(
        ("id" = String, Path, description = "The finished table's id"),
        ("Authorization" = String, Header, description = "`Bearer <credential>`: the seat's credential, or the credential of the player who took the seat"),
    ),
    responses(
        (status = 200, description = "The finished table, no rematch offered", body = TableResponse),
        (status = 401, description = "`unauthorized`", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "`unknown_table`", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`not_finished`: the table goes on; `no_rematch_offer`: no rematch is offered; `already_rematched`: the rematch was accepted", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "`rate_limited`: too many wrong credentials", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = String, description = "Seconds until this client may try again"))),
        (status = 501, description = "`tables_off`", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "`storage_unavailable`: the tables' database cannot be used now; nothing was changed", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = String, description = "Seconds to wait before retrying"))),
    )
)]
#[delete("/tables/{id}/rematch")]
pub async fn decline_rematch(
    id: web::Path<String>,
    policy: KeptTables<ApiError>,
    http: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let credential = credential_for(&policy, &http, &id).await?;
    let table = policy
        .tables()
        .decline_rematch(&id, credential, tables::now())
        .await
        .map_err(|error| refused(&policy, &http, &id, error))?;
    Ok(HttpResponse::Ok().json(TableResponse::from(table)))
}
