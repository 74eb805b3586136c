//! A table as an HTTP answer: its `ETag`, which changes with each move, at the end and with
//! its webhook's health, and the revalidation that answers 304 while nothing changed.

use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse};

use super::bodies::{TableResponse, TableStatus};

/// The `ETag` of a table as it stands: its id, ply and status, and how its webhook fares.
pub(super) fn etag(table: &TableResponse) -> String {
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

/// An answer with a table and its `ETag`, never cached by a shared cache.
pub(super) fn table_answer(table: TableResponse) -> HttpResponse {
    HttpResponse::Ok()
        .insert_header((header::ETAG, etag(&table)))
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .json(table)
}

/// Whether `If-None-Match` names this `ETag` (or `*`).
pub(super) fn not_modified(http: &HttpRequest, etag: &str) -> bool {
    http.headers()
        .get_all(header::IF_NONE_MATCH)
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(|tag| tag.trim().trim_start_matches("W/"))
        .any(|tag| tag == etag || tag == "*")
}
