//! A takeback from a seat's page, by the seat's link or as the browser's own seat: asking to
//! take back the seat's last move (or accepting the other seat's request) and declining it (or
//! withdrawing one's own). Each is a POST answered with a redirect back to the seat's page,
//! which shows where the takeback stands (so a form sent twice, or after the other seat's
//! answer or move, lands on what is true now).

use actix_web::web::Path;
use actix_web::{HttpRequest, HttpResponse, post};

use super::refusals::page_error;
use super::seat::Reached;
use crate::extract::KeptTables;
use crate::tables::{self, TableError, TablePolicy};
use crate::web::answers::{private, see_other};
use crate::web::error::PageError;

/// `POST /table/{id}/seat/{credential}/takeback`: the seat asks to take back its last move, or
/// accepts the other's request.
#[post("/table/{id}/seat/{credential}/takeback", wrap = "private()")]
pub async fn seat_takeback(
    path: Path<(String, String)>,
    http: HttpRequest,
    policy: KeptTables<PageError>,
) -> Result<HttpResponse, PageError> {
    let reached = Reached::by_link(&policy, &http, path).await?;
    ask(&policy, reached).await
}

/// `POST /table/{id}/seat/{credential}/takeback/decline`: the seat declines the takeback asked
/// for, or withdraws its own request.
#[post("/table/{id}/seat/{credential}/takeback/decline", wrap = "private()")]
pub async fn seat_decline_takeback(
    path: Path<(String, String)>,
    http: HttpRequest,
    policy: KeptTables<PageError>,
) -> Result<HttpResponse, PageError> {
    let reached = Reached::by_link(&policy, &http, path).await?;
    decline(&policy, reached).await
}

/// `POST /table/{id}/mine/takeback`: the browser's own seat asks, or accepts.
#[post("/table/{id}/mine/takeback", wrap = "private()")]
pub async fn mine_takeback(
    id: Path<String>,
    http: HttpRequest,
    policy: KeptTables<PageError>,
) -> Result<HttpResponse, PageError> {
    let reached = Reached::mine(&policy, &http, id).await?;
    ask(&policy, reached).await
}

/// `POST /table/{id}/mine/takeback/decline`: the browser's own seat declines or withdraws.
#[post("/table/{id}/mine/takeback/decline", wrap = "private()")]
pub async fn mine_decline_takeback(
    id: Path<String>,
    http: HttpRequest,
    policy: KeptTables<PageError>,
) -> Result<HttpResponse, PageError> {
    let reached = Reached::mine(&policy, &http, id).await?;
    decline(&policy, reached).await
}

async fn ask(policy: &TablePolicy, reached: Reached) -> Result<HttpResponse, PageError> {
    let asked = policy
        .tables()
        .takeback(&reached.id, &reached.credential, tables::now())
        .await;
    settled(asked.map(|_| ()), &reached)
}

async fn decline(policy: &TablePolicy, reached: Reached) -> Result<HttpResponse, PageError> {
    let declined = policy
        .tables()
        .decline_takeback(&reached.id, &reached.credential, tables::now())
        .await;
    settled(declined.map(|_| ()), &reached)
}

/// Back to the seat's page, which says where the takeback stands, also where the request no
/// longer fits the table (the other seat moved or answered meanwhile, the table ended).
/// Anything else is the table's own refusal page.
fn settled(done: Result<(), TableError>, reached: &Reached) -> Result<HttpResponse, PageError> {
    match done {
        Ok(())
        | Err(
            TableError::NothingToTakeBack(_)
            | TableError::NoTakebackRequest
            | TableError::StalePly { .. }
            | TableError::Finished,
        ) => Ok(see_other(&format!("{}#turn", reached.here()))),
        Err(error) => Err(page_error(error)),
    }
}
