//! Page work that grows with the link (replaying up to [`crate::limits::MAX_MOVES`] moves,
//! rendering a long game) runs on the blocking pool, never on an async worker.

use actix_web::http::StatusCode;

use super::error::{PageError, guarded};

/// Runs `work` under [`guarded`] on actix's blocking pool.
pub async fn off_worker<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, PageError> + Send + 'static,
) -> Result<T, PageError> {
    crate::blocking::off_workers(move || guarded(work))
        .await
        .map_err(|e| {
            PageError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                "Something went wrong in Moot",
                format!("The page could not be built: {e}"),
            )
        })?
}
