//! A table as an HTTP answer: its `ETag`, which changes with each change of the table, each
//! offer between its seats and its webhook's health, and the revalidation that answers 304 while nothing changed.

use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse};

use super::bodies::{CreatedTable, TableResponse, TableStatus, table_url};
use crate::tables::{Committed, Created, Position, Remembered};
use moot_games::Seat;

/// The `ETag` of a table as it stands: its id, ply, status and last change's time (a takeback
/// brings the ply back to an earlier one), the offers standing between its seats (a takeback, a
/// rematch), how its webhook fares, and its seats' vacations.
pub(super) fn etag(table: &TableResponse) -> String {
    let status = match table.status {
        TableStatus::Ongoing => "ongoing",
        TableStatus::Finished => "finished",
    };
    let changed: String = table.updated.chars().filter(char::is_ascii_digit).collect();
    let seat = |seat: Option<Seat>| match seat {
        None => "",
        Some(Seat::First) => "1",
        Some(Seat::Second) => "2",
    };
    let offers = format!(
        "-t{}r{}{}",
        seat(table.takeback_asked_by),
        seat(table.rematch_offered_by),
        if table.rematched_by.is_some() {
            "d"
        } else {
            ""
        }
    );
    let webhook = match &table.webhook {
        None => String::new(),
        Some(hook) => format!(
            "-w{}{}",
            hook.failed_events,
            if hook.last_error.is_some() { "e" } else { "" }
        ),
    };
    // A vacation moves the deadline without a change of the game: the tag changes with it.
    let vacation: String = table
        .seats
        .iter()
        .filter_map(|seat| seat.vacation_until.as_deref())
        .map(|until| format!("-v{}", until.replace(['-', ':'], "")))
        .collect();
    format!(
        "\"{}-{}-{status}-{changed}{offers}{webhook}{vacation}\"",
        table.id, table.ply
    )
}

/// An answer with a table and its `ETag`, never cached by a shared cache.
pub(super) fn table_answer(table: TableResponse) -> HttpResponse {
    HttpResponse::Ok()
        .insert_header((header::ETAG, etag(&table)))
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .json(table)
}

/// A seat's change as answered (and remembered, for its `Idempotency-Key`): the table after
/// it, as [`table_answer`] answers it.
pub(super) fn change_answer(committed: &Committed) -> Remembered {
    let mut table = TableResponse::from(committed.table.clone());
    let (body, position) = with_position(&mut table);
    Remembered {
        status: 200,
        headers: vec![
            (header::ETAG.to_string(), etag(&table)),
            (header::CACHE_CONTROL.to_string(), "no-cache".to_owned()),
        ],
        body,
        position: Some(position),
    }
}

/// `table` as JSON, and where its position is in it (so that a remembered answer can keep the
/// position by reference): written with a mark in the position's place, then the mark replaced.
fn with_position(table: &mut TableResponse) -> (String, Position) {
    const MARK: &str = "\u{0}moot position\u{0}";
    let state = std::mem::replace(&mut table.state, serde_json::Value::from(MARK));
    let marked = serde_json::to_string(&*table).expect("a table is JSON");
    let mark = serde_json::to_string(MARK).expect("a string is JSON");
    let state_text = state.to_string();
    table.state = state;
    let at = marked
        .find(&mark)
        .expect("the mark is written once, where the position goes");
    let body = [&marked[..at], &state_text, &marked[at + mark.len()..]].concat();
    let position = Position {
        at,
        len: state_text.len(),
        ply: table.ply,
    };
    (body, position)
}

/// A new table as answered (and remembered, for its `Idempotency-Key`): 201, its URL, the
/// table and each seat's credential, never stored by a cache.
pub(super) fn creation_answer(created: &Created) -> Remembered {
    let id = created.table.id.clone();
    let answer = CreatedTable::new(
        TableResponse::from(created.table.clone()),
        created.credentials.clone(),
    );
    Remembered {
        status: 201,
        headers: vec![
            (header::LOCATION.to_string(), table_url(&id)),
            (header::CACHE_CONTROL.to_string(), "no-store".to_owned()),
        ],
        body: serde_json::to_string(&answer).expect("a new table is JSON"),
        position: None,
    }
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
