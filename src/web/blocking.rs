//! Page work that grows with the link (replaying up to [`crate::limits::MAX_MOVES`] moves,
//! rendering a long game) runs on the blocking pool, never on an async worker.

use actix_web::http::StatusCode;

use super::error::{PageError, page_on_panic};

/// Runs `work` under [`page_on_panic`] on actix's blocking pool.
pub async fn page_off_workers<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, PageError> + Send + 'static,
) -> Result<T, PageError> {
    crate::blocking::off_workers(move || page_on_panic(work))
        .await
        .map_err(|e| {
            PageError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                "Something went wrong in Moot",
                format!("The page could not be built: {e}"),
            )
        })?
}
