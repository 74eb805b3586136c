//! A table's refusals on the pages: the ones that leave no table to show answer with a page of
//! their own ([`page_error`], [`busy`]); a seat's action refused is said over the seat's board
//! ([`notice`]), with the status chosen here and the words `moot-present`'s.

use std::time::Duration;

use actix_web::http::StatusCode;
use moot_present::table::words::{self, SeatRefusal};
use moot_templates::play::Notice;

use crate::limits::tables::STORAGE_RETRY_AFTER;
use crate::tables::TableError;
use crate::web::error::PageError;

/// A client over its share (of tables opened, of wrong seat links): it `what`, and may try
/// again after `wait`.
pub fn busy(what: &str, wait: Duration) -> PageError {
    let seconds = wait.as_secs_f64().ceil() as u64;
    let mut error = PageError::new(
        StatusCode::TOO_MANY_REQUESTS,
        "Too many at once",
        format!("This address {what}; try again in {seconds} s."),
    );
    error.retry_after = Some(seconds);
    error
}

/// A table's refusal that is no notice over the board: a page of its own.
pub fn page_error(error: TableError) -> PageError {
    match error {
        TableError::UnknownTable => PageError::new(
            StatusCode::NOT_FOUND,
            "No such table",
            "No table has this link: it may be mistyped, or the table finished long ago and was cleared.",
        ),
        TableError::Full(_) => {
            let mut error = PageError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "No room for another table",
                "This server keeps as many open tables as it may; try again later.",
            );
            error.retry_after = Some(60);
            error
        }
        error if error.is_storage() => {
            tracing::debug!(%error, "a table's page met the database's failure");
            let mut page = PageError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "The tables are unavailable",
                "Moot cannot reach the place where it keeps tables just now, so nothing was \
                 changed. Try again in a few seconds.",
            );
            page.retry_after = Some(STORAGE_RETRY_AFTER);
            page
        }
        error => {
            tracing::error!(%error, "a table's page failed");
            PageError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                "Something went wrong in Moot",
                format!("The table could not be read: {error}"),
            )
        }
    }
}

/// A refusal of a seat's action, said over the board, with its status; `None` for one that
/// needs its own page.
pub fn notice(error: &TableError) -> Option<(StatusCode, Notice)> {
    let refusal = match error {
        TableError::StalePly { .. } | TableError::ChangedMeanwhile => SeatRefusal::StalePly,
        TableError::NotYourTurn => SeatRefusal::NotYourTurn,
        TableError::Finished => SeatRefusal::Finished,
        TableError::NotWaiting => SeatRefusal::NotWaiting,
        TableError::TooEarly(why) => SeatRefusal::TooEarly(why.clone()),
        TableError::Unstarted => SeatRefusal::NothingToClaim,
        TableError::BothMoved => SeatRefusal::BothMoved,
        TableError::TimeExpired => SeatRefusal::TimeExpired,
        TableError::Vacation(why) => SeatRefusal::Vacation(why.clone()),
        TableError::Move { text, error } => SeatRefusal::Move {
            text: text.clone(),
            why: error.to_string(),
        },
        _ => return None,
    };
    Some(said(&refusal))
}

/// `refusal` over the board, with the status its page is answered with.
pub fn said(refusal: &SeatRefusal) -> (StatusCode, Notice) {
    let status = match refusal {
        SeatRefusal::StalePly
        | SeatRefusal::TooEarly(_)
        | SeatRefusal::NothingToClaim
        | SeatRefusal::BothMoved
        | SeatRefusal::Vacation(_) => StatusCode::CONFLICT,
        SeatRefusal::NotYourTurn | SeatRefusal::NotWaiting => StatusCode::FORBIDDEN,
        SeatRefusal::Finished | SeatRefusal::TimeExpired => StatusCode::GONE,
        SeatRefusal::Move { .. } => StatusCode::UNPROCESSABLE_ENTITY,
        SeatRefusal::NoPly => StatusCode::BAD_REQUEST,
    };
    (status, words::notice(refusal))
}
