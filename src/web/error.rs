//! Errors of the play pages: a friendly HTML page with a 4xx status that says what was wrong
//! and where, with a way back; never a bare error or a 500 for bad input.

use std::fmt;
use std::panic::{AssertUnwindSafe, catch_unwind};

use actix_web::http::{StatusCode, header};
use actix_web::{HttpResponse, ResponseError};
use moot_templates::error::{ErrorView, page};

use crate::limits::{DETAIL_CHARS, excerpt, readable};
use moot_games::InvalidOptions;
use moot_present::link::LinkError;

/// An error of the play pages, answered as a page of its own.
#[derive(Clone, Debug, PartialEq)]
pub struct PageError {
    /// The answer's status: 4xx for what the link got wrong, 5xx for what Moot could not do.
    pub status: StatusCode,
    /// The page's heading, the same for every error of its kind (`No such game`).
    pub title: String,
    /// What was wrong with this request, and where.
    pub detail: String,
    /// Links out: (words, href).
    pub links: Vec<(String, String)>,
    /// Seconds to wait before reloading (a busy computer player): sent as `Retry-After`.
    pub retry_after: Option<u64>,
}

impl PageError {
    /// An error page; a `detail` that quotes the link at length is cut to an excerpt.
    pub fn new(status: StatusCode, title: impl Into<String>, detail: impl Into<String>) -> Self {
        PageError {
            status,
            title: title.into(),
            // It may echo a client: control and hidden characters escaped.
            detail: excerpt(&readable(&detail.into()), DETAIL_CHARS),
            links: Vec::new(),
            retry_after: None,
        }
    }

    /// Asks the browser to wait `seconds` before reloading (`Retry-After`).
    pub fn retry_after(mut self, seconds: u64) -> Self {
        self.retry_after = Some(seconds.max(1));
        self
    }

    /// A URL whose position cannot be read or replayed (400).
    pub fn bad_position(detail: impl Into<String>) -> Self {
        Self::new(
            StatusCode::BAD_REQUEST,
            "This link does not hold a game",
            detail,
        )
    }

    /// A move in the URL that the rules refuse (422).
    pub fn refused(detail: impl Into<String>) -> Self {
        Self::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "This game cannot be replayed",
            detail,
        )
    }

    /// No game has the id `id` (404).
    pub fn unknown_game(id: &str) -> Self {
        Self::new(
            StatusCode::NOT_FOUND,
            "No such game",
            format!("There is no game called {id:?} here."),
        )
    }

    /// Adds a link out of the error page: its `words` and where it goes.
    pub fn with_link(mut self, words: impl Into<String>, href: impl Into<String>) -> Self {
        self.links.push((words.into(), href.into()));
        self
    }
}

/// A link's options the engine refuses: the link does not hold a game.
impl From<InvalidOptions> for PageError {
    fn from(e: InvalidOptions) -> Self {
        LinkError::from(e).into()
    }
}

/// A link that holds no game to show, as a page: 400 unreadable, 422 a refused move (with a
/// link to the position before it), 414 too long, 500 a bug.
impl From<LinkError> for PageError {
    fn from(error: LinkError) -> Self {
        let detail = error.to_string();
        match error {
            LinkError::Unreadable(_) => PageError::bad_position(detail),
            LinkError::RefusedMove { before, .. } => {
                PageError::refused(detail).with_link("The position before it", before)
            }
            LinkError::TooLong { .. } => {
                PageError::new(StatusCode::URI_TOO_LONG, "This link is too long", detail)
                    .with_link("Choose a game", crate::paths::HOME)
            }
            LinkError::Internal(_) => PageError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                "Something went wrong in Moot",
                detail,
            ),
        }
    }
}

impl PageError {
    /// The friendly 414 page for a link of `bytes` as sent.
    pub fn link_too_long(bytes: usize) -> Self {
        LinkError::TooLong { written: bytes }.into()
    }
}

impl fmt::Display for PageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.title, self.detail)
    }
}

impl ResponseError for PageError {
    fn status_code(&self) -> StatusCode {
        self.status
    }

    fn error_response(&self) -> HttpResponse {
        let view = ErrorView {
            status: self.status.as_u16(),
            title: self.title.clone(),
            detail: self.detail.clone(),
            links: self.links.clone(),
        };
        let mut response = HttpResponse::build(self.status);
        if let Some(seconds) = self.retry_after {
            response.insert_header((header::RETRY_AFTER, seconds));
        }
        response
            .content_type("text/html; charset=utf-8")
            .body(page(&view).into_string())
    }
}

/// Runs engine code so that a panic (a bug) becomes a 500 page, never a dropped connection.
pub fn page_on_panic<T>(work: impl FnOnce() -> Result<T, PageError>) -> Result<T, PageError> {
    catch_unwind(AssertUnwindSafe(work)).unwrap_or_else(|_| {
        tracing::error!("engine panicked while rendering a page");
        Err(PageError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "Something went wrong in Moot",
            "The engine failed on this position: this is a bug in Moot, not in your link.",
        ))
    })
}

impl crate::extract::TablesOff for PageError {
    fn tables_off() -> Self {
        PageError::new(
            StatusCode::NOT_FOUND,
            "No tables here",
            "This server was started without tables: play at one screen or against the computer.",
        )
    }
}
