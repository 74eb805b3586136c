//! A finished table's rematch from its seat's page, by the seat's link or as the browser's own
//! seat: offering it (or accepting the other seat's offer) and declining it (or withdrawing
//! one's own). Each is a POST answered with a redirect: to the rematch's page once it is open,
//! else back to the seat's page, which shows where the rematch stands (so a form sent twice, or
//! after the other seat's answer, lands on what is true now).

use actix_web::web::Path;
use actix_web::{HttpRequest, HttpResponse, post};

use super::page::page_at;
use super::refusals::{busy, page_error};
use super::seat::Reached;
use crate::extract::KeptTables;
use crate::tables::{self, Rematched, TableError, TablePolicy};
use crate::web::answers::{private, see_other};
use crate::web::error::PageError;

/// `POST /table/{id}/seat/{credential}/rematch`: the seat offers a rematch, or accepts the
/// other's.
#[post("/table/{id}/seat/{credential}/rematch", wrap = "private()")]
pub async fn seat_rematch(
    path: Path<(String, String)>,
    http: HttpRequest,
    policy: KeptTables<PageError>,
) -> Result<HttpResponse, PageError> {
    let reached = Reached::by_link(&policy, &http, path).await?;
    offer(&http, &policy, reached).await
}

/// `POST /table/{id}/seat/{credential}/rematch/decline`: the seat declines the rematch offered,
/// or withdraws its own offer.
#[post("/table/{id}/seat/{credential}/rematch/decline", wrap = "private()")]
pub async fn seat_decline_rematch(
    path: Path<(String, String)>,
    http: HttpRequest,
    policy: KeptTables<PageError>,
) -> Result<HttpResponse, PageError> {
    let reached = Reached::by_link(&policy, &http, path).await?;
    decline(&policy, reached).await
}

/// `POST /table/{id}/mine/rematch`: the browser's own seat offers a rematch, or accepts.
#[post("/table/{id}/mine/rematch", wrap = "private()")]
pub async fn mine_rematch(
    id: Path<String>,
    http: HttpRequest,
    policy: KeptTables<PageError>,
) -> Result<HttpResponse, PageError> {
    let reached = Reached::mine(&policy, &http, id).await?;
    offer(&http, &policy, reached).await
}

/// `POST /table/{id}/mine/rematch/decline`: the browser's own seat declines or withdraws.
#[post("/table/{id}/mine/rematch/decline", wrap = "private()")]
pub async fn mine_decline_rematch(
    id: Path<String>,
    http: HttpRequest,
    policy: KeptTables<PageError>,
) -> Result<HttpResponse, PageError> {
    let reached = Reached::mine(&policy, &http, id).await?;
    decline(&policy, reached).await
}

/// The rematch offered or accepted; counted against the address's share of new tables, as
/// "Play a friend" is.
async fn offer(
    http: &HttpRequest,
    policy: &TablePolicy,
    reached: Reached,
) -> Result<HttpResponse, PageError> {
    let client = crate::client::client_of(http, policy.limits().trust_forwarded);
    policy
        .may_create(&crate::site_keys::Client::Address(client))
        .map_err(|wait| busy("opened many tables", wait))?;
    let rematched = policy
        .tables()
        .rematch(&reached.id, &reached.credential, tables::now())
        .await;
    let opened = match rematched {
        Ok(Rematched::Accepted { rematch, .. }) => Some(rematch.id),
        Ok(Rematched::Before(table)) => table.rematch.by,
        Ok(Rematched::Offered(_)) => None,
        Err(error) => return settled(error, &reached),
    };
    Ok(match opened {
        Some(rematch) => see_other(&format!("{}#turn", page_at(&rematch, Some(&reached.door)))),
        None => see_other(&format!("{}#turn", reached.here())),
    })
}

async fn decline(policy: &TablePolicy, reached: Reached) -> Result<HttpResponse, PageError> {
    match policy
        .tables()
        .decline_rematch(&reached.id, &reached.credential, tables::now())
        .await
    {
        Ok(_) => Ok(see_other(&format!("{}#turn", reached.here()))),
        Err(error) => settled(error, &reached),
    }
}

/// A rematch request the table no longer fits (the table goes on, no offer stands, the
/// rematch was accepted meanwhile): the seat's page says where it stands. Anything else is
/// the table's own refusal page.
fn settled(error: TableError, reached: &Reached) -> Result<HttpResponse, PageError> {
    match error {
        TableError::Unfinished
        | TableError::NoRematchOffer
        | TableError::Rematched(_)
        | TableError::RematchRace => Ok(see_other(&format!("{}#turn", reached.here()))),
        error => Err(page_error(error)),
    }
}
