//! What anyone with a table's link may see: the spectators' page and the table's record.

use actix_web::http::{StatusCode, header};
use actix_web::web::Path;
use actix_web::{HttpRequest, HttpResponse, get};
use moot_present::view::Seating;

use super::page::{Page, earlier, read_table, table_page};
use super::refusals::page_error;
use crate::extract::KeptTables;
use crate::web::answers::html;
use crate::web::error::PageError;

/// `GET /table/{id}`: the spectators' page.
#[get("/table/{id}")]
pub async fn watch(
    id: Path<String>,
    http: HttpRequest,
    policy: KeptTables<PageError>,
) -> Result<HttpResponse, PageError> {
    let origin = crate::client::origin_of(&http, policy.limits().trust_forwarded);
    let page = Page {
        seating: Seating::Watching,
        door: None,
        notice: None,
        typed: String::new(),
        origin,
        at: earlier(&http)?,
    };
    let body = table_page(&policy, &id, page).await?;
    Ok(html(StatusCode::OK, body))
}

/// `GET /table/{id}/record`: the table's record as a text file.
// Named apart from the play pages' `record`: the access log keys route patterns by name.
#[get("/table/{id}/record", name = "table_record")]
pub async fn record(
    id: Path<String>,
    policy: KeptTables<PageError>,
) -> Result<HttpResponse, PageError> {
    let table = read_table(&policy, &id).await?;
    let history = policy.tables().history(&id).await.map_err(page_error)?;
    Ok(HttpResponse::Ok()
        .content_type("text/plain; charset=utf-8")
        .insert_header((
            header::CONTENT_DISPOSITION,
            format!("attachment; filename=\"{}-record.txt\"", table.game),
        ))
        .body(format!("{}\n", history.record)))
}
